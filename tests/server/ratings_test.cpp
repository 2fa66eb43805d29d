// The server's ratings in memory: ladders in order by mu - 3 sigma for leaderboards and
// places, kept up as rated games commit, and never moved back by an older game.

#include <catch2/catch.hpp>
#include <random>

#include "elgrande/el_grande/module.hpp"
#include "ratings/ratings.hpp"

using namespace elgrande;
using namespace elgrande::server;

// Which ladder a game counts on is the module's (tests/games/el_grande_module_test.cpp).
TEST_CASE("The ratings keep the game's ladders, in the module's order, and no other") {
  const Ratings ratings(el_grande::module().ladders());
  REQUIRE(ratings.ladders().size() == el_grande::module().ladders().size());
  for (std::size_t l = 0; l < ratings.ladders().size(); ++l) {
    CHECK(ratings.ladders()[l] == el_grande::module().ladders()[l]);
    CHECK(ratings.is_ladder(ratings.ladders()[l]));
  }
  CHECK_FALSE(ratings.is_ladder("6p"));
}

TEST_CASE("A ladder ranks by mu - 3 sigma, ties by player id, and a page or a place comes from that order") {
  Ratings ratings(el_grande::module().ladders());
  // Ordinals: 1: 6, 2: 14, 3: 14, 4: 7.
  ratings.restore({{1, "5p", 30, 8, 3, 10}, {2, "5p", 20, 2, 9, 11}, {3, "5p", 26, 4, 5, 12}, {4, "5p", 10, 1, 20, 13},
                   {1, "4p", 25, 1, 40, 14}});
  CHECK(ratings.size("5p") == 4);
  CHECK(ratings.size("4p") == 1);
  CHECK(ratings.size("3p") == 0);
  std::vector<PlayerId> order;
  for (const Ratings::Place& place : ratings.page("5p", 0, 10)) order.push_back(place.player);
  CHECK(order == std::vector<PlayerId>{2, 3, 4, 1});
  const auto second_page = ratings.page("5p", 3, 2);
  REQUIRE(second_page.size() == 1);
  CHECK(second_page[0].player == 1);
  CHECK(second_page[0].current.games == 3);
  CHECK(ratings.page("5p", 4, 10).empty());
  CHECK(ratings.rank(3, "5p") == 2u);
  CHECK(ratings.rank(1, "5p") == 4u);
  CHECK(ratings.rank(1, "4p") == 1u);
  CHECK_FALSE(ratings.rank(2, "4p"));
  CHECK(ratings.shown(9, "4p") == protocol::Json{{"ladder", "4p"}, {"rating", 1000}, {"provisional", true}, {"games", 0}});
}

TEST_CASE("A rated game moves its players on the ladder, and an older game's news changes nothing") {
  Ratings ratings(el_grande::module().ladders());
  ratings.rated({5, 1, "3p", 0, {{1, 1, 25, 8.3, 30, 2}, {2, 2, 25, 8.3, 20, 2}}});
  CHECK(ratings.rank(1, "3p") == 1u);
  ratings.rated({7, 2, "3p", 0, {{2, 1, 20, 2, 35, 2}, {3, 2, 25, 8.3, 24, 8}}});
  CHECK(ratings.rank(2, "3p") == 1u);
  CHECK(ratings.find(2, "3p")->games == 2);
  CHECK(ratings.size("3p") == 3);
  // Game 6 committed before game 7 but is heard of after it: player 2 keeps game 7's rating.
  ratings.rated({6, 3, "3p", 0, {{2, 1, 20, 2, 21, 2}, {4, 2, 25, 8.3, 24, 8}}});
  CHECK(ratings.find(2, "3p")->rating == competition::Rating{35, 2});
  CHECK(ratings.size("3p") == 4);
}

TEST_CASE("Pages of a large ladder agree with a sort of all its players") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> mu(10, 40);
  std::uniform_real_distribution<double> sigma(1, 8.3);
  std::vector<db::RatingRecord> stored;
  for (PlayerId p = 1; p <= 2000; ++p) stored.push_back({p, "4p", mu(rng), sigma(rng), 1, p});
  Ratings ratings(el_grande::module().ladders());
  ratings.restore(stored);
  std::sort(stored.begin(), stored.end(), [](const db::RatingRecord& a, const db::RatingRecord& b) {
    const double oa = a.mu - 3 * a.sigma;
    const double ob = b.mu - 3 * b.sigma;
    return oa != ob ? oa > ob : a.player < b.player;
  });
  for (std::size_t offset : {std::size_t{0}, std::size_t{977}, std::size_t{1950}}) {
    const auto page = ratings.page("4p", offset, 50);
    REQUIRE(page.size() == 50);
    for (std::size_t i = 0; i < page.size(); ++i) CHECK(page[i].player == stored[offset + i].player);
  }
  CHECK(ratings.rank(stored[1234].player, "4p") == 1235u);
}
