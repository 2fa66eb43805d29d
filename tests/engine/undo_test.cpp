// Taking back one's own commands (docs/rules-notes.md#undo): what a seat may take back
// within its turn, what ends that, and that the log, undos included, replays exactly.

#include <catch2/catch.hpp>

#include "builder.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/undo.hpp"
#include "playout.hpp"

using namespace elgrande;
using namespace elgrande::testing;
using enum Area;

namespace {

Events act(GameState& s, UndoHistory& history, Seat seat, const Command& command, Taker taker = Taker::the_seat) {
  Events events;
  const auto rejection = apply(s, history, seat, command, events, taker);
  INFO(command_name(command) << " by seat " << int(seat) << " refused: " << (rejection ? rejection->reason : ""));
  REQUIRE_FALSE(rejection);
  check_invariants(s);
  return events;
}

// An undo the seat may not make: refused as illegal, and nothing changes.
void cannot_undo(GameState& s, UndoHistory& history, Seat seat) {
  const GameState before = s;
  const UndoHistory history_before = history;
  Events events;
  const auto rejection = apply(s, history, seat, Undo{}, events);
  REQUIRE(rejection);
  CHECK(rejection->code == Rejection::Code::illegal);
  CHECK(s == before);
  CHECK(history == history_before);
  CHECK(events.empty());
}

// `earlier` as it is once taken back to at `version`: the same game, a later version.
GameState as_at(GameState earlier, std::uint32_t version) {
  earlier.version = version;
  return earlier;
}

// Three players; seat 0 (power card 11, one caballero to take) begins its turn with the king in Castilla la
// Nueva, two of its caballeros in Cataluña, and move_four_own on offer in stack 1.
GameState turn_begins() {
  const CardId move_four = card_of(CardKind::move_four_own);
  return Given(players(3))
      .king(castilla_nueva)
      .round(2)
      .power_cards({11, 10, 9})
      .caballeros(0, cataluna, 2)
      .with([move_four](GameState& s) { s.stacks[0].revealed = move_four; });
}

TakeCaballeros take_all(const GameState& s, Seat seat) {
  const auto d = decision_of(s, seat);
  REQUIRE(d);
  return TakeCaballeros{std::get<CaballerosToTake>(d->detail).up_to, {}};
}

}  // namespace

SCENARIO("A player takes back the steps of their turn, the last first", "[undo]") {
  GIVEN("seat 0 has taken caballeros, taken a card and moved two caballeros with it") {
    GameState s = turn_begins();
    UndoHistory history;
    const GameState start = s;
    act(s, history, 0, take_all(s, 0));
    REQUIRE(s.players[0].court == 8);
    const GameState taken = s;
    act(s, history, 0, TakeActionCard{card_of(CardKind::move_four_own)});
    const GameState with_card = s;
    act(s, history, 0, moves({{0, cataluna, aragon, 2}}));
    REQUIRE(s.phase == Phase::use_action_card);  // the placement is still to come
    THEN("only seat 0 may take anything back") {
      CHECK(history.can_undo(0));
      cannot_undo(s, history, 1);
      cannot_undo(s, history, 2);
    }
    WHEN("seat 0 takes back three times") {
      const std::uint32_t version = s.version;
      const Events undone = act(s, history, 0, Undo{});
      THEN("everyone is told, and the move is undone") {
        REQUIRE(undone.size() == 1);
        CHECK(undone[0].audience.kind == Audience::Kind::everyone);
        CHECK(std::get<CommandUndone>(undone[0].body).seat == 0);
        CHECK(s == as_at(with_card, version + 1));
        CHECK(at(s, cataluna, 0) == 2);
      }
      act(s, history, 0, Undo{});
      CHECK(s == as_at(taken, version + 2));
      act(s, history, 0, Undo{});
      THEN("the turn is as it began, the version counting each undo, and nothing more can be taken back") {
        CHECK(s == as_at(start, version + 3));
        CHECK(s.version == start.version + 6);
        CHECK_FALSE(history.can_undo(0));
        cannot_undo(s, history, 0);
      }
    }
    WHEN("seat 0 takes back the move and plays another") {
      act(s, history, 0, Undo{});
      act(s, history, 0, moves({{0, cataluna, valencia, 1}}));
      THEN("the new move stands on the card taken, and can itself be taken back") {
        CHECK(at(s, valencia, 0) == 1);
        CHECK(at(s, aragon, 0) == 0);
        act(s, history, 0, Undo{});
        CHECK(at(s, cataluna, 0) == 2);
      }
    }
  }
}

SCENARIO("The command that ends a turn stands", "[undo]") {
  GIVEN("seat 0 has moved and places its caballeros, which ends its turn") {
    GameState s = turn_begins();
    UndoHistory history;
    act(s, history, 0, take_all(s, 0));
    act(s, history, 0, TakeActionCard{card_of(CardKind::move_four_own)});
    act(s, history, 0, moves({{0, cataluna, aragon, 2}}));
    act(s, history, 0, PlaceCaballeros{});
    REQUIRE(active_seat(s) == 1);
    THEN("neither seat 0 nor seat 1, whose turn it is, can take anything back") {
      cannot_undo(s, history, 0);
      cannot_undo(s, history, 1);
    }
    THEN("seat 1's first step can be taken back, and only it") {
      act(s, history, 1, take_all(s, 1));
      act(s, history, 1, Undo{});
      cannot_undo(s, history, 1);
    }
  }
}

