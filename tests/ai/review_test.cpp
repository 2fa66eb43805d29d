// The search's second opinion on an answer a seat gave (docs/ai.md#second-opinion-review):
// the answer played is always compared, the shares are shares, a seed gives one opinion,
// and the search's own answers do better than random ones.
#include <catch2/catch.hpp>

#include "answers.hpp"
#include "elgrande/ai/search.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/game.hpp"
#include "engine/builder.hpp"
#include "engine/playout.hpp"

using namespace elgrande;

namespace {

const ai::Budget kReviewBudget{.iterations = 200, .out_of_time = {}};

// A game `steps` random answers in (fewer if it would end sooner), for the next seat to answer.
GameState mid_game(const Options& options, std::uint64_t seed, int steps) {
  GameState state = new_game(options, seed);
  Rng rng{seed};
  Events events;
  for (int i = 0; i < steps; ++i) {
    GameState next = state;
    const Seat seat = elgrande::testing::next_seat(next);
    REQUIRE_FALSE(apply(next, seat, random_command(next, seat, rng), events));
    if (is_over(next)) break;
    state = std::move(next);
  }
  return state;
}

bool legal(const GameState& state, Seat seat, const Command& command) {
  GameState trial = state;
  Events events;
  return !apply(trial, seat, command, events);
}

void check_shares(const ai::Review& review) {
  CHECK(review.bot_win_share >= 0.0);
  CHECK(review.bot_win_share <= 1.0);
  CHECK(review.played_win_share >= 0.0);
  CHECK(review.played_win_share <= 1.0);
}

}  // namespace

TEST_CASE("A review compares the answer played, whether or not the search would have drawn it", "[ai][review]") {
  int added = 0;
  for (const auto& variant : elgrande::testing::all_variants()) {
    for (std::uint64_t g = 0; g < 3; ++g) {
      const GameState state = mid_game(variant.options, 70 + g, 20 + static_cast<int>(g) * 60);
      const Seat seat = elgrande::testing::next_seat(state);
      const View seen = view(state, seat);
      Rng rng{g};
      const Command played = random_command(seen, rng);
      INFO(variant.label << ", version " << state.version << ", " << command_name(played));
      const ai::Review review = ai::review(seen, played, ai::Level::strong, 5, kReviewBudget);
      CHECK(review.played == played);
      CHECK(review.same == (review.bot == played));
      CHECK(review.iterations == (review.candidates > 1 ? 200 : 0));
      if (review.candidates > 1) CHECK(review.played_visits > 0);
      CHECK(review.bot_visits >= review.played_visits);
      CHECK(legal(state, seat, review.bot));
      check_shares(review);
      Rng drawing{5};
      const auto drawn = ai::candidates(seen, ai::settings(ai::Level::strong).width, drawing);
      if (std::find(drawn.begin(), drawn.end(), played) == drawn.end()) {
        CHECK(review.candidates == static_cast<int>(drawn.size()) + 1);
        ++added;
      }
    }
  }
  CHECK(added > 0);  // some answers played were none the search would have drawn
}

TEST_CASE("A review of the search's own answer agrees with it, and a seed gives one opinion", "[ai][review]") {
  for (int players : {2, 4, 5}) {
    const GameState state = mid_game(elgrande::testing::players(players), 81, 45);
    const Seat seat = elgrande::testing::next_seat(state);
    const View seen = view(state, seat);
    const ai::Choice choice = ai::choose(seen, ai::Level::medium, 12, kReviewBudget);
    const ai::Review review = ai::review(seen, choice.command, ai::Level::medium, 12, kReviewBudget);
    INFO(players << " players, " << command_name(choice.command));
    CHECK(review.same);
    CHECK(review.bot == choice.command);
    CHECK(review.played == choice.command);
    CHECK(review.bot_win_share == review.played_win_share);
    CHECK(review.candidates == choice.candidates);
    check_shares(review);

    Rng rng{3};
    const Command other = random_command(seen, rng);
    const ai::Review first = ai::review(seen, other, ai::Level::medium, 12, kReviewBudget);
    const ai::Review again = ai::review(seen, other, ai::Level::medium, 12, kReviewBudget);
    CHECK(first.bot == again.bot);
    CHECK(first.bot_win_share == again.bot_win_share);
    CHECK(first.played_win_share == again.played_win_share);
    CHECK(first.bot_visits == again.bot_visits);
    CHECK(first.played_visits == again.played_visits);
  }
}

