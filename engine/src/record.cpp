#include "elgrande/engine/record.hpp"

namespace elgrande {

ReplayResult replay(const GameRecord& record, const ReplayStep& on_step) {
  return replay(new_game(record.options, record.seed), record.commands, on_step);
}

ReplayResult replay(GameState start, std::span<const RecordedCommand> commands, const ReplayStep& on_step) {
  ReplayResult result{start, {}, std::nullopt, std::nullopt};
  Events events;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    events.clear();
    const RecordedCommand& rc = commands[i];
    if (auto rejection = apply(result.state, result.history, rc.seat, rc.command, events, rc.played_for ? Taker::nobody : Taker::the_seat)) {
      result.rejected_at = i;
      result.rejection = std::move(rejection);
      break;
    }
    if (on_step) on_step(result.state, i, events);
  }
  return result;
}

}  // namespace elgrande
