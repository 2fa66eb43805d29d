// The strong bot's playouts per second (docs/ai.md): the strong level's search (ai::choose)
// on seeded positions drawn from random games, on one thread. Prints playouts per second
// and a checksum of the answers chosen (the hash of each state after its answer).
// Usage: elgrande-ai-bench [positions=20] [players=4]
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "elgrande/ai/search.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/view.hpp"

int main(int argc, char** argv) {
  const int positions = argc > 1 ? std::atoi(argv[1]) : 20;
  const int players = argc > 2 ? std::atoi(argv[2]) : 4;
  elgrande::Options options;
  options.players = players;

  long long playouts = 0;
  std::uint64_t checksum = 0;
  double seconds = 0.0;
  elgrande::Events events;
  for (int p = 0; p < positions; ++p) {
    // A random game's prefix of seeded length: the decision after it is the one searched.
    const auto seed = 2000 + static_cast<std::uint64_t>(p);
    const elgrande::GameRecord game = elgrande::play_random_game(options, seed);
    elgrande::Rng pick{seed * 7919u};
    const auto stop = pick.below(static_cast<std::uint32_t>(game.commands.size()));
    elgrande::GameState state = elgrande::new_game(options, seed);
    for (std::uint32_t i = 0; i < stop; ++i) {
      events.clear();
      if (elgrande::apply(state, game.commands[i].seat, game.commands[i].command, events))
        return std::fprintf(stderr, "replay refused in position %d\n", p), 1;
    }
    const auto seat = static_cast<elgrande::Seat>(std::countr_zero(elgrande::waiting_for(state)));
    const elgrande::View seen = elgrande::view(state, seat);
    const auto start = std::chrono::steady_clock::now();
    const elgrande::ai::Choice choice = elgrande::ai::choose(seen, elgrande::ai::Level::strong, seed);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    playouts += choice.iterations;
    events.clear();
    if (elgrande::apply(state, seat, choice.command, events))
      return std::fprintf(stderr, "the search's answer was refused in position %d\n", p), 1;
    checksum = std::rotl(checksum, 7) ^ elgrande::hash(state);
  }
  std::printf("players: %d\npositions: %d\nseconds: %.3f\nplayouts: %lld\nplayouts_per_second: %.0f\n"
              "us_per_playout: %.1f\nchecksum: %016llx\n",
              players, positions, seconds, playouts, static_cast<double>(playouts) / seconds,
              1e6 * seconds / static_cast<double>(playouts), static_cast<unsigned long long>(checksum));
  return 0;
}
