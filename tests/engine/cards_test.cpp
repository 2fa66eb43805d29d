// Every special action of the classic deck (rules section 5), its limits, and the taboo of
// the king's region: nothing enters or leaves it, whatever the card.
#include <catch2/catch.hpp>

#include "builder.hpp"
#include "elgrande/engine/view.hpp"

using namespace elgrande;
using namespace elgrande::testing;
using enum Area;
using Code = Rejection::Code;

namespace {

// Four players, seat 0 to play first; the king in Castilla la Nueva (the king's region, K).
// Grandes: 0 Galicia, 1 País Vasco, 2 Cataluña, 3 Sevilla. Counts for seats 0, 1, 2, 3.
Given board() {
  Given g(players(4));
  g.king(castilla_nueva)
      .grande(0, galicia)
      .grande(1, pais_vasco)
      .grande(2, cataluna)
      .grande(3, sevilla)
      .area(galicia, {3, 1, 0, 0})
      .area(pais_vasco, {1, 2, 0, 1})
      .area(aragon, {2, 2, 2, 0})
      .area(cataluna, {0, 0, 3, 1})
      .area(castilla_vieja, {1, 0, 1, 2})
      .area(castilla_nueva, {2, 1, 0, 1})
      .area(valencia, {0, 1, 1, 0})
      .area(sevilla, {1, 0, 0, 3})
      .area(castillo, {1, 1, 1, 1})
      .power_cards({13, 12, 11, 10});
  return g;
}

GameState holding(CardKind kind, int stack = 0) { return board().using_card(0, kind, stack); }

// The active seat's pending use of its action card.
ActionCardUse card_use(const GameState& s) { return std::get<ActionCardUse>(decision_of(s, active_seat(s))->detail); }

// Whether the king's region lost or gained anything (the king standing still).
void king_region_untouched(const GameState& before, const GameState& after) {
  REQUIRE(before.king == after.king);
  CHECK(before.caballeros[index(before.king)] == after.caballeros[index(after.king)]);
}

const std::array<CardKind, 8> kMovingCards{
    CardKind::move_all_own_from_region, CardKind::place_two_or_move_all_own,
    CardKind::move_five_from_region,    CardKind::move_three_opposing,
    CardKind::move_three_any,           CardKind::move_two_own_two_opposing,
    CardKind::move_four_own,            CardKind::move_four_any};

}  // namespace

// ---------------------------------------------------------------------------------------
// Stack 1: placing and moving
// ---------------------------------------------------------------------------------------

SCENARIO("move_all_own_from_region: any or all of your caballeros out of one region", "[cards][stack1]") {
  GIVEN("seat 0 with 3 caballeros in Galicia") {
    GameState s = holding(CardKind::move_all_own_from_region);
    WHEN("they move 2 to Granada (not next to the king) and throw 1 into the castillo") {
      const Events e = play(s, 0, moves({{0, galicia, granada, 2}, {0, galicia, castillo, 1}}));
      THEN("Galicia is emptied of them; the move is announced in full") {
        CHECK(at(s, galicia, 0) == 0);
        CHECK(at(s, granada, 0) == 2);
        CHECK(at(s, castillo, 0) == 2);
        CHECK(only_event<CaballerosMoved>(e).moves.size() == 2);
        CHECK(s.turn.special_done);
      }
    }
    THEN("two source regions, opposing caballeros, or more than are there are refused") {
      illegal(s, 0, moves({{0, galicia, granada, 1}, {0, aragon, granada, 1}}));
      illegal(s, 0, moves({{1, galicia, granada, 1}}));
      illegal(s, 0, moves({{0, galicia, granada, 4}}));
      illegal(s, 0, moves({{0, galicia, galicia, 1}}));
      illegal(s, 0, moves({{0, castillo, galicia, 1}}));  // nothing leaves the castillo
    }
  }
  GIVEN("seat 0 with 9 caballeros in Aragón") {
    GameState s = board().caballeros(0, aragon, 9).using_card(0, CardKind::move_all_own_from_region);
    THEN("all nine may go: there is no count limit") {
      play(s, 0, moves({{0, aragon, granada, 5}, {0, aragon, galicia, 4}}));
      CHECK(at(s, aragon, 0) == 0);
      CHECK(at(s, granada, 0) == 5);
      CHECK(at(s, galicia, 0) == 7);
    }
  }
}

SCENARIO("place_two_anywhere: up to 2 more from the court into any regions or the castillo", "[cards][stack1]") {
  GIVEN("seat 0 with 7 in court") {
    GameState s = holding(CardKind::place_two_anywhere);
    WHEN("they place 1 in Galicia (far from the king) and 1 into the castillo") {
      play(s, 0, PlaceExtraCaballeros{counts({{galicia, 1}, {castillo, 1}})});
      THEN("both come from the court; the card's own placement (1, next to the king) remains") {
        CHECK(at(s, galicia, 0) == 4);
        CHECK(at(s, castillo, 0) == 2);
        CHECK(s.players[0].court == 5);
        const auto use = std::get<ActionCardUse>(decision_of(s, 0)->detail);
        CHECK(use.may_place);
        CHECK(use.place_up_to == 1);
        CHECK_FALSE(use.may_act);
        illegal(s, 0, PlaceCaballeros{counts({{galicia, 1}})});  // the normal placement is next to the king
        play(s, 0, PlaceCaballeros{counts({{aragon, 1}})});
      }
    }
    THEN("a third caballero, or the king's region, is refused") {
      illegal(s, 0, PlaceExtraCaballeros{counts({{galicia, 2}, {castillo, 1}})});
      illegal(s, 0, PlaceExtraCaballeros{counts({{castilla_nueva, 1}})});
    }
  }
  GIVEN("seat 0 with a single caballero in court") {
    GameState s = board().court(0, 1).using_card(0, CardKind::place_two_anywhere);
    THEN("only that one may be placed") {
      illegal(s, 0, PlaceExtraCaballeros{counts({{granada, 2}})});
      play(s, 0, PlaceExtraCaballeros{counts({{granada, 1}})});
      CHECK(s.players[0].court == 0);
    }
  }
}

