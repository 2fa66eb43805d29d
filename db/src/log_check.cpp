#include "elgrande/db/log_check.hpp"

#include "elgrande/db/store.hpp"

namespace elgrande::db {

LogChainCheck::LogChainCheck(std::optional<std::int64_t> recorded_length, std::int64_t recorded_head)
    : recorded_length_(recorded_length), recorded_head_(recorded_head) {}

void LogChainCheck::row(std::int64_t seq, int seat, std::string_view command, std::string_view source,
                        std::int64_t time, std::optional<std::int64_t> chain) {
  if (seq != last_seq_ + 1 && !first_gap_) first_gap_ = last_seq_ + 1;
  last_seq_ = seq;
  chain_ = log_chain(chain_, seq, seat, command, source, time);
  if (chain != chain_ && !first_bad_row_) first_bad_row_ = seq;
}

std::optional<std::string> LogChainCheck::damage() const {
  if (!recorded_length_) return std::nullopt;
  if (first_gap_ && (!first_bad_row_ || *first_gap_ <= *first_bad_row_)) {
    return "command " + std::to_string(*first_gap_) + " is missing";
  }
  if (first_bad_row_) {
    return "command " + std::to_string(*first_bad_row_) + " does not match the log's hash chain";
  }
  if (last_seq_ != *recorded_length_) {
    return "the log ends at command " + std::to_string(last_seq_) + " but the table recorded " +
           std::to_string(*recorded_length_) + " commands";
  }
  if (chain_ != recorded_head_) return "the log's last command does not match the head its table recorded";
  return std::nullopt;
}

std::vector<DamagedLog> damaged_logs(Database& database) {
  Statement tables = database.prepare(
      "SELECT h.table_id, h.length, h.head, t.status FROM log_heads h JOIN tables t ON t.id = h.table_id "
      "WHERE h.length IS NOT NULL ORDER BY h.table_id");
  // A table's whole log: its rows in `commands`, then those of the command ring not copied
  // there yet (as the view command_log, with the table chosen inside each half).
  Statement log = database.prepare(
      "SELECT seq, seat, command, source, time, chain FROM commands WHERE table_id = ?1 "
      "UNION ALL SELECT seq, seat, command, source, time, chain FROM command_ring WHERE table_id = ?1 "
      "AND seq > coalesce((SELECT max(seq) FROM commands WHERE table_id = ?1), 0) ORDER BY 1");
  std::vector<DamagedLog> damaged;
  while (tables.step()) {
    const std::int64_t table = tables.integer(0);
    LogChainCheck check(tables.integer(1), tables.optional_integer(2).value_or(0));
    log.bind(1, table);
    while (log.step()) {
      check.row(log.integer(0), static_cast<int>(log.integer(1)), log.text(2), log.text(3), log.integer(4),
                log.optional_integer(5));
    }
    log.reset();
    if (auto damage = check.damage()) damaged.push_back(DamagedLog{table, tables.text(3), std::move(*damage)});
  }
  return damaged;
}

}  // namespace elgrande::db
