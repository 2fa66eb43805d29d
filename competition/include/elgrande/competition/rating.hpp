#pragma once

#include <span>
#include <string>
#include <vector>

#include "elgrande/competition/results.hpp"

// Player ratings: the Weng-Lin Bayesian approximation with the Plackett-Luce model, as the
// OpenSkill libraries compute it (tests/fixtures/openskill-vectors.json holds the openskill
// package's own figures, and the tests agree with them to 1e-9). Plain values: the server
// stores ratings and asks this library how one game changes them.
namespace elgrande::competition {

// A belief about a player's skill: mean and uncertainty.
struct Rating {
  double mu = 0.0;
  double sigma = 0.0;
  friend bool operator==(const Rating&, const Rating&) = default;
};

// OpenSkill's defaults. tau adds a little uncertainty before every game, so that ratings
// can follow a player who improves; limit_sigma keeps that from ever raising sigma above
// what it was before the game.
struct RatingModel {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  double beta = 25.0 / 6.0;
  double tau = 25.0 / 300.0;
  double kappa = 1e-4;  // the least a variance may keep of itself in one update
  bool limit_sigma = true;

  Rating newcomer() const { return {mu, sigma}; }
};

// Every player's rating after one free-for-all game. `ranks` has one entry per player,
// lower is better, equal for a tie (1 + the number of players ranked ahead, as
// rating_ranks gives, or any numbers that order the same way).
std::vector<Rating> rate(std::span<const Rating> before, std::span<const int> ranks,
                         const RatingModel& model = {});

// The rating a player is shown and ranked by: derived from the ordinal mu - 3 sigma (a
// skill the player has with 99.7% confidence), as 1000 + 40 per point, rounded, never
// below 0. A newcomer shows 1000.
double ordinal(Rating rating);
int displayed(Rating rating);
// Too uncertain to say much yet: sigma above 7.5, which takes about 4 two-player or 10
// five-player games to leave (docs/ratings.md).
bool provisional(Rating rating);
constexpr double kProvisionalSigma = 7.5;

// The ranks a game gives its players: finishers by final score, equal scores tied; a
// player who resigned or was replaced for timeouts ranks behind every finisher (such
// players tie among themselves). `table` holds only the rated players, in any order.
std::vector<int> rating_ranks(const TableResult& table);

}  // namespace elgrande::competition
