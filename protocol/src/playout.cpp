#include "elgrande/protocol/playout.hpp"

#include <stdexcept>
#include <string>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"

namespace elgrande::protocol {
namespace {

// Far beyond any real game (a few hundred commands): only a stalled engine gets here.
constexpr std::size_t kMaxCommands = 20000;

}  // namespace

GameRecord play_random_game(const Options& options, std::uint64_t seed, GameState* final_state) {
  GameRecord record{options, seed, {}};
  GameState state = new_game(options, seed);
  Rng bots{seed};
  Events events;
  while (!is_over(state)) {
    if (record.commands.size() >= kMaxCommands)
      throw std::runtime_error("random game did not end after " + std::to_string(kMaxCommands) +
                               " commands");
    const Decisions decisions = pending(state);
    if (decisions.empty()) throw std::runtime_error("random game stalled: nobody owes a decision");
    Seat seat = decisions[0].seat;
    for (const Decision& d : decisions)
      if (d.seat < seat) seat = d.seat;
    const Command command = random_command(state, seat, bots);
    events.clear();
    if (const auto rejection = apply(state, seat, command, events))
      throw std::runtime_error("the engine refused its own random command at " +
                               std::to_string(record.commands.size()) + ": " + rejection->reason);
    record.commands.push_back(RecordedCommand{seat, command});
  }
  if (final_state) *final_state = state;
  return record;
}

}  // namespace elgrande::protocol
