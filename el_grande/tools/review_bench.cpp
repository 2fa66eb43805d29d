// The AI review's figure (docs/ai.md#second-opinion-review): the strong bot's opinion of one
// decision, through games::GameModule as the server asks it. Plays GAMES random full games of
// PLAYERS seats; then, for DECISIONS random moves of each, restores the game at the version
// the move was made from and times the strong review of it: making the search (the caller's
// thread) and running it at the level's own playouts (a bot thread), on this one thread.
// Prints p50 and p99 of each.
//   elgrande-review-bench [GAMES] [PLAYERS] [DECISIONS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "elgrande/el_grande/module.hpp"
#include "elgrande/engine/rng.hpp"
#include "elgrande/protocol/codec.hpp"
#include "random_games.hpp"

namespace {

using namespace elgrande;
using Clock = std::chrono::steady_clock;

double milliseconds(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

using bench::quantile;

}  // namespace

int main(int argc, char** argv) {
  const int games_wanted = argc > 1 ? std::atoi(argv[1]) : 20;
  const int players = argc > 2 ? std::atoi(argv[2]) : 5;
  const int decisions = argc > 3 ? std::atoi(argv[3]) : 10;
  const games::GameModule& module = el_grande::module();
  Options options;
  options.players = players;
  const games::Json json = protocol::to_json(options);

  std::vector<double> make_ms, search_ms, iterations;
  int same = 0;
  double bot_share = 0.0, played_share = 0.0;
  Rng pick{7};
  for (int g = 0; g < games_wanted; ++g) {
    const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(g);
    const auto [log, moves] = bench::random_game(module, json, seed);
    for (int i = 0; i < decisions; ++i) {
      const auto version = static_cast<std::size_t>(pick.below(static_cast<std::uint32_t>(log.size())));
      auto restored = module.restore(json, seed, std::nullopt, std::span(log).first(version));
      const auto& at = std::get<std::unique_ptr<games::Game>>(restored);
      const auto start = Clock::now();
      const games::ReviewSearch search = at->review(log[version].seat, moves[version], games::BotLevel::strong, seed + i);
      const auto made = Clock::now();
      if (!search) return std::fprintf(stderr, "no review at version %zu\n", version), 1;
      const std::optional<games::Review> review = search(games::BotBudget{});
      if (!review) return std::fprintf(stderr, "no opinion at version %zu\n", version), 1;
      search_ms.push_back(milliseconds(Clock::now() - made));
      make_ms.push_back(milliseconds(made - start));
      iterations.push_back(review->iterations);
      same += review->same;
      bot_share += review->bot_win_share;
      played_share += review->played_win_share;
    }
  }
  const double reviews = static_cast<double>(search_ms.size());
  std::printf("%d games of %d players, %.0f decisions reviewed at strong\n", games_wanted, players, reviews);
  std::printf("making the search (the seat's view): p50 %.3f ms, p99 %.3f ms\n", quantile(make_ms, 0.5),
              quantile(make_ms, 0.99));
  std::printf("running it: p50 %.1f ms, p99 %.1f ms, max %.1f ms; playouts p50 %.0f (min %.0f)\n",
              quantile(search_ms, 0.5), quantile(search_ms, 0.99), quantile(search_ms, 1.0), quantile(iterations, 0.5),
              quantile(iterations, 0.0));
  std::printf("the bot's answer was the move played %d times; mean win share: the bot's %.3f, the move played %.3f\n",
              same, bot_share / reviews, played_share / reviews);
  return 0;
}
