#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// A tournament's course, and an entrant's part in it. name() is the one spelling of each,
// the text stored (the schema's CHECK lists the same) and the text clients are sent.
enum class TournamentStatus : std::uint8_t { registering, running, paused, finished, cancelled };
enum class EntrantStatus : std::uint8_t {
  registered,
  playing,       // in the event, from its start
  withdrawn,     // plays no more, keeps the results
  disqualified,
  removed,       // unregistered, removed by the director, or missed check-in, before the start
};
std::string_view name(TournamentStatus status);
std::string_view name(EntrantStatus status);
std::optional<TournamentStatus> tournament_status_from(std::string_view name);
std::optional<EntrantStatus> entrant_status_from(std::string_view name);

// One tournament (schema 7). Its settings are the server's JSON; the database only keeps them.
struct TournamentRecord {
  std::int64_t id = 0;  // 0: the database gives one
  std::string name;
  std::int64_t director = 0;
  std::string settings;
  std::uint64_t seed = 0;
  TournamentStatus status = TournamentStatus::registering;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> finished_at;
  friend bool operator==(const TournamentRecord&, const TournamentRecord&) = default;
};

struct EntrantRecord {
  std::int64_t player = 0;
  std::int64_t registered_at = 0;
  std::optional<std::int64_t> checked_in_at;
  EntrantStatus status = EntrantStatus::registered;
  std::string reason;
  // The rating the event seeded the player by, fixed when it began (schema 9); none when it
  // seeds by lot, or before it began.
  std::optional<std::int64_t> seeding = std::nullopt;
  friend bool operator==(const EntrantRecord&, const EntrantRecord&) = default;
};

// A board of a round: who sits where, and the table that plays it once it is saved.
struct BoardRecord {
  int board = 0;  // from 1
  std::vector<std::int64_t> seats;  // players in seat order; seat 0 begins
  std::optional<std::int64_t> table;
  friend bool operator==(const BoardRecord&, const BoardRecord&) = default;
};

struct RoundRecord {
  int round = 0;  // from 1
  int stage = 0;
  std::int64_t started_at = 0;
  std::optional<std::int64_t> finished_at;
  std::vector<BoardRecord> boards;
  std::vector<std::int64_t> byes;
  friend bool operator==(const RoundRecord&, const RoundRecord&) = default;
};

// A board's result as standings read it: the game's, or a director's override.
struct BoardResult {
  int round = 0;
  int board = 0;
  std::vector<std::int64_t> seats;
  std::vector<int> scores;
  std::vector<bool> forfeited;  // resigned, or replaced by a bot after timeouts
  friend bool operator==(const BoardResult&, const BoardResult&) = default;
};

struct ResultOverride {
  int round = 0;
  int board = 0;
  std::vector<int> scores;
  std::vector<bool> forfeited;
  std::string reason;
  std::int64_t director = 0;
  std::int64_t time = 0;
  friend bool operator==(const ResultOverride&, const ResultOverride&) = default;
};

// Everything about one tournament, as a restart needs it.
struct StoredTournament {
  TournamentRecord tournament;
  std::vector<EntrantRecord> entrants;  // in order of registration
  std::vector<RoundRecord> rounds;      // in order
  std::vector<BoardResult> results;     // finished boards, overrides applied
  std::vector<ResultOverride> overrides;
};

// Tournaments in SQLite; part of Store, on the same connection and thread. Writes are meant
// to be grouped in the caller's Transaction: a round with its boards and byes is one.
class TournamentStore {
 public:
  explicit TournamentStore(Database& database);

  std::int64_t insert(const TournamentRecord& tournament);  // its id
  void update(const TournamentRecord& tournament);           // name, settings, status, times
  void save_entrant(std::int64_t tournament, const EntrantRecord& entrant);  // inserted or replaced
  void start_round(std::int64_t tournament, const RoundRecord& round);
  void set_board_table(std::int64_t tournament, int round, int board, std::int64_t table);
  void finish_round(std::int64_t tournament, int round, std::int64_t time);
  void override_result(std::int64_t tournament, const ResultOverride& correction);  // replaces

  std::vector<StoredTournament> all();
  std::optional<StoredTournament> find(std::int64_t id);
  std::int64_t max_id();

 private:
  StoredTournament load(const TournamentRecord& tournament);
  Database& database_;
};

}  // namespace elgrande::db