TEST_CASE("With one answer left there is nothing to search", "[ai][review]") {
  // GIVEN a 5-player game where the last to choose an action card has one stack left
  GameState state = new_game(elgrande::testing::players(5), 13);
  Rng rng{13};
  Events events;
  auto one_card_left = [&] {
    const View seen = view(state, elgrande::testing::next_seat(state));
    const auto* choice = std::get_if<ActionCardChoice>(&seen.decision->detail);
    return choice && choice->offered.size() == 1;
  };
  while (!one_card_left()) {
    const Seat seat = elgrande::testing::next_seat(state);
    REQUIRE_FALSE(apply(state, seat, random_command(state, seat, rng), events));
  }
  const Seat seat = elgrande::testing::next_seat(state);
  const View seen = view(state, seat);
  const Command only = TakeActionCard{std::get<ActionCardChoice>(seen.decision->detail).offered[0]};
  // WHEN it is reviewed THEN it is the bot's answer too, with no playouts
  const ai::Review review = ai::review(seen, only, ai::Level::strong, 1);
  CHECK(review.same);
  CHECK(review.bot == only);
  CHECK(review.iterations == 0);
  CHECK(review.candidates == 1);
}

TEST_CASE("A review of an answer the rules refuse, at the random level or of no decision throws", "[ai][review]") {
  const GameState state = mid_game(elgrande::testing::players(4), 90, 0);
  const Seat seat = elgrande::testing::next_seat(state);
  const View seen = view(state, seat);
  REQUIRE(std::holds_alternative<PowerCardChoice>(seen.decision->detail));
  CHECK_THROWS_AS(ai::review(seen, AnswerVeto{true}, ai::Level::strong, 1, kReviewBudget), std::invalid_argument);
  CHECK_THROWS_AS(ai::review(seen, PlayPowerCard{14}, ai::Level::strong, 1, kReviewBudget), std::invalid_argument);
  CHECK_THROWS_AS(ai::review(seen, PlayPowerCard{13}, ai::Level::random, 1, kReviewBudget), std::invalid_argument);
  View owes_nothing = seen;
  owes_nothing.decision.reset();
  CHECK_THROWS_AS(ai::review(owes_nothing, PlayPowerCard{13}, ai::Level::strong, 1, kReviewBudget),
                  std::invalid_argument);
  CHECK_NOTHROW(ai::review(seen, PlayPowerCard{13}, ai::Level::strong, 1, kReviewBudget));
}

TEST_CASE("The search's answers win more often than random answers played in their place", "[ai][review]") {
  // Mid-game positions of 2- to 5-player games; at each, a random answer reviewed at medium.
  constexpr int kPositions = 30;
  double bot = 0.0, played = 0.0;
  int same = 0;
  for (int i = 0; i < kPositions; ++i) {
    const auto seed = 500 + static_cast<std::uint64_t>(i);
    const GameState state = mid_game(elgrande::testing::players(2 + i % 4), seed, 30 + (i * 37) % 250);
    const Seat seat = elgrande::testing::next_seat(state);
    const View seen = view(state, seat);
    Rng rng{seed};
    const ai::Review review = ai::review(seen, random_command(seen, rng), ai::Level::medium, seed);
    check_shares(review);
    bot += review.bot_win_share;
    played += review.played_win_share;
    same += review.same;
  }
  INFO("bot " << bot / kPositions << ", played " << played / kPositions << ", same " << same);
  CHECK(bot > played);
  CHECK(same < kPositions / 2);
}

TEST_CASE("A win share counts the games won, not the margin", "[ai][review]") {
  // GIVEN the last turn of round 9 of a 2-player game (as in search_test.cpp): seat 0 wins
  // by scoring Castilla la Nueva, and loses whatever else it does.
  const GameState state = elgrande::testing::Given(elgrande::testing::players(2))
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
  // WHEN scoring Galicia is reviewed THEN it never wins, and the search's answer does
  const ai::Review review = ai::review(view(state, 0), ScoreArea{Area::galicia}, ai::Level::strong, 3, kReviewBudget);
  CHECK(review.played_visits > 0);
  CHECK(review.played_win_share == 0.0);
  CHECK(review.bot_win_share > 0.5);
  CHECK_FALSE(review.same);
}
