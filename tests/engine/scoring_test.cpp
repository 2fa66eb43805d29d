// Scoring (rules section 4): the worked examples of both rulebooks, ties at every place,
// the king and grande bonuses, player counts, scoreboards, general scoring and game end.
#include <catch2/catch.hpp>

#include "builder.hpp"

using namespace elgrande;
using namespace elgrande::testing;
using enum Area;

namespace {

// A table of `n` seats where seat 0 holds a "score one region of your choice" card. The king
// and every grande stand in Cataluña unless a scenario moves them, so no bonus interferes.
Given table(int n) {
  Given g(players(n));
  g.king(cataluna);
  for (Seat p = 0; p < n; ++p) g.grande(p, cataluna);
  switch (n) {
    case 2: g.power_cards({13, 12}); break;
    case 3: g.power_cards({13, 12, 11}); break;
    case 4: g.power_cards({13, 12, 11, 10}); break;
    default: g.power_cards({13, 12, 11, 10, 9}); break;
  }
  return g.using_card(0, CardKind::score_chosen_region, 3);
}

// Seat 0 scores one area with the card; returns that area's AreaScored.
AreaScored score_now(GameState& s, Area area) {
  const std::vector<int> before = scores(s);
  const Events events = play(s, 0, ScoreArea{area});
  const auto result = scored(events, area);
  REQUIRE(result);
  REQUIRE(events_of<AreaScored>(events).size() == 1);
  // The points reported are exactly the points added.
  for (Seat p = 0; p < s.options.players; ++p) REQUIRE(s.players[p].score == before[p] + result->points[p]);
  return *result;
}

std::vector<int> v(std::initializer_list<int> items) { return items; }

}  // namespace

SCENARIO("Worked examples of the rulebooks", "[scoring]") {
  GIVEN("5/3/1 with 4, 4, 4 and 3 caballeros (1995 example 1)") {
    GameState s = table(4).area(pais_vasco, {4, 4, 4, 3});
    THEN("the three tied for first score second place, the next one third") {
      CHECK(points(score_now(s, pais_vasco), 4) == v({3, 3, 3, 1}));
    }
  }
  GIVEN("6/4/2 with 4, 3, 2 and 2 caballeros (1995 example 2)") {
    GameState s = table(4).area(castilla_vieja, {4, 3, 2, 2});
    THEN("6 and 4; the two tied would score a fourth place, which does not exist") {
      CHECK(points(score_now(s, castilla_vieja), 4) == v({6, 4, 0, 0}));
    }
  }
  GIVEN("Galicia 4/2/0 with 4, 3, 2 and none (2023 example)") {
    GameState s = table(4).area(galicia, {4, 3, 2, 0});
    THEN("4, 2, nothing for third, nothing for a player without caballeros") {
      CHECK(points(score_now(s, galicia), 4) == v({4, 2, 0, 0}));
    }
  }
  GIVEN("País Vasco (Navarra) 5/3/1 with 2, 2, 2 and 1, the third player's grande standing there") {
    GameState s = table(4).area(pais_vasco, {2, 2, 2, 1}).grande(2, pais_vasco);
    THEN("the grande does not count: all three tie at first and score 3, the last scores 1") {
      const AreaScored r = score_now(s, pais_vasco);
      CHECK(points(r, 4) == v({3, 3, 3, 1}));
      CHECK(r.grande_bonus == -1);
    }
  }
  GIVEN("Sevilla 4/3/1 with 2, 2 and 1, one of the tied players' grande in Sevilla") {
    GameState s = table(4).area(sevilla, {1, 2, 2, 0}).grande(1, sevilla);
    THEN("3, 3 and 1, and no grande bonus on a tie") {
      const AreaScored r = score_now(s, sevilla);
      CHECK(points(r, 4) == v({1, 3, 3, 0}));
      CHECK(r.grande_bonus == -1);
      CHECK(r.king_bonus == -1);
    }
  }
  GIVEN("Granada 6/3/1, the king's region, with 3, 2 and 2; the sole first's grande is there") {
    GameState s = table(4).king(granada).grande(0, granada).area(granada, {3, 2, 2, 0});
    THEN("6 + 2 (grande) + 2 (king) = 10 for the first; 1 each for the two tied second") {
      const AreaScored r = score_now(s, granada);
      CHECK(points(r, 4) == v({10, 1, 1, 0}));
      CHECK(r.king_bonus == 0);
      CHECK(r.grande_bonus == 0);
    }
  }
  GIVEN("the castillo (5/3/1) with 3, 2, 1 and none (2023 example)") {
    GameState s = table(4).area(castillo, {3, 2, 1, 0});
    THEN("5, 3, 1 and 0") { CHECK(points(score_now(s, castillo), 4) == v({5, 3, 1, 0})); }
  }
}

