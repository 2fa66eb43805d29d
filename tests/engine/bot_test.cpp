// The random bot decides from a seat's view alone, as a remote client would.
#include <stdexcept>

#include <catch2/catch.hpp>

#include "elgrande/engine/view.hpp"
#include "playout.hpp"

using namespace elgrande;
using elgrande::testing::all_variants;
using elgrande::testing::games_per_variant;

TEST_CASE("A bot that sees only its seat's view is always answered with acceptance", "[bot]") {
  int answered = 0;
  const int games = games_per_variant(50);
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games; ++g) {
      const std::uint64_t seed = 910000 + static_cast<std::uint64_t>(g);
      GameState state = new_game(variant.options, seed);
      Rng bots{seed ^ 0x5eedull};
      Events events;
      while (!is_over(state)) {
        INFO(variant.label << ", seed " << seed << ", version " << state.version);
        const std::uint8_t owing = waiting_for(state);
        REQUIRE_THROWS_AS(random_command(view(state, kSpectator), bots), std::logic_error);
        for (Seat seat = 0; seat < variant.options.players; ++seat) {
          const View seen = view(state, seat);
          if (!((owing >> seat) & 1u)) {
            REQUIRE_FALSE(seen.decision);
            REQUIRE_THROWS_AS(random_command(seen, bots), std::logic_error);
            continue;
          }
          GameState trial = state;
          events.clear();
          const auto rejection = apply(trial, seat, random_command(seen, bots), events);
          if (rejection) FAIL("the engine refused a view bot's command: " << rejection->reason);
          ++answered;
        }
        // Move on with one of the seats that owe an answer, not always the first.
        const Decisions decisions = pending(state);
        const Seat seat = decisions[bots.below(static_cast<std::uint32_t>(decisions.size()))].seat;
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(view(state, seat), bots), events));
      }
    }
  }
  // A game asks well over a hundred decisions; far fewer means the loop tested little.
  REQUIRE(answered > 100 * games * static_cast<int>(all_variants().size()));
}

TEST_CASE("The state and view entry points give the same answer from the same generator", "[bot]") {
  GameState state = new_game(Options{4, false, false, false}, 12);
  Rng a{3}, b{3};
  Events events;
  while (!is_over(state)) {
    const Seat seat = elgrande::testing::next_seat(state);
    const Command command = random_command(state, seat, a);
    REQUIRE(command == random_command(view(state, seat), b));
    events.clear();
    REQUIRE_FALSE(apply(state, seat, command, events));
  }
  REQUIRE(a == b);
}
