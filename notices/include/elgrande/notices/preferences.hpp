#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace elgrande::notices {

// What a player is told about (docs/notifications.md#what-a-player-is-told-and-how).
enum class Kind : std::uint8_t { turn, game_ended, tournament };
inline constexpr Kind kKinds[] = {Kind::turn, Kind::game_ended, Kind::tournament};
std::string_view name(Kind kind);  // "turn", "game_ended", "tournament"
std::optional<Kind> kind_from_name(std::string_view name);

// The ways a notice reaches a player.
struct Channels {
  bool mail = true;
  bool push = true;
  friend bool operator==(const Channels&, const Channels&) = default;
};

// A player's choices: per kind, mail and push; one daily digest instead of single mails;
// and, per game (a table's id), channels that replace those of its turn and game_ended
// notices (a game muted, or told only by push). Every notice is on until turned off.
struct Preferences {
  std::map<Kind, Channels> kinds{{Kind::turn, {}}, {Kind::game_ended, {}}, {Kind::tournament, {}}};
  bool digest = false;
  std::map<std::int64_t, Channels> games;
  friend bool operator==(const Preferences&, const Preferences&) = default;

  // How a notice of `kind` about `table` (if it is about one) may reach the player.
  Channels wanted(Kind kind, std::optional<std::int64_t> table = std::nullopt) const;
};

// At most this many games with channels of their own: a player's preferences stay small.
inline constexpr std::size_t kMaxGamePreferences = 200;

// {"turn": {"mail": true, "push": true}, "game_ended": {...}, "tournament": {...},
//  "digest": false, "games": {"17": {"mail": false, "push": true}}}
nlohmann::json to_json(const Preferences& preferences);
// Reads what to_json writes; a key left out keeps its default. What is wrong, if anything:
// unknown keys, wrong types, a game id that is not a positive number, too many games.
std::variant<Preferences, std::string> read_preferences(const nlohmann::json& json);

}  // namespace elgrande::notices