SCENARIO("Once another seat must answer, nothing before can be taken back", "[undo]") {
  GIVEN("seat 2 holds a live veto and seat 0 announces its movement") {
    GameState s = Given(turn_begins()).veto(0, 2, 3);
    UndoHistory history;
    act(s, history, 0, take_all(s, 0));
    act(s, history, 0, TakeActionCard{card_of(CardKind::move_four_own)});
    act(s, history, 0, moves({{0, cataluna, aragon, 2}}));
    REQUIRE(s.phase == Phase::veto_window);
    THEN("seat 0 can take nothing back, not even its earlier steps") {
      cannot_undo(s, history, 0);
    }
    WHEN("seat 2 lets it pass") {
      act(s, history, 2, AnswerVeto{false});
      THEN("the move is carried out and stands; seat 2 cannot take back its answer either") {
        CHECK(at(s, aragon, 0) == 2);
        cannot_undo(s, history, 0);
        cannot_undo(s, history, 2);
      }
    }
  }
}

SCENARIO("A scoring of the castillo shows what was hidden in it, and stands", "[undo]") {
  const auto using_score_chosen = [] {
    return Given(players(3))
        .king(castilla_nueva)
        .round(2)
        .power_cards({13, 12, 11})
        .area(castillo, {1, 3, 2})
        .area(galicia, {2, 1, 0})
        .using_card(0, CardKind::score_chosen_region, 2)
        .build();
  };
  GIVEN("seat 0 scores Galicia with score_chosen_region") {
    GameState s = using_score_chosen();
    UndoHistory history;
    act(s, history, 0, ScoreArea{galicia});
    THEN("the scoring can be taken back: everyone could count Galicia") {
      CHECK(history.can_undo(0));
      act(s, history, 0, Undo{});
      CHECK(scores(s) == std::vector<int>{0, 0, 0});
    }
  }
  GIVEN("seat 0 scores the castillo with it") {
    GameState s = using_score_chosen();
    UndoHistory history;
    act(s, history, 0, ScoreArea{castillo});
    THEN("it cannot be taken back: the scoring told seat 0 how many the others hid there") {
      cannot_undo(s, history, 0);
    }
  }
}

SCENARIO("What a bot or the turn clock played for a seat is not its player's to take back", "[undo]") {
  GameState s = turn_begins();
  UndoHistory history;
  act(s, history, 0, take_all(s, 0), Taker::nobody);
  cannot_undo(s, history, 0);
  act(s, history, 0, TakeActionCard{card_of(CardKind::move_four_own)});
  THEN("the player's own next step can be, and only it") {
    act(s, history, 0, Undo{});
    cannot_undo(s, history, 0);
    CHECK(s.phase == Phase::choose_action_card);
  }
}

SCENARIO("An undo outside the history is refused by the plain engine", "[undo]") {
  GameState s = turn_begins();
  CHECK(refused(s, 0, Undo{}) == Rejection::Code::wrong_command);
}

// Random games in which seats take back some of what they may: every undo restores the
// state before the command exactly, and the log, undos included, replays to the same game
// and the same history, from the start or from a state saved while nothing could be undone.
TEST_CASE("games with undos replay exactly", "[undo][property]") {
  for (const Variant& variant : all_variants()) {
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(games_per_variant(10)); ++seed) {
      INFO(variant.label << ", seed " << seed);
      GameState s = new_game(variant.options, seed);
      UndoHistory history;
      GameRecord record{variant.options, seed, {}};
      std::optional<std::pair<GameState, std::size_t>> saved;  // a state with nothing to take back, and its log length
      std::vector<GameState> befores;  // the states before the commands still held by the history
      Seat last_actor = -1;
      Rng rng{seed};
      int undos = 0;
      while (!is_over(s)) {
        const Seat seat = next_seat(s);
        if (history.can_undo(seat) && rng.below(3) == 0) {
          const GameState expected = befores.back();
          befores.pop_back();
          act(s, history, seat, Undo{});
          CHECK(s == as_at(expected, s.version));
          record.commands.push_back({seat, Undo{}});
          ++undos;
          continue;
        }
        if (history.empty() && rng.below(8) == 0) saved = {s, record.commands.size()};
        const GameState before = s;
        const Command command = random_command(s, seat, rng);
        act(s, history, seat, command);
        record.commands.push_back({seat, command});
        if (!history.can_undo(seat) || seat != last_actor) befores.clear();
        if (history.can_undo(seat)) befores.push_back(before);
        last_actor = seat;
      }
      CHECK(undos > 0);
      const ReplayResult replayed = replay(record);
      REQUIRE_FALSE(replayed.rejection);
      CHECK(replayed.state == s);
      if (saved) {
        const auto rest = std::span(record.commands).subspan(saved->second);
        const ReplayResult resumed = replay(saved->first, rest);
        REQUIRE_FALSE(resumed.rejection);
        CHECK(resumed.state == s);
      }
    }
  }
}