SCENARIO("Ties at every place", "[scoring]") {
  GIVEN("5/3/1 with 3, 2, 2, 1: a tie for second") {
    GameState s = table(4).area(pais_vasco, {3, 2, 2, 1});
    THEN("the tied score third place and the last is ranked fourth") {
      CHECK(points(score_now(s, pais_vasco), 4) == v({5, 1, 1, 0}));
    }
  }
  GIVEN("5/3/1 with 3, 2, 1, 1: a tie for third") {
    GameState s = table(4).area(pais_vasco, {3, 2, 1, 1});
    THEN("the tied score the (missing) fourth place") {
      CHECK(points(score_now(s, pais_vasco), 4) == v({5, 3, 0, 0}));
    }
  }
  GIVEN("5/3/1 with 3, 3, 2, 1: two tied first") {
    GameState s = table(4).area(pais_vasco, {3, 3, 2, 1});
    THEN("3 each; the next is third (1), the last fourth (0)") {
      CHECK(points(score_now(s, pais_vasco), 4) == v({3, 3, 1, 0}));
    }
  }
  GIVEN("5/3/1 with 2, 2, 2, 2: everyone tied") {
    GameState s = table(4).area(pais_vasco, {2, 2, 2, 2});
    THEN("second place for all, however many tie") {
      CHECK(points(score_now(s, pais_vasco), 4) == v({3, 3, 3, 3}));
    }
  }
  GIVEN("five players, 7/4/2 with 4, 4, 3, 3, 1") {
    GameState s = table(5).area(castilla_nueva, {4, 4, 3, 3, 1});
    THEN("4, 4 for the tied first; the tied third score nothing; the fifth nothing") {
      CHECK(points(score_now(s, castilla_nueva), 5) == v({4, 4, 0, 0, 0}));
    }
  }
  GIVEN("an empty region") {
    GameState s = table(4);
    THEN("nobody scores") { CHECK(points(score_now(s, aragon), 4) == v({0, 0, 0, 0})); }
  }
}

SCENARIO("King and grande bonuses", "[scoring]") {
  GIVEN("the sole first in the king's region (Aragón 5/4/1)") {
    GameState s = table(4).king(aragon).area(aragon, {1, 3, 2, 0});
    THEN("+2 for the king") {
      const AreaScored r = score_now(s, aragon);
      CHECK(points(r, 4) == v({1, 7, 4, 0}));
      CHECK(r.king_bonus == 1);
      CHECK(r.grande_bonus == -1);
    }
  }
  GIVEN("a tie for first in the king's region, both tied players' grandes there") {
    GameState s = table(4).king(aragon).grande(1, aragon).grande(2, aragon).area(aragon, {1, 3, 3, 0});
    THEN("no bonus at all: they score second place, the next one third") {
      const AreaScored r = score_now(s, aragon);
      CHECK(points(r, 4) == v({1, 4, 4, 0}));
      CHECK(r.king_bonus == -1);
      CHECK(r.grande_bonus == -1);
    }
  }
  GIVEN("the sole first in their own grande's region (Valencia 5/3/2)") {
    GameState s = table(4).grande(3, valencia).area(valencia, {0, 1, 2, 4});
    THEN("+2 for the grande") {
      const AreaScored r = score_now(s, valencia);
      CHECK(points(r, 4) == v({0, 2, 3, 7}));
      CHECK(r.grande_bonus == 3);
      CHECK(r.king_bonus == -1);
    }
  }
  GIVEN("a grande in a region where another player is sole first") {
    GameState s = table(4).grande(1, valencia).area(valencia, {0, 3, 4, 0});
    THEN("no bonus to anyone: the grande bonus is only for its owner") {
      const AreaScored r = score_now(s, valencia);
      CHECK(points(r, 4) == v({0, 3, 5, 0}));
      CHECK(r.grande_bonus == -1);
    }
  }
  GIVEN("a grande in a region where its owner has no caballeros") {
    GameState s = table(4).grande(0, sevilla);
    THEN("nothing is scored") { CHECK(points(score_now(s, sevilla), 4) == v({0, 0, 0, 0})); }
  }
  GIVEN("both bonuses on a region holding a mobile scoreboard (4/0/0 on Granada)") {
    GameState s = table(4)
                      .king(granada)
                      .grande(2, granada)
                      .scoreboard(Scoreboard::four_zero_zero, granada)
                      .area(granada, {1, 1, 5, 0});
    THEN("4 + 2 + 2 for the first; the tied second score the board's third value, 0") {
      const AreaScored r = score_now(s, granada);
      CHECK(points(r, 4) == v({0, 0, 8, 0}));
      CHECK(r.king_bonus == 2);
      CHECK(r.grande_bonus == 2);
    }
  }
}

