#include "elgrande/competition/pools.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include "elgrande/competition/draw.hpp"

namespace elgrande::competition {

namespace {

// Arithmetic in the field of q elements, q ∈ {2, 3, 4, 5}: modular for primes; for 4, the
// elements 0, 1, α, α+1 with α² = α + 1 (addition is exclusive or).
struct FiniteField {
  int q;
  int add(int a, int b) const { return q == 4 ? a ^ b : (a + b) % q; }
  int mul(int a, int b) const {
    static constexpr std::array<std::array<int, 4>, 4> four{{{0, 0, 0, 0}, {0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}}};
    return q == 4 ? four[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] : a * b % q;
  }
};

// The q + 1 parallel classes of the affine plane over q elements: the lines y = m·x + c for
// each slope m, then x = c. Point (x, y) is player x·q + y.
std::vector<std::vector<std::vector<int>>> affine_plane(int q) {
  const FiniteField f{q};
  std::vector<std::vector<std::vector<int>>> classes;
  for (int m = 0; m < q; ++m) {
    auto& lines = classes.emplace_back(static_cast<std::size_t>(q));
    for (int x = 0; x < q; ++x) {
      for (int c = 0; c < q; ++c) lines[static_cast<std::size_t>(c)].push_back(x * q + f.add(f.mul(m, x), c));
    }
  }
  auto& vertical = classes.emplace_back(static_cast<std::size_t>(q));
  for (int c = 0; c < q; ++c) {
    for (int y = 0; y < q; ++y) vertical[static_cast<std::size_t>(c)].push_back(c * q + y);
  }
  return classes;
}

bool everyone_met(const std::vector<PlayerId>& pool, const History& history, int meetings) {
  for (std::size_t a = 0; a < pool.size(); ++a) {
    for (std::size_t b = a + 1; b < pool.size(); ++b) {
      if (history.meetings(pool[a], pool[b]) < meetings) return false;
    }
  }
  return true;
}

long meetings_beyond(const std::vector<PlayerId>& pool, const History& history, int meetings) {
  long extra = 0;
  for (std::size_t a = 0; a < pool.size(); ++a) {
    for (std::size_t b = a + 1; b < pool.size(); ++b) extra += std::max(0, history.meetings(pool[a], pool[b]) - meetings);
  }
  return extra;
}

// Seats each table of `tables` in turn and records it, so seat balance carries over.
RoundPlan seated(std::vector<std::vector<PlayerId>> tables, std::vector<PlayerId> byes,
                 History& history, std::uint64_t seed) {
  RoundPlan round{{}, std::move(byes)};
  for (auto& table : tables) {
    round.tables.push_back(seat_order(std::move(table), history, lot(seed, round.tables.size() + 1)));
    history.add_table(round.tables.back());
  }
  for (PlayerId p : round.byes) history.add_bye(p);
  return round;
}

constexpr int tries = 12;

}  // namespace

std::vector<std::vector<PlayerId>> split_into_pools(const std::vector<PlayerId>& seeded, int pools) {
  std::vector<std::vector<PlayerId>> result(static_cast<std::size_t>(std::max(pools, 1)));
  const std::size_t count = result.size();
  for (std::size_t i = 0; i < seeded.size(); ++i) {
    const std::size_t row = i / count, column = i % count;
    result[row % 2 == 0 ? column : count - 1 - column].push_back(seeded[i]);
  }
  return result;
}

std::vector<RoundPlan> round_robin(const std::vector<PlayerId>& pool, TableSizes sizes,
                                   int meetings, std::uint64_t seed) {
  const int n = static_cast<int>(pool.size());
  std::vector<RoundPlan> rounds;
  if (n < sizes.minimum || meetings < 1) return rounds;

  if (n <= sizes.preferred) {
    for (int r = 0; r < meetings; ++r) {
      std::vector<PlayerId> table = pool;
      std::rotate(table.begin(), table.begin() + r % n, table.end());
      rounds.push_back({{table}, {}});
    }
    return rounds;
  }

  const int q = sizes.preferred;
  if (n == q * q) {
    History history;
    for (int copy = 0; copy < meetings; ++copy) {
      for (const auto& lines : affine_plane(q)) {
        std::vector<std::vector<PlayerId>> tables;
        for (const auto& line : lines) {
          auto& table = tables.emplace_back();
          for (int point : line) table.push_back(pool[static_cast<std::size_t>(point)]);
        }
        rounds.push_back(seated(std::move(tables), {}, history, lot(seed, rounds.size())));
      }
    }
    return rounds;
  }

  const int needed = (meetings * (n - 1) + sizes.preferred - 2) / (sizes.preferred - 1);
  const int most = 4 * needed + 4;
  std::tuple<bool, std::size_t, long> best_score{false, 0, 0};
  for (int attempt = 0; attempt < tries; ++attempt) {
    History history;
    std::vector<RoundPlan> trial;
    while (!everyone_met(pool, history, meetings) && static_cast<int>(trial.size()) < most) {
      const std::uint64_t round_seed = lot(seed, static_cast<std::uint64_t>(attempt * most) + trial.size());
      const std::vector<PlayerId> order = shuffled(pool, round_seed);
      const Seating plan = seating(n, sizes);
      std::vector<PlayerId> byes = choose_byes(order, plan.byes, history);
      std::vector<PlayerId> playing;
      for (PlayerId p : order) {
        if (std::find(byes.begin(), byes.end(), p) == byes.end()) playing.push_back(p);
      }
      trial.push_back(seated(group(playing, plan.tables, history, round_seed), std::move(byes), history, round_seed));
    }
    // Complete beats incomplete, then fewer rounds, then fewer meetings beyond those owed.
    const std::tuple<bool, std::size_t, long> score{everyone_met(pool, history, meetings),
                                                   static_cast<std::size_t>(most) - trial.size(),
                                                   -meetings_beyond(pool, history, meetings)};
    if (rounds.empty() || score > best_score) {
      best_score = score;
      rounds = std::move(trial);
    }
  }
  return rounds;
}

}  // namespace elgrande::competition
