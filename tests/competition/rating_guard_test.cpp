#include <catch2/catch.hpp>

#include <vector>

#include "elgrande/competition/rating_guard.hpp"

using namespace elgrande::competition;

TEST_CASE("a game rates only when at least two accounts each made a few decisions of their own", "[ratings]") {
  const std::vector<int> one{40};
  CHECK(why_unrated({.decisions = one}) == Unrated::too_few_accounts);
  const std::vector<int> played{40, 38, 41};
  CHECK(why_unrated({.decisions = played}) == std::nullopt);
  // A second account that resigns at move 0: the farmer's win does not count.
  const std::vector<int> resigned_at_once{4, 0};
  CHECK(why_unrated({.decisions = resigned_at_once}) == Unrated::aborted);
  const std::vector<int> two_each{3, 2, 30};
  CHECK(why_unrated({.decisions = two_each}) == Unrated::aborted);
  const std::vector<int> three_each{3, 3};
  CHECK(why_unrated({.decisions = three_each}) == std::nullopt);
  CHECK(why_unrated({.decisions = three_each}, {.min_decisions = 4}) == Unrated::aborted);
}

TEST_CASE("two accounts rate at most their day's games together in the lobby, any number in an event", "[ratings]") {
  const std::vector<int> played{30, 30};
  CHECK(why_unrated({.decisions = played, .most_games_of_a_pair_today = 2}) == std::nullopt);
  CHECK(why_unrated({.decisions = played, .most_games_of_a_pair_today = 3}) == Unrated::repeated_pairing);
  CHECK(why_unrated({.decisions = played, .most_games_of_a_pair_today = 3, .tournament_board = true}) == std::nullopt);
  CHECK(why_unrated({.decisions = played, .most_games_of_a_pair_today = 5}, {.rated_games_per_pair_per_day = 6}) ==
        std::nullopt);
  // An aborted game is aborted, whoever plays it and however often.
  const std::vector<int> abandoned{30, 1};
  CHECK(why_unrated({.decisions = abandoned, .most_games_of_a_pair_today = 9}) == Unrated::aborted);
}
