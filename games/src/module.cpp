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

}  // namespace elgrande::games