SCENARIO("place_two_or_move_all_own: one or the other, the player's choice", "[cards][stack1]") {
  GIVEN("seat 0 holding the card") {
    GameState s = holding(CardKind::place_two_or_move_all_own);
    WHEN("they place two anywhere") {
      play(s, 0, PlaceExtraCaballeros{counts({{granada, 2}})});
      THEN("they can no longer move") {
        CHECK(at(s, granada, 0) == 2);
        illegal(s, 0, moves({{0, galicia, granada, 3}}));
      }
    }
    WHEN("they move all their caballeros out of Galicia") {
      play(s, 0, moves({{0, galicia, granada, 3}}));
      THEN("they can no longer place the extra two") {
        CHECK(at(s, granada, 0) == 3);
        illegal(s, 0, PlaceExtraCaballeros{counts({{granada, 2}})});
      }
    }
    THEN("the move is one region's own caballeros; the placement at most two") {
      illegal(s, 0, moves({{0, galicia, granada, 1}, {0, aragon, granada, 1}}));
      illegal(s, 0, moves({{1, galicia, granada, 1}}));
      illegal(s, 0, PlaceExtraCaballeros{counts({{granada, 3}})});
    }
  }
}

SCENARIO("move_five_from_region: up to 5 of any colours out of one region", "[cards][stack1]") {
  GIVEN("Aragón holding 2, 2, 2 of seats 0, 1, 2") {
    GameState s = holding(CardKind::move_five_from_region);
    WHEN("seat 0 moves five of three colours to three places") {
      play(s, 0, moves({{0, aragon, granada, 2}, {1, aragon, galicia, 2}, {2, aragon, castillo, 1}}));
      THEN("they all arrive") {
        CHECK(at(s, aragon, 0) == 0);
        CHECK(at(s, aragon, 2) == 1);
        CHECK(at(s, granada, 0) == 2);
        CHECK(at(s, galicia, 1) == 3);
        CHECK(at(s, castillo, 2) == 2);
      }
    }
    THEN("a sixth caballero or a second source region is refused") {
      illegal(s, 0, moves({{0, aragon, granada, 2}, {1, aragon, galicia, 2}, {2, aragon, castillo, 2}}));
      illegal(s, 0, moves({{0, aragon, granada, 2}, {1, galicia, granada, 1}}));
    }
  }
}

SCENARIO("move_three_opposing: up to 3 opposing caballeros, from and to anywhere", "[cards][stack1]") {
  GIVEN("seat 0 holding the card") {
    GameState s = holding(CardKind::move_three_opposing);
    THEN("the decision lists every opponent's caballeros outside the king's region, and none of seat 0's") {
      const ActionCardUse use = card_use(s);
      CHECK(use.move_from[0] == AreaCounts{});
      CHECK(use.move_from[1] == counts({{galicia, 1}, {pais_vasco, 2}, {aragon, 2}, {valencia, 1}}));
      CHECK(use.move_from[2] == counts({{aragon, 2}, {cataluna, 3}, {castilla_vieja, 1}, {valencia, 1}}));
      CHECK(use.move_from[3] == counts({{pais_vasco, 1}, {cataluna, 1}, {castilla_vieja, 2}, {sevilla, 3}}));
      CHECK(use.move_from[4] == AreaCounts{});
      CHECK(use.move_to == ((kAllRegions | bit(castillo)) & ~bit(castilla_nueva)));
    }
    THEN("three of three opponents from three regions may move") {
      play(s, 0, moves({{1, galicia, granada, 1}, {2, cataluna, valencia, 1}, {3, sevilla, castillo, 1}}));
      CHECK(at(s, galicia, 1) == 0);
      CHECK(at(s, valencia, 2) == 2);
      CHECK(at(s, castillo, 3) == 2);
    }
    THEN("own caballeros and a fourth caballero are refused") {
      illegal(s, 0, moves({{0, galicia, granada, 1}}));
      illegal(s, 0, moves({{1, galicia, granada, 1}, {2, cataluna, valencia, 1}, {3, sevilla, castillo, 2}}));
    }
  }
  GIVEN("a 2-player game with the automa") {
    GameState s = Given(automa_game())
                      .king(castilla_nueva)
                      .caballeros(2, aragon, 3)
                      .power_cards({13, 12, 11})
                      .using_card(0, CardKind::move_three_opposing);
    THEN("the automa's caballeros move like anyone's") {
      CHECK(card_use(s).move_from[2] == counts({{aragon, 3}}));
      play(s, 0, moves({{2, aragon, galicia, 3}}));
      CHECK(at(s, galicia, 2) == 3);
    }
  }
}

SCENARIO("move_three_any and move_four_any: any colours, up to the number", "[cards][stack1]") {
  GIVEN("seat 0 holding move_three_any") {
    GameState s = holding(CardKind::move_three_any);
    THEN("own and opposing mixed, three in all; not four") {
      illegal(s, 0, moves({{0, galicia, granada, 2}, {1, aragon, granada, 2}}));
      play(s, 0, moves({{0, galicia, granada, 2}, {1, aragon, granada, 1}}));
      CHECK(at(s, granada, 0) == 2);
      CHECK(at(s, granada, 1) == 1);
    }
  }
  GIVEN("seat 0 holding move_four_any") {
    GameState s = holding(CardKind::move_four_any);
    THEN("four in all; not five") {
      illegal(s, 0, moves({{0, galicia, granada, 3}, {1, aragon, granada, 2}}));
      play(s, 0, moves({{0, galicia, granada, 2}, {1, aragon, granada, 2}}));
      CHECK(at(s, granada, 0) == 2);
      CHECK(at(s, granada, 1) == 2);
    }
  }
}

SCENARIO("move_two_own_two_opposing: up to 2 of yours and up to 2 opposing", "[cards][stack1]") {
  GIVEN("seat 0 holding the card (the 2023 'Intrigue' example)") {
    GameState s = holding(CardKind::move_two_own_two_opposing);
    THEN("1 own to Castilla, 1 own into the castillo, 1 opposing to Valencia, 1 to Castilla") {
      play(s, 0,
           moves({{0, sevilla, castilla_vieja, 1}, {0, galicia, castillo, 1}, {2, aragon, valencia, 1},
                  {1, aragon, castilla_vieja, 1}}));
      CHECK(at(s, castilla_vieja, 0) == 2);
      CHECK(at(s, castillo, 0) == 2);
      CHECK(at(s, valencia, 2) == 2);
      CHECK(at(s, castilla_vieja, 1) == 1);
    }
    THEN("three of your own, or three opposing, are refused") {
      illegal(s, 0, moves({{0, galicia, granada, 3}}));
      illegal(s, 0, moves({{1, aragon, granada, 2}, {2, aragon, granada, 1}}));
    }
  }
}

