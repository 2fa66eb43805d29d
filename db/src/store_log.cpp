// The command log: each table's commands, appended through the ring and copied into
// `commands` in batches, chained by a hash, read back and checked.

#include <algorithm>
#include <bit>
#include <iterator>
#include <stdexcept>
#include <string>

#include "fnv1a.hpp"
#include "store_log.hpp"

namespace elgrande::db {

namespace detail {

std::string log_of_table() {
  return "(SELECT seq, seat, command, source, time, chain FROM commands WHERE table_id = ?1 "
         "UNION ALL SELECT seq, seat, command, source, time, chain FROM command_ring WHERE table_id = ?1 "
         "AND seq > coalesce((SELECT max(seq) FROM commands WHERE table_id = ?1), 0)) AS log";
}

Source source_from(std::string_view name) {
  if (name == "bot") return Source::bot;
  if (name == "timeout") return Source::timeout;
  return Source::player;
}

}  // namespace detail

using detail::fnv1a;
using detail::kFnvOffset;
using detail::log_of_table;
using detail::source_from;

std::string_view name(Source source) {
  switch (source) {
    case Source::bot:
      return "bot";
    case Source::timeout:
      return "timeout";
    case Source::player:
      break;
  }
  return "player";
}

std::int64_t log_chain(std::int64_t previous, std::int64_t seq, int seat, std::string_view command,
                       std::string_view source, UnixMillis time) {
  std::uint64_t hash = fnv1a(kFnvOffset, previous);
  hash = fnv1a(hash, seq);
  hash = fnv1a(hash, static_cast<std::int64_t>(seat));
  hash = fnv1a(hash, command);
  hash = fnv1a(hash, source);
  return static_cast<std::int64_t>(fnv1a(hash, time));
}

void Store::append_commands(std::int64_t table, std::span<const LoggedCommand> commands) {
  if (commands.empty()) return;
  Ring& ring = this->ring();
  auto known = ring.heads.find(table);
  if (known == ring.heads.end()) known = ring.heads.emplace(table, log_head(table)).first;
  LogHead& log = known->second;
  if (!log.length) {
    // A log from before the chain (schema 4): chained now, from its first command.
    log.length = 0;
    Statement rows = database_.prepare(
        "SELECT seq, seat, command, source, time FROM commands WHERE table_id = ?1 ORDER BY seq");
    Statement set_chain = database_.prepare("UPDATE commands SET chain = ?3 WHERE table_id = ?1 AND seq = ?2");
    rows.bind(1, table);
    while (rows.step()) {
      log.head = log_chain(log.head, rows.integer(0), static_cast<int>(rows.integer(1)), rows.text(2), rows.text(3),
                           rows.integer(4));
      set_chain.bind(1, table).bind(2, rows.integer(0)).bind(3, log.head).run();
      log.length = rows.integer(0);
    }
  }
  const std::int64_t epoch = !ring_in_use_ && epoch_of_ ? epoch_of_(table) : 0;
  for (const LoggedCommand& logged : commands) {
    RingRow row{0, logged.seq, logged.seat, logged.move, name(logged.source), logged.time, 0};
    row.chain = log.head = log_chain(log.head, row.seq, row.seat, row.command, row.source, row.time);
    log.length = logged.seq;
    if (!ring_in_use_) {
      held_rows_.push_back({0, table, std::move(row), epoch});
      continue;
    }
    const std::int64_t n = ring.next++;
    row.slot = n % kRingSlots;
    // The row in this slot is about to be overwritten: its table's rows go to its log
    // first, all together, a page or two for many commands.
    if (const std::int64_t owner = ring.uncopied_owner[static_cast<std::size_t>(row.slot)]; owner != 0) {
      copy_to_log(ring, owner);
    }
    held_rows_.push_back({n, table, row});
    ring.uncopied_owner[static_cast<std::size_t>(row.slot)] = table;
    ring.uncopied[table].push_back(std::move(row));
  }
  held_heads_[table] = log;
  if (!hold_log_writes_ || held_rows_.size() >= kMostHeld) flush_log();
}

void Store::flush_log() {
  // In statements of a power of two rows each, so that few are prepared.
  const auto largest = [](std::size_t left) {
    std::size_t rows = kHeldRows;
    while (rows > left) rows /= 2;
    return rows;
  };
  for (std::size_t first = 0; first < held_rows_.size();) {
    const std::size_t count = largest(held_rows_.size() - first);
    Statement& put = ring_in_use_ ? put_rows(count) : put_commands(count);
    const int columns = ring_in_use_ ? 9 : 8;
    for (std::size_t i = 0; i < count; ++i) {
      const HeldRow& held = held_rows_[first + i];
      int p = 1 + columns * static_cast<int>(i);
      if (ring_in_use_) {
        put.bind(p, held.row.slot).bind(p + 1, held.n);
        p += 2;
      }
      put.bind(p, held.table)
          .bind(p + 1, held.row.seq)
          .bind(p + 2, held.row.seat)
          .bind(p + 3, held.row.command)
          .bind(p + 4, held.row.source)
          .bind(p + 5, held.row.time)
          .bind(p + 6, held.row.chain);
      if (!ring_in_use_) put.bind(p + 7, held.epoch);
    }
    put.send();
    first += count;
  }
  held_rows_.clear();
  for (auto head = held_heads_.begin(); head != held_heads_.end();) {
    const std::size_t count = largest(static_cast<std::size_t>(std::distance(head, held_heads_.end())));
    Statement& put = put_heads(count);
    for (std::size_t i = 0; i < count; ++i, ++head) {
      const int p = 1 + 3 * static_cast<int>(i);
      put.bind(p, head->first).bind(p + 1, *head->second.length).bind(p + 2, head->second.head);
    }
    put.send();
  }
  held_heads_.clear();
}

// The statements of flush_log: `rows` rows each, in place of those there (a ring slot
// overwritten, a log head moved on).
namespace {

std::string values(std::size_t rows, int columns) {
  std::string sql;
  int p = 1;
  for (std::size_t i = 0; i < rows; ++i) {
    sql += i ? ", (" : "(";
    for (int c = 0; c < columns; ++c) sql += (c ? ", ?" : "?") + std::to_string(p++);
    sql += ')';
  }
  return sql;
}

std::size_t power_of(std::size_t rows) { return static_cast<std::size_t>(std::countr_zero(rows)); }

}  // namespace

Statement& Store::put_rows(std::size_t rows) {
  std::optional<Statement>& statement = put_rows_[power_of(rows)];
  if (!statement) {
    statement.emplace(database_.prepare(
        "INSERT INTO command_ring (slot, n, table_id, seq, seat, command, source, time, chain) VALUES " +
        values(rows, 9) +
        " ON CONFLICT (slot) DO UPDATE SET n = excluded.n, table_id = excluded.table_id, seq = excluded.seq, "
        "seat = excluded.seat, command = excluded.command, source = excluded.source, time = excluded.time, "
        "chain = excluded.chain"));
  }
  return *statement;
}

Statement& Store::put_commands(std::size_t rows) {
  std::optional<Statement>& statement = put_commands_[power_of(rows)];
  if (!statement) {
    statement.emplace(database_.prepare(
        "INSERT INTO commands (table_id, seq, seat, command, source, time, chain, epoch) VALUES " + values(rows, 8)));
  }
  return *statement;
}

Statement& Store::put_heads(std::size_t rows) {
  std::optional<Statement>& statement = put_heads_[power_of(rows)];
  if (!statement) {
    statement.emplace(database_.prepare(
        "INSERT INTO log_heads (table_id, length, head) VALUES " + values(rows, 3) +
        " ON CONFLICT (table_id) DO UPDATE SET length = excluded.length, head = excluded.head"));
  }
  return *statement;
}

Store::Ring& Store::ring() {
  if (ring_) return *ring_;
  Ring ring;
  ring.uncopied_owner.assign(static_cast<std::size_t>(kRingSlots), 0);
  Statement last = database_.prepare("SELECT coalesce(max(n) + 1, 0) FROM command_ring");
  last.step();
  ring.next = last.integer(0);
  Statement rows = database_.prepare(
      "SELECT r.slot, r.table_id, r.seq, r.seat, r.command, r.source, r.time, r.chain FROM command_ring r "
      "WHERE r.seq > coalesce((SELECT max(c.seq) FROM commands c WHERE c.table_id = r.table_id), 0) ORDER BY r.n");
  while (rows.step()) {
    const std::int64_t table = rows.integer(1);
    RingRow row{rows.integer(0),   rows.integer(2), static_cast<int>(rows.integer(3)), rows.text(4),
                name(source_from(rows.text(5))), rows.integer(6), rows.integer(7)};
    ring.uncopied_owner[static_cast<std::size_t>(row.slot)] = table;
    ring.uncopied[table].push_back(std::move(row));
  }
  return ring_.emplace(std::move(ring));
}

Statement& Store::insert_commands(std::size_t rows) {
  std::optional<Statement>& statement = insert_commands_[rows - 1];
  if (!statement) {
    std::string sql = "INSERT INTO commands (table_id, seq, seat, command, source, time, chain) VALUES ";
    for (std::size_t i = 0; i < rows; ++i) {
      const std::size_t p = 2 + 6 * i;
      sql += (i ? ", (?1" : "(?1");
      for (std::size_t k = p; k < p + 6; ++k) sql += ", ?" + std::to_string(k);
      sql += ')';
    }
    statement.emplace(database_.prepare(sql));
  }
  return *statement;
}

void Store::copy_to_log(Ring& ring, std::int64_t table) {
  const auto found = ring.uncopied.find(table);
  if (found == ring.uncopied.end()) return;
  const std::vector<RingRow>& rows = found->second;
  for (std::size_t first = 0; first < rows.size(); first += kCopyRows) {
    const std::size_t count = std::min(kCopyRows, rows.size() - first);
    Statement& insert = insert_commands(count);
    insert.bind(1, table);
    for (std::size_t i = 0; i < count; ++i) {
      const RingRow& row = rows[first + i];
      const int p = 2 + 6 * static_cast<int>(i);
      insert.bind(p, row.seq)
          .bind(p + 1, row.seat)
          .bind(p + 2, row.command)
          .bind(p + 3, row.source)
          .bind(p + 4, row.time)
          .bind(p + 5, row.chain);
    }
    insert.send();
  }
  ring.release(table);
}

void Store::Ring::release(std::int64_t table) {
  const auto found = uncopied.find(table);
  if (found == uncopied.end()) return;
  for (const RingRow& row : found->second) uncopied_owner[static_cast<std::size_t>(row.slot)] = 0;
  uncopied.erase(found);
}

void Store::settle_log() {
  flush_log();
  ring_.reset();  // read from the database: another process may have appended last
  Ring& ring = this->ring();
  while (!ring.uncopied.empty()) copy_to_log(ring, ring.uncopied.begin()->first);
  database_.execute("DELETE FROM command_ring");
  ring.next = 0;
}
Store::LogHead Store::log_head(std::int64_t table) {
  LogHead head;
  log_head_.bind(1, table);
  if (log_head_.step()) {
    head.length = log_head_.optional_integer(0);
    head.head = log_head_.optional_integer(1).value_or(0);
  }
  log_head_.reset();
  return head;
}

Store::LogCheck Store::check_log(std::int64_t table) {
  flush_log();
  LogCheck check;
  Statement row = database_.prepare("SELECT status FROM tables WHERE id = ?1");
  row.bind(1, table);
  if (!row.step()) return check;
  check.table_found = true;
  check.status = row.text(0);
  const LogHead head = log_head(table);
  check.recorded_length = head.length;
  Statement rows = database_.prepare(
      "SELECT seq, seat, command, source, time, chain FROM " + log_of_table() + " ORDER BY seq");
  rows.bind(1, table);
  std::int64_t chain = 0;
  for (std::int64_t expected = 1; rows.step(); ++expected) {
    ++check.rows;
    const std::int64_t seq = rows.integer(0);
    if (seq != expected && !check.first_gap) check.first_gap = expected;
    chain = log_chain(chain, seq, static_cast<int>(rows.integer(1)), rows.text(2), rows.text(3), rows.integer(4));
    if (head.length && rows.optional_integer(5) != chain && !check.first_bad_row) check.first_bad_row = seq;
  }
  check.head_matches = head.length && *head.length == check.rows && head.head == chain && !check.first_bad_row;
  Statement snapshot = database_.prepare("SELECT seq FROM snapshots WHERE table_id = ?1");
  snapshot.bind(1, table);
  if (snapshot.step()) check.snapshot_seq = snapshot.integer(0);
  return check;
}

std::vector<LoggedCommand> Store::commands(std::int64_t table) {
  flush_log();
  Statement rows =
      database_.prepare("SELECT seq, seat, command, source, time FROM " + log_of_table() + " ORDER BY seq");
  rows.bind(1, table);
  std::vector<LoggedCommand> commands;
  while (rows.step()) {
    const std::int64_t seq = rows.integer(0);
    commands.push_back(LoggedCommand{seq, static_cast<int>(rows.integer(1)), rows.text(2), source_from(rows.text(3)),
                                     rows.integer(4)});
  }
  return commands;
}
}  // namespace elgrande::db
