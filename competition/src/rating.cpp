#include "elgrande/competition/rating.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace elgrande::competition {

// The sums run in the order openskill runs them (players sorted by rank, stably), so that
// the results agree with its to the last bits rather than merely to rounding.
std::vector<Rating> rate(std::span<const Rating> before, std::span<const int> ranks, const RatingModel& model) {
  const std::size_t n = before.size();
  if (ranks.size() != n) throw std::invalid_argument("a rated game needs a rank for every player");
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });

  // In rank order: the prior with tau's uncertainty added, and each player's tie group (the
  // position of the first player of the group).
  std::vector<double> mu(n), variance(n);
  std::vector<std::size_t> group(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Rating& r = before[order[i]];
    mu[i] = r.mu;
    const double sigma = std::sqrt(r.sigma * r.sigma + model.tau * model.tau);
    variance[i] = sigma * sigma;
    group[i] = i > 0 && ranks[order[i - 1]] == ranks[order[i]] ? group[i - 1] : i;
  }

  const double beta_sq = model.beta * model.beta;
  double c_sq = 0.0;
  for (std::size_t i = 0; i < n; ++i) c_sq += variance[i] + beta_sq;
  const double c = std::sqrt(c_sq);
  // sum_q: the strength of everyone at or behind q's rank; tied: how many share q's rank.
  std::vector<double> sum_q(n, 0.0);
  std::vector<double> tied(n, 0.0);
  for (std::size_t q = 0; q < n; ++q) {
    for (std::size_t i = 0; i < n; ++i) {
      if (group[i] >= group[q]) sum_q[q] += std::exp(mu[i] / c);
      if (group[i] == group[q]) tied[q] += 1.0;
    }
  }

  std::vector<Rating> after(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double strength = std::exp(mu[i] / c);
    double omega = 0.0;
    double delta = 0.0;
    for (std::size_t q = 0; q < n; ++q) {
      if (group[q] > group[i]) continue;
      const double quotient = strength / sum_q[q];
      omega += (i == q ? 1.0 - quotient : -quotient) / tied[q];
      delta += quotient * (1.0 - quotient) / tied[q];
    }
    const double gamma = std::sqrt(variance[i]) / c;
    const double i_omega = omega * (variance[i] / c);
    const double i_delta = delta * (variance[i] / (c * c)) * gamma;
    // One player per team: the player's share of the team's variance is 1.
    const double sigma = std::sqrt(variance[i]);
    const double share = sigma * sigma / variance[i];
    Rating& rating = after[order[i]];
    rating.mu = mu[i] + share * i_omega;
    rating.sigma = sigma * std::sqrt(std::max(1.0 - share * i_delta, model.kappa));
    if (model.tau != 0.0 && model.limit_sigma) rating.sigma = std::min(rating.sigma, before[order[i]].sigma);
  }
  return after;
}

double ordinal(Rating rating) { return rating.mu - 3.0 * rating.sigma; }

int displayed(Rating rating) { return std::max(0, static_cast<int>(std::lround(1000.0 + 40.0 * ordinal(rating)))); }

bool provisional(Rating rating) { return rating.sigma > kProvisionalSigma; }

std::vector<int> rating_ranks(const TableResult& table) {
  std::vector<int> ranks;
  for (const Placing& placing : placings(table, PlacementPoints{})) ranks.push_back(placing.place + 1);
  return ranks;
}

}  // namespace elgrande::competition
