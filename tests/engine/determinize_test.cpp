// A state drawn from one seat's view looks, from that seat, exactly like the true one, and
// is a game the engine can play on to its end.
#include <catch2/catch.hpp>

#include "elgrande/engine/determinize.hpp"
#include "playout.hpp"

using namespace elgrande;
using elgrande::testing::all_variants;
using elgrande::testing::games_per_variant;

namespace {

// Whether the states differ in what the viewer cannot see: others' hands, disks, the
// face-down stacks, the automa's decks (the generator, always drawn afresh, aside).
bool secrets_differ(const GameState& a, const GameState& b, Seat viewer) {
  for (Seat p = 0; p < a.options.players; ++p) {
    if (p == viewer) continue;
    if (a.players[p].hand != b.players[p].hand || a.players[p].disk != b.players[p].disk) return true;
  }
  for (int i = 0; i < a.stack_count; ++i)
    if (!(a.stacks[i].face_down == b.stacks[i].face_down)) return true;
  return !(a.automa.power_deck == b.automa.power_deck) || !(a.automa.region_deck == b.automa.region_deck);
}

}  // namespace

TEST_CASE("A determinised state shows its seat the very view it was drawn from", "[determinize]") {
  int checked = 0, differed = 0;
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games_per_variant(20); ++g) {
      const std::uint64_t seed = 900000 + static_cast<std::uint64_t>(g);
      INFO(variant.label << ", seed " << seed);
      GameState state = new_game(variant.options, seed);
      Rng bots{seed}, draws{seed * 3 + 1};
      Events events;
      while (!is_over(state)) {
        for (Seat seat = 0; seat < variant.options.players; ++seat) {
          const View seen = view(state, seat);
          const GameState drawn = determinize(seen, draws);
          INFO("seat " << int(seat) << ", version " << state.version);
          REQUIRE(view(drawn, seat) == seen);
          REQUIRE_NOTHROW(check_invariants(drawn));
          REQUIRE(waiting_for(drawn) == waiting_for(state));
          differed += secrets_differ(drawn, state, seat);
          ++checked;
        }
        const Seat seat = elgrande::testing::next_seat(state);
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, bots), events));
      }
    }
  }
  // The secrets really are drawn, not copied.
  CHECK(differed > checked / 2);
}

TEST_CASE("A determinised state plays on to the end of the game", "[determinize]") {
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games_per_variant(10); ++g) {
      const std::uint64_t seed = 910000 + static_cast<std::uint64_t>(g);
      GameState state = new_game(variant.options, seed);
      Rng bots{seed};
      Events events;
      int step = 0;
      while (!is_over(state)) {
        if (step++ % 17 == 0) {
          // Play the drawn world out from here with every seat's random answers.
          const Seat seat = elgrande::testing::next_seat(state);
          Rng draws{seed + static_cast<std::uint64_t>(step)};
          GameState world = determinize(view(state, seat), draws);
          INFO(variant.label << ", seed " << seed << ", version " << state.version);
          int commands = 0;
          while (!is_over(world) && commands++ < 5000) {
            const Seat next = elgrande::testing::next_seat(world);
            events.clear();
            const auto rejection = apply(world, next, random_command(world, next, draws), events);
            REQUIRE_FALSE(rejection);
            REQUIRE_NOTHROW(check_invariants(world));
          }
          REQUIRE(is_over(world));
        }
        const Seat seat = elgrande::testing::next_seat(state);
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, bots), events));
      }
    }
  }
}

TEST_CASE("A spectator's view cannot be determinised", "[determinize]") {
  const GameState state = new_game(Options{}, 1);
  Rng rng{1};
  REQUIRE_THROWS_AS(determinize(view(state, kSpectator), rng), std::invalid_argument);
}
