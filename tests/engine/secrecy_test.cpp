// What seat A sees never depends on seat B's secrets (rules section 8).
#include <bit>

#include <catch2/catch.hpp>

#include "elgrande/engine/view.hpp"
#include "playout.hpp"

using namespace elgrande;
using elgrande::testing::all_variants;
using elgrande::testing::games_per_variant;

namespace {

// The same game with different secrets for seat `b` and for nobody: b's hand against b's
// discard pile, b's disk, the order of every face-down pile, and the generator.
GameState twin(const GameState& s, Seat b, Rng& r) {
  GameState t = s;
  Player& p = t.players[b];
  const PowerCards swappable_hand = static_cast<PowerCards>(p.hand);
  const PowerCards swappable_discards = static_cast<PowerCards>(p.discards & ~power_bit(p.played));
  // (Not while an announced action waits on vetoes: it may be b's take-back of a card.)
  if (swappable_hand && swappable_discards && !t.turn.announced) {
    auto pick = [&](PowerCards mask) {
      int skip = static_cast<int>(r.below(static_cast<std::uint32_t>(std::popcount(mask))));
      for (int v = 1; v <= kPowerCardCount; ++v)
        if ((mask & power_bit(v)) && skip-- == 0) return v;
      return 0;
    };
    const int in_hand = pick(swappable_hand), discarded = pick(swappable_discards);
    p.hand = static_cast<PowerCards>((p.hand & ~power_bit(in_hand)) | power_bit(discarded));
    p.discards = static_cast<PowerCards>((p.discards & ~power_bit(discarded)) | power_bit(in_hand));
  }
  if (p.disk) p.disk = area_at((index(*p.disk) + 1 + static_cast<int>(r.below(kRegionCount - 1))) % kRegionCount);
  for (ActionStack& stack : t.stacks) r.shuffle(stack.face_down);
  r.shuffle(t.automa.power_deck);
  r.shuffle(t.automa.region_deck);
  t.rng.state ^= r.next() | 1;
  return t;
}

bool reveals_disks(const Events& events) {
  for (const Event& e : events)
    if (std::holds_alternative<DisksRevealed>(e.body)) return true;
  return false;
}

void require_same_for_others(const GameState& a, const GameState& b, Seat secret_owner,
                             const Events& ea, const Events& eb) {
  for (Seat viewer = kSpectator; viewer < a.options.players; ++viewer) {
    if (viewer == secret_owner) continue;
    INFO("viewer " << int(viewer) << ", secrets of " << int(secret_owner));
    const View va = view(a, viewer), vb = view(b, viewer);
    REQUIRE(va == vb);
    REQUIRE(visible_to(ea, viewer) == visible_to(eb, viewer));
  }
}

}  // namespace

TEST_CASE("Seat A's views and events are identical whatever seat B's secrets are", "[secrecy]") {
  int compared_steps = 0, twins_with_secrets = 0, secret_choices = 0;
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games_per_variant(200); ++g) {
      const std::uint64_t seed = 500000 + static_cast<std::uint64_t>(g);
      GameState state = new_game(variant.options, seed);
      Rng r{seed};
      Events events;
      while (!is_over(state)) {
        // Now and then, fork a twin and play both on until the next round begins.
        if (r.below(12) == 0) {
          const Seat b = static_cast<Seat>(r.below(static_cast<std::uint32_t>(variant.options.players)));
          GameState other = twin(state, b, r);
          twins_with_secrets += !(other == state);
          require_same_for_others(state, other, b, {}, {});
          GameState mine = state;
          Rng bot{r.next()};
          const std::uint8_t round = mine.rounds_played;
          while (!is_over(mine) && mine.rounds_played == round) {
            const Seat seat = elgrande::testing::next_seat(mine);
            const Phase phase_before = mine.phase;
            const Command command = random_command(mine, seat, bot);
            // b may make a different secret choice in the twin: another disk, another
            // card taken back.
            Command theirs = command;
            if (seat == b) {
              for (int tries = 0; tries < 20; ++tries) {
                Command alternative = random_command(other, seat, bot);
                if (alternative.index() == command.index()) {
                  theirs = alternative;
                  break;
                }
              }
            }
            Events e1, e2;
            REQUIRE_FALSE(apply(mine, seat, command, e1));
            if (apply(other, seat, theirs, e2)) break;    // b's own choice differs: stop here
            if (mine.rounds_played != round) break;         // the next round reveals new cards
            if (reveals_disks(e1)) break;                    // the rules reveal the disks here
            if (phase_before == Phase::veto_window && mine.phase != Phase::veto_window) break;
            const bool secret_choice = std::holds_alternative<SetDisk>(command) ||
                                       std::holds_alternative<TakeBackPowerCard>(command);
            if (!(theirs == command) && !secret_choice) break;  // a public difference
            require_same_for_others(mine, other, b, e1, e2);
            ++compared_steps;
            secret_choices += !(theirs == command);
          }
        }
        const Seat seat = elgrande::testing::next_seat(state);
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, r), events));
      }
    }
  }
  REQUIRE(compared_steps > 1000);
  REQUIRE(twins_with_secrets > 100);
  REQUIRE(secret_choices > 100);
}

TEST_CASE("A view holds the viewer's own secrets and nobody else's", "[secrecy]") {
  for (const auto& variant : all_variants()) {
    const GameRecord record = play_random_game(variant.options, 31337);
    replay(record, [&](const GameState& s, std::size_t, const Events&) {
      for (Seat viewer = kSpectator; viewer < s.options.players; ++viewer) {
        const View v = view(s, viewer);
        for (Seat p = 0; p < s.options.players; ++p) {
          const bool own = p == viewer;
          REQUIRE(v.players[p].hand.has_value() == own);
          REQUIRE(v.players[p].discards.has_value() == own);
          REQUIRE(v.players[p].castillo.has_value() == own);
          if (!own) REQUIRE_FALSE(v.players[p].disk.has_value());
        }
        if (v.decision) REQUIRE(v.decision->seat == viewer);
      }
    });
  }
}
