#include "games.hpp"

#include <map>
#include <utility>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"

namespace elgrande::fuzz {
namespace {

constexpr std::array<Options, 12> kVariants{{
    {2, false, false, false},
    {2, false, true, false},
    {3, false, false, false},
    {3, false, false, true},
    {4, false, false, false},
    {5, false, false, false},
    {2, true, false, false},
    {2, true, true, false},
    {3, true, false, false},
    {3, true, false, true},
    {4, true, false, false},
    {5, true, false, false},
}};

std::size_t variant_index(const Options& options) {
  for (std::size_t i = 0; i < kVariants.size(); ++i)
    if (kVariants[i] == options) return i;
  return 0;
}

// Every state of one random game, from the start to its end.
std::vector<GameState> play(const Options& options, std::uint64_t seed) {
  std::vector<GameState> states{new_game(options, seed)};
  Rng bots{seed};
  Events events;
  while (!is_over(states.back())) {
    GameState next = states.back();
    const Seat seat = pending(next)[0].seat;
    events.clear();
    if (apply(next, seat, random_command(next, seat, bots), events)) throw InvariantBroken("the bot's command was refused");
    states.push_back(next);
  }
  return states;
}

}  // namespace

std::optional<GameChoice> take_game_choice(std::span<const std::uint8_t>& input) {
  if (input.size() < kGameBytes) return std::nullopt;
  GameChoice choice{kVariants[input[0] % kVariants.size()], input[1],
                    static_cast<std::size_t>(input[2] | (input[3] << 8))};
  input = input.subspan(kGameBytes);
  return choice;
}

std::array<std::uint8_t, kGameBytes> game_choice_bytes(const GameChoice& choice) {
  return {static_cast<std::uint8_t>(variant_index(choice.options)), static_cast<std::uint8_t>(choice.seed),
          static_cast<std::uint8_t>(choice.steps & 0xFF), static_cast<std::uint8_t>(choice.steps >> 8)};
}

const GameState& state_after(const GameChoice& choice) {
  // 12 variants x 256 seeds would hold too much; a few dozen whole games are plenty.
  constexpr std::size_t kKeptGames = 48;
  static std::map<std::pair<std::size_t, std::uint64_t>, std::vector<GameState>> games;
  const auto key = std::pair(variant_index(choice.options), choice.seed);
  auto found = games.find(key);
  if (found == games.end()) {
    if (games.size() >= kKeptGames) games.clear();
    found = games.emplace(key, play(choice.options, choice.seed)).first;
  }
  const std::vector<GameState>& states = found->second;
  return states[std::min(choice.steps, states.size() - 1)];
}

}  // namespace elgrande::fuzz
