#include "elgrande/db/tournaments.hpp"

#include <map>
#include <nlohmann/json.hpp>

namespace elgrande::db {

namespace {

using Json = nlohmann::json;

const char* const kTournamentColumns =
    "id, name, director, settings, seed, status, created_at, started_at, finished_at";

// The schema's CHECK admits only the known texts: another is a damaged file.
template <class Status>
Status status_from(std::optional<Status> (*from)(std::string_view), const std::string& text) {
  if (const auto status = from(text)) return *status;
  throw Error(Error::Kind::corrupt, 0, "unknown tournament or entrant status '" + text + "'");
}

TournamentRecord read_tournament(Statement& row) {
  return {row.integer(0), row.text(1), row.integer(2), row.text(3), static_cast<std::uint64_t>(row.integer(4)),
          status_from(tournament_status_from, row.text(5)), row.integer(6), row.optional_integer(7),
          row.optional_integer(8)};
}

template <typename T>
std::string to_text(const std::vector<T>& values) {
  return Json(values).dump();
}

template <typename T>
std::vector<T> from_text(const std::string& text) {
  return Json::parse(text).get<std::vector<T>>();
}

std::string result_text(const std::vector<int>& scores, const std::vector<bool>& forfeited) {
  return Json{{"scores", scores}, {"forfeited", forfeited}}.dump();
}

}  // namespace

std::string_view name(TournamentStatus status) {
  switch (status) {
    case TournamentStatus::registering:
      return "registering";
    case TournamentStatus::running:
      return "running";
    case TournamentStatus::paused:
      return "paused";
    case TournamentStatus::finished:
      return "finished";
    case TournamentStatus::cancelled:
      return "cancelled";
  }
  return "registering";
}

std::string_view name(EntrantStatus status) {
  switch (status) {
    case EntrantStatus::registered:
      return "registered";
    case EntrantStatus::playing:
      return "playing";
    case EntrantStatus::withdrawn:
      return "withdrawn";
    case EntrantStatus::disqualified:
      return "disqualified";
    case EntrantStatus::removed:
      return "removed";
  }
  return "registered";
}

std::optional<TournamentStatus> tournament_status_from(std::string_view name) {
  for (const TournamentStatus status : {TournamentStatus::registering, TournamentStatus::running,
                                        TournamentStatus::paused, TournamentStatus::finished,
                                        TournamentStatus::cancelled}) {
    if (db::name(status) == name) return status;
  }
  return std::nullopt;
}

std::optional<EntrantStatus> entrant_status_from(std::string_view name) {
  for (const EntrantStatus status : {EntrantStatus::registered, EntrantStatus::playing, EntrantStatus::withdrawn,
                                     EntrantStatus::disqualified, EntrantStatus::removed}) {
    if (db::name(status) == name) return status;
  }
  return std::nullopt;
}

TournamentStore::TournamentStore(Database& database) : database_(database) {}

std::int64_t TournamentStore::insert(const TournamentRecord& t) {
  // Without an id, the database gives the next.
  Statement insert = database_.prepare(
      std::string("INSERT INTO tournaments (name, director, settings, seed, status, created_at, started_at, finished_at") +
      (t.id != 0 ? ", id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)" : ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)") +
      " RETURNING id");
  insert.bind(1, t.name)
      .bind(2, t.director)
      .bind(3, t.settings)
      .bind(4, static_cast<std::int64_t>(t.seed))
      .bind(5, name(t.status))
      .bind(6, t.created_at)
      .bind(7, t.started_at)
      .bind(8, t.finished_at);
  if (t.id != 0) insert.bind(9, t.id);
  insert.step();
  const std::int64_t id = insert.integer(0);
  insert.reset();
  return id;
}

void TournamentStore::update(const TournamentRecord& t) {
  database_
      .prepare("UPDATE tournaments SET name = ?2, settings = ?3, status = ?4, started_at = ?5, finished_at = ?6 "
               "WHERE id = ?1")
      .bind(1, t.id)
      .bind(2, t.name)
      .bind(3, t.settings)
      .bind(4, name(t.status))
      .bind(5, t.started_at)
      .bind(6, t.finished_at)
      .run();
}

void TournamentStore::save_entrant(std::int64_t tournament, const EntrantRecord& e) {
  database_
      .prepare("INSERT INTO entrants (tournament, player, registered_at, checked_in_at, status, reason, seeding) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (tournament, player) DO UPDATE SET "
               "registered_at = excluded.registered_at, checked_in_at = excluded.checked_in_at, "
               "status = excluded.status, reason = excluded.reason, seeding = excluded.seeding")
      .bind(1, tournament)
      .bind(2, e.player)
      .bind(3, e.registered_at)
      .bind(4, e.checked_in_at)
      .bind(5, name(e.status))
      .bind(6, e.reason)
      .bind(7, e.seeding)
      .run();
}

void TournamentStore::start_round(std::int64_t tournament, const RoundRecord& round) {
  database_
      .prepare("INSERT INTO tournament_rounds (tournament, round, stage, started_at, finished_at) "
               "VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(1, tournament)
      .bind(2, round.round)
      .bind(3, round.stage)
      .bind(4, round.started_at)
      .bind(5, round.finished_at)
      .run();
  Statement board = database_.prepare(
      "INSERT INTO round_boards (tournament, round, board, table_id, seats) VALUES (?1, ?2, ?3, ?4, ?5)");
  for (const BoardRecord& b : round.boards) {
    board.reset();
    board.bind(1, tournament).bind(2, round.round).bind(3, b.board).bind(4, b.table).bind(5, to_text(b.seats)).run();
  }
  Statement bye = database_.prepare("INSERT INTO round_byes (tournament, round, player) VALUES (?1, ?2, ?3)");
  for (std::int64_t player : round.byes) {
    bye.reset();
    bye.bind(1, tournament).bind(2, round.round).bind(3, player).run();
  }
}

void TournamentStore::set_board_table(std::int64_t tournament, int round, int board, std::int64_t table) {
  database_.prepare("UPDATE round_boards SET table_id = ?4 WHERE tournament = ?1 AND round = ?2 AND board = ?3")
      .bind(1, tournament)
      .bind(2, round)
      .bind(3, board)
      .bind(4, table)
      .run();
}

void TournamentStore::finish_round(std::int64_t tournament, int round, std::int64_t time) {
  database_.prepare("UPDATE tournament_rounds SET finished_at = ?3 WHERE tournament = ?1 AND round = ?2")
      .bind(1, tournament)
      .bind(2, round)
      .bind(3, time)
      .run();
}

void TournamentStore::override_result(std::int64_t tournament, const ResultOverride& o) {
  database_
      .prepare("INSERT INTO result_overrides (tournament, round, board, result, reason, director, time) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (tournament, round, board) DO UPDATE SET "
               "result = excluded.result, reason = excluded.reason, director = excluded.director, time = excluded.time")
      .bind(1, tournament)
      .bind(2, o.round)
      .bind(3, o.board)
      .bind(4, result_text(o.scores, o.forfeited))
      .bind(5, o.reason)
      .bind(6, o.director)
      .bind(7, o.time)
      .run();
}

std::vector<StoredTournament> TournamentStore::all() {
  std::vector<TournamentRecord> records;
  Statement rows = database_.prepare(std::string("SELECT ") + kTournamentColumns + " FROM tournaments ORDER BY id");
  while (rows.step()) records.push_back(read_tournament(rows));
  std::vector<StoredTournament> result;
  for (const TournamentRecord& t : records) result.push_back(load(t));
  return result;
}

std::optional<StoredTournament> TournamentStore::find(std::int64_t id) {
  Statement row = database_.prepare(std::string("SELECT ") + kTournamentColumns + " FROM tournaments WHERE id = ?1");
  row.bind(1, id);
  if (!row.step()) return std::nullopt;
  return load(read_tournament(row));
}

std::int64_t TournamentStore::max_id() {
  Statement row = database_.prepare("SELECT coalesce(max(id), 0) FROM tournaments");
  row.step();
  return row.integer(0);
}

StoredTournament TournamentStore::load(const TournamentRecord& tournament) {
  StoredTournament stored{tournament, {}, {}, {}, {}};
  const std::int64_t id = tournament.id;

  Statement entrants = database_.prepare(
      "SELECT player, registered_at, checked_in_at, status, reason, seeding FROM entrants WHERE tournament = ?1 "
      "ORDER BY registered_at, player");
  entrants.bind(1, id);
  while (entrants.step()) {
    stored.entrants.push_back({entrants.integer(0), entrants.integer(1), entrants.optional_integer(2),
                               status_from(entrant_status_from, entrants.text(3)), entrants.text(4),
                               entrants.optional_integer(5)});
  }

  Statement rounds = database_.prepare(
      "SELECT round, stage, started_at, finished_at FROM tournament_rounds WHERE tournament = ?1 ORDER BY round");
  rounds.bind(1, id);
  std::map<int, std::size_t> round_index;
  while (rounds.step()) {
    round_index[static_cast<int>(rounds.integer(0))] = stored.rounds.size();
    stored.rounds.push_back({static_cast<int>(rounds.integer(0)), static_cast<int>(rounds.integer(1)),
                             rounds.integer(2), rounds.optional_integer(3), {}, {}});
  }
  Statement boards = database_.prepare(
      "SELECT round, board, seats, table_id FROM round_boards WHERE tournament = ?1 ORDER BY round, board");
  boards.bind(1, id);
  while (boards.step()) {
    stored.rounds[round_index.at(static_cast<int>(boards.integer(0)))].boards.push_back(
        {static_cast<int>(boards.integer(1)), from_text<std::int64_t>(boards.text(2)), boards.optional_integer(3)});
  }
  Statement byes = database_.prepare("SELECT round, player FROM round_byes WHERE tournament = ?1 ORDER BY round, player");
  byes.bind(1, id);
  while (byes.step()) stored.rounds[round_index.at(static_cast<int>(byes.integer(0)))].byes.push_back(byes.integer(1));

  Statement overrides = database_.prepare(
      "SELECT round, board, result, reason, director, time FROM result_overrides WHERE tournament = ?1 "
      "ORDER BY round, board");
  overrides.bind(1, id);
  std::map<std::pair<int, int>, const ResultOverride*> corrected;
  while (overrides.step()) {
    const Json result = Json::parse(overrides.text(2));
    stored.overrides.push_back({static_cast<int>(overrides.integer(0)), static_cast<int>(overrides.integer(1)),
                                result.at("scores").get<std::vector<int>>(),
                                result.at("forfeited").get<std::vector<bool>>(), overrides.text(3),
                                overrides.integer(4), overrides.integer(5)});
  }
  for (const ResultOverride& o : stored.overrides) corrected[{o.round, o.board}] = &o;

  // Each finished board's game result, seat by seat, unless a director replaced it.
  Statement results = database_.prepare(
      "SELECT b.round, b.board, r.score, s.resigned <> 0 OR s.replaced <> 0 FROM round_boards AS b "
      "JOIN results AS r ON r.table_id = b.table_id JOIN seats AS s ON s.table_id = r.table_id AND s.seat = r.seat "
      "WHERE b.tournament = ?1 ORDER BY b.round, b.board, r.seat");
  results.bind(1, id);
  std::map<std::pair<int, int>, BoardResult> played;
  while (results.step()) {
    BoardResult& result = played[{static_cast<int>(results.integer(0)), static_cast<int>(results.integer(1))}];
    result.scores.push_back(static_cast<int>(results.integer(2)));
    result.forfeited.push_back(results.integer(3) != 0);
  }
  for (const RoundRecord& round : stored.rounds) {
    for (const BoardRecord& board : round.boards) {
      const std::pair key{round.round, board.board};
      BoardResult result{round.round, board.board, board.seats, {}, {}};
      if (const auto o = corrected.find(key); o != corrected.end()) {
        result.scores = o->second->scores;
        result.forfeited = o->second->forfeited;
      } else if (const auto p = played.find(key); p != played.end()) {
        result.scores = p->second.scores;
        result.forfeited = p->second.forfeited;
      } else {
        continue;
      }
      stored.results.push_back(std::move(result));
    }
  }
  return stored;
}

}  // namespace elgrande::db
