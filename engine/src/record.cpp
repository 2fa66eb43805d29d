#include "elgrande/engine/record.hpp"

namespace elgrande {

ReplayResult replay(const GameRecord& record,
                    const std::function<void(const GameState&, std::size_t)>& on_step) {
  ReplayResult result{new_game(record.options, record.seed), std::nullopt, std::nullopt};
  Events events;
  for (std::size_t i = 0; i < record.commands.size(); ++i) {
    events.clear();
    const RecordedCommand& rc = record.commands[i];
    if (auto rejection = apply(result.state, rc.seat, rc.command, events)) {
      result.rejected_at = i;
      result.rejection = std::move(rejection);
      break;
    }
    if (on_step) on_step(result.state, i);
  }
  return result;
}

}  // namespace elgrande
