// The rules editions (docs/rules-notes.md#editions) and revisions: where the 1995 rulebook
// differs from the 2023 one, and how taking the veto card lays it (revision 2) or leaves
// laying it to a special action (revision 1, for games begun before).

#include <catch2/catch.hpp>

#include "builder.hpp"
#include "elgrande/engine/cards.hpp"

using namespace elgrande;
using namespace elgrande::testing;
using enum Area;

namespace {

Options edition_1995(Options options) {
  options.edition = Edition::y1995;
  return options;
}

// Four players, the king in Castilla la Nueva, seat 0 to choose an action card with the
// veto card on offer in stack 2; seat 2 holds a live veto.
GameState veto_on_offer(Options options) {
  const CardId veto = card_of(CardKind::veto);
  return Given(options)
      .king(castilla_nueva)
      .round(4)
      .power_cards({13, 12, 11, 10})
      .veto(0, 2, 5)
      .turn_of(0, Phase::choose_action_card)
      .with([veto](GameState& s) { s.stacks[1].revealed = veto; });
}

DiskChoice disk_choice(const GameState& s, Seat seat) {
  const auto d = decision_of(s, seat);
  REQUIRE(d);
  return std::get<DiskChoice>(d->detail);
}

CaballerosToTake take_choice(const GameState& s, Seat seat) {
  const auto d = decision_of(s, seat);
  REQUIRE(d);
  return std::get<CaballerosToTake>(d->detail);
}

}  // namespace

SCENARIO("Taking the veto card lays it at once, in both editions", "[editions][veto]") {
  for (const Options options : {players(4), edition_1995(players(4))}) {
    GIVEN(std::string(options.edition == Edition::y1995 ? "1995" : "2023") + ": seat 0 takes the veto card") {
      GameState s = veto_on_offer(options);
      const Events e = play(s, 0, TakeActionCard{card_of(CardKind::veto)});
      THEN("it lies before them, live to the end of the next round, and nobody is asked to veto it") {
        CHECK(only_event<VetoLaid>(e).seat == 0);
        CHECK(s.vetoes[1].holder == 0);
        CHECK(s.vetoes[1].expires_after == 5);
        CHECK(s.phase == Phase::use_action_card);
        CHECK(waiting_for(s) == 1u);
      }
      THEN("what is left of the turn is the placement: no special action to carry out or skip") {
        const auto use = std::get<ActionCardUse>(decision_of(s, 0)->detail);
        CHECK(use.may_place);
        CHECK_FALSE(use.may_act);
        illegal(s, 0, PerformSpecialAction{});
        illegal(s, 0, SkipSpecialAction{});
        play(s, 0, PlaceCaballeros{});
        CHECK(s.turn_index == 1);  // the next player's turn
      }
    }
  }
}

SCENARIO("Rules revision 1: a game begun before lays the veto card as a special action", "[editions][veto]") {
  Options options = players(4);
  options.rules_revision = 1;
  GIVEN("a game of revision 1: seat 0 takes the veto card") {
    GameState s = veto_on_offer(options);
    const Events taken = play(s, 0, TakeActionCard{card_of(CardKind::veto)});
    THEN("nothing is laid yet: laying it is the card's special action, which seat 2 may veto") {
      CHECK(events_of<VetoLaid>(taken).empty());
      CHECK(std::get<ActionCardUse>(decision_of(s, 0)->detail).may_act);
      play(s, 0, PerformSpecialAction{});
      CHECK(s.phase == Phase::veto_window);
      const Events laid = play(s, 2, AnswerVeto{false});
      CHECK(only_event<VetoLaid>(laid).seat == 0);
    }
  }
}

SCENARIO("1995: the power card's caballeros come from the province in full", "[editions][take]") {
  GIVEN("a 1995 game: the last power card of the round is played, and the first player has a full province") {
    GameState s = Given(edition_1995(players(3)));
    REQUIRE(s.phase == Phase::power_cards);
    const Seat first = s.power_seat;
    const int court = s.players[first].court;
    Events e;
    for (const int value : {7, 6, 3}) {  // the 7 begins, and grants 3 caballeros
      e = play(s, s.power_seat, PlayPowerCard{static_cast<std::uint8_t>(value)});
    }
    THEN("the first player takes all of them at once, without being asked") {
      REQUIRE(caballeros_granted(7) == 3);
      CHECK(s.turn_order[0] == first);
      CHECK(only_event<CaballerosTaken>(e).from_province == 3);
      CHECK(s.players[first].court == court + 3);
      CHECK(s.phase == Phase::choose_action_card);
      CHECK(waiting_for(s) == 1u << first);
    }
  }
  GIVEN("a 1995 game where seat 0's province holds 2 of the power card's 4, and Aragón 3 of theirs") {
    REQUIRE(caballeros_granted(4) == 4);
    GameState s = Given(edition_1995(players(4)))
                      .king(castilla_nueva)
                      .power_cards({4, 7, 5, 3})
                      .caballeros(0, aragon, 3)
                      .province(0, 2)
                      .turn_of(0);
    THEN("the 2 are owed; from Aragón, as many more as the card allows, if seat 0 wishes") {
      const CaballerosToTake take = take_choice(s, 0);
      CHECK(take.at_least == 2);
      CHECK(take.up_to == 4);
      illegal(s, 0, TakeCaballeros{1, {}});
      illegal(s, 0, TakeCaballeros{});
      AreaCounts from_aragon;
      from_aragon[aragon] = 1;
      play(s, 0, TakeCaballeros{2, from_aragon});
      CHECK(s.players[0].province == 0);
      CHECK(s.caballeros[index(aragon)][0] == 2);
    }
  }
  GIVEN("the same in 2023: up to the card's number") {
    GameState s = Given(players(4)).king(castilla_nueva).power_cards({4, 7, 5, 3}).province(0, 2).turn_of(0);
    THEN("none is owed, and taking none is a choice") {
      CHECK(take_choice(s, 0).at_least == 0);
      play(s, 0, TakeCaballeros{});
      CHECK(s.phase == Phase::choose_action_card);
    }
  }
}

