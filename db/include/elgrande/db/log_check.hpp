#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// One table's log followed row by row, from its first command, against its hash chain and
// the length and head its table recorded (docs/persistence.md#restart). Pure: fed by
// damaged_logs() below, and by tests.
class LogChainCheck {
 public:
  // `recorded_length` none: a log from before hash chains, which cannot be judged.
  LogChainCheck(std::optional<std::int64_t> recorded_length, std::int64_t recorded_head);

  // The log's rows in seq order; `chain` as stored with the row.
  void row(std::int64_t seq, int seat, std::string_view command, std::string_view source, std::int64_t time,
           std::optional<std::int64_t> chain);

  // Nothing for a sound log (or one that cannot be judged); otherwise where it is damaged,
  // in words: the first missing command, the first row that breaks the chain, or an end
  // other than the one recorded.
  std::optional<std::string> damage() const;

 private:
  std::optional<std::int64_t> recorded_length_;
  std::int64_t recorded_head_ = 0;
  std::int64_t last_seq_ = 0;
  std::int64_t chain_ = 0;
  std::optional<std::int64_t> first_gap_;
  std::optional<std::int64_t> first_bad_row_;
};

struct DamagedLog {
  std::int64_t table = 0;
  std::string status;  // the table's: "open", "playing" or "finished"
  std::string damage;  // LogChainCheck::damage()
};

// Every chained log in the database, each row of it, checked against its chain: the
// server's scrub at start, which finds a damaged row wherever it is (before a game's
// snapshot, or in a finished game's log, which a restore never reads). Tables in id order.
std::vector<DamagedLog> damaged_logs(Database& database);

}  // namespace elgrande::db