SCENARIO("Places scored depend on the number of players", "[scoring]") {
  GIVEN("three players: only the first two places score") {
    GameState s = table(3).area(pais_vasco, {3, 2, 1});
    THEN("5, 3 and nothing for third") { CHECK(points(score_now(s, pais_vasco), 3) == v({5, 3, 0})); }
  }
  GIVEN("three players, a tie for second") {
    GameState s = table(3).area(pais_vasco, {3, 2, 2});
    THEN("the tied would score third place, which does not score with three") {
      CHECK(points(score_now(s, pais_vasco), 3) == v({5, 0, 0}));
    }
  }
  GIVEN("three players, a tie for first") {
    GameState s = table(3).area(pais_vasco, {2, 2, 1});
    THEN("3 each, and the next one is third: nothing") {
      CHECK(points(score_now(s, pais_vasco), 3) == v({3, 3, 0}));
    }
  }
  GIVEN("two players (classic): only the first place scores") {
    GameState s = table(2).area(pais_vasco, {3, 2});
    THEN("5 and nothing") { CHECK(points(score_now(s, pais_vasco), 2) == v({5, 0})); }
  }
  GIVEN("two players tied for first") {
    GameState s = table(2).area(pais_vasco, {2, 2});
    THEN("nobody scores (a tie scores second place)") {
      CHECK(points(score_now(s, pais_vasco), 2) == v({0, 0}));
    }
  }
  GIVEN("two players, the sole first in the king's region with their grande") {
    GameState s = table(2).king(pais_vasco).grande(1, pais_vasco).area(pais_vasco, {1, 2});
    THEN("5 + 2 + 2") { CHECK(points(score_now(s, pais_vasco), 2) == v({0, 9})); }
  }
}

SCENARIO("Two players with the automa: it takes places but never scores", "[scoring][automa]") {
  auto automa_table = [] {
    Given g(automa_game());
    g.king(cataluna).grande(0, cataluna).grande(1, cataluna).power_cards({13, 12, 11});
    return g.using_card(0, CardKind::score_chosen_region, 3);
  };
  const Colour automa = 2;
  GIVEN("the automa first with 3, the players 2 and 1 (5/3/1)") {
    GameState s = automa_table().caballeros(automa, pais_vasco, 3).area(pais_vasco, {2, 1});
    THEN("the second player scores 3, the third nothing; the automa nothing") {
      const AreaScored r = score_now(s, pais_vasco);
      CHECK(points(r, 2) == v({3, 0}));
      CHECK(r.caballeros[automa] == 3);
    }
  }
  GIVEN("a player tied with the automa for first") {
    GameState s = automa_table().caballeros(automa, pais_vasco, 2).area(pais_vasco, {2, 1});
    THEN("the player scores second place, the other is third: nothing") {
      CHECK(points(score_now(s, pais_vasco), 2) == v({3, 0}));
    }
  }
  GIVEN("the automa sole first in the king's region, a player's grande there") {
    GameState s = automa_table().king(pais_vasco).grande(0, pais_vasco).caballeros(automa, pais_vasco, 4).area(pais_vasco, {2, 0});
    THEN("no bonus to anyone; the player is second") {
      const AreaScored r = score_now(s, pais_vasco);
      CHECK(points(r, 2) == v({3, 0}));
      CHECK(r.king_bonus == -1);
      CHECK(r.grande_bonus == -1);
    }
  }
  GIVEN("a player first, the automa second, the other player third") {
    GameState s = automa_table().caballeros(automa, pais_vasco, 2).area(pais_vasco, {1, 3});
    THEN("only the first two places score, and the automa's place scores nothing") {
      CHECK(points(score_now(s, pais_vasco), 2) == v({0, 5}));
    }
  }
}

