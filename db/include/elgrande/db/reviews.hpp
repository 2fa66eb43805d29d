#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// The strong bot's second opinion on one decision of a finished game (schema 16,
// docs/replays.md#second-opinion), as the server answered it.
struct ReviewRecord {
  std::int64_t table = 0;
  std::int64_t version = 0;  // the decision's: the move reviewed is the log's entry there
  std::string level;
  std::string result;  // JSON
  std::optional<std::int64_t> asked_by;
  std::int64_t asked_at = 0;
};

// Reviews, kept with their game once asked; part of Store, on its connection and thread.
class ReviewStore {
 public:
  explicit ReviewStore(Database& database);

  std::optional<ReviewRecord> find(std::int64_t table, std::int64_t version, const std::string& level);
  // Keeps the first answer for a decision: a second one, computed meanwhile, changes nothing.
  void save(const ReviewRecord& review);
  // How many reviews `player` asked for at `since` or later: the daily limit's count.
  int asked_since(std::int64_t player, std::int64_t since);
  // A game's reviews, by version: they go with its record.
  std::vector<ReviewRecord> of_table(std::int64_t table);

 private:
  Database& database_;
};

}  // namespace elgrande::db
