// What building a table's game.updates costs: random games, and after every command the
// update of every seat and of the spectators, each with the patch from the view it got
// last, as the server writes them (protocol/updates.hpp). Prints updates and commands per
// second, bytes per update, and a checksum of every byte written: the same games give the
// same checksum whatever the writer.
// Usage: elgrande-update-bench [games=200] [players=4]
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/updates.hpp"

int main(int argc, char** argv) {
  using namespace elgrande;
  const int games = argc > 1 ? std::atoi(argv[1]) : 200;
  const int players = argc > 2 ? std::atoi(argv[2]) : 4;
  Options options;
  options.players = players;

  long long commands = 0, updates = 0, bytes = 0;
  std::uint64_t checksum = 0;  // of every update's text
  Events events;
  const auto start = std::chrono::steady_clock::now();
  for (int g = 0; g < games; ++g) {
    GameState state = new_game(options, 1000 + static_cast<std::uint64_t>(g));
    Rng bot{static_cast<std::uint64_t>(g) * 7919u};
    std::vector<View> held;  // the spectators' view, then each seat's
    for (Seat viewer = kSpectator; viewer < players; ++viewer) held.push_back(view(state, viewer));
    while (!is_over(state)) {
      const auto seat = static_cast<Seat>(std::countr_zero(waiting_for(state)));
      events.clear();
      if (apply(state, seat, random_command(state, seat, bot), events)) {
        std::fprintf(stderr, "bot command refused in game %d\n", g);
        return 1;
      }
      ++commands;
      const protocol::EventTexts texts(events, options);
      for (Seat viewer = kSpectator; viewer < players; ++viewer) {
        View now = view(state, viewer);
        protocol::UpdateHeader header;
        header.table = g + 1;
        header.version = state.version;
        header.can_undo = viewer == seat;
        View& before = held[static_cast<std::size_t>(viewer + 1)];
        const std::string text = protocol::update_with_patch(header, texts, before, now);
        checksum = checksum * 31 + std::hash<std::string_view>{}(text);
        bytes += static_cast<long long>(text.size());
        ++updates;
        before = std::move(now);
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("players: %d\ngames: %d\nseconds: %.3f\ncommands_per_second: %.0f\nupdates_per_second: %.0f\n"
              "us_per_command: %.2f\nbytes_per_update: %.1f\nchecksum: %016llx\n",
              players, games, seconds, static_cast<double>(commands) / seconds, static_cast<double>(updates) / seconds,
              1e6 * seconds / static_cast<double>(commands), static_cast<double>(bytes) / static_cast<double>(updates),
              static_cast<unsigned long long>(checksum));
  return 0;
}