SCENARIO("move_four_own: up to 4 of your own", "[cards][stack1]") {
  GIVEN("seat 0 holding the card") {
    GameState s = holding(CardKind::move_four_own);
    THEN("the decision lists only seat 0's caballeros, never those in the king's region or the castillo") {
      const ActionCardUse use = card_use(s);
      CHECK(use.move_from[0] == counts({{galicia, 3}, {pais_vasco, 1}, {aragon, 2}, {castilla_vieja, 1}, {sevilla, 1}}));
      for (Colour c = 1; c < kMaxColours; ++c) CHECK(use.move_from[c] == AreaCounts{});
    }
    THEN("four of one's own from two regions may move") {
      play(s, 0, moves({{0, galicia, granada, 3}, {0, aragon, castillo, 1}}));
      CHECK(at(s, granada, 0) == 3);
      CHECK(at(s, castillo, 0) == 2);
    }
    THEN("opposing caballeros and a fifth are refused") {
      illegal(s, 0, moves({{1, galicia, granada, 1}}));
      illegal(s, 0, moves({{0, galicia, granada, 3}, {0, aragon, castillo, 2}}));
    }
  }
}

SCENARIO("Moving cards never touch the king's region", "[cards][stack1][taboo]") {
  for (CardKind kind : kMovingCards) {
    GIVEN(std::string("seat 0 holding ") + std::string(name(kind))) {
      GameState s = holding(kind);
      THEN("moving out of or into the king's region is refused, the state unchanged") {
        illegal(s, 0, moves({{0, castilla_nueva, granada, 1}}));
        illegal(s, 0, moves({{0, galicia, castilla_nueva, 1}}));
        illegal(s, 0, moves({{0, galicia, granada, 1}, {0, galicia, castilla_nueva, 1}}));
        if (kind != CardKind::move_all_own_from_region && kind != CardKind::place_two_or_move_all_own &&
            kind != CardKind::move_four_own) {
          illegal(s, 0, moves({{1, castilla_nueva, granada, 1}}));
          illegal(s, 0, moves({{1, aragon, castilla_nueva, 1}}));
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Stack 2
// ---------------------------------------------------------------------------------------

SCENARIO("veto: laid face up before its taker", "[cards][stack2][veto]") {
  GIVEN("seat 0 takes a veto in the 4th round played") {
    GameState s = board().round(4).using_card(0, CardKind::veto);
    WHEN("they perform its special action") {
      const Events e = play(s, 0, PerformSpecialAction{});
      THEN("it lies before them, live until the end of the next round") {
        CHECK(only_event<VetoLaid>(e).seat == 0);
        CHECK(s.vetoes[0].holder == 0);
        CHECK(s.vetoes[0].expires_after == 5);
      }
    }
  }
}

SCENARIO("decay_all_court and decay_three_court: opponents' courts return to the province", "[cards][stack2]") {
  GIVEN("courts of 7, 5, 2 and 0") {
    Given g = board().court(1, 5).court(2, 2).court(3, 0);
    WHEN("seat 0 plays decay_all_court") {
      GameState s = Given(g).using_card(0, CardKind::decay_all_court);
      const GameState before = s;
      play(s, 0, PerformSpecialAction{});
      THEN("every opponent's court empties; the actor keeps theirs; the board is untouched") {
        CHECK(s.players[0].court == 7);
        CHECK(s.players[1].court == 0);
        CHECK(s.players[1].province == before.players[1].province + 5);
        CHECK(s.players[2].court == 0);
        CHECK(s.players[3].court == 0);
        CHECK(s.caballeros == before.caballeros);
      }
    }
    WHEN("seat 0 plays decay_three_court") {
      GameState s = Given(g).using_card(0, CardKind::decay_three_court);
      const GameState before = s;
      const Events e = play(s, 0, PerformSpecialAction{});
      THEN("3 each, fewer if they have fewer, never from the board") {
        CHECK(s.players[0].court == 7);
        CHECK(s.players[1].court == 2);
        CHECK(s.players[2].court == 0);
        CHECK(s.players[2].province == before.players[2].province + 2);
        CHECK(s.players[3].court == 0);
        CHECK(s.caballeros == before.caballeros);
        CHECK(events_of<CaballerosReturned>(e).size() == 2);
      }
    }
  }
}

SCENARIO("angry_king: opponents return 3 of their choice, one after the other from the actor's left",
         "[cards][stack2]") {
  GIVEN("seat 1 plays it; seat 2 has 1 returnable, seat 3 six, seat 0 a full court") {
    GameState s = Given(players(4))
                      .king(castilla_nueva)
                      .court(2, 0)
                      .caballeros(2, aragon, 1)
                      .caballeros(2, castilla_nueva, 2)
                      .caballeros(2, castillo, 1)
                      .court(3, 2)
                      .caballeros(3, cataluna, 1)
                      .caballeros(3, sevilla, 3)
                      .caballeros(3, castilla_nueva, 1)
                      .caballeros(0, galicia, 2)
                      .power_cards({12, 13, 11, 10})
                      .using_card(1, CardKind::angry_king);
    WHEN("seat 1 announces it") {
      const Events e = play(s, 1, PerformSpecialAction{});
      THEN("seat 2 (left of the actor) returns its only returnable caballero at once") {
        const auto returned = events_of<CaballerosReturned>(e);
        REQUIRE(returned.size() == 1);
        CHECK(returned[0].colour == 2);
        CHECK(returned[0].from_regions[aragon] == 1);
        CHECK(at(s, castilla_nueva, 2) == 2);  // the king's region keeps them
        CHECK(at(s, castillo, 2) == 1);        // the castillo keeps them
      }
      THEN("seat 3 chooses next; seat 0 must wait") {
        REQUIRE(s.phase == Phase::returning);
        REQUIRE(pending(s).size() == 1);
        const Decision d = pending(s)[0];
        CHECK(d.seat == 3);
        const auto& ret = std::get<CaballerosToReturn>(d.detail);
        CHECK(ret.count == 3);
        CHECK(ret.court == 2);
        CHECK(ret.regions[castilla_nueva] == 0);
        CHECK(refused(s, 0, ReturnCaballeros{3, {}}) == Code::not_your_turn);
        CHECK(refused(s, 1, PlaceCaballeros{}) == Code::not_your_turn);  // the actor waits too
      }
      THEN("seat 3 may not return from the king's region or castillo, nor other than 3") {
        illegal(s, 3, ReturnCaballeros{2, counts({{castilla_nueva, 1}})});
        illegal(s, 3, ReturnCaballeros{2, counts({{castillo, 1}})});
        illegal(s, 3, ReturnCaballeros{2, {}});
        illegal(s, 3, ReturnCaballeros{2, counts({{sevilla, 2}})});
      }
      AND_WHEN("seat 3 returns 2 from court and 1 from Sevilla, then seat 0 1 from court and 2 from Galicia") {
        play(s, 3, ReturnCaballeros{2, counts({{sevilla, 1}})});
        CHECK(waiting_for(s) == 0b0001);
        play(s, 0, ReturnCaballeros{1, counts({{galicia, 2}})});
        THEN("the actor resumes their turn") {
          CHECK(s.players[3].court == 0);
          CHECK(at(s, sevilla, 3) == 2);
          CHECK(s.players[0].court == 6);
          CHECK(at(s, galicia, 0) == 0);
          CHECK(s.phase == Phase::use_action_card);
          CHECK(active_seat(s) == 1);
          CHECK(std::get<ActionCardUse>(decision_of(s, 1)->detail).may_place);
        }
      }
    }
  }
  GIVEN("an opponent with nothing returnable (only in the king's region)") {
    GameState s = Given(players(3))
                      .king(castilla_nueva)
                      .court(1, 0)
                      .caballeros(1, castilla_nueva, 4)
                      .power_cards({13, 12, 11})
                      .using_card(0, CardKind::angry_king);
    THEN("they are skipped and only seat 2 is asked") {
      play(s, 0, PerformSpecialAction{});
      REQUIRE(pending(s).size() == 1);
      CHECK(pending(s)[0].seat == 2);
      CHECK(at(s, castilla_nueva, 1) == 4);
    }
  }
}

SCENARIO("remove_one_each: the actor picks one caballero of each opponent", "[cards][stack2]") {
  GIVEN("every opponent has caballeros outside the king's region") {
    GameState s = holding(CardKind::remove_one_each);
    const GameState before = s;
    THEN("every opponent must be named, once, in a region where they have one, never the king's or castillo") {
      auto picks = [](std::initializer_list<ColourRegion> items) {
        RemoveCaballeros r;
        for (const ColourRegion& p : items) r.picks.push_back(p);
        return r;
      };
      illegal(s, 0, picks({{1, galicia}, {2, aragon}}));
      illegal(s, 0, picks({{1, castilla_nueva}, {2, aragon}, {3, sevilla}}));
      illegal(s, 0, picks({{1, castillo}, {2, aragon}, {3, sevilla}}));
      illegal(s, 0, picks({{0, galicia}, {1, galicia}, {2, aragon}, {3, sevilla}}));
      illegal(s, 0, picks({{1, galicia}, {1, aragon}, {2, aragon}, {3, sevilla}}));
      illegal(s, 0, picks({{1, granada}, {2, aragon}, {3, sevilla}}));
      WHEN("seat 0 picks seat 1 in Galicia, 2 in Aragón, 3 in Sevilla") {
        play(s, 0, picks({{1, galicia}, {2, aragon}, {3, sevilla}}));
        THEN("each goes back to its owner's province") {
          CHECK(at(s, galicia, 1) == 0);
          CHECK(at(s, aragon, 2) == 1);
          CHECK(at(s, sevilla, 3) == 2);
          for (Seat p = 1; p < 4; ++p) CHECK(s.players[p].province == before.players[p].province + 1);
        }
      }
    }
  }
  GIVEN("seat 3 has caballeros only in the king's region and the castillo") {
    GameState s = Given(players(4))
                      .king(castilla_nueva)
                      .caballeros(1, galicia, 1)
                      .caballeros(2, aragon, 1)
                      .caballeros(3, castilla_nueva, 3)
                      .caballeros(3, castillo, 2)
                      .power_cards({13, 12, 11, 10})
                      .using_card(0, CardKind::remove_one_each);
    THEN("the decision asks one of seat 1 (from Galicia) and one of seat 2 (from Aragón), none of seat 3") {
      const ActionCardUse use = card_use(s);
      CHECK(use.remove_from[0] == AreaCounts{});
      CHECK(use.remove_from[1] == counts({{galicia, 1}}));
      CHECK(use.remove_from[2] == counts({{aragon, 1}}));
      CHECK(use.remove_from[3] == AreaCounts{});
    }
    THEN("seat 3 is not named and keeps them") {
      RemoveCaballeros r;
      r.picks.push_back({1, galicia});
      r.picks.push_back({2, aragon});
      play(s, 0, r);
      CHECK(at(s, castilla_nueva, 3) == 3);
      CHECK(at(s, castillo, 3) == 2);
    }
  }
  GIVEN("a 2-player game with the automa on the board") {
    GameState s = Given(automa_game())
                      .king(castilla_nueva)
                      .caballeros(1, galicia, 1)
                      .caballeros(2, aragon, 2)
                      .power_cards({13, 12, 11})
                      .using_card(0, CardKind::remove_one_each);
    THEN("the automa is an opponent too; its caballero goes back beside the board") {
      CHECK(card_use(s).remove_from[2] == counts({{aragon, 2}}));
      RemoveCaballeros only_player;
      only_player.picks.push_back({1, galicia});
      illegal(s, 0, only_player);
      RemoveCaballeros both = only_player;
      both.picks.push_back({2, aragon});
      const int supply = s.automa.supply;
      play(s, 0, both);
      CHECK(at(s, aragon, 2) == 1);
      CHECK(s.automa.supply == supply + 1);
    }
  }
}

namespace {

// Seat 1: Galicia 1, País Vasco 2, Aragón 3, Valencia 1, K 4. Seat 2: Aragón 1, Cataluña 1,
// K 3, castillo 2. Seat 3: Sevilla 2, Valencia 1, K 5. The king in Castilla la Nueva.
Given disk_board() {
  Given g(players(4));
  g.king(castilla_nueva)
      .caballeros(0, galicia, 2)
      .caballeros(1, galicia, 1)
      .caballeros(1, pais_vasco, 2)
      .caballeros(1, aragon, 3)
      .caballeros(1, valencia, 1)
      .caballeros(1, castilla_nueva, 4)
      .caballeros(2, aragon, 1)
      .caballeros(2, cataluna, 1)
      .caballeros(2, castilla_nueva, 3)
      .caballeros(2, castillo, 2)
      .caballeros(3, sevilla, 2)
      .caballeros(3, valencia, 1)
      .caballeros(3, castilla_nueva, 5)
      .power_cards({13, 12, 11, 10});
  return g;
}

AreaMask allowed_disk(const GameState& s, Seat seat) {
  const auto d = decision_of(s, seat);
  REQUIRE(d);
  return std::get<DiskChoice>(d->detail).allowed;
}

}  // namespace

SCENARIO("disk_return_two: each opponent secretly picks a region with 2 (else 1) and returns 2", "[cards][stack2][disk]") {
  GIVEN("the disk board, seat 0 playing") {
    GameState s = disk_board().using_card(0, CardKind::disk_return_two);
    const GameState before = s;
    WHEN("seat 0 announces it") {
      play(s, 0, PerformSpecialAction{});
      THEN("regions with at least 2 are offered where there are any, never the king's region") {
        REQUIRE(s.phase == Phase::disk_setting);
        CHECK(allowed_disk(s, 1) == (bit(pais_vasco) | bit(aragon)));
        CHECK(allowed_disk(s, 2) == (bit(aragon) | bit(cataluna)));
        CHECK_FALSE(decision_of(s, 3));  // one choice only (Sevilla): set for them
        CHECK_FALSE(decision_of(s, 0));  // not the actor
        illegal(s, 1, SetDisk{galicia});
        illegal(s, 1, SetDisk{castilla_nueva});
        illegal(s, 2, SetDisk{castilla_nueva});
        CHECK(refused(s, 0, SetDisk{galicia}) == Code::not_your_turn);
      }
      AND_WHEN("seat 1 picks Aragón and seat 2 Cataluña") {
        play(s, 1, SetDisk{aragon});
        const Events e = play(s, 2, SetDisk{cataluna});
        THEN("the disks are revealed and the caballeros go back to the provinces") {
          const DisksRevealed r = only_event<DisksRevealed>(e);
          CHECK(r.disks[1] == aragon);
          CHECK(r.disks[2] == cataluna);
          CHECK(r.disks[3] == sevilla);
          CHECK_FALSE(r.disks[0]);
          CHECK(at(s, aragon, 1) == 1);
          CHECK(at(s, cataluna, 2) == 0);
          CHECK(at(s, sevilla, 3) == 0);
          CHECK(s.players[1].province == before.players[1].province + 2);
          CHECK(s.players[2].province == before.players[2].province + 1);
          CHECK(s.players[3].province == before.players[3].province + 2);
          king_region_untouched(before, s);
          CHECK(s.phase == Phase::use_action_card);
          CHECK(active_seat(s) == 0);
        }
      }
    }
  }
}

SCENARIO("disk_return_all: each opponent returns all caballeros of one region of their choice", "[cards][stack2][disk]") {
  GIVEN("the disk board, seat 0 playing") {
    GameState s = disk_board().using_card(0, CardKind::disk_return_all);
    const GameState before = s;
    WHEN("seat 0 announces it") {
      play(s, 0, PerformSpecialAction{});
      THEN("any region where they have one is offered, never the king's region") {
        CHECK(allowed_disk(s, 1) == (bit(galicia) | bit(pais_vasco) | bit(aragon) | bit(valencia)));
        CHECK(allowed_disk(s, 3) == (bit(sevilla) | bit(valencia)));
        illegal(s, 3, SetDisk{castilla_nueva});
        illegal(s, 3, SetDisk{granada});
      }
      AND_WHEN("seats 1, 2, 3 pick Aragón, Aragón, Valencia") {
        play(s, 1, SetDisk{aragon});
        play(s, 2, SetDisk{aragon});
        play(s, 3, SetDisk{valencia});
        THEN("all of theirs there go back") {
          CHECK(at(s, aragon, 1) == 0);
          CHECK(at(s, aragon, 2) == 0);
          CHECK(at(s, valencia, 3) == 0);
          CHECK(at(s, valencia, 1) == 1);
          CHECK(s.players[1].province == before.players[1].province + 3);
          king_region_untouched(before, s);
        }
      }
    }
  }
  GIVEN("no opponent has a caballero outside the king's region and the castillo") {
    GameState s = Given(players(3))
                      .king(castilla_nueva)
                      .caballeros(1, castilla_nueva, 2)
                      .caballeros(2, castillo, 2)
                      .power_cards({13, 12, 11})
                      .using_card(0, CardKind::disk_return_all);
    THEN("nobody is asked and nothing changes on the board") {
      const GameState before = s;
      play(s, 0, PerformSpecialAction{});
      CHECK(s.phase == Phase::use_action_card);
      CHECK(s.caballeros == before.caballeros);
    }
  }
}

SCENARIO("score_chosen_region: any region, the king's region or the castillo", "[cards][stack2][stack3]") {
  for (int stack : {2, 3}) {
    GIVEN("the card from stack " + std::to_string(stack)) {
      GameState s = board().using_card(0, CardKind::score_chosen_region, stack);
      THEN("it places up to its stack number") {
        CHECK(std::get<ActionCardUse>(decision_of(s, 0)->detail).place_up_to == stack);
      }
      WHEN("seat 0 scores the king's region (7/4/2 with 2, 1, 0, 1)") {
        const Events e = play(s, 0, ScoreArea{castilla_nueva});
        THEN("the sole first earns the king bonus; the tied second score third place") {
          CHECK(points(*scored(e, castilla_nueva), 4) == std::vector<int>{9, 2, 0, 2});
          CHECK(scores(s) == std::vector<int>{9, 2, 0, 2});
        }
      }
      WHEN("seat 0 scores the castillo (1, 1, 1, 1)") {
        const Events e = play(s, 0, ScoreArea{castillo});
        THEN("all tied: 3 each; the caballeros stay inside") {
          CHECK(points(*scored(e, castillo), 4) == std::vector<int>{3, 3, 3, 3});
          for (Colour c = 0; c < 4; ++c) CHECK(at(s, castillo, c) == 1);
          CHECK(events_of<CastilloEmptied>(e).empty());
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Stack 3: scorings
// ---------------------------------------------------------------------------------------

SCENARIO("score_fours: every region whose current first value is 4", "[cards][stack3]") {
  GIVEN("a bare board") {
    GameState s = holding(CardKind::score_fours);
    THEN("Galicia, Cataluña and Sevilla, in scoring order") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(galicia) | bit(cataluna) | bit(sevilla)));
      const auto all = events_of<AreaScored>(e);
      CHECK(all[0].area == galicia);
      CHECK(all[1].area == cataluna);
      CHECK(all[2].area == sevilla);
      // Galicia 3,1: 4 + 2 (seat 0's grande); Sevilla 1,0,0,3: 4 + 2 (seat 3's grande), 3.
      CHECK(points(*scored(e, galicia), 4) == std::vector<int>{6, 2, 0, 0});
      CHECK(points(*scored(e, sevilla), 4) == std::vector<int>{3, 0, 0, 6});
    }
  }
  GIVEN("8/4/0 on Galicia and 4/0/0 on Toledo (the 2023 'Outposts' example)") {
    GameState s = board()
                      .king(aragon)
                      .scoreboard(Scoreboard::eight_four_zero, galicia)
                      .scoreboard(Scoreboard::four_zero_zero, castilla_nueva)
                      .using_card(0, CardKind::score_fours);
    THEN("Cataluña, Toledo and Sevilla; not Galicia") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(cataluna) | bit(castilla_nueva) | bit(sevilla)));
      // Toledo 2, 1, 0, 1 on 4/0/0: 4 for the first, 0 for the rest.
      CHECK(points(*scored(e, castilla_nueva), 4) == std::vector<int>{4, 0, 0, 0});
    }
  }
  GIVEN("4/0/0 on Granada and 8/4/0 on Galicia (the 1995 examples)") {
    GameState s = board()
                      .scoreboard(Scoreboard::four_zero_zero, granada)
                      .scoreboard(Scoreboard::eight_four_zero, galicia)
                      .using_card(0, CardKind::score_fours);
    THEN("Granada is a 4-point region, Galicia is not") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(cataluna) | bit(sevilla) | bit(granada)));
    }
  }
  GIVEN("4/0/0 on the castillo") {
    GameState s = board().scoreboard(Scoreboard::four_zero_zero, castillo).using_card(0, CardKind::score_fours);
    THEN("the castillo is not a region and is not scored") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(galicia) | bit(cataluna) | bit(sevilla)));
    }
  }
}

