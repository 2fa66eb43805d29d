#include "game.hpp"

#include <algorithm>

#include "elgrande/ai/search.hpp"
#include "elgrande/el_grande/module.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/updates.hpp"
#include "snapshot.hpp"

namespace elgrande::el_grande {
namespace {

// A step's events, each written once for all the viewers it is shown to.
struct SaidTexts final : games::Said {
  protocol::EventTexts texts;
};

games::Refusal refusal(const Rejection& rejection) {
  return games::Refusal{static_cast<games::Refusal::Code>(rejection.code), rejection.reason};
}
static_assert(static_cast<int>(games::Refusal::Code::malformed) == static_cast<int>(Rejection::Code::malformed));

ai::Level level_of(games::BotLevel level) {
  switch (level) {
    case games::BotLevel::random: return ai::Level::random;
    case games::BotLevel::easy: return ai::Level::easy;
    case games::BotLevel::medium: return ai::Level::medium;
    case games::BotLevel::strong: return ai::Level::strong;
  }
  return ai::Level::random;
}

const Command& command_in(const games::Move& move) { return static_cast<const ElGrandeMove&>(move).command(); }

}  // namespace

std::string ElGrandeMove::record() const { return protocol::command_text(command_); }

ElGrandeGame::ElGrandeGame(Options options, GameState state, UndoHistory undo)
    : options_(options), state_(std::move(state)), undo_(std::move(undo)) {
  posed(std::nullopt);
}

std::vector<int> ElGrandeGame::scores() const {
  std::vector<int> scores;
  for (int s = 0; s < options_.players; ++s) scores.push_back(state_.players[static_cast<std::size_t>(s)].score);
  return scores;
}

std::vector<int> ElGrandeGame::winners() const {
  std::vector<int> seats;
  const std::uint8_t won = elgrande::winners(state_);
  for (int s = 0; s < options_.players; ++s) {
    if ((won >> s) & 1u) seats.push_back(s);
  }
  return seats;
}

std::optional<std::string> ElGrandeGame::snapshot() const {
  if (!undo_.empty()) return std::nullopt;
  return encode_state(state_);
}

std::uint8_t ElGrandeGame::posed(std::optional<int> actor) {
  std::array<std::optional<Decision>, kMaxPlayers> now{};
  for (const Decision& decision : pending(state_)) now[decision.seat] = decision;
  std::uint8_t changed = 0;
  for (std::size_t s = 0; s < now.size(); ++s) {
    if (now[s] != decisions_[s] || actor == static_cast<int>(s)) changed = static_cast<std::uint8_t>(changed | (1u << s));
  }
  decisions_ = now;
  return changed;
}

games::SaidPtr ElGrandeGame::said(const Events& events) const {
  auto said = std::make_shared<SaidTexts>();
  said->texts = protocol::EventTexts(events, options_);
  return said;
}

std::variant<games::Step, games::Refusal> ElGrandeGame::apply(int seat, const games::Move& move, bool played_for) {
  Events events;
  if (const auto rejection = elgrande::apply(state_, undo_, static_cast<Seat>(seat), command_in(move), events,
                                             played_for ? Taker::nobody : Taker::the_seat)) {
    return refusal(*rejection);
  }
  return games::Step{said(events), posed(seat)};
}

std::optional<games::Refusal> ElGrandeGame::check(int seat, const games::Move& move) const {
  GameState trial = state_;
  Events ignored;
  if (const auto rejection = elgrande::apply(trial, static_cast<Seat>(seat), command_in(move), ignored)) {
    return refusal(*rejection);
  }
  return std::nullopt;
}

games::MovePtr ElGrandeGame::random_move(int seat, std::uint64_t seed) const {
  Rng rng{seed};
  return move_of(random_command(state_, static_cast<Seat>(seat), rng));
}

games::BotSearch ElGrandeGame::bot(int seat, games::BotLevel level, std::uint64_t seed) const {
  // The bot sees what its seat sees, nothing more.
  return [view = view(state_, static_cast<Seat>(seat)), level = level_of(level),
          seed = Rng{seed}.next()](const games::BotBudget& budget) {
    return move_of(ai::choose(view, level, seed, ai::Budget{budget.iterations, budget.stop}).command);
  };
}

games::ReviewSearch ElGrandeGame::review(int seat, const games::MovePtr& played, games::BotLevel level,
                                        std::uint64_t seed) const {
  // An undo answers no decision; the random level has no opinion to give.
  if (!played || played->undoes() || level == games::BotLevel::random) return {};
  if (seat < 0 || seat >= options_.players || !((waiting_for(state_) >> seat) & 1u) || check(seat, *played)) return {};
  // The search sees what the seat saw, nothing more: its view and its own move.
  return [view = view(state_, static_cast<Seat>(seat)), played = command_in(*played), level = level_of(level),
          seed = Rng{seed}.next()](const games::BotBudget& budget) -> std::optional<games::Review> {
    const ai::Review review = ai::review(view, played, level, seed, ai::Budget{budget.iterations, budget.stop});
    // A search stopped before it played the move out has no share of it to show.
    if (review.candidates > 1 && review.played_visits == 0) return std::nullopt;
    return games::Review{move_of(review.bot), review.bot_win_share, move_of(review.played),
                         review.played_win_share, review.iterations, review.same};
  };
}

games::Update ElGrandeGame::update(int viewer, const games::Frame& frame, const games::Said* said, bool whole,
                                   bool patch) {
  View now = view(state_, static_cast<Seat>(viewer));
  if (frame.closed) {
    now.decision.reset();
    now.waiting_for = 0;
  }
  const protocol::UpdateHeader header{frame.table, state_.version, frame.can_undo, frame.deadline};
  static const protocol::EventTexts kNothingSaid;
  const protocol::EventTexts& texts = said ? static_cast<const SaidTexts*>(said)->texts : kNothingSaid;
  // Whoever holds this viewer's view holds the one sent last (docs/protocol.md#view-patches).
  std::optional<View>& before = last_view_[static_cast<std::size_t>(viewer + 1)];
  games::Update update;
  if (patch && before) update.patch = protocol::update_with_patch(header, texts, *before, now);
  if (whole || (patch && !before)) {
    update.whole = protocol::update_with_view(header, texts, now);
    if (patch && !before) update.patch = update.whole;
  }
  before = std::move(now);
  return update;
}

}  // namespace elgrande::el_grande
