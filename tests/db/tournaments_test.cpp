// Tournaments in SQLite (schema 7): the event, its entrants, its rounds with boards and byes,
// and each finished board's result as standings read it.

#include <catch2/catch.hpp>
#include <optional>

#include "elgrande/db/database.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/protocol/codec.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TestDatabase;

namespace {

struct TournamentsFixture {
  TestDatabase db;
  std::unique_ptr<db::Database> database;
  std::optional<db::Store> store;

  TournamentsFixture() {
    open();
    for (std::int64_t id = 1; id <= 6; ++id) {
      db::TokenHash hash;
      hash.fill(static_cast<std::byte>(id));
      store->insert_player({id, "P" + std::to_string(id), hash, 10});
    }
  }
  void open() {  // a fresh connection reads the file
    store.reset();
    database = db.open();
    db::migrate(*database);
    store.emplace(*database);
  }
  db::TournamentStore& tournaments() { return store->tournaments(); }

  // A finished 3-player table of players 1..3 with these scores; seat 1 resigned if asked.
  void finished_table(std::int64_t id, const std::vector<std::int64_t>& players, const std::vector<int>& scores,
                      bool seat1_resigned) {
    db::TableRecord table;
    table.id = id;
    table.name = "Board";
    table.host = players[0];
    table.status = "finished";
    table.options = protocol::to_json(Options{3, false, false, false, 0});
    table.created_at = 1;
    table.seed = 5;
    table.started_at = 2;
    table.finished_at = 3;
    for (std::int64_t p : players) {
      db::SeatRecord seat;
      seat.kind = "human";
      seat.player = p;
      table.seats.push_back(seat);
    }
    table.seats[1].resigned = seat1_resigned;
    store->save_table(table);
    db::GameResult result{id, 3, {}};
    for (int s = 0; s < 3; ++s) {
      result.seats.push_back({s, players[static_cast<std::size_t>(s)], scores[static_cast<std::size_t>(s)], 1});
    }
    store->save_result(result);
  }
};

db::TournamentRecord sample_tournament() {
  db::TournamentRecord t;
  t.name = "Winter Swiss";
  t.director = 1;
  t.settings = R"({"format":"swiss","rounds":4})";
  t.seed = 18446744073709551557ull;  // all 64 bits survive the signed column
  t.created_at = 1000;
  return t;
}

}  // namespace

TEST_CASE("a tournament, its entrants and its rounds with boards and byes read back as written", "[db]") {
  TournamentsFixture f;
  db::TournamentRecord t = sample_tournament();
  t.id = f.tournaments().insert(t);
  CHECK(t.id == 1);
  CHECK(f.tournaments().max_id() == 1);
  for (std::int64_t p = 1; p <= 4; ++p) {
    f.tournaments().save_entrant(t.id, {p, 1000 + p, std::nullopt, db::EntrantStatus::registered, ""});
  }
  f.tournaments().save_entrant(t.id, {2, 1002, 1500, db::EntrantStatus::playing, ""});  // checked in
  f.tournaments().save_entrant(t.id, {4, 1004, std::nullopt, db::EntrantStatus::withdrawn, "family dinner"});

  t.status = db::TournamentStatus::running;
  t.started_at = 2000;
  f.tournaments().update(t);
  const db::RoundRecord round{1, 0, 2000, std::nullopt, {{1, {3, 1, 2}, std::nullopt}}, {4}};
  f.tournaments().start_round(t.id, round);
  f.finished_table(7, {3, 1, 2}, {50, 60, 40}, false);
  f.tournaments().set_board_table(t.id, 1, 1, 7);
  f.tournaments().finish_round(t.id, 1, 3000);

  f.open();
  const auto stored = f.tournaments().find(t.id);
  REQUIRE(stored);
  CHECK(stored->tournament == t);
  REQUIRE(stored->entrants.size() == 4);
  CHECK(stored->entrants[1] == db::EntrantRecord{2, 1002, 1500, db::EntrantStatus::playing, ""});
  CHECK(stored->entrants[3].reason == "family dinner");
  REQUIRE(stored->rounds.size() == 1);
  db::RoundRecord expected = round;
  expected.finished_at = 3000;
  expected.boards[0].table = 7;
  CHECK(stored->rounds[0] == expected);
  CHECK(f.tournaments().all().size() == 1);
  CHECK_FALSE(f.tournaments().find(99));
}

TEST_CASE("a board's result is its game's, a resignation a forfeit, and a director's override wins", "[db]") {
  TournamentsFixture f;
  const std::int64_t id = f.tournaments().insert(sample_tournament());
  // Board 1 finished, seat 1 resigned. Board 2's table was never saved: no result.
  f.finished_table(7, {1, 2, 3}, {50, 70, 40}, true);
  f.tournaments().start_round(id, {1, 0, 2000, std::nullopt,
                                   {{1, {1, 2, 3}, 7}, {2, {4, 5, 6}, std::nullopt}}, {}});
  auto stored = f.tournaments().find(id);
  REQUIRE(stored->results.size() == 1);
  CHECK(stored->results[0] == db::BoardResult{1, 1, {1, 2, 3}, {50, 70, 40}, {false, true, false}});

  const db::ResultOverride correction{1, 1, {50, 70, 60}, {false, false, false}, "scoring disk misread", 1, 4000};
  f.tournaments().override_result(id, correction);
  stored = f.tournaments().find(id);
  CHECK(stored->results[0].scores == std::vector<int>{50, 70, 60});
  CHECK(stored->results[0].forfeited == std::vector<bool>{false, false, false});
  REQUIRE(stored->overrides.size() == 1);
  CHECK(stored->overrides[0] == correction);
}

TEST_CASE("an override of a board that does not exist, or a director who does not, is refused", "[db]") {
  TournamentsFixture f;
  const std::int64_t id = f.tournaments().insert(sample_tournament());
  CHECK_THROWS(f.tournaments().override_result(id, {3, 1, {1, 2, 3}, {false, false, false}, "no such board", 1, 5}));
  db::TournamentRecord orphan = sample_tournament();
  orphan.director = 99;  // no such player
  CHECK_THROWS(f.tournaments().insert(orphan));
}