SCENARIO("score_fives: every 5-point region, never the castillo", "[cards][stack3]") {
  GIVEN("a bare board (the castillo is 5/3/1 too)") {
    GameState s = holding(CardKind::score_fives);
    THEN("País Vasco, Aragón, Valencia") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(pais_vasco) | bit(aragon) | bit(valencia)));
    }
  }
  GIVEN("4/0/0 on Valencia") {
    GameState s = board().scoreboard(Scoreboard::four_zero_zero, valencia).using_card(0, CardKind::score_fives);
    THEN("Valencia is no longer a 5-point region") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(pais_vasco) | bit(aragon)));
    }
  }
}

SCENARIO("score_six_seven: every 6- and 7-point region", "[cards][stack3]") {
  GIVEN("a bare board") {
    GameState s = holding(CardKind::score_six_seven);
    THEN("Castilla la Vieja, Castilla la Nueva, Granada") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(castilla_vieja) | bit(castilla_nueva) | bit(granada)));
    }
  }
  GIVEN("8/4/0 on Castilla la Vieja") {
    GameState s = board().scoreboard(Scoreboard::eight_four_zero, castilla_vieja).using_card(0, CardKind::score_six_seven);
    THEN("it is an 8-point region now") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == (bit(castilla_nueva) | bit(granada)));
    }
  }
}