SCENARIO("Mobile scoreboards replace the printed values", "[scoring][scoreboard]") {
  GIVEN("8/4/0 on País Vasco with 3, 2, 1") {
    GameState s = table(4).scoreboard(Scoreboard::eight_four_zero, pais_vasco).area(pais_vasco, {3, 2, 1, 0});
    THEN("8, 4, 0") { CHECK(points(score_now(s, pais_vasco), 4) == v({8, 4, 0, 0})); }
  }
  GIVEN("4/0/0 on the castillo with 3 and 2") {
    GameState s = table(4).scoreboard(Scoreboard::four_zero_zero, castillo).area(castillo, {3, 2, 0, 0});
    THEN("4 and 0; the castillo keeps its caballeros") {
      CHECK(points(score_now(s, castillo), 4) == v({4, 0, 0, 0}));
      CHECK(at(s, castillo, 0) == 3);
      CHECK(at(s, castillo, 1) == 2);
    }
  }
}

namespace {

// Round `round` is in its last turn: seat `last` (lowest power card) has placed and only has
// to skip the special action; every other seat has played.
Given last_turn(Given g, Seat last) {
  return g.using_card(last, CardKind::move_four_any).placed();
}

}  // namespace

SCENARIO("General scoring after round 3", "[scoring][general]") {
  GIVEN("four players at the end of round 3, with caballeros in the castillo") {
    GameState s = last_turn(Given(players(4))
                                .round(3)
                                .king(castilla_nueva)
                                .grande(0, galicia)
                                .grande(1, sevilla)
                                .grande(2, granada)
                                .grande(3, cataluna)
                                .area(castillo, {3, 2, 1, 2})
                                .area(galicia, {2, 1, 0, 0})
                                .area(sevilla, {0, 0, 1, 0})
                                .area(castilla_nueva, {1, 0, 0, 0})
                                .power_cards({10, 11, 12, 1}),
                            3);
    WHEN("the last player ends the round") {
      const Events end = play(s, 3, SkipSpecialAction{});
      THEN("the general scoring opens: every seat owes a secret disk, any region allowed") {
        REQUIRE(s.phase == Phase::disk_setting);
        REQUIRE(s.disk_purpose == DiskPurpose::general_scoring);
        REQUIRE(events_of<GeneralScoringStarted>(end).size() == 1);
        REQUIRE(pending(s).size() == 4);
        for (const Decision& d : pending(s)) {
          const auto* disk = std::get_if<DiskChoice>(&d.detail);
          REQUIRE(disk);
          CHECK(disk->allowed == kAllRegions);
        }
        CHECK(s.first_player == 3);  // the lowest power card
      }
      AND_WHEN("seat 0 sends theirs to Sevilla, 1 to the king's region, 2 and 3 to Galicia") {
        play(s, 0, SetDisk{sevilla});
        const Events disk1 = play(s, 1, SetDisk{castilla_nueva});
        // A set disk is announced to the others without its region.
        for (const Event& e : visible_to(disk1, 0))
          if (const auto* d = std::get_if<DiskSet>(&e.body)) CHECK_FALSE(d->region);
        for (const Event& e : visible_to(disk1, 1))
          if (const auto* d = std::get_if<DiskSet>(&e.body)) CHECK(d->region == castilla_nueva);
        play(s, 2, SetDisk{galicia});
        const Events events = play(s, 3, SetDisk{galicia});

        THEN("the castillo is scored first, before the disks are revealed") {
          REQUIRE(!events.empty());
          std::size_t castillo_at = 0, revealed_at = 0, first_region_at = 0;
          for (std::size_t i = 0; i < events.size(); ++i) {
            if (const auto* a = std::get_if<AreaScored>(&events[i].body)) {
              if (a->area == castillo) castillo_at = i;
              else if (!first_region_at) first_region_at = i;
            }
            if (std::holds_alternative<DisksRevealed>(events[i].body)) revealed_at = i;
          }
          CHECK(castillo_at < revealed_at);
          CHECK(revealed_at < first_region_at);
          const AreaScored c = *scored(events, castillo);
          CHECK(points(c, 4) == v({5, 1, 0, 1}));  // 3, then 2 and 2 tied: third place each
        }
        THEN("castillo caballeros moved to the disk region; the king's region sends them to the court") {
          CHECK(at(s, castillo, 0) == 0);
          CHECK(at(s, castillo, 1) == 0);
          CHECK(at(s, sevilla, 0) == 3);
          CHECK(at(s, castilla_nueva, 1) == 0);
          CHECK(s.players[1].court == 7 + 2);
          CHECK(at(s, galicia, 2) == 1);
          CHECK(at(s, galicia, 3) == 2);
          const auto emptied = events_of<CastilloEmptied>(events);
          REQUIRE(emptied.size() == 4);
          CHECK_FALSE(emptied[1].to);
          CHECK(emptied[0].to == sevilla);
        }
        THEN("every region is scored after the move, once, in scoring order") {
          const auto all = events_of<AreaScored>(events);
          REQUIRE(all.size() == 10);
          for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i].area == scoring_order()[i]);
          // Galicia 4/2/0: seat 0 has 2, seat 3 has 2 (from the castillo), seats 1, 2 one each.
          CHECK(points(*scored(events, galicia), 4) == v({2, 0, 0, 2}));
          // Sevilla 4/3/1: seat 0 alone with 3 (from the castillo); seat 2 (grande in
          // Granada) second with 1.
          CHECK(points(*scored(events, sevilla), 4) == v({4, 0, 3, 0}));
          // Castilla la Nueva is the king's region: seat 0 sole first, +2.
          CHECK(points(*scored(events, castilla_nueva), 4) == v({9, 0, 0, 0}));
          CHECK(scores(s) == v({5 + 2 + 4 + 9, 1, 3, 1 + 2}));
        }
        THEN("round 4 begins") {
          CHECK(s.general_scorings == 1);
          CHECK(s.round == 4);
          CHECK(s.phase == Phase::power_cards);
          CHECK(s.power_seat == 3);
          CHECK(events_of<RoundStarted>(events).size() == 1);
        }
      }
    }
  }
}

