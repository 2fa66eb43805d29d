#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/options.hpp"
#include "elgrande/engine/undo.hpp"

namespace elgrande {

// A game is a function of its options, its secret seed and its command log.
struct RecordedCommand {
  Seat seat = 0;
  Command command;
  // Played for the seat by a bot or its turn clock, not by its player: not the player's to
  // take back (undo.hpp).
  bool played_for = false;
  friend bool operator==(const RecordedCommand&, const RecordedCommand&) = default;
};

struct GameRecord {
  Options options;
  std::uint64_t seed = 0;
  std::vector<RecordedCommand> commands;
};

struct ReplayResult {
  GameState state;
  UndoHistory history;  // what the last seat to act may still take back
  std::optional<std::size_t> rejected_at;  // index of the first refused command
  std::optional<Rejection> rejection;
};

// The state after command `index` was accepted, and the events it set off.
using ReplayStep = std::function<void(const GameState&, std::size_t index, const Events&)>;

// Replays a record; `on_step` (if given) sees the state after each accepted command.
ReplayResult replay(const GameRecord& record, const ReplayStep& on_step = {});
// Replays `commands` on from `start` (a new game, or a saved state part-way through):
// the one way a logged game is rebuilt, for the replay tool and the server's restore alike.
// `start` must be a state with nothing to take back (undo.hpp), as every snapshot is.
ReplayResult replay(GameState start, std::span<const RecordedCommand> commands, const ReplayStep& on_step = {});

}  // namespace elgrande
