#pragma once

#include <array>
#include <memory>
#include <optional>

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/events.hpp"
#include "elgrande/engine/undo.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/games/module.hpp"

// El Grande's game and move behind the module interface (module.cpp makes them).
namespace elgrande::el_grande {

class ElGrandeMove final : public games::Move {
 public:
  explicit ElGrandeMove(Command command) : command_(std::move(command)) {}
  std::string record() const override;
  bool undoes() const override { return std::holds_alternative<Undo>(command_); }
  const Command& command() const { return command_; }

 private:
  Command command_;
};

class ElGrandeGame final : public games::Game {
 public:
  // A game at `state`, with what may still be taken back; every seat owing a decision
  // counts as asked now.
  ElGrandeGame(Options options, GameState state, UndoHistory undo);

  std::uint32_t version() const override { return state_.version; }
  int phase() const override { return static_cast<int>(state_.phase); }
  std::uint8_t owing() const override { return waiting_for(state_); }
  bool over() const override { return is_over(state_); }
  std::vector<int> scores() const override;
  std::vector<int> winners() const override;
  bool can_undo(int seat) const override { return undo_.can_undo(static_cast<Seat>(seat)); }
  std::optional<std::string> snapshot() const override;

  std::variant<games::Step, games::Refusal> apply(int seat, const games::Move& move, bool played_for) override;
  std::optional<games::Refusal> check(int seat, const games::Move& move) const override;
  games::MovePtr random_move(int seat, std::uint64_t seed) const override;
  games::BotSearch bot(int seat, games::BotLevel level, std::uint64_t seed) const override;
  games::ReviewSearch review(int seat, const games::MovePtr& played, games::BotLevel level,
                             std::uint64_t seed) const override;
  games::Update update(int viewer, const games::Frame& frame, const games::Said* said, bool whole,
                       bool patch) override;

  // What a step said: its events, written once for every viewer.
  games::SaidPtr said(const Events& events) const;
  // The seats whose decision changed since the last call, or who just acted.
  std::uint8_t posed(std::optional<int> actor);

  const GameState& state() const { return state_; }
  const UndoHistory& undo() const { return undo_; }

 private:
  const Options options_;
  GameState state_;
  UndoHistory undo_;
  std::array<std::optional<Decision>, kMaxPlayers> decisions_{};  // pending, per seat
  // Per viewer (kSpectator first, then the seats), the view last sent to it.
  std::array<std::optional<View>, kMaxPlayers + 1> last_view_{};
};

}  // namespace elgrande::el_grande
