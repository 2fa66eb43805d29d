// The bots' search: legal in every variant, blind to other seats' secrets, deterministic
// from its seed, stopped by its deadline, and able to find the one winning move.
#include <bit>

#include <catch2/catch.hpp>

#include "answers.hpp"
#include "elgrande/ai/search.hpp"
#include "elgrande/engine/determinize.hpp"
#include "elgrande/engine/view.hpp"
#include "engine/builder.hpp"
#include "engine/playout.hpp"

using namespace elgrande;
using elgrande::testing::all_variants;
using elgrande::testing::games_per_variant;
using elgrande::testing::Given;

namespace {

// A quick search: enough to exercise the tree, little enough for thousands of decisions.
const ai::Budget kQuick{.iterations = 12, .out_of_time = {}};

Command decide(const GameState& state, Seat seat, ai::Level level, std::uint64_t seed, const ai::Budget& budget = kQuick) {
  return ai::choose(view(state, seat), level, seed, budget).command;
}

int pick_value(PowerCards cards, Rng& rng) {
  int skip = static_cast<int>(rng.below(static_cast<std::uint32_t>(std::popcount(cards))));
  for (int v = 1; v <= kPowerCardCount; ++v)
    if ((cards & power_bit(v)) && skip-- == 0) return v;
  return 0;
}

// The same game with other secrets for every seat but `me`: a card of each other hand
// swapped with one of its discards, other disks pointing elsewhere, the face-down stacks and
// the automa's decks shuffled, another generator. Whether `me` can tell is for the engine's
// view to say (required below).
GameState with_other_secrets(const GameState& state, Seat me, Rng& rng, bool& changed) {
  GameState twin = state;
  for (Seat p = 0; p < state.options.players; ++p) {
    if (p == me) continue;
    Player& player = twin.players[p];
    const auto hand = static_cast<PowerCards>(player.hand);
    const auto discards = static_cast<PowerCards>(player.discards & ~power_bit(player.played));
    if (hand && discards && !twin.turn.announced) {  // (an announced take-back names a discard)
      const int in_hand = pick_value(hand, rng), discarded = pick_value(discards, rng);
      player.hand = static_cast<PowerCards>((player.hand & ~power_bit(in_hand)) | power_bit(discarded));
      player.discards = static_cast<PowerCards>((player.discards & ~power_bit(discarded)) | power_bit(in_hand));
    }
    if (player.disk) player.disk = area_at((index(*player.disk) + 1 + static_cast<int>(rng.below(kRegionCount - 1))) % kRegionCount);
  }
  for (ActionStack& stack : twin.stacks) rng.shuffle(stack.face_down);
  rng.shuffle(twin.automa.power_deck);
  rng.shuffle(twin.automa.region_deck);
  twin.rng.state ^= rng.next() | 1;
  GameState same_generator = twin;
  same_generator.rng = state.rng;
  changed = !(same_generator == state);
  REQUIRE(view(twin, me) == view(state, me));
  return twin;
}

}  // namespace

TEST_CASE("Every candidate answer is legal in the true state and in states drawn from the view", "[ai]") {
  int decisions = 0, answers = 0;
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games_per_variant(10); ++g) {
      const std::uint64_t seed = 700 + static_cast<std::uint64_t>(g);
      INFO(variant.label << ", seed " << seed);
      GameState state = new_game(variant.options, seed);
      Rng rng{seed};
      Events events;
      while (!is_over(state)) {
        for (const Decision& decision : pending(state)) {
          const View seen = view(state, decision.seat);
          const GameState drawn = determinize(seen, rng);
          for (const Command& command : ai::candidates(seen, 16, rng)) {
            INFO(command_name(command) << " by seat " << int(decision.seat) << " at version " << state.version);
            GameState trial = state, other = drawn;
            events.clear();
            REQUIRE_FALSE(apply(trial, decision.seat, command, events));
            REQUIRE_FALSE(apply(other, decision.seat, command, events));
            ++answers;
          }
          ++decisions;
        }
        const Seat seat = elgrande::testing::next_seat(state);
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, rng), events));
      }
    }
  }
  CHECK(answers > 2 * decisions);  // compared, not just one answer each
}

TEST_CASE("Bots of every level play every variant to the end with legal answers", "[ai]") {
  const ai::Level levels[] = {ai::Level::random, ai::Level::easy, ai::Level::medium, ai::Level::strong};
  for (const auto& variant : all_variants()) {
    const std::uint64_t seed = 77;
    INFO(variant.label);
    GameState state = new_game(variant.options, seed);
    Events events;
    while (!is_over(state)) {
      const Seat seat = elgrande::testing::next_seat(state);
      const Command command = decide(state, seat, levels[seat % 4], seed + state.version);
      events.clear();
      const auto rejection = apply(state, seat, command, events);
      INFO(command_name(command) << ": " << (rejection ? rejection->reason : ""));
      REQUIRE_FALSE(rejection);
    }
  }
}

