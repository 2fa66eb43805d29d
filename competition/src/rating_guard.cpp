#include "elgrande/competition/rating_guard.hpp"

#include <algorithm>

namespace elgrande::competition {

std::string_view name(Unrated why) {
  switch (why) {
    case Unrated::too_few_accounts: return "too_few_accounts";
    case Unrated::aborted: return "aborted";
    case Unrated::repeated_pairing: return "repeated_pairing";
  }
  return "too_few_accounts";
}

std::optional<Unrated> why_unrated(const RatingFacts& facts, const RatingGuard& guard) {
  if (facts.decisions.size() < 2) return Unrated::too_few_accounts;
  if (std::ranges::any_of(facts.decisions, [&](int made) { return made < guard.min_decisions; })) {
    return Unrated::aborted;
  }
  if (!facts.tournament_board && facts.most_games_of_a_pair_today >= guard.rated_games_per_pair_per_day) {
    return Unrated::repeated_pairing;
  }
  return std::nullopt;
}

}  // namespace elgrande::competition