SCENARIO("General scoring with the automa", "[scoring][general][automa]") {
  GIVEN("two players and the automa at the end of round 6, the automa with caballeros in the castillo") {
    GameState s = last_turn(Given(automa_game())
                                .round(6)
                                .general_scorings(1)
                                .king(aragon)
                                .grande(0, galicia)
                                .grande(1, galicia)
                                .area(castillo, {1, 2})
                                .caballeros(2, castillo, 3)
                                .power_cards({9, 1, 5}),
                            1);
    WHEN("the round ends and both players set their disk") {
      play(s, 1, SkipSpecialAction{});
      REQUIRE(pending(s).size() == 2);  // never the automa
      play(s, 0, SetDisk{valencia});
      const Events events = play(s, 1, SetDisk{valencia});
      THEN("the automa is first in the castillo and scores nothing; the players are 2nd and 3rd") {
        CHECK(points(*scored(events, castillo), 2) == v({0, 3}));
      }
      THEN("the automa's castillo caballeros go back beside the board; the players' to Valencia") {
        CHECK(at(s, castillo, 2) == 0);
        CHECK(s.automa.supply >= 30 - 4);  // its 3 came back; round 7 placed at most 4
        CHECK(at(s, valencia, 0) == 1);
        CHECK(at(s, valencia, 1) >= 2);
        CHECK(s.general_scorings == 2);
        CHECK(s.round == 7);
      }
    }
  }
}

