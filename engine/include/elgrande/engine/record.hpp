#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/options.hpp"

namespace elgrande {

// A game is a function of its options, its secret seed and its command log.
struct RecordedCommand {
  Seat seat = 0;
  Command command;
  friend bool operator==(const RecordedCommand&, const RecordedCommand&) = default;
};

struct GameRecord {
  Options options;
  std::uint64_t seed = 0;
  std::vector<RecordedCommand> commands;
};

struct ReplayResult {
  GameState state;
  std::optional<std::size_t> rejected_at;  // index of the first refused command
  std::optional<Rejection> rejection;
};

// Replays a record; `on_step` (if given) sees the state after each accepted command.
ReplayResult replay(const GameRecord& record,
                    const std::function<void(const GameState&, std::size_t)>& on_step = {});

}  // namespace elgrande