TEST_CASE("Two states alike from the bot's seat get the same answer from the same seed", "[ai][secrecy]") {
  int compared = 0, secrets_differed = 0;
  for (const auto& variant : all_variants()) {
    const std::uint64_t seed = 4242;
    GameState state = new_game(variant.options, seed);
    Rng rng{seed};
    Events events;
    for (int step = 0; !is_over(state); ++step) {
      const Seat seat = elgrande::testing::next_seat(state);
      if (step % 9 == 0) {
        bool changed = false;
        const GameState twin = with_other_secrets(state, seat, rng, changed);
        secrets_differed += changed;
        INFO(variant.label << ", version " << state.version);
        REQUIRE(decide(twin, seat, ai::Level::medium, seed) == decide(state, seat, ai::Level::medium, seed));
        ++compared;
      }
      events.clear();
      REQUIRE_FALSE(apply(state, seat, random_command(state, seat, rng), events));
    }
  }
  CHECK(secrets_differed > compared / 2);
}

TEST_CASE("The same view and seed give the same answer, and a deadline stops the search", "[ai]") {
  GameState state = new_game(elgrande::testing::players(4), 5);
  Rng rng{5};
  Events events;
  for (int i = 0; i < 40; ++i) {  // into the first turns, where the choices are many
    const Seat seat = elgrande::testing::next_seat(state);
    REQUIRE_FALSE(apply(state, seat, random_command(state, seat, rng), events));
  }
  const Seat seat = elgrande::testing::next_seat(state);
  const View seen = view(state, seat);
  const ai::Budget budget{.iterations = 200, .out_of_time = {}};
  const ai::Choice first = ai::choose(seen, ai::Level::strong, 99, budget);
  const ai::Choice again = ai::choose(seen, ai::Level::strong, 99, budget);
  CHECK(first.command == again.command);
  CHECK(first.value == again.value);
  CHECK(first.iterations == 200);

  int polls = 0;
  const ai::Choice stopped = ai::choose(seen, ai::Level::strong, 99, ai::Budget{.iterations = 0, .out_of_time = [&] {
                                                                       return ++polls >= 30;
                                                                     }});
  CHECK(stopped.iterations == 30);  // the first iteration, then one per poll that said "go on"
  GameState trial = state;
  CHECK_FALSE(apply(trial, seat, stopped.command, events));
}

TEST_CASE("On the last turn the bot scores the one region that wins the game", "[ai][scenario]") {
  // GIVEN a 2-player game on the last turn of round 9: seat 0 holds score_chosen_region
  // with an empty court, alone first in Castilla la Nueva (7) and Galicia (4), seat 1 alone
  // first in Aragón (5), 11 points ahead. The general scoring that follows adds 11 and 5.
  // Scoring Castilla la Nueva now wins (18 > 16); Galicia (15), Aragón or nothing lose.
  const GameState state = Given(elgrande::testing::players(2))
                              .king(Area::sevilla)
                              .grande(0, Area::granada)
                              .grande(1, Area::cataluna)
                              .area(Area::castilla_nueva, {2, 1})
                              .area(Area::galicia, {1, 0})
                              .area(Area::aragon, {0, 3})
                              .score(0, 60)
                              .score(1, 71)
                              .court(0, 0)
                              .round(9)
                              .general_scorings(2)
                              .power_cards({1, 13})
                              .using_card(0, elgrande::testing::card_of(CardKind::score_chosen_region, 3));
  for (ai::Level level : {ai::Level::easy, ai::Level::medium, ai::Level::strong}) {
    INFO(ai::name(level));
    // Seat 0 places nothing (the court is empty) and scores: whichever first, the score
    // must name Castilla la Nueva.
    GameState game = state;
    Events events;
    for (int step = 0; step < 2 && active_seat(game) == 0 && game.phase == Phase::use_action_card; ++step) {
      const Command command = ai::choose(view(game, 0), level, 3).command;
      if (const auto* scored = std::get_if<ScoreArea>(&command)) CHECK(scored->area == Area::castilla_nueva);
      CHECK_FALSE(std::holds_alternative<SkipSpecialAction>(command));
      REQUIRE_FALSE(apply(game, 0, command, events));
    }
    CHECK(game.players[0].score == 67);
  }
}

TEST_CASE("A searching bot beats random players", "[ai]") {
  // Short 4-player games, one easy bot against three random ones, the easy one's seat
  // rotating. Chance would give it a quarter of the wins.
  const int games = std::getenv("ELGRANDE_SANITIZED") ? 4 : 12;
  double won = 0;
  for (int g = 0; g < games; ++g) {
    Options options = elgrande::testing::players(4);
    options.short_game = true;
    GameState state = new_game(options, 300 + static_cast<std::uint64_t>(g));
    const Seat easy = static_cast<Seat>(g % 4);
    Events events;
    while (!is_over(state)) {
      const Seat seat = elgrande::testing::next_seat(state);
      const ai::Level level = seat == easy ? ai::Level::easy : ai::Level::random;
      events.clear();
      REQUIRE_FALSE(apply(state, seat, ai::choose(view(state, seat), level, state.version).command, events));
    }
    const std::uint8_t winners_mask = winners(state);
    if ((winners_mask >> easy) & 1u) won += 1.0 / std::popcount(winners_mask);
  }
  CHECK(won >= 0.6 * games);
}
