// Ratings in SQLite (schema 8): rated games in order with each player's change, the current
// rating per ladder, a player's games, and the recompute's rewrite.

#include <catch2/catch.hpp>
#include <algorithm>
#include <optional>

#include "elgrande/db/database.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TestDatabase;

namespace {

struct RatingsFixture {
  TestDatabase db;
  std::unique_ptr<db::Database> database;
  std::optional<db::Store> store;

  RatingsFixture() {
    open();
    for (std::int64_t id = 1; id <= 4; ++id) {
      db::TokenHash hash;
      hash.fill(static_cast<std::byte>(id));
      store->insert_player({id, "P" + std::to_string(id), hash, 10});
      db::TableRecord table;
      table.id = id;
      table.name = "T";
      table.host = 1;
      table.status = "finished";
      table.rated = true;
      store->save_table(table);
    }
  }
  void open() {  // a fresh connection reads the file
    store.reset();
    database = db.open();
    db::migrate(*database);
    store.emplace(*database);
  }
  db::RatingStore& ratings() { return store->ratings(); }
};

db::RatedGame game(std::int64_t table, const std::string& ladder, std::vector<db::RatingChange> changes) {
  return {0, table, ladder, 1000 + table, std::move(changes)};
}

}  // namespace

TEST_CASE("A rated game keeps each player's change, and their rating on the ladder follows the latest") {
  RatingsFixture f;
  const std::int64_t first = f.ratings().record(game(1, "4p", {{1, 1, 25, 8.3, 27.5, 8.1}, {2, 2, 25, 8.3, 22.5, 8.1}}));
  const std::int64_t second = f.ratings().record(game(2, "4p", {{2, 1, 22.5, 8.1, 24.25, 7.9}, {3, 2, 25, 8.3, 23.0, 8.2}}));
  CHECK(second > first);
  f.open();
  CHECK(f.ratings().find(2, "4p") == db::RatingRecord{2, "4p", 24.25, 7.9, 2, second});
  CHECK(f.ratings().find(1, "4p") == db::RatingRecord{1, "4p", 27.5, 8.1, 1, first});
  CHECK_FALSE(f.ratings().find(1, "3p"));  // ladders are apart
  const auto games = f.ratings().games();
  REQUIRE(games.size() == 2);
  CHECK(games[1] == db::RatedGame{second, 2, "4p", 1002, {{2, 1, 22.5, 8.1, 24.25, 7.9}, {3, 2, 25, 8.3, 23.0, 8.2}}});
  // Reals come back to the last bit.
  const double third = 1.0 / 3.0;
  f.ratings().record(game(3, "2p", {{1, 1, 25, 25.0 / 3.0, 25 + third, 8.0 + third}, {4, 2, 25, 25.0 / 3.0, 25 - third, 8.0}}));
  f.open();
  CHECK(f.ratings().find(1, "2p")->mu == 25 + third);
  CHECK(f.ratings().find(1, "2p")->sigma == 8.0 + third);
}

TEST_CASE("A profile lists a player's rated games newest first, on one ladder or all") {
  RatingsFixture f;
  f.ratings().record(game(1, "5p", {{1, 1, 25, 8, 30, 8}, {2, 2, 25, 8, 20, 2}}));
  f.ratings().record(game(2, "4p", {{1, 1, 25, 8, 27, 7.9}, {2, 2, 25, 8, 23, 7.9}}));
  const auto all = f.ratings().player_games(1, std::nullopt, std::nullopt, 10);
  REQUIRE(all.size() == 2);
  CHECK(all[0].table == 2);
  CHECK(all[1].ladder == "5p");
  CHECK(all[1].change == db::RatingChange{1, 1, 25, 8, 30, 8});
  CHECK(f.ratings().player_games(1, std::string("5p"), std::nullopt, 10).size() == 1);
  CHECK(f.ratings().player_games(1, std::nullopt, all[0].seq, 10).size() == 1);
  CHECK(f.ratings().player_games(3, std::nullopt, std::nullopt, 10).empty());
}

TEST_CASE("A rewrite replaces every change and rating with the replayed ones") {
  RatingsFixture f;
  f.ratings().record(game(1, "3p", {{1, 1, 25, 8, 27, 7.5}, {2, 2, 25, 8, 23, 7.5}}));
  f.ratings().record(game(2, "3p", {{1, 2, 27, 7.5, 26, 7.0}, {3, 1, 25, 8, 28, 7.4}}));
  std::vector<db::RatedGame> replayed = f.ratings().games();
  const auto of_player_1 = [](db::RatedGame& game) -> db::RatingChange& {
    return *std::ranges::find(game.changes, 1, &db::RatingChange::player);
  };
  of_player_1(replayed[0]).mu = 27.125;
  of_player_1(replayed[1]).mu_before = 27.125;
  of_player_1(replayed[1]).mu = 26.5;
  f.ratings().rewrite(replayed);
  f.open();
  CHECK(f.ratings().games() == replayed);
  CHECK(f.ratings().find(1, "3p") == db::RatingRecord{1, "3p", 26.5, 7.0, 2, replayed[1].seq});
  CHECK(f.ratings().find(2, "3p")->games == 1);
}