SCENARIO("score_castillo: the castillo is scored and its caballeros stay inside", "[cards][stack3]") {
  GIVEN("the castillo holding 3, 2, 1, 0") {
    GameState s = board().area(castillo, {3, 2, 1, 0}).using_card(0, CardKind::score_castillo);
    THEN("5, 3, 1, 0 and the caballeros are put back") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == bit(castillo));
      CHECK(points(*scored(e, castillo), 4) == std::vector<int>{5, 3, 1, 0});
      CHECK(at(s, castillo, 0) == 3);
      CHECK(at(s, castillo, 1) == 2);
      CHECK(at(s, castillo, 2) == 1);
    }
  }
}

SCENARIO("score_most and score_fewest: all tied regions are scored", "[cards][stack3]") {
  GIVEN("Aragón and Sevilla hold 6 each, the castillo 10, Valencia and Granada 2 each, Galicia none") {
    Given g = board()
                  .area(sevilla, {1, 0, 0, 5})
                  .area(castillo, {4, 2, 2, 2})
                  .area(granada, {1, 1, 0, 0})
                  .area(galicia, {0, 0, 0, 0});
    WHEN("score_most is played") {
      GameState s = Given(g).using_card(0, CardKind::score_most);
      const Events e = play(s, 0, PerformSpecialAction{});
      THEN("both regions with 6 are scored; the castillo does not count") {
        CHECK(scored_areas(e) == (bit(aragon) | bit(sevilla)));
      }
    }
    WHEN("score_fewest is played") {
      GameState s = Given(g).using_card(0, CardKind::score_fewest);
      const Events e = play(s, 0, PerformSpecialAction{});
      THEN("both non-empty regions with 2 are scored; the empty Galicia is not") {
        CHECK(scored_areas(e) == (bit(valencia) | bit(granada)));
      }
    }
  }
  GIVEN("the king's region holds the most") {
    GameState s = board().area(castilla_nueva, {4, 4, 0, 1}).using_card(0, CardKind::score_most);
    THEN("it is scored like any region (tie for first: second place, no bonus)") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == bit(castilla_nueva));
      CHECK(points(*scored(e, castilla_nueva), 4) == std::vector<int>{4, 4, 0, 2});
    }
  }
}

