#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "elgrande/competition/rating.hpp"

using namespace elgrande::competition;
using Json = nlohmann::json;

namespace {

Json openskill_vectors() {
  std::ifstream file(ELGRANDE_SOURCE_DIR "/tests/fixtures/openskill-vectors.json");
  REQUIRE(file);
  return Json::parse(file);
}

Rating rating_of(const Json& pair) { return {pair[0].get<double>(), pair[1].get<double>()}; }

}  // namespace

TEST_CASE("Ratings agree with the openskill package to 1e-9 on every finish of 2 to 5 players, ties included") {
  const Json vectors = openskill_vectors();
  REQUIRE(vectors["package"] == "openskill@5.0.1");
  REQUIRE(vectors["cases"].size() > 600);
  std::array<int, 6> by_count{};
  int tau_off = 0;
  int ties = 0;
  double worst = 0.0;
  for (const Json& test : vectors["cases"]) {
    std::vector<Rating> before;
    for (const Json& r : test["ratings"]) before.push_back(rating_of(r));
    const auto ranks = test["ranks"].get<std::vector<int>>();
    RatingModel model;
    model.tau = test["options"]["tau"];
    model.limit_sigma = test["options"]["limit_sigma"];
    const std::vector<Rating> after = rate(before, ranks, model);
    INFO(test.dump());
    REQUIRE(after.size() == test["expected"].size());
    for (std::size_t i = 0; i < after.size(); ++i) {
      const Rating expected = rating_of(test["expected"][i]);
      CHECK(std::abs(after[i].mu - expected.mu) <= 1e-9);
      CHECK(std::abs(after[i].sigma - expected.sigma) <= 1e-9);
      worst = std::max({worst, std::abs(after[i].mu - expected.mu), std::abs(after[i].sigma - expected.sigma)});
    }
    ++by_count[before.size()];
    if (model.tau == 0.0) ++tau_off;
    if (std::set<int>(ranks.begin(), ranks.end()).size() < ranks.size()) ++ties;
  }
  // The file covers what it claims: every player count, tau off, and ties.
  CHECK(by_count[2] > 0);
  CHECK(by_count[3] > 0);
  CHECK(by_count[4] > 0);
  CHECK(by_count[5] >= 541);  // every way five players can finish
  CHECK(tau_off > 100);
  CHECK(ties > 450);
  WARN("largest difference from openskill: " << worst);
}

TEST_CASE("The winner gains and the last loses, and tied players with equal ratings move alike") {
  const RatingModel model;
  const std::vector<Rating> four(4, model.newcomer());
  const auto after = rate(four, std::vector<int>{1, 2, 3, 4});
  CHECK(after[0].mu > after[1].mu);
  CHECK(after[1].mu > 25.0);
  CHECK(after[2].mu < 25.0);
  CHECK(after[3].mu < after[2].mu);
  const auto tied = rate(four, std::vector<int>{1, 2, 2, 4});
  CHECK(tied[1] == tied[2]);
  // A four-way tie between equals teaches nothing about who is better.
  for (const Rating& r : rate(four, std::vector<int>{1, 1, 1, 1})) CHECK(std::abs(r.mu - 25.0) < 1e-12);
}

TEST_CASE("Sigma never grows from tau alone: a well-known player's sigma stays at most where it was") {
  const std::vector<Rating> before{{40.0, 1.0}, {10.0, 1.0}};
  for (const Rating& r : rate(before, std::vector<int>{2, 1})) CHECK(r.sigma <= 1.0);
  RatingModel without_limit;
  without_limit.limit_sigma = false;
  const auto loose = rate(before, std::vector<int>{2, 1}, without_limit);
  CHECK(loose[0].sigma > 1.0);  // what the limit prevents
}

TEST_CASE("The shown rating is 1000 + 40 (mu - 3 sigma): a newcomer shows 1000 and is provisional") {
  const Rating newcomer = RatingModel{}.newcomer();
  CHECK(displayed(newcomer) == 1000);
  CHECK(provisional(newcomer));
  CHECK(displayed({30.0, 2.0}) == 1960);
  CHECK_FALSE(provisional({30.0, 2.0}));
  CHECK(displayed({-5.0, 8.0}) == 0);  // never below 0
}

TEST_CASE("Ranks for rating: finishers by score with ties, and a resigned or replaced player behind them all") {
  CHECK(rating_ranks({{1, 2, 3, 4}, {80, 95, 80, 60}, {}}) == std::vector<int>{2, 1, 2, 4});
  // The resigned player had the most points when leaving, and still ranks last.
  CHECK(rating_ranks({{1, 2, 3}, {99, 50, 40}, {true, false, false}}) == std::vector<int>{3, 1, 2});
  // Two who left share the last places.
  CHECK(rating_ranks({{1, 2, 3, 4}, {10, 50, 20, 40}, {true, false, true, false}}) == std::vector<int>{3, 1, 3, 2});
}
