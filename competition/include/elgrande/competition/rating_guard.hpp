#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace elgrande::competition {

// Why a game played out at a rated table moves no rating (docs/ratings.md#what-is-rated).
enum class Unrated : std::uint8_t {
  too_few_accounts,  // fewer than two of its players have an account
  aborted,           // a rated player made fewer than a few decisions of their own
  repeated_pairing,  // two of its accounts already had their day's rated games together
};
std::string_view name(Unrated why);  // "too_few_accounts", "aborted", "repeated_pairing"

// What keeps a second account from feeding wins to the first (rating farming): a game
// counts only once every rated player has taken part in it, and two accounts that keep
// meeting in the lobby stop moving each other's ratings for the day. Tournament boards
// are paired by the event, not chosen, and so are not held to the daily cap.
struct RatingGuard {
  int min_decisions = 3;           // each rated player's own answers, bots' and clocks' not counted
  int rated_games_per_pair_per_day = 3;
};

struct RatingFacts {
  // Per player with an account, the decisions they answered themselves.
  std::span<const int> decisions;
  // The most rated games any two of them played together in the last 24 hours, before this one.
  int most_games_of_a_pair_today = 0;
  bool tournament_board = false;
};

// Whether the game is rated; if not, why. Pure: the facts come from the caller.
std::optional<Unrated> why_unrated(const RatingFacts& facts, const RatingGuard& guard = {});

}  // namespace elgrande::competition