SCENARIO("1995: a disk never names the king's region for a general scoring or an eviction", "[editions][disk]") {
  for (const Options options : {players(4), edition_1995(players(4))}) {
    const bool old_rules = options.edition == Edition::y1995;
    GIVEN(std::string(old_rules ? "1995" : "2023") + ": the king in Castilla la Nueva") {
      WHEN("the castillo is emptied at a general scoring") {
        // The last turn of round 3: a general scoring follows it.
        GameState s = Given(options)
                          .king(castilla_nueva)
                          .round(3)
                          .power_cards({13, 12, 11, 10})
                          .caballeros(1, castillo, 2)
                          .using_card(3, CardKind::score_fours)
                          .placed();
        play(s, 3, SkipSpecialAction{});
        REQUIRE(s.phase == Phase::disk_setting);
        THEN(std::string(old_rules ? "the king's region is not on offer" : "the king's region may be named: those caballeros go to court")) {
          const AreaMask allowed = disk_choice(s, 1).allowed;
          CHECK(static_cast<bool>(allowed & bit(castilla_nueva)) == !old_rules);
          CHECK((allowed | bit(castilla_nueva)) == kAllRegions);
          if (old_rules) illegal(s, 1, SetDisk{castilla_nueva});
        }
      }
      WHEN("seat 0 evicts seat 1 from Aragón") {
        GameState s = Given(options).king(castilla_nueva).area(aragon, {0, 2, 0, 0}).using_card(0, CardKind::eviction);
        play(s, 0, Evict{aragon});
        THEN(std::string(old_rules ? "neither Aragón nor the king's region is on offer" : "any other region, the king's included")) {
          const AreaMask allowed = disk_choice(s, 1).allowed;
          CHECK(static_cast<bool>(allowed & bit(castilla_nueva)) == !old_rules);
          CHECK_FALSE(allowed & bit(aragon));
        }
      }
    }
  }
}

SCENARIO("1995: the court card takes its caballeros from the province only", "[editions][court]") {
  // 1995: "Der Hof (az udvar): Két lovagot áthelyezhetsz a tartományból az udvarodba" (you
  // may move two caballeros from the province to your court): no fallback to the regions.
  const auto court_card = [](Options options) {
    return Given(options)
        .king(castilla_nueva)
        .power_cards({13, 12, 11, 10})
        .caballeros(0, aragon, 3)
        .province(0, 1)
        .using_card(0, CardKind::court);
  };
  GIVEN("a 1995 game: seat 0 uses the court card with 1 caballero left in the province and 3 in Aragón") {
    GameState s = court_card(edition_1995(players(4)));
    THEN("the decision offers the one in the province, and nothing from the regions") {
      const auto use = std::get<ActionCardUse>(decision_of(s, 0)->detail);
      CHECK(use.take_up_to == 1);
      CHECK(use.take_province == 1);
      CHECK(use.take_regions == AreaCounts{});
    }
    WHEN("seat 0 asks for the second from Aragón") {
      AreaCounts from_aragon;
      from_aragon[aragon] = 1;
      THEN("it is refused, and the one from the province comes") {
        illegal(s, 0, TakeCaballeros{1, from_aragon});
        const int court = s.players[0].court;
        play(s, 0, TakeCaballeros{1, {}});
        CHECK(s.players[0].court == court + 1);
        CHECK(s.players[0].province == 0);
        CHECK(s.caballeros[index(aragon)][0] == 3);
      }
    }
  }
  GIVEN("the same in 2023: the card falls back on the regions, as step 3a does") {
    GameState s = court_card(players(4));
    THEN("the second may come from Aragón") {
      CHECK(std::get<ActionCardUse>(decision_of(s, 0)->detail).take_up_to == 2);
      AreaCounts from_aragon;
      from_aragon[aragon] = 1;
      play(s, 0, TakeCaballeros{1, from_aragon});
      CHECK(s.caballeros[index(aragon)][0] == 2);
    }
  }
  GIVEN("a 1995 game begun under rules revision 2, before this was fixed") {
    Options options = edition_1995(players(4));
    options.rules_revision = 2;
    GameState s = court_card(options);
    THEN("it goes on as it began: the regions stay on offer, so its log replays as played") {
      AreaCounts from_aragon;
      from_aragon[aragon] = 1;
      play(s, 0, TakeCaballeros{1, from_aragon});
      CHECK(s.caballeros[index(aragon)][0] == 2);
    }
  }
}

SCENARIO("1995: no automa and no four stacks, which are 2023 variants", "[editions][options]") {
  GIVEN("the 1995 edition with the automa, or with four stacks") {
    Options automa = edition_1995(automa_game());
    Options four = edition_1995(players(3));
    four.four_stacks = true;
    THEN("a new game refuses them") {
      CHECK(check(automa).has_value());
      CHECK(check(four).has_value());
    }
    THEN("a game begun under revision 2, which allowed the mix, still plays on") {
      automa.rules_revision = 2;
      four.rules_revision = 2;
      CHECK_FALSE(check(automa).has_value());
      CHECK_FALSE(check(four).has_value());
    }
  }
}