SCENARIO("The game ends after the third general scoring", "[scoring][general][end]") {
  GIVEN("three players at the end of round 9, seat 2 leading by the castillo's points") {
    GameState s = last_turn(Given(players(3))
                                .round(9)
                                .general_scorings(2)
                                .king(granada)
                                .grande(0, galicia)
                                .grande(1, galicia)
                                .grande(2, galicia)
                                .score(0, 40)
                                .score(1, 38)
                                .score(2, 35)
                                .area(castillo, {0, 0, 1})
                                .power_cards({3, 2, 1}),
                            2);
    WHEN("the round ends and the disks are set") {
      play(s, 2, SkipSpecialAction{});
      play(s, 0, SetDisk{galicia});
      play(s, 1, SetDisk{galicia});
      const Events events = play(s, 2, SetDisk{cataluna});
      THEN("the game is over; 35 + 5 (castillo) + 4 (Cataluña) beats 40; nothing more is accepted") {
        REQUIRE(is_over(s));
        CHECK(s.general_scorings == 3);
        CHECK(scores(s) == v({40, 38, 44}));
        CHECK(winners(s) == 0b100);
        const GameEnded ended = only_event<GameEnded>(events);
        CHECK(ended.winners == 0b100);
        CHECK(ended.scores[2] == 44);
        CHECK(pending(s).empty());
        CHECK(refused(s, 0, PlayPowerCard{5}) == Rejection::Code::game_over);
        CHECK(refused(s, 2, SetDisk{galicia}) == Rejection::Code::game_over);
      }
    }
  }
  GIVEN("four players ending level at the top") {
    GameState s = last_turn(Given(players(4))
                                .round(9)
                                .general_scorings(2)
                                .score(0, 50)
                                .score(1, 50)
                                .score(2, 49)
                                .score(3, 12)
                                .power_cards({4, 3, 2, 1}),
                            3);
    WHEN("the last scoring adds nothing") {
      play(s, 3, SkipSpecialAction{});
      for (Seat p = 0; p < 4; ++p) play(s, p, SetDisk{galicia});
      THEN("the tied leaders share the victory") {
        REQUIRE(is_over(s));
        CHECK(winners(s) == 0b0011);
      }
    }
  }
}

SCENARIO("The short game scores after rounds 3, 6 and 9 and ends after the third", "[scoring][general][short]") {
  Options options = players(3);
  options.short_game = true;
  GIVEN("a short game at the end of round 6") {
    GameState s = last_turn(Given(options).round(6, 4).general_scorings(1).power_cards({3, 2, 1}), 2);
    WHEN("the round ends and the disks are set") {
      play(s, 2, SkipSpecialAction{});
      REQUIRE(s.phase == Phase::disk_setting);
      for (Seat p = 0; p < 3; ++p) play(s, p, SetDisk{galicia});
      THEN("the next round is 8 (7 is skipped)") {
        CHECK(s.general_scorings == 2);
        CHECK(s.round == 8);
        CHECK(s.rounds_played == 5);
      }
    }
  }
}

SCENARIO("A scoreboard on the castillo counts in the general scoring", "[scoring][general][scoreboard]") {
  GIVEN("three players at the end of round 3, 4/0/0 on the castillo holding 2 and 1") {
    GameState s = last_turn(Given(players(3))
                                .round(3)
                                .scoreboard(Scoreboard::four_zero_zero, castillo)
                                .area(castillo, {2, 1, 0})
                                .power_cards({3, 2, 1}),
                            2);
    WHEN("the round ends and the disks are set") {
      play(s, 2, SkipSpecialAction{});
      play(s, 0, SetDisk{galicia});
      play(s, 1, SetDisk{galicia});
      const Events e = play(s, 2, SetDisk{galicia});
      THEN("the castillo scores 4 and 0; the board stays on the castillo") {
        CHECK(points(*scored(e, castillo), 3) == v({4, 0, 0}));
        CHECK(s.scoreboards[1] == castillo);
      }
    }
  }
}
