#include "elgrande/games/module.hpp"

#include <array>

namespace elgrande::games {
namespace {

constexpr std::array<std::string_view, 4> kBotLevels{"random", "easy", "medium", "strong"};

}  // namespace

std::string_view name(BotLevel level) { return kBotLevels[static_cast<std::size_t>(level)]; }

std::optional<BotLevel> bot_level_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kBotLevels.size(); ++i) {
    if (kBotLevels[i] == name) return static_cast<BotLevel>(i);
  }
  return std::nullopt;
}

std::string_view name(Refusal::Code code) {
  switch (code) {
    case Refusal::Code::game_over: return "game_over";
    case Refusal::Code::not_your_turn: return "not_your_turn";
    case Refusal::Code::wrong_command: return "wrong_command";
    case Refusal::Code::illegal: return "illegal";
    case Refusal::Code::malformed: return "malformed";
  }
  return "illegal";
}

ReviewSearch Game::review(int /*seat*/, const MovePtr& /*played*/, BotLevel /*level*/, std::uint64_t /*seed*/) const {
  return {};
}

std::variant<std::vector<ReplayFrame>, std::string> GameModule::replay(const Json& options, std::uint64_t seed,
                                                                    std::span<const Recorded> log, std::int64_t table,
                                                                    bool /*secrets*/) const {
  Started started = setup(options, seed);
  Game& game = *started.game;
  const Frame frame{table, false, std::nullopt, false};
  std::vector<ReplayFrame> frames;
  frames.reserve(log.size() + 1);
  frames.push_back({game.update(kSpectator, frame, started.step.said.get(), false, true).patch, {}});
  for (const Recorded& recorded : log) {
    const std::string number = "command " + std::to_string(frames.size());
    auto move = read_move(Json::parse(recorded.move, nullptr, false));
    if (const auto* why = std::get_if<std::string>(&move)) return number + " is not the game's: " + *why;
    auto played = game.apply(recorded.seat, *std::get<MovePtr>(move), recorded.played_for);
    if (const auto* refusal = std::get_if<Refusal>(&played)) return number + " is refused: " + refusal->reason;
    frames.push_back({game.update(kSpectator, frame, std::get<Step>(played).said.get(), false, true).patch, {}});
  }
  return frames;
}

}  // namespace elgrande::games
