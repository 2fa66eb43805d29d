// Properties over thousands of random games of every player count and variant.
#include <catch2/catch.hpp>

#include "elgrande/engine/view.hpp"
#include "playout.hpp"

using namespace elgrande;
using elgrande::testing::all_variants;
using elgrande::testing::games_per_variant;

namespace {

int count_events(const Events& events, std::size_t type_index) {
  int n = 0;
  for (const Event& e : events) n += e.body.index() == type_index;
  return n;
}

// One random game with every invariant checked after every command.
void play_checked(const Options& options, std::uint64_t seed) {
  Events events;
  GameState state = new_game(options, seed, &events);
  Rng bots{seed * 31 + 7};
  int general_scorings = count_events(events, EventBody(GeneralScoringStarted{}).index());
  int rounds = count_events(events, EventBody(RoundStarted{}).index());
  int commands = 0;
  while (!is_over(state)) {
    INFO("seed " << seed << ", command " << commands);
    check_invariants(state);
    const Decisions decisions = pending(state);
    REQUIRE(!decisions.empty());  // someone always owes a decision before the end
    for (const Decision& d : decisions) {  // and each of them has a legal answer
      GameState trial = state;
      Events ignored;
      REQUIRE_FALSE(apply(trial, d.seat, random_command(state, d.seat, bots), ignored));
    }
    const Seat seat = decisions[bots.below(static_cast<std::uint32_t>(decisions.size()))].seat;
    const Command command = random_command(state, seat, bots);

    const GameState before = state;
    events.clear();
    const auto rejection = apply(state, seat, command, events);
    if (rejection) FAIL("a bot's command was refused: " << rejection->reason);
    REQUIRE(state.version == before.version + 1);

    // Nothing ever enters or leaves the king's region (unless the king himself moved).
    if (state.king == before.king) REQUIRE(state.caballeros[index(state.king)] == before.caballeros[index(before.king)]);
    for (Seat p = 0; p < options.players; ++p) {
      REQUIRE(state.players[p].score >= before.players[p].score);
      if (state.players[p].grande != before.players[p].grande) {
        REQUIRE(before.players[p].grande != before.king);
        REQUIRE(state.players[p].grande != state.king);
      }
    }
    general_scorings += count_events(events, EventBody(GeneralScoringStarted{}).index());
    rounds += count_events(events, EventBody(RoundStarted{}).index());
    ++commands;
    REQUIRE(commands < 2000);
  }
  check_invariants(state);
  REQUIRE(state.general_scorings == 3);
  REQUIRE(general_scorings == 3);
  REQUIRE(rounds == (options.short_game ? 6 : 9));
  REQUIRE(state.round == 9);
  REQUIRE(winners(state) != 0);
  REQUIRE(pending(state).empty());
}

}  // namespace

TEST_CASE("Random games keep every invariant: 2 players", "[invariants]") {
  for (int g = 0; g < games_per_variant(10000); ++g) {
    play_checked(Options{2, false, false, false}, 20000 + g);
    play_checked(Options{2, true, false, false}, 30000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 2 players with the automa", "[invariants]") {
  for (int g = 0; g < games_per_variant(10000); ++g) {
    play_checked(Options{2, false, true, false}, 40000 + g);
    play_checked(Options{2, true, true, false}, 50000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 3 players", "[invariants]") {
  for (int g = 0; g < games_per_variant(10000); ++g) {
    play_checked(Options{3, false, false, false}, 60000 + g);
    play_checked(Options{3, true, false, false}, 70000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 3 players with four stacks", "[invariants]") {
  for (int g = 0; g < games_per_variant(10000); ++g) {
    play_checked(Options{3, false, false, true}, 80000 + g);
    play_checked(Options{3, true, false, true}, 90000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 4 players", "[invariants]") {
  for (int g = 0; g < games_per_variant(10000); ++g) {
    play_checked(Options{4, false, false, false}, 100000 + g);
    play_checked(Options{4, true, false, false}, 110000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 5 players", "[invariants]") {
  for (int g = 0; g < games_per_variant(10000); ++g) {
    play_checked(Options{5, false, false, false}, 120000 + g);
    play_checked(Options{5, true, false, false}, 130000 + g);
  }
}

namespace {

// Any command of any kind with arbitrary (in-range) fields, from any seat.
Command random_garbage(Rng& r) {
  auto area = [&] { return area_at(static_cast<int>(r.below(kAreaCount))); };
  auto small = [&](std::uint32_t n) { return static_cast<std::uint8_t>(r.below(n)); };
  auto counts = [&] {
    AreaCounts c;
    for (int i = static_cast<int>(r.below(4)); i > 0; --i) c[area()] = small(4);
    return c;
  };
  switch (r.below(18)) {
    case 0: return PlayPowerCard{small(15)};
    case 1: return TakeCaballeros{small(8), counts()};
    case 2: return TakeActionCard{small(46)};
    case 3: return PlaceCaballeros{counts()};
    case 4: return SkipSpecialAction{};
    case 5: return PerformSpecialAction{};
    case 6: {
      MoveCaballeros m;
      for (int i = static_cast<int>(r.below(4)); i > 0; --i)
        m.moves.push_back(Move{static_cast<Colour>(r.below(5)), area(), area(), small(4)});
      return m;
    }
    case 7: return PlaceExtraCaballeros{counts()};
    case 8: return ScoreArea{area()};
    case 9: {
      RemoveCaballeros rc;
      for (int i = static_cast<int>(r.below(5)); i > 0; --i) rc.picks.push_back({static_cast<Colour>(r.below(5)), area()});
      return rc;
    }
    case 10: return PlaceScoreboard{static_cast<Scoreboard>(r.below(2)), area()};
    case 11: return MoveKing{area()};
    case 12: return Evict{area()};
    case 13: return MoveGrande{area()};
    case 14: return TakeBackPowerCard{small(15)};
    case 15: return AnswerVeto{r.below(2) == 1};
    case 16: return ReturnCaballeros{small(5), counts()};
    default: return SetDisk{area()};
  }
}

}  // namespace

TEST_CASE("A refused command changes nothing, and an accepted one keeps the invariants", "[invariants]") {
  int refused = 0, accepted = 0;
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games_per_variant(300); ++g) {
      const std::uint64_t seed = 900000 + static_cast<std::uint64_t>(g);
      GameState state = new_game(variant.options, seed);
      Rng r{seed};
      Events events;
      while (!is_over(state)) {
        // Several arbitrary commands, then one legal one to move on.
        for (int i = 0; i < 4; ++i) {
          const Seat seat = static_cast<Seat>(static_cast<int>(r.below(7)) - 1);
          const Command command = random_garbage(r);
          const GameState before = state;
          events.clear();
          if (apply(state, seat, command, events)) {
            INFO(variant.label << ", seed " << seed << ", " << command_name(command));
            REQUIRE(state == before);
            REQUIRE(events.empty());
            ++refused;
          } else {
            check_invariants(state);
            ++accepted;
            if (is_over(state)) break;
          }
        }
        if (is_over(state)) break;
        const Seat seat = elgrande::testing::next_seat(state);
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, r), events));
      }
      REQUIRE(is_over(state));
      events.clear();
      const auto late = apply(state, 0, PlayPowerCard{1}, events);
      REQUIRE(late);
      REQUIRE(late->code == Rejection::Code::game_over);
    }
  }
  REQUIRE(refused > 1000);
  REQUIRE(accepted > 10);
}
