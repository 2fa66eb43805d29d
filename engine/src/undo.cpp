#include "elgrande/engine/undo.hpp"

#include <algorithm>

#include "elgrande/engine/game.hpp"

namespace elgrande {

namespace {

bool in_own_turn(const GameState& s, Seat seat) {
  return (s.phase == Phase::take_caballeros || s.phase == Phase::choose_action_card ||
          s.phase == Phase::use_action_card) &&
         active_seat(s) == seat;
}

// Whether everyone was told the same, and nothing hidden came to light: the castillo is the
// one secret a seat's own turn can open (by scoring it); the others come with other seats'
// answers or a new round, which end what can be taken back anyway.
bool tells_nothing_new(const Event& e) {
  const auto* scored = std::get_if<AreaScored>(&e.body);
  return e.audience.kind == Audience::Kind::everyone && !(scored && scored->area == Area::castillo);
}

}  // namespace

void UndoHistory::record(const GameState& before, Seat seat, Taker taker, const GameState& after,
                         std::span<const Event> events) {
  // The seat's own command, still in the same turn of that seat, nobody else owing
  // anything, no chance drawn and nothing new told: then the seat has learnt nothing it
  // could use after taking the command back.
  const bool takeable = taker == Taker::the_seat && in_own_turn(before, seat) && in_own_turn(after, seat) &&
                        after.round == before.round && after.turn_index == before.turn_index &&
                        waiting_for(after) == (1u << seat) && after.rng == before.rng &&
                        std::ranges::all_of(events, tells_nothing_new);
  if (!takeable) {
    seat_ = -1;
    before_.clear();
    return;
  }
  if (seat != seat_) before_.clear();
  seat_ = seat;
  before_.push_back(before);
}

GameState UndoHistory::undo(const GameState& now) {
  GameState back = before_.back();
  before_.pop_back();
  back.version = now.version + 1;  // versions only ever grow: clients and the log count on it
  return back;
}

std::optional<Rejection> apply(GameState& state, UndoHistory& history, Seat seat, const Command& command,
                               Events& events, Taker taker) {
  if (std::holds_alternative<Undo>(command)) {
    if (!history.can_undo(seat)) {
      return Rejection{Rejection::Code::illegal,
                       "nothing to take back: only your own commands of this turn, before anything else happened"};
    }
    state = history.undo(state);
    events.push_back(Event{Audience{}, CommandUndone{seat}});
    return std::nullopt;
  }
  const GameState before = state;
  const std::size_t first = events.size();
  if (auto rejection = apply(state, seat, command, events)) return rejection;
  history.record(before, seat, taker, state, std::span(events).subspan(first));
  return std::nullopt;
}

}  // namespace elgrande
