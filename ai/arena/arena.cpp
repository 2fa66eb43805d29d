// Plays many games between bot levels and prints each level's share of the wins with a
// Wilson 95% interval, and how long its decisions took (CPU time of the deciding thread).
//
// Usage: elgrande-arena [--games N] [--threads T] [--seed S] [--lineup strong,random,random,random]
//                       [--short] [--iterations N]
// The lineup names one level per seat; the seats rotate from game to game, so every level
// sits in every seat (and begins) as often. A shared win counts as a share of one.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "elgrande/ai/search.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"

namespace {

using namespace elgrande;

struct Arguments {
  int games = 100;
  int threads = 1;
  std::uint64_t seed = 1;
  std::vector<ai::Level> lineup{ai::Level::strong, ai::Level::random, ai::Level::random, ai::Level::random};
  bool short_game = false;
  int iterations = 0;  // 0: each level's own
};

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "elgrande-arena: %s\nusage: elgrande-arena [--games N] [--threads T] [--seed S] "
               "[--lineup LEVEL,LEVEL,...] [--short] [--iterations N]\nlevels: random, easy, medium, strong\n",
               problem);
  std::exit(2);
}

Arguments parse(int argc, char** argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) usage("a flag lacks its value");
      return argv[++i];
    };
    if (flag == "--games") {
      args.games = std::atoi(value().data());
    } else if (flag == "--threads") {
      args.threads = std::max(1, std::atoi(value().data()));
    } else if (flag == "--seed") {
      args.seed = std::strtoull(value().data(), nullptr, 10);
    } else if (flag == "--iterations") {
      args.iterations = std::atoi(value().data());
    } else if (flag == "--short") {
      args.short_game = true;
    } else if (flag == "--lineup") {
      args.lineup.clear();
      std::string_view list = value();
      while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const auto level = ai::level_from_name(list.substr(0, comma));
        if (!level) usage("unknown level in --lineup");
        args.lineup.push_back(*level);
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
      }
    } else {
      usage("unknown flag");
    }
  }
  if (args.lineup.size() < 2 || args.lineup.size() > kMaxPlayers) usage("the lineup names 2 to 5 seats");
  if (args.games < 1) usage("--games must be at least 1");
  return args;
}

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Tally {
  double wins = 0;       // shares of games won
  int seats = 0;         // seats played (games times seats of this level)
  int games_with = 0;    // games this level played in
  double score = 0;      // sum of final scores
  std::vector<double> decision_ms;
};

// A Wilson score interval for `successes` of `trials`, at 95%.
std::pair<double, double> wilson(double successes, double trials) {
  const double z = 1.96, p = successes / trials, z2 = z * z;
  const double centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const double half = z * std::sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

double percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto at = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size()))) - 1;
  return values[std::min(at, values.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments args = parse(argc, argv);
  const int players = static_cast<int>(args.lineup.size());
  std::map<ai::Level, Tally> tallies;
  std::mutex lock;
  std::atomic<int> next_game{0};

  auto play = [&] {
    for (int g; (g = next_game.fetch_add(1)) < args.games;) {
      // Seat s plays the lineup's entry (s + g) mod players.
      std::vector<ai::Level> seats(static_cast<std::size_t>(players));
      for (int s = 0; s < players; ++s) seats[static_cast<std::size_t>(s)] = args.lineup[static_cast<std::size_t>((s + g) % players)];
      Options options;
      options.players = players;
      options.short_game = args.short_game;
      const std::uint64_t seed = args.seed * 1000003u + static_cast<std::uint64_t>(g);
      GameState state = new_game(options, seed);
      Events events;
      std::map<ai::Level, std::vector<double>> times;
      while (!is_over(state)) {
        const Decision decision = pending(state)[0];
        const ai::Level level = seats[static_cast<std::size_t>(decision.seat)];
        const double start = thread_cpu_ms();
        const ai::Choice choice =
            ai::choose(view(state, decision.seat), level, seed ^ (std::uint64_t{state.version} << 20) ^ std::uint64_t(decision.seat),
                       ai::Budget{args.iterations, {}});
        times[level].push_back(thread_cpu_ms() - start);
        events.clear();
        if (const auto rejection = apply(state, decision.seat, choice.command, events)) {
          std::fprintf(stderr, "game %d: the engine refused %s's command: %s\n", g, ai::name(level).data(),
                       rejection->reason.c_str());
          std::exit(1);
        }
      }
      const std::uint8_t won = winners(state);
      const std::lock_guard guard(lock);
      std::map<ai::Level, bool> present;
      for (int s = 0; s < players; ++s) {
        Tally& tally = tallies[seats[static_cast<std::size_t>(s)]];
        ++tally.seats;
        tally.score += state.players[s].score;
        if ((won >> s) & 1u) tally.wins += 1.0 / std::popcount(won);
        present[seats[static_cast<std::size_t>(s)]] = true;
      }
      for (const auto& [level, yes] : present) tallies[level].games_with += yes;
      for (auto& [level, ms] : times) tallies[level].decision_ms.insert(tallies[level].decision_ms.end(), ms.begin(), ms.end());
    }
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < args.threads; ++t) workers.emplace_back(play);
  for (std::thread& worker : workers) worker.join();

  std::printf("games: %d, players: %d%s, seed: %llu\n", args.games, players, args.short_game ? " (short game)" : "",
              static_cast<unsigned long long>(args.seed));
  std::printf("%-8s %6s %10s %22s %10s %12s %10s %10s %10s\n", "level", "seats", "wins", "share of games (95% CI)",
              "per seat", "mean score", "median ms", "p99 ms", "max ms");
  for (auto& [level, tally] : tallies) {
    const auto [low, high] = wilson(tally.wins, args.games);
    const double decisions = static_cast<double>(tally.decision_ms.size());
    const double max_ms = decisions ? *std::max_element(tally.decision_ms.begin(), tally.decision_ms.end()) : 0;
    std::printf("%-8s %6d %10.1f %7.1f%% [%5.1f, %5.1f] %9.1f%% %12.1f %10.2f %10.2f %10.2f\n", ai::name(level).data(),
                tally.seats, tally.wins, 100 * tally.wins / args.games, 100 * low, 100 * high,
                100 * tally.wins / tally.seats, tally.score / tally.seats, percentile(tally.decision_ms, 0.5),
                percentile(tally.decision_ms, 0.99), max_ms);
  }
  std::printf("(share of games: the games this level won, at any of its seats; per seat: its seats' average share)\n");
  return 0;
}
