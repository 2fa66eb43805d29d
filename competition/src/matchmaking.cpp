#include "elgrande/competition/matchmaking.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <optional>

namespace elgrande::competition {

int accepted_spread(const Seeker& seeker, const MatchRules& rules) {
  const std::int64_t widened = rules.spread + seeker.waited_ms * rules.widen_per_minute / 60'000;
  return static_cast<int>(std::min<std::int64_t>(widened, rules.max_spread));
}

namespace {

// The seekers still waiting, by rating (then id): groups are runs of neighbours in it.
struct Waiting {
  std::vector<const Seeker*> by_rating;

  // Whether every member of by_rating[first, first + size) accepts the group's spread.
  bool acceptable(std::size_t first, std::size_t size, const MatchRules& rules) const {
    const int spread = by_rating[first + size - 1]->rating - by_rating[first]->rating;
    for (std::size_t i = first; i < first + size; ++i) {
      if (accepted_spread(*by_rating[i], rules) < spread) return false;
    }
    return true;
  }
  std::int64_t waits(std::size_t first, std::size_t size) const {
    std::int64_t total = 0;
    for (std::size_t i = first; i < first + size; ++i) total += by_rating[i]->waited_ms;
    return total;
  }
  Match take(std::vector<std::size_t> members, int bots) {
    Match made{{}, bots};
    for (std::size_t i : members) made.players.push_back(by_rating[i]->player);
    std::sort(members.rbegin(), members.rend());
    for (std::size_t i : members) by_rating.erase(by_rating.begin() + static_cast<std::ptrdiff_t>(i));
    return made;
  }
};

// The full table around position `at` with the smallest acceptable spread, if any.
std::optional<std::size_t> best_group(const Waiting& waiting, std::size_t at, const MatchRules& rules) {
  const auto size = static_cast<std::size_t>(rules.players);
  if (waiting.by_rating.size() < size) return std::nullopt;
  std::optional<std::size_t> best;
  const std::size_t lowest = at + 1 >= size ? at + 1 - size : 0;
  const std::size_t highest = std::min(at, waiting.by_rating.size() - size);
  for (std::size_t first = lowest; first <= highest; ++first) {
    if (!waiting.acceptable(first, size, rules)) continue;
    const auto spread = [&](std::size_t f) { return waiting.by_rating[f + size - 1]->rating - waiting.by_rating[f]->rating; };
    if (!best || spread(first) < spread(*best) ||
        (spread(first) == spread(*best) && waiting.waits(first, size) > waiting.waits(*best, size))) {
      best = first;
    }
  }
  return best;
}

// The seeker at `at` with the nearest others who welcome bots (nearest rating first), each
// taken only if everyone then accepts the group's spread: fewer than a full table.
std::vector<std::size_t> group_with_bots(const Waiting& waiting, std::size_t at, const MatchRules& rules) {
  const auto rating = [&](std::size_t i) { return waiting.by_rating[i]->rating; };
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < waiting.by_rating.size(); ++i) {
    if (i != at && waiting.by_rating[i]->bots_welcome()) candidates.push_back(i);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(rating(a) - rating(at)) < std::abs(rating(b) - rating(at));
  });
  std::vector<std::size_t> members{at};
  int low = rating(at);
  int high = rating(at);
  for (std::size_t candidate : candidates) {
    if (members.size() + 1 >= static_cast<std::size_t>(rules.players)) break;
    const int spread = std::max(high, rating(candidate)) - std::min(low, rating(candidate));
    members.push_back(candidate);
    if (std::all_of(members.begin(), members.end(),
                    [&](std::size_t m) { return accepted_spread(*waiting.by_rating[m], rules) >= spread; })) {
      low = std::min(low, rating(candidate));
      high = std::max(high, rating(candidate));
    } else {
      members.pop_back();
    }
  }
  std::sort(members.begin(), members.end());
  return members;
}

}  // namespace

std::vector<Match> match(const std::vector<Seeker>& queue, const MatchRules& rules) {
  Waiting waiting;
  for (const Seeker& seeker : queue) waiting.by_rating.push_back(&seeker);
  std::sort(waiting.by_rating.begin(), waiting.by_rating.end(), [](const Seeker* a, const Seeker* b) {
    return a->rating != b->rating ? a->rating < b->rating : a->player < b->player;
  });
  // Served in order of waiting, longest first (then by id).
  std::vector<const Seeker*> turns = waiting.by_rating;
  std::sort(turns.begin(), turns.end(), [](const Seeker* a, const Seeker* b) {
    return a->waited_ms != b->waited_ms ? a->waited_ms > b->waited_ms : a->player < b->player;
  });

  std::vector<Match> made;
  for (const Seeker* seeker : turns) {
    const auto found = std::find(waiting.by_rating.begin(), waiting.by_rating.end(), seeker);
    if (found == waiting.by_rating.end()) continue;  // seated already
    const auto at = static_cast<std::size_t>(found - waiting.by_rating.begin());
    if (const auto first = best_group(waiting, at, rules)) {
      std::vector<std::size_t> members(static_cast<std::size_t>(rules.players));
      std::iota(members.begin(), members.end(), *first);
      made.push_back(waiting.take(std::move(members), 0));
    } else if (seeker->bots_welcome() && seeker->waited_ms >= *seeker->bots_after_ms) {
      std::vector<std::size_t> members = group_with_bots(waiting, at, rules);
      const int bots = rules.players - static_cast<int>(members.size());
      made.push_back(waiting.take(std::move(members), bots));
    }
  }
  return made;
}

}  // namespace elgrande::competition