SCENARIO("score_first_only: every region, first place only, nothing on a tie", "[cards][stack3]") {
  GIVEN("the standard board (bonuses apply)") {
    GameState s = holding(CardKind::score_first_only);
    THEN("each sole first scores the first value with its bonuses; ties and seconds nothing") {
      const Events e = play(s, 0, PerformSpecialAction{});
      CHECK(scored_areas(e) == kAllRegions);
      CHECK(points(*scored(e, galicia), 4) == std::vector<int>{6, 0, 0, 0});         // + grande
      CHECK(points(*scored(e, pais_vasco), 4) == std::vector<int>{0, 7, 0, 0});      // + grande
      CHECK(points(*scored(e, aragon), 4) == std::vector<int>{0, 0, 0, 0});          // tie
      CHECK(points(*scored(e, cataluna), 4) == std::vector<int>{0, 0, 6, 0});        // + grande
      CHECK(points(*scored(e, castilla_vieja), 4) == std::vector<int>{0, 0, 0, 6});
      CHECK(points(*scored(e, castilla_nueva), 4) == std::vector<int>{9, 0, 0, 0});  // + king
      CHECK(points(*scored(e, valencia), 4) == std::vector<int>{0, 0, 0, 0});        // tie
      CHECK(points(*scored(e, sevilla), 4) == std::vector<int>{0, 0, 0, 6});         // + grande
      CHECK(scores(s) == std::vector<int>{15, 7, 6, 12});
    }
  }
}

// ---------------------------------------------------------------------------------------
// Stack 4
// ---------------------------------------------------------------------------------------

