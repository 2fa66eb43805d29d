// The search's choices pinned for seeded positions: what `choose` answered before the
// review (issue 46) joined the search. The arena's figures and every seeded game a bot has
// played depend on the same view, level and seed giving the same answer.
#include <catch2/catch.hpp>

#include "elgrande/ai/search.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/game.hpp"
#include "engine/playout.hpp"

using namespace elgrande;

namespace {

struct Pinned {
  std::uint64_t after = 0;  // hash of the state once the choice is played
  double value = 0.0;
  int iterations = 0;
  int candidates = 0;
};

// A position `steps` random answers into a game of the variant, and the next seat's choice.
Pinned pinned_choice(const Options& options, std::uint64_t seed, int steps, ai::Level level, int iterations) {
  GameState state = new_game(options, seed);
  Rng rng{seed};
  Events events;
  for (int i = 0; i < steps; ++i) {  // stopping short of the end of a short game
    GameState next = state;
    const Seat seat = elgrande::testing::next_seat(next);
    REQUIRE_FALSE(apply(next, seat, random_command(next, seat, rng), events));
    if (is_over(next)) break;
    state = std::move(next);
  }
  const Seat seat = elgrande::testing::next_seat(state);
  const ai::Choice choice = ai::choose(view(state, seat), level, seed * 31 + 7, ai::Budget{iterations, {}});
  REQUIRE_FALSE(apply(state, seat, choice.command, events));
  return Pinned{hash(state), choice.value, choice.iterations, choice.candidates};
}

// Recorded from the search as it was before reviews (commit cb1b932), one row per variant.
const Pinned kPinned[] = {
    {0xb4fd38bb8d42037aull, 0.52991071428571435, 50, 7},  // 2 players
    {0xe5ee9ce3c217bb5eull, 0.56778846153846163, 400, 20},  // 2 players with automa
    {0xd5f52a2f52315881ull, 0.30331017572537855, 3000, 2},  // 3 players
    {0x1b70e65774f2676aull, 0.089583333333333334, 50, 17},  // 3 players, four stacks
    {0x05ddf299908ce7edull, 0.64082446808510618, 400, 8},  // 4 players
    {0x1c64fae27973acabull, 0.2280415655339805, 3000, 7},  // 5 players
    {0xf1c6932f84599df0ull, 1, 50, 9},  // 2 players, short game
    {0x49e61769376adac4ull, 0.99885204081632639, 400, 9},  // 2 players with automa, short game
    {0xf79c9ac1bdc741e7ull, 0.8383546128500784, 3000, 9},  // 3 players, short game
    {0x271b598a20217c63ull, 0.10833333333333332, 50, 9},  // 3 players, four stacks, short game
    {0x48fd0aede4e856a9ull, 0.082638888888888845, 400, 9},  // 4 players, short game
    {0x7a4c5d9877b8f4d4ull, 0.46718749999999515, 3000, 9},  // 5 players, short game
    {0xc45a4c7831a9c85eull, 0.027678571428571424, 50, 8},  // 4 players, 1995 edition
    {0xd1c421a8dd834bfdull, 1, 400, 8},  // 3 players, 1995 edition, short game
};

}  // namespace

TEST_CASE("The search answers seeded positions as it always has", "[ai][pinned]") {
  const auto variants = elgrande::testing::all_variants();
  const ai::Level levels[] = {ai::Level::easy, ai::Level::medium, ai::Level::strong};
  REQUIRE(variants.size() == std::size(kPinned));
  for (std::size_t v = 0; v < variants.size(); ++v) {
    INFO(variants[v].label);
    const auto seed = 900 + static_cast<std::uint64_t>(v);
    const int steps = 15 + static_cast<int>(v) * 23;
    const ai::Level level = levels[v % 3];
    const Pinned got = pinned_choice(variants[v].options, seed, steps, level, 0);
    CHECK(got.after == kPinned[v].after);
    CHECK(got.value == kPinned[v].value);
    CHECK(got.iterations == kPinned[v].iterations);
    CHECK(got.candidates == kPinned[v].candidates);
  }
}

TEST_CASE("Searching bots play a seeded short game as they always have", "[ai][pinned]") {
  Options options = elgrande::testing::players(4);
  options.short_game = true;
  GameState state = new_game(options, 61);
  const ai::Level levels[] = {ai::Level::easy, ai::Level::medium, ai::Level::strong, ai::Level::medium};
  Events events;
  while (!is_over(state)) {
    const Seat seat = elgrande::testing::next_seat(state);
    const Command command = ai::choose(view(state, seat), levels[seat], state.version, ai::Budget{40, {}}).command;
    REQUIRE_FALSE(apply(state, seat, command, events));
  }
  CHECK(hash(state) == 0xf2c418ecccc143e5ull);
}
