// A round's flow (rules section 3), the veto (section 6), the variants (section 7) and the
// typed rejections that leave the state untouched.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "builder.hpp"

using namespace elgrande;
using namespace elgrande::testing;
using enum Area;
using Code = Rejection::Code;

namespace {

// Everyone plays the power card given for their seat, in the real order from the first player.
Events play_power_cards(GameState& s, const std::vector<int>& by_seat) {
  Events all;
  while (s.phase == Phase::power_cards) {
    const Seat seat = s.power_seat;
    const Events e = play(s, seat, PlayPowerCard{static_cast<std::uint8_t>(by_seat[static_cast<std::size_t>(seat)])});
    all.insert(all.end(), e.begin(), e.end());
  }
  return all;
}

// A whole turn by the rules: no caballeros taken, the card taken, nothing placed, no special.
Events plain_turn(GameState& s, Seat seat, CardId card) {
  Events all;
  auto add = [&](const Events& e) { all.insert(all.end(), e.begin(), e.end()); };
  if (s.phase == Phase::take_caballeros) add(play(s, seat, TakeCaballeros{}));
  add(play(s, seat, TakeActionCard{card}));
  add(play(s, seat, PlaceCaballeros{}));
  add(play(s, seat, SkipSpecialAction{}));
  return all;
}

// The same, taking the first card on offer.
Events plain_turn(GameState& s, Seat seat) {
  if (s.phase == Phase::take_caballeros) play(s, seat, TakeCaballeros{});
  const auto d = pending(s);
  REQUIRE(d.size() == 1);
  return plain_turn(s, seat, std::get<ActionCardChoice>(d[0].detail).offered[0]);
}

CardId revealed(const GameState& s, int stack_index) {
  REQUIRE(s.stacks[static_cast<std::size_t>(stack_index)].revealed);
  return *s.stacks[static_cast<std::size_t>(stack_index)].revealed;
}

std::vector<CardId> offered(const GameState& s) {
  const auto d = pending(s);
  REQUIRE(d.size() == 1);
  const auto& choice = std::get<ActionCardChoice>(d[0].detail);
  return {choice.offered.begin(), choice.offered.end()};
}

Options with(Options o, bool short_game, bool four_stacks) {
  o.short_game = short_game;
  o.four_stacks = four_stacks;
  return o;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Power cards and turn order
// ---------------------------------------------------------------------------------------

TEST_CASE("A tournament's seat order decides the first player, and without it the seed draws one", "[rounds]") {
  std::set<Seat> drawn;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Options options;
    options.players = 4;
    drawn.insert(new_game(options, seed).first_player);
    options.first_player = 2;
    CHECK(new_game(options, seed).first_player == 2);
  }
  CHECK(drawn.size() == 4);
  Options wrong;
  wrong.players = 3;
  wrong.first_player = 3;
  CHECK(check(wrong));
}

SCENARIO("Power cards: played clockwise from the first player, every value different", "[rounds][power]") {
  GIVEN("a new 4-player game") {
    GameState s = new_game(players(4), 11);
    const Seat first = s.first_player;
    const Seat second = static_cast<Seat>((first + 1) % 4);
    THEN("only the first player is asked") {
      REQUIRE(s.phase == Phase::power_cards);
      CHECK(waiting_for(s) == (1 << first));
      CHECK(refused(s, second, PlayPowerCard{5}) == Code::not_your_turn);
    }
    WHEN("the first player plays 7") {
      play(s, first, PlayPowerCard{7});
      THEN("the next one clockwise may play anything but 7") {
        CHECK(s.power_seat == second);
        const auto choice = std::get<PowerCardChoice>(decision_of(s, second)->detail);
        CHECK(choice.playable == (kAllPowerCards & ~power_bit(7)));
        illegal(s, second, PlayPowerCard{7});
        play(s, second, PlayPowerCard{8});
      }
    }
  }
  GIVEN("a power card played in an earlier round") {
    GameState s = Given(players(3)).hand(0, static_cast<PowerCards>(kAllPowerCards & ~power_bit(4))).with([](GameState& g) {
      g.first_player = 0;
      g.power_seat = 0;
    });
    THEN("it is no longer in the hand") { illegal(s, 0, PlayPowerCard{4}); }
  }
  GIVEN("a 2-player game with the automa") {
    GameState s = new_game(automa_game(), 5);
    const int flipped = s.automa.played;
    THEN("the automa's flipped card is taken: the players may not play its value") {
      REQUIRE(flipped >= 1);
      REQUIRE(flipped <= 13);
      CHECK_FALSE(std::get<PowerCardChoice>(pending(s)[0].detail).playable & power_bit(flipped));
      illegal(s, s.first_player, PlayPowerCard{static_cast<std::uint8_t>(flipped)});
    }
  }
}

SCENARIO("Turns go by descending power card", "[rounds][power]") {
  GIVEN("four players who play 3, 11, 7 and 1") {
    GameState s = new_game(players(4), 3);
    play_power_cards(s, {3, 11, 7, 1});
    THEN("seat 1 (11) goes first, then 2 (7), 0 (3), 3 (1)") {
      REQUIRE(s.turn_order.size() == 4);
      CHECK(std::vector<Colour>(s.turn_order.begin(), s.turn_order.end()) == std::vector<Colour>{1, 2, 0, 3});
      CHECK(s.phase == Phase::take_caballeros);
      CHECK(active_seat(s) == 1);
      CHECK(refused(s, 0, TakeCaballeros{}) == Code::not_your_turn);
    }
    THEN("seat 1 may take at most 1 caballero (an 11)") {
      const auto take = std::get<CaballerosToTake>(decision_of(s, 1)->detail);
      CHECK(take.up_to == 1);
      illegal(s, 1, TakeCaballeros{2, {}});
      play(s, 1, TakeCaballeros{1, {}});
      CHECK(s.players[1].court == 8);
      CHECK(s.phase == Phase::choose_action_card);
    }
  }
  GIVEN("a player whose power card is a 13") {
    GameState s = new_game(players(3), 3);
    play_power_cards(s, {13, 2, 5});
    THEN("it grants no caballeros: their turn starts with the action card") {
      CHECK(active_seat(s) == 0);
      CHECK(s.phase == Phase::choose_action_card);
    }
  }
  GIVEN("caballeros granted by value: 1 -> 6 ... 13 -> 0") {
    const int expected[] = {0, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0};
    for (int v = 1; v <= 13; ++v) CHECK(caballeros_granted(v) == expected[v]);
  }
}

SCENARIO("Taking caballeros when the province runs short", "[rounds][take]") {
  GIVEN("seat 0 played a 1 (6 caballeros) with 2 left in the province") {
    GameState s = Given(players(3))
                      .king(castilla_nueva)
                      .caballeros(0, aragon, 3)
                      .caballeros(0, castilla_nueva, 2)
                      .caballeros(0, castillo, 2)
                      .province(0, 2)
                      .power_cards({1, 3, 2})
                      .turn_of(0);
    THEN("regions count only after the province, never the king's region or the castillo") {
      const auto take = std::get<CaballerosToTake>(decision_of(s, 0)->detail);
      CHECK(take.up_to == 5);
      CHECK(take.province == 2);
      CHECK(take.regions[aragon] == 3);
      CHECK(take.regions[castilla_nueva] == 0);
      CHECK(take.regions[castillo] == 0);
      illegal(s, 0, TakeCaballeros{1, counts({{aragon, 1}})});
      illegal(s, 0, TakeCaballeros{2, counts({{castilla_nueva, 1}})});
      illegal(s, 0, TakeCaballeros{2, counts({{castillo, 1}})});
      illegal(s, 0, TakeCaballeros{2, counts({{aragon, 4}})});
      const int court = s.players[0].court;
      play(s, 0, TakeCaballeros{2, counts({{aragon, 3}})});
      CHECK(s.players[0].court == court + 5);
      CHECK(at(s, aragon, 0) == 0);
      CHECK(at(s, castilla_nueva, 0) == 2);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Action cards and placement
// ---------------------------------------------------------------------------------------

SCENARIO("The offer: one revealed card per stack and the King card", "[rounds][offer]") {
  GIVEN("a new 4-player game after the power cards") {
    GameState s = new_game(players(4), 21);
    play_power_cards(s, {13, 12, 11, 10});
    REQUIRE(active_seat(s) == 0);
    REQUIRE(s.phase == Phase::choose_action_card);  // a 13 grants no caballeros
    THEN("five cards: one of each stack 1..4, and the King card") {
      const auto cards = offered(s);
      REQUIRE(cards.size() == 5);
      for (int i = 0; i < 4; ++i) CHECK(action_card(cards[static_cast<std::size_t>(i)]).stack == i + 1);
      CHECK(cards[4] == kKingCard);
    }
    THEN("a card not on offer is refused") {
      const auto cards = offered(s);
      CardId other = 0;
      while (std::find(cards.begin(), cards.end(), other) != cards.end()) ++other;
      illegal(s, 0, TakeActionCard{other});
    }
    WHEN("seat 0 takes the King card and uses it") {
      play(s, 0, TakeActionCard{kKingCard});
      play(s, 0, PlaceCaballeros{});
      play(s, 0, SkipSpecialAction{});
      THEN("it is unavailable to the next player this round") {
        CHECK(offered(s).size() == 4);
        illegal(s, 1, TakeActionCard{kKingCard});
      }
      AND_WHEN("the round ends") {
        plain_turn(s, 1, revealed(s, 0));
        plain_turn(s, 2, revealed(s, 1));
        const Events e = plain_turn(s, 3, revealed(s, 2));
        THEN("the unused card is discarded, new ones revealed, the King card back on offer") {
          CHECK(s.round == 2);
          CHECK(s.king_card_available);
          const RoundStarted started = only_event<RoundStarted>(e);
          CHECK(started.offered.size() == 5);
          for (int i = 0; i < 4; ++i) CHECK(s.stacks[static_cast<std::size_t>(i)].face_down.size() == 11 - 2);
          CHECK(s.first_player == 3);  // the 10, the lowest
          CHECK(s.power_seat == 3);
          for (Seat p = 0; p < 4; ++p) CHECK(s.players[p].played == 0);
        }
      }
    }
  }
  GIVEN("three players with the four-stack option") {
    GameState s = new_game(with(players(3), false, true), 8);
    THEN("stacks 2 and 3 are merged: three stacks and the King card") {
      CHECK(s.stack_count == 3);
      CHECK(s.stacks[1].face_down.size() + 1 == 22);
      for (CardId id : s.stacks[1].face_down) CHECK((action_card(id).stack == 2 || action_card(id).stack == 3));
      play_power_cards(s, {13, 12, 11});
      CHECK(offered(s).size() == 4);
    }
  }
  GIVEN("three players without the option") {
    GameState s = new_game(players(3), 8);
    THEN("four stacks and the King card") {
      CHECK(s.stack_count == 4);
      play_power_cards(s, {13, 12, 11});
      CHECK(offered(s).size() == 5);
    }
  }
}

SCENARIO("Placement: up to the card's number, next to the king or into the castillo", "[rounds][placement]") {
  struct Example {
    Area king;
    AreaMask allowed;
  };
  // The rulebooks' examples.
  const Example examples[] = {
      {galicia, static_cast<AreaMask>(bit(castilla_vieja) | bit(pais_vasco))},
      {castilla_nueva, static_cast<AreaMask>(bit(castilla_vieja) | bit(sevilla) | bit(granada) | bit(valencia) | bit(aragon))},
      {castilla_vieja, static_cast<AreaMask>(bit(galicia) | bit(pais_vasco) | bit(aragon) | bit(castilla_nueva))},
  };
  for (const Example& ex : examples) {
    GIVEN("the king in " + std::string(name(ex.king))) {
      GameState s = Given(players(3)).king(ex.king).power_cards({13, 12, 11}).using_card(0, CardKind::court);
      THEN("placement goes only to its neighbours and the castillo") {
        CHECK(std::get<ActionCardUse>(decision_of(s, 0)->detail).place_into == (ex.allowed | bit(castillo)));
        for (int r = 0; r < kRegionCount; ++r)
          if (!contains(ex.allowed, area_at(r))) illegal(s, 0, PlaceCaballeros{counts({{area_at(r), 1}})});
      }
    }
  }
  GIVEN("a stack-4 card and 7 in court") {
    GameState s = Given(players(3)).king(galicia).power_cards({13, 12, 11}).using_card(0, CardKind::court);
    THEN("at most 4, split freely") {
      illegal(s, 0, PlaceCaballeros{counts({{pais_vasco, 3}, {castillo, 2}})});
      const Events e = play(s, 0, PlaceCaballeros{counts({{pais_vasco, 2}, {castilla_vieja, 1}, {castillo, 1}})});
      CHECK(only_event<CaballerosPlaced>(e).to[castillo] == 1);  // the count thrown in is public
      CHECK(s.players[0].court == 3);
      illegal(s, 0, PlaceCaballeros{counts({{pais_vasco, 1}})});  // once per turn
    }
  }
  GIVEN("a stack-4 card and 1 in court") {
    GameState s = Given(players(3)).king(galicia).court(0, 1).power_cards({13, 12, 11}).using_card(0, CardKind::court);
    THEN("only 1") {
      CHECK(std::get<ActionCardUse>(decision_of(s, 0)->detail).place_up_to == 1);
      illegal(s, 0, PlaceCaballeros{counts({{pais_vasco, 2}})});
    }
  }
  GIVEN("a turn with its special action done first") {
    GameState s = Given(players(3)).king(galicia).power_cards({13, 12, 11}).using_card(0, CardKind::royal_advisor);
    THEN("the placement can follow, and the turn then passes") {
      play(s, 0, MoveKing{pais_vasco});
      illegal(s, 0, MoveKing{aragon});  // the special action is done
      CHECK(active_seat(s) == 0);
      play(s, 0, PlaceCaballeros{counts({{aragon, 1}})});
      CHECK(active_seat(s) == 1);
    }
  }
}

// ---------------------------------------------------------------------------------------
// The automa
// ---------------------------------------------------------------------------------------

SCENARIO("Automa: placement at the start of each round", "[rounds][automa]") {
  GIVEN("new automa games") {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      Events e;
      const GameState s = new_game(automa_game(), seed, &e);
      const auto placed = events_of<AutomaPlacedCaballeros>(e);
      int total = 0;
      for (const auto& p : placed) {
        CHECK(p.region != s.king);
        CHECK(p.count == 2);
        total += p.count;
      }
      CHECK(placed.size() <= 2);
      CHECK(s.automa.supply == 30 - total);
      CHECK(s.caballeros[index(s.king)][2] == 0);
      CHECK(s.automa.region_deck.size() == 9 - 2);
      CHECK(only_event<AutomaPowerCardFlipped>(e).value == s.automa.played);
      CHECK(s.automa.power_deck.size() == 12);
      CHECK(s.stack_count == 3);
    }
  }
}

SCENARIO("Automa: its turn takes the card with the most caballeros and discards it", "[rounds][automa]") {
  GIVEN("an automa game where the automa flipped the lowest card") {
    GameState s = Given(automa_game())
                      .king(castilla_nueva)
                      .round(1)
                      .power_cards({13, 12, 1})
                      .with([](GameState& g) {
                        g.turn_index = 0;
                        g.phase = Phase::take_caballeros;
                        // The next round's region cards: the king's region on top, then Aragón.
                        g.automa.region_deck = {galicia, aragon, castilla_nueva};
                      });
    WHEN("seat 0 takes the stack-1 card and seat 1 the stack-4 card") {
      plain_turn(s, 0, revealed(s, 0));
      const CardId merged = revealed(s, 1);
      const Events e = plain_turn(s, 1, revealed(s, 2));
      THEN("the automa takes the King card, unused; the other card is discarded") {
        const auto taken = events_of<ActionCardTaken>(e);
        REQUIRE(taken.size() == 2);
        CHECK(taken[1].colour == 2);
        CHECK(taken[1].card == kKingCard);
        CHECK(events_of<KingMoved>(e).empty());
        (void)merged;
      }
      THEN("the lowest player, not the automa, becomes first player") {
        CHECK(s.first_player == 1);
        CHECK(s.round == 2);
      }
      THEN("next round the automa skips the king's region card and puts 2 in Aragón") {
        const auto placed = events_of<AutomaPlacedCaballeros>(e);
        REQUIRE(placed.size() == 1);
        CHECK(placed[0].region == aragon);
        CHECK(at(s, aragon, 2) == 2);
        CHECK(at(s, castilla_nueva, 2) == 0);
        CHECK(s.automa.region_deck.size() == 1);
      }
    }
    WHEN("seat 0 takes the King card and seat 1 the stack-1 card") {
      const CardId four = revealed(s, 2);
      plain_turn(s, 0, kKingCard);
      const Events e = plain_turn(s, 1, revealed(s, 0));
      THEN("the automa takes the stack-4 card") {
        const auto taken = events_of<ActionCardTaken>(e);
        REQUIRE(taken.size() == 2);
        CHECK(taken[1].colour == 2);
        CHECK(taken[1].card == four);
      }
    }
  }
  GIVEN("an automa with all 30 caballeros out") {
    GameState s = Given(automa_game())
                      .caballeros(2, galicia, 30)
                      .round(1)
                      .power_cards({13, 12, 1})
                      .with([](GameState& g) { g.turn_index = 0; });
    WHEN("the round ends") {
      const auto deck = s.automa.region_deck.size();
      plain_turn(s, 0, revealed(s, 0));
      const Events e = plain_turn(s, 1, revealed(s, 1));
      THEN("no region card is drawn") {
        CHECK(events_of<AutomaPlacedCaballeros>(e).empty());
        CHECK(s.automa.region_deck.size() == deck);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Round sequence and variants
// ---------------------------------------------------------------------------------------

SCENARIO("The short game plays rounds 2, 3, 5, 6, 8, 9", "[rounds][short]") {
  GIVEN("a new short game") {
    GameState s = new_game(with(players(3), true, false), 4);
    THEN("it starts at round 2") {
      CHECK(s.round == 2);
      CHECK(s.rounds_played == 1);
    }
    WHEN("round 2 is played") {
      play_power_cards(s, {13, 12, 11});
      for (Seat p = 0; p < 3; ++p) plain_turn(s, p);
      THEN("round 3 follows with no scoring") {
        CHECK(s.round == 3);
        CHECK(s.phase == Phase::power_cards);
        CHECK(s.general_scorings == 0);
      }
      AND_WHEN("round 3 is played") {
        play_power_cards(s, {10, 9, 8});
        for (Seat p = 0; p < 3; ++p) plain_turn(s, p);
        THEN("the general scoring comes, then round 5") {
          REQUIRE(s.phase == Phase::disk_setting);
          for (Seat p = 0; p < 3; ++p) play(s, p, SetDisk{galicia});
          CHECK(s.general_scorings == 1);
          CHECK(s.round == 5);
        }
      }
    }
  }
}

SCENARIO("power_cards taking back the lowest card of the round keeps the first-player marker", "[rounds][power]") {
  GIVEN("seat 3 played the lowest card (10) and is last to play") {
    GameState s = Given(players(4)).round(1).power_cards({13, 12, 11, 10}).using_card(3, CardKind::power_cards);
    WHEN("they take the 10 back and end the round") {
      play(s, 3, TakeBackPowerCard{10});
      play(s, 3, PlaceCaballeros{});
      THEN("they are still first player, and may play the 10 again") {
        CHECK(s.first_player == 3);
        CHECK(s.power_seat == 3);
        play(s, 3, PlayPowerCard{10});
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Veto
// ---------------------------------------------------------------------------------------

namespace {

// Four players, seat 0 first with a score_chosen_region card; Aragón holds 3, 1, 0, 0.
Given veto_table() {
  Given g(players(4));
  g.king(castilla_nueva).round(4).area(aragon, {3, 1, 0, 0}).power_cards({13, 12, 11, 10});
  return g;
}

}  // namespace

SCENARIO("Veto: holders are asked when another player announces a special action", "[rounds][veto]") {
  GIVEN("seat 2 holds a live veto; seat 0 announces a scoring of Aragón") {
    GameState s = veto_table().veto(0, 2, 5).using_card(0, CardKind::score_chosen_region, 2);
    const Events announced = play(s, 0, ScoreArea{aragon});
    THEN("nothing is scored yet; seat 2 is asked, and only seat 2") {
      CHECK(only_event<SpecialActionAnnounced>(announced).seat == 0);
      CHECK(events_of<AreaScored>(announced).empty());
      REQUIRE(s.phase == Phase::veto_window);
      REQUIRE(pending(s).size() == 1);
      CHECK(pending(s)[0].seat == 2);
      CHECK(std::get<VetoChoice>(pending(s)[0].detail).actor == 0);
      CHECK(refused(s, 0, PlaceCaballeros{}) == Code::not_your_turn);
      CHECK(refused(s, 1, AnswerVeto{true}) == Code::not_your_turn);
      CHECK(refused(s, 2, PlaceCaballeros{}) == Code::wrong_command);
    }
    WHEN("seat 2 vetoes") {
      const Events e = play(s, 2, AnswerVeto{true});
      THEN("the action is cancelled, the veto used up, and seat 0 still places") {
        const auto vetoed = only_event<SpecialActionVetoed>(e);
        CHECK(vetoed.seat == 0);
        CHECK(vetoed.by == 2);
        CHECK(events_of<AreaScored>(e).empty());
        CHECK(scores(s) == std::vector<int>{0, 0, 0, 0});
        CHECK(s.vetoes[0].holder == -1);
        const auto use = std::get<ActionCardUse>(decision_of(s, 0)->detail);
        CHECK(use.may_place);
        CHECK_FALSE(use.may_act);
        illegal(s, 0, ScoreArea{aragon});
        play(s, 0, PlaceCaballeros{counts({{aragon, 2}})});
        CHECK(active_seat(s) == 1);
      }
      AND_WHEN("seat 1 then announces a special action") {
        play(s, 0, PlaceCaballeros{});
        GameState next = Given(s).using_card(1, CardKind::score_chosen_region, 2);
        const Events e2 = play(next, 1, ScoreArea{aragon});
        THEN("nobody is asked: the used veto is gone") {
          CHECK(next.phase == Phase::use_action_card);
          CHECK(events_of<AreaScored>(e2).size() == 1);
        }
      }
    }
    WHEN("seat 2 lets it pass") {
      const Events e = play(s, 2, AnswerVeto{false});
      THEN("the scoring happens and the veto stays live") {
        CHECK(points(*scored(e, aragon), 4) == std::vector<int>{5, 4, 0, 0});
        CHECK(s.vetoes[0].holder == 2);
      }
    }
  }
  GIVEN("the actor holds the only live veto") {
    GameState s = veto_table().veto(0, 0, 5).using_card(0, CardKind::score_chosen_region, 2);
    THEN("they are not asked about their own action") {
      const Events e = play(s, 0, ScoreArea{aragon});
      CHECK(s.phase == Phase::use_action_card);
      CHECK(events_of<AreaScored>(e).size() == 1);
      CHECK(s.vetoes[0].holder == 0);
    }
  }
  GIVEN("a holder, and an actor who skips the special action") {
    GameState s = veto_table().veto(0, 2, 5).using_card(0, CardKind::score_chosen_region, 2);
    THEN("a skip is not announced and nobody is asked") {
      play(s, 0, SkipSpecialAction{});
      CHECK(s.phase == Phase::use_action_card);
      CHECK(s.vetoes[0].holder == 2);
    }
  }
  GIVEN("an angry king announced and vetoed") {
    GameState s = veto_table().veto(1, 3, 5).using_card(0, CardKind::angry_king);
    const GameState before = s;
    play(s, 0, PerformSpecialAction{});
    play(s, 3, AnswerVeto{true});
    THEN("nobody returns anything") {
      CHECK(s.phase == Phase::use_action_card);
      CHECK(s.caballeros == before.caballeros);
      for (Seat p = 0; p < 4; ++p) CHECK(s.players[p].court == before.players[p].court);
    }
  }
  GIVEN("the King card's move announced and vetoed") {
    GameState s = veto_table().veto(0, 1, 5).using_card(0, kKingCard);
    play(s, 0, MoveKing{galicia});
    play(s, 1, AnswerVeto{true});
    THEN("the king stays") { CHECK(s.king == castilla_nueva); }
  }
}

SCENARIO("Veto: two holders say yes, and only the first clockwise from the actor is used", "[rounds][veto]") {
  GIVEN("seat 1 acts; seats 3 and 0 hold vetoes") {
    GameState s = Given(players(4))
                      .king(castilla_nueva)
                      .area(aragon, {0, 2, 0, 0})
                      .veto(0, 0, 5)
                      .veto(1, 3, 5)
                      .round(4)
                      .power_cards({12, 13, 11, 10})
                      .using_card(1, CardKind::score_chosen_region, 2);
    play(s, 1, ScoreArea{aragon});
    THEN("both are asked at once") { CHECK(waiting_for(s) == 0b1001); }
    WHEN("both veto") {
      play(s, 0, AnswerVeto{true});
      CHECK(s.phase == Phase::veto_window);  // still waiting for seat 3
      const Events e = play(s, 3, AnswerVeto{true});
      THEN("seat 3 (clockwise 2, 3, 0 from seat 1) uses theirs; seat 0 keeps theirs") {
        CHECK(only_event<SpecialActionVetoed>(e).by == 3);
        CHECK(s.vetoes[1].holder == -1);
        CHECK(s.vetoes[0].holder == 0);
        CHECK(scores(s) == std::vector<int>{0, 0, 0, 0});
      }
    }
    WHEN("only seat 0 vetoes") {
      play(s, 3, AnswerVeto{false});
      const Events e = play(s, 0, AnswerVeto{true});
      THEN("seat 0's veto is used") {
        CHECK(only_event<SpecialActionVetoed>(e).by == 0);
        CHECK(s.vetoes[0].holder == -1);
        CHECK(s.vetoes[1].holder == 3);
      }
    }
  }
}

SCENARIO("Veto: a live veto expires at the end of the round after the one it was laid in", "[rounds][veto]") {
  GIVEN("in round 4, a veto laid in round 3 and one laid in round 4; seat 3 ends the round") {
    GameState s = Given(players(4))
                      .round(4)
                      .veto(0, 1, 4)
                      .veto(1, 2, 5)
                      .power_cards({13, 12, 11, 10})
                      .using_card(3, CardKind::move_four_any)
                      .placed();
    WHEN("the round ends") {
      const Events e = play(s, 3, SkipSpecialAction{});
      THEN("the older one is discarded, the newer one stays for round 5") {
        CHECK(only_event<VetoExpired>(e).seat == 1);
        CHECK(s.vetoes[0].holder == -1);
        CHECK(s.vetoes[1].holder == 2);
        CHECK(s.round == 5);
      }
    }
  }
  GIVEN("a veto taken and laid through the flow in round 1") {
    GameState s = Given(players(3)).round(1).power_cards({13, 12, 11}).using_card(0, CardKind::veto);
    play(s, 0, PerformSpecialAction{});
    play(s, 0, PlaceCaballeros{});
    THEN("it is live in rounds 1 and 2 and gone after round 2") {
      plain_turn(s, 1, revealed(s, 0));
      plain_turn(s, 2, revealed(s, 2));  // the veto came from stack 2
      CHECK(s.round == 2);
      CHECK(s.vetoes[0].holder == 0);
      play_power_cards(s, {10, 9, 8});
      plain_turn(s, 0, revealed(s, 0));
      plain_turn(s, 1, revealed(s, 1));
      const Events e = plain_turn(s, 2, revealed(s, 2));
      CHECK(s.round == 3);
      CHECK(only_event<VetoExpired>(e).seat == 0);
      CHECK(s.vetoes[0].holder == -1);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Rejections
// ---------------------------------------------------------------------------------------

SCENARIO("Rejected commands are typed and change nothing", "[rounds][rejections]") {
  GIVEN("a new game waiting for the first player's power card") {
    GameState s = new_game(players(4), 17);
    const Seat first = s.first_player;
    const Seat other = static_cast<Seat>((first + 2) % 4);
    THEN("another seat is out of turn") { CHECK(refused(s, other, PlayPowerCard{5}) == Code::not_your_turn); }
    THEN("the wrong kind of command is wrong_command") {
      CHECK(refused(s, first, TakeActionCard{0}) == Code::wrong_command);
      CHECK(refused(s, first, SetDisk{galicia}) == Code::wrong_command);
      CHECK(refused(s, first, AnswerVeto{true}) == Code::wrong_command);
      CHECK(refused(s, first, MoveKing{galicia}) == Code::wrong_command);
    }
    THEN("out-of-range values are malformed") {
      CHECK(refused(s, first, PlayPowerCard{0}) == Code::malformed);
      CHECK(refused(s, first, PlayPowerCard{14}) == Code::malformed);
      CHECK(refused(s, 7, PlayPowerCard{5}) == Code::malformed);
      CHECK(refused(s, kSpectator, PlayPowerCard{5}) == Code::malformed);
    }
  }
  GIVEN("a turn with a scoring card") {
    GameState s = veto_table().using_card(0, CardKind::score_fours);
    THEN("another card's command is wrong_command; bad values are malformed or illegal") {
      CHECK(refused(s, 0, MoveKing{galicia}) == Code::wrong_command);
      CHECK(refused(s, 0, moves({{0, aragon, galicia, 1}})) == Code::wrong_command);
      CHECK(refused(s, 0, PlayPowerCard{3}) == Code::wrong_command);
      CHECK(refused(s, 0, TakeActionCard{3}) == Code::wrong_command);
      CHECK(refused(s, 0, PlaceCaballeros{counts({{castilla_vieja, 40}})}) == Code::malformed);
      CHECK(refused(s, 1, PerformSpecialAction{}) == Code::not_your_turn);
    }
  }
  GIVEN("a turn with a moving card") {
    GameState s = veto_table().using_card(0, CardKind::move_four_any);
    THEN("unknown colours and areas are malformed; zero-caballero moves too") {
      CHECK(refused(s, 0, moves({{7, aragon, galicia, 1}})) == Code::malformed);
      CHECK(refused(s, 0, moves({{3, aragon, galicia, 1}})) == Code::illegal);  // seat 3 has none there
      CHECK(refused(s, 0, moves({{0, static_cast<Area>(12), galicia, 1}})) == Code::malformed);
      CHECK(refused(s, 0, moves({{0, aragon, galicia, 0}})) == Code::malformed);
      CHECK(refused(s, 0, PerformSpecialAction{}) == Code::wrong_command);
    }
  }
  GIVEN("the action card step") {
    GameState s = veto_table().turn_of(0, Phase::choose_action_card);
    THEN("an unknown card is malformed") { CHECK(refused(s, 0, TakeActionCard{200}) == Code::malformed); }
  }
  GIVEN("a finished game") {
    GameState s = Given(players(3)).general_scorings(3).with([](GameState& g) { g.phase = Phase::game_over; });
    THEN("everything is game_over") {
      for (Seat p = 0; p < 3; ++p) CHECK(refused(s, p, PlayPowerCard{1}) == Code::game_over);
      CHECK(refused(s, 0, SetDisk{galicia}) == Code::game_over);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------

SCENARIO("Setup: king, home regions, courts, provinces and stacks", "[rounds][setup]") {
  for (int n = 2; n <= 5; ++n) {
    GIVEN(std::to_string(n) + " players") {
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const GameState s = new_game(players(n), seed);
        check_invariants(s);
        CHECK(s.round == 1);
        CHECK(s.rounds_played == 1);
        CHECK(s.phase == Phase::power_cards);
        CHECK(s.power_seat == s.first_player);
        for (Colour c = 0; c < kMaxColours; ++c) CHECK(s.caballeros[index(s.king)][c] == 0);
        for (Seat p = 0; p < n; ++p) {
          const Player& player = s.players[p];
          CHECK(player.grande != s.king);
          for (Seat q = 0; q < p; ++q) CHECK(s.players[q].grande != player.grande);
          CHECK(at(s, player.grande, p) == 2);
          CHECK(caballeros_in_regions(s, p) == 2);
          CHECK(player.court == 7);
          CHECK(player.province == 21);
          CHECK(player.hand == kAllPowerCards);
          CHECK(player.score == 0);
        }
        for (int i = 0; i < 4; ++i) {
          CHECK(s.stacks[static_cast<std::size_t>(i)].face_down.size() == 10);
          CHECK(action_card(*s.stacks[static_cast<std::size_t>(i)].revealed).stack == i + 1);
        }
        CHECK(s.king_card_available);
        CHECK(s.scoreboards[0] == std::nullopt);
        CHECK(s.scoreboards[1] == std::nullopt);
      }
    }
  }
}

SCENARIO("Automa: effects that would make it choose skip it", "[rounds][automa]") {
  auto table = [](CardKind kind) {
    return Given(automa_game())
        .king(castilla_nueva)
        .caballeros(1, aragon, 4)
        .caballeros(2, aragon, 4)
        .caballeros(2, galicia, 2)
        .power_cards({13, 12, 11})
        .using_card(0, kind)
        .build();
  };
  GIVEN("angry_king") {
    GameState s = table(CardKind::angry_king);
    play(s, 0, PerformSpecialAction{});
    THEN("only seat 1 returns; the automa keeps its caballeros") {
      CHECK(waiting_for(s) == 0b10);
      play(s, 1, ReturnCaballeros{3, {}});
      CHECK(at(s, aragon, 2) == 4);
      CHECK(s.phase == Phase::use_action_card);
    }
  }
  GIVEN("disk_return_all") {
    GameState s = table(CardKind::disk_return_all);
    play(s, 0, PerformSpecialAction{});
    THEN("only seat 1's disk counts (a forced pick: Aragón); the automa keeps its caballeros") {
      CHECK(s.phase == Phase::use_action_card);
      CHECK(at(s, aragon, 1) == 0);
      CHECK(at(s, aragon, 2) == 4);
      CHECK(at(s, galicia, 2) == 2);
    }
  }
  GIVEN("eviction from Aragón") {
    GameState s = table(CardKind::eviction);
    play(s, 0, Evict{aragon});
    THEN("seat 1 is asked; the automa's caballeros stay") {
      CHECK(waiting_for(s) == 0b10);
      play(s, 1, SetDisk{granada});
      CHECK(at(s, granada, 1) == 4);
      CHECK(at(s, aragon, 2) == 4);
    }
  }
  GIVEN("decay_all_court") {
    GameState s = table(CardKind::decay_all_court);
    const int supply = s.automa.supply;
    play(s, 0, PerformSpecialAction{});
    THEN("the automa has no court; its supply is unchanged") {
      CHECK(s.players[1].court == 0);
      CHECK(s.automa.supply == supply);
    }
  }
  GIVEN("secret_scoring") {
    GameState s = table(CardKind::secret_scoring);
    play(s, 0, PerformSpecialAction{});
    THEN("the two players pick; the automa does not") { CHECK(waiting_for(s) == 0b11); }
  }
}

SCENARIO("Veto: one holder with both vetoes uses only one", "[rounds][veto]") {
  GIVEN("seat 2 holds both vetoes; seat 0 announces a scoring") {
    GameState s = veto_table().veto(0, 2, 5).veto(1, 2, 5).using_card(0, CardKind::score_chosen_region, 2);
    play(s, 0, ScoreArea{aragon});
    WHEN("seat 2 vetoes") {
      play(s, 2, AnswerVeto{true});
      THEN("one veto is used and the other stays live") {
        CHECK(((s.vetoes[0].holder == -1) != (s.vetoes[1].holder == -1)));
        CHECK((s.vetoes[0].holder == 2 || s.vetoes[1].holder == 2));
      }
    }
  }
}

SCENARIO("Unplayable options are refused at setup", "[rounds][setup]") {
  Options o;
  o.players = 1;
  CHECK_THROWS_AS(new_game(o, 1), std::invalid_argument);
  o.players = 6;
  CHECK_THROWS_AS(new_game(o, 1), std::invalid_argument);
  o = players(3);
  o.automa = true;
  CHECK_THROWS_AS(new_game(o, 1), std::invalid_argument);
  o = players(4);
  o.four_stacks = true;
  CHECK_THROWS_AS(new_game(o, 1), std::invalid_argument);
  CHECK_NOTHROW(new_game(with(players(3), false, true), 1));
}

SCENARIO("Automa: with the highest power card it takes the King card first", "[rounds][automa]") {
  GIVEN("an automa game whose flipped card is a 13") {
    GameState s = Given(automa_game()).with([](GameState& g) { g.automa.played = 13; });
    WHEN("the players play 5 and 6") {
      play_power_cards(s, {5, 6});
      THEN("the automa's turn comes first and takes the King card unused") {
        CHECK(s.turn_order[0] == 2);
        CHECK_FALSE(s.king_card_available);
        CHECK(active_seat(s) == 1);
        REQUIRE(s.phase == Phase::take_caballeros);
        play(s, 1, TakeCaballeros{});
        CHECK(offered(s).size() == 3);  // the three stacks, no King card
      }
    }
  }
}