SCENARIO("scoreboard: put one on a region or the castillo, or move one in play", "[cards][stack4]") {
  GIVEN("both scoreboards beside the board") {
    GameState s = holding(CardKind::scoreboard);
    THEN("8/4/0 goes onto Aragón") {
      const Events e = play(s, 0, PlaceScoreboard{Scoreboard::eight_four_zero, aragon});
      CHECK(s.scoreboards[0] == aragon);
      CHECK_FALSE(only_event<ScoreboardPlaced>(e).from);
      CHECK(current_values(s, aragon) == Values{8, 4, 0});
    }
    THEN("4/0/0 goes onto the castillo") {
      play(s, 0, PlaceScoreboard{Scoreboard::four_zero_zero, castillo});
      CHECK(current_values(s, castillo) == Values{4, 0, 0});
    }
    THEN("never into the king's region") { illegal(s, 0, PlaceScoreboard{Scoreboard::eight_four_zero, castilla_nueva}); }
    THEN("the decision lets either board go anywhere but the king's region") {
      const ActionCardUse use = card_use(s);
      const auto anywhere = static_cast<AreaMask>((kAllRegions | bit(castillo)) & ~bit(castilla_nueva));
      CHECK(use.scoreboard_to[0] == anywhere);
      CHECK(use.scoreboard_to[1] == anywhere);
    }
  }
  GIVEN("8/4/0 on Aragón, 4/0/0 in the king's region") {
    GameState s = board()
                      .scoreboard(Scoreboard::eight_four_zero, aragon)
                      .scoreboard(Scoreboard::four_zero_zero, castilla_nueva)
                      .using_card(0, CardKind::scoreboard);
    THEN("8/4/0 may move to the castillo; Aragón gets its printed values back") {
      const Events e = play(s, 0, PlaceScoreboard{Scoreboard::eight_four_zero, castillo});
      CHECK(only_event<ScoreboardPlaced>(e).from == aragon);
      CHECK(current_values(s, aragon) == Values{5, 4, 1});
    }
    THEN("the decision lets only 8/4/0 move, anywhere but the king's region and Aragón") {
      const ActionCardUse use = card_use(s);
      CHECK(use.scoreboard_to[0] == ((kAllRegions | bit(castillo)) & ~bit(castilla_nueva) & ~bit(aragon)));
      CHECK(use.scoreboard_to[1] == 0);
      CHECK(use.targets == use.scoreboard_to[0]);
    }
    THEN("the one in the king's region stays; nothing joins it; no move in place") {
      illegal(s, 0, PlaceScoreboard{Scoreboard::four_zero_zero, galicia});
      illegal(s, 0, PlaceScoreboard{Scoreboard::eight_four_zero, castilla_nueva});
      illegal(s, 0, PlaceScoreboard{Scoreboard::eight_four_zero, aragon});
    }
  }
  GIVEN("8/4/0 on Aragón") {
    GameState s = board().scoreboard(Scoreboard::eight_four_zero, aragon).using_card(0, CardKind::scoreboard);
    THEN("4/0/0 may not join it") { illegal(s, 0, PlaceScoreboard{Scoreboard::four_zero_zero, aragon}); }
  }
}

SCENARIO("royal_advisor: the king to a neighbouring region", "[cards][stack4]") {
  GIVEN("the king in Castilla la Nueva") {
    GameState s = holding(CardKind::royal_advisor);
    THEN("only neighbours are accepted") {
      for (Area a : {galicia, pais_vasco, cataluna, castilla_nueva, castillo}) illegal(s, 0, MoveKing{a});
    }
    WHEN("the advisor moves the king to Sevilla before the placement") {
      const Events e = play(s, 0, MoveKing{sevilla});
      THEN("the placement goes next to the new king's region") {
        CHECK(s.king == sevilla);
        CHECK(only_event<KingMoved>(e).from == castilla_nueva);
        const auto use = std::get<ActionCardUse>(decision_of(s, 0)->detail);
        CHECK(use.place_into == (bit(castilla_nueva) | bit(granada) | bit(castillo)));
        illegal(s, 0, PlaceCaballeros{counts({{aragon, 1}})});
        illegal(s, 0, PlaceCaballeros{counts({{sevilla, 1}})});
        play(s, 0, PlaceCaballeros{counts({{castilla_nueva, 1}})});
      }
    }
  }
}

SCENARIO("king: the king to any region", "[cards][stack5]") {
  GIVEN("the King card, the king in Castilla la Nueva") {
    GameState s = board().using_card(0, kKingCard);
    THEN("the placement takes up to 5") {
      CHECK(std::get<ActionCardUse>(decision_of(s, 0)->detail).place_up_to == 5);
    }
    THEN("not the castillo, not where he stands") {
      illegal(s, 0, MoveKing{castillo});
      illegal(s, 0, MoveKing{castilla_nueva});
    }
    THEN("Galicia, far away, is fine") {
      play(s, 0, MoveKing{galicia});
      CHECK(s.king == galicia);
    }
  }
}

SCENARIO("eviction: opponents move all their caballeros out of a region to their disk's region", "[cards][stack4][disk]") {
  GIVEN("Aragón holds 2, 2, 1, 0 of seats 0..3") {
    GameState s = board().area(aragon, {2, 2, 1, 0}).using_card(0, CardKind::eviction);
    const GameState before = s;
    THEN("the king's region and the castillo cannot be chosen") {
      illegal(s, 0, Evict{castilla_nueva});
      illegal(s, 0, Evict{castillo});
    }
    WHEN("seat 0 evicts from Aragón") {
      play(s, 0, Evict{aragon});
      THEN("only opponents with caballeros there set a disk, to any other region") {
        CHECK(waiting_for(s) == 0b0110);
        CHECK(allowed_disk(s, 1) == (kAllRegions & ~bit(aragon)));
        illegal(s, 1, SetDisk{aragon});
      }
      AND_WHEN("seat 1 points at the king's region and seat 2 at Valencia") {
        play(s, 1, SetDisk{castilla_nueva});
        const Events e = play(s, 2, SetDisk{valencia});
        THEN("seat 1's go to the court, seat 2's to Valencia; the actor's stay") {
          CHECK(at(s, aragon, 0) == 2);
          CHECK(at(s, aragon, 1) == 0);
          CHECK(at(s, aragon, 2) == 0);
          CHECK(s.players[1].court == before.players[1].court + 2);
          CHECK(at(s, valencia, 2) == 2);
          king_region_untouched(before, s);
          const auto evicted = events_of<CaballerosEvicted>(e);
          REQUIRE(evicted.size() == 2);
          CHECK_FALSE(evicted[0].to);
          CHECK(evicted[1].to == valencia);
          CHECK(s.phase == Phase::use_action_card);
        }
      }
    }
  }
}

