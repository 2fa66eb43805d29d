// Plays random full games on one thread and prints games and commands per second.
// Usage: elgrande-bench [games=2000] [players=5]
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int players = argc > 2 ? std::atoi(argv[2]) : 5;
  elgrande::Options options;
  options.players = players;

  long long commands = 0;
  std::uint64_t checksum = 0;
  elgrande::Events events;
  events.reserve(64);
  const auto start = std::chrono::steady_clock::now();
  for (int g = 0; g < games; ++g) {
    elgrande::GameState state = elgrande::new_game(options, 1000 + static_cast<std::uint64_t>(g));
    elgrande::Rng bot{static_cast<std::uint64_t>(g) * 7919u};
    while (!elgrande::is_over(state)) {
      // The lowest seat that owes a decision (pending's first).
      const auto seat = static_cast<elgrande::Seat>(std::countr_zero(elgrande::waiting_for(state)));
      const elgrande::Command command = elgrande::random_command(state, seat, bot);
      events.clear();
      if (elgrande::apply(state, seat, command, events)) {
        std::fprintf(stderr, "bot command refused in game %d\n", g);
        return 1;
      }
      ++commands;
    }
    checksum ^= elgrande::hash(state);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("players: %d\ngames: %d\nseconds: %.3f\ngames_per_second: %.0f\ncommands_per_second: %.0f\n"
              "commands_per_game: %.1f\nbytes_per_state: %zu\nchecksum: %016llx\n",
              players, games, seconds, games / seconds, static_cast<double>(commands) / seconds,
              static_cast<double>(commands) / games, sizeof(elgrande::GameState),
              static_cast<unsigned long long>(checksum));
  return 0;
}