SCENARIO("grande: move your grande to another region", "[cards][stack4]") {
  GIVEN("seat 0's grande in Galicia") {
    GameState s = holding(CardKind::grande);
    THEN("into the king's region, the castillo, or where it stands: refused") {
      illegal(s, 0, MoveGrande{castilla_nueva});
      illegal(s, 0, MoveGrande{castillo});
      illegal(s, 0, MoveGrande{galicia});
    }
    THEN("to Sevilla, where seat 3's grande stands: fine") {
      const Events e = play(s, 0, MoveGrande{sevilla});
      CHECK(s.players[0].grande == sevilla);
      CHECK(s.players[3].grande == sevilla);
      CHECK(only_event<GrandeMoved>(e).from == galicia);
    }
  }
  GIVEN("seat 0's grande in the king's region") {
    GameState s = board().grande(0, castilla_nueva).using_card(0, CardKind::grande);
    THEN("it cannot leave") { illegal(s, 0, MoveGrande{granada}); }
  }
}

SCENARIO("power_cards: take a played power card back, without showing which", "[cards][stack4]") {
  GIVEN("seat 0 has played 13 this round and 5 and 7 before") {
    GameState s = board()
                      .hand(0, static_cast<PowerCards>(kAllPowerCards & ~power_bit(13) & ~power_bit(5) & ~power_bit(7)))
                      .using_card(0, CardKind::power_cards);
    THEN("the decision lists the 5, the 7 and the 13; a card never played is refused") {
      CHECK(card_use(s).take_back == (power_bit(5) | power_bit(7) | power_bit(13)));
      illegal(s, 0, TakeBackPowerCard{3});
    }
    WHEN("they take back the 5") {
      const Events e = play(s, 0, TakeBackPowerCard{5});
      THEN("it is in their hand again; only they learn which it was") {
        CHECK(s.players[0].hand & power_bit(5));
        CHECK_FALSE(s.players[0].discards & power_bit(5));
        for (Seat viewer : {Seat{0}, Seat{1}, Seat{2}, Seat{3}, kSpectator}) {
          const auto seen = events_of<PowerCardTakenBack>(visible_to(e, viewer));
          REQUIRE(seen.size() == 1);
          CHECK(seen[0].seat == 0);
          CHECK(seen[0].value == (viewer == 0 ? 5 : 0));
        }
        CHECK(view(s, 1).players[0].hand_count == view(s, 0).players[0].hand_count);
        CHECK_FALSE(view(s, 1).players[0].hand);
        CHECK_FALSE(card_use(s).may_act);
        CHECK(card_use(s).take_back == 0);
      }
    }
    WHEN("they take back this round's 13") {
      play(s, 0, TakeBackPowerCard{13});
      THEN("it is back in hand; the played value still stands for this round") {
        CHECK(s.players[0].hand & power_bit(13));
        CHECK(s.players[0].played == 13);
      }
    }
  }
}

SCENARIO("court: up to 2 caballeros from the province into the court", "[cards][stack4]") {
  GIVEN("seat 0 with caballeros in the province") {
    GameState s = holding(CardKind::court);
    THEN("two come; not three") {
      illegal(s, 0, TakeCaballeros{3, {}});
      const int province = s.players[0].province;
      play(s, 0, TakeCaballeros{2, {}});
      CHECK(s.players[0].court == 9);
      CHECK(s.players[0].province == province - 2);
    }
  }
  GIVEN("seat 0 with a single caballero left in the province") {
    GameState s = board().province(0, 1).using_card(0, CardKind::court);
    THEN("the decision offers that one, then seat 0's caballeros outside the king's region") {
      const ActionCardUse use = card_use(s);
      CHECK(use.take_up_to == 2);
      CHECK(use.take_province == 1);
      CHECK(use.take_regions == counts({{galicia, 3}, {pais_vasco, 1}, {aragon, 2}, {castilla_vieja, 1}, {sevilla, 1}}));
    }
    THEN("the second may come from a region, never the king's region or the castillo") {
      illegal(s, 0, TakeCaballeros{0, counts({{aragon, 2}})});  // the province first
      illegal(s, 0, TakeCaballeros{1, counts({{castilla_nueva, 1}})});
      illegal(s, 0, TakeCaballeros{1, counts({{castillo, 1}})});
      const int court = s.players[0].court;
      play(s, 0, TakeCaballeros{1, counts({{aragon, 1}})});
      CHECK(s.players[0].province == 0);
      CHECK(at(s, aragon, 0) == 1);
      CHECK(s.players[0].court == court + 2);
    }
  }
}

SCENARIO("secret_scoring: every player picks a region, and those picked by exactly one are scored", "[cards][stack4][disk]") {
  GIVEN("the standard board, seat 0 playing") {
    GameState s = holding(CardKind::secret_scoring);
    WHEN("seats 0 and 1 pick Galicia, seat 2 Aragón, seat 3 the king's region") {
      play(s, 0, PerformSpecialAction{});
      CHECK(waiting_for(s) == 0b1111);  // the actor too
      CHECK(allowed_disk(s, 0) == kAllRegions);
      play(s, 0, SetDisk{galicia});
      play(s, 1, SetDisk{galicia});
      play(s, 2, SetDisk{aragon});
      const Events e = play(s, 3, SetDisk{castilla_nueva});
      THEN("Aragón and Castilla la Nueva are scored, Galicia is not") {
        CHECK(scored_areas(e) == (bit(aragon) | bit(castilla_nueva)));
        CHECK(points(*scored(e, aragon), 4) == std::vector<int>{4, 4, 4, 0});
        CHECK(points(*scored(e, castilla_nueva), 4) == std::vector<int>{9, 2, 0, 2});
        CHECK(s.phase == Phase::use_action_card);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// The taboo of the king's region, card by card
// ---------------------------------------------------------------------------------------

SCENARIO("Nothing is placed into the king's region by any card's placement", "[cards][taboo]") {
  for (int k = 0; k < kCardKindCount; ++k) {
    const auto kind = static_cast<CardKind>(k);
    GIVEN(std::string("seat 0 holding ") + std::string(name(kind))) {
      GameState s = holding(kind);
      THEN("placing into the king's region or a region not next to it is refused") {
        illegal(s, 0, PlaceCaballeros{counts({{castilla_nueva, 1}})});
        illegal(s, 0, PlaceCaballeros{counts({{galicia, 1}})});
        const int n = action_card(*s.turn.card).stack;
        illegal(s, 0, PlaceCaballeros{counts({{aragon, n}, {castillo, 1}})});  // one too many
        play(s, 0, PlaceCaballeros{counts({{aragon, n - 1}, {castillo, 1}})});
        CHECK(refused(s, 0, PlaceCaballeros{}) == Code::illegal);  // placement happens once
      }
    }
  }
}
