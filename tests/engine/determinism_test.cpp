// A game is a function of its options, seed and command log.
#include <array>

#include <catch2/catch.hpp>

#include "playout.hpp"

using namespace elgrande;
using elgrande::testing::all_variants;
using elgrande::testing::games_per_variant;

TEST_CASE("Replaying a record reproduces the same state hash at every step", "[determinism]") {
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games_per_variant(100); ++g) {
      const GameRecord record = play_random_game(variant.options, 7000 + static_cast<std::uint64_t>(g));
      std::vector<std::uint64_t> first;
      const ReplayResult a = replay(record, [&](const GameState& s, std::size_t) { first.push_back(hash(s)); });
      std::size_t step = 0;
      const ReplayResult b = replay(record, [&](const GameState& s, std::size_t i) {
        REQUIRE(i == step);
        REQUIRE(hash(s) == first[step++]);
      });
      INFO(variant.label << ", game " << g);
      REQUIRE_FALSE(a.rejected_at);
      REQUIRE(step == record.commands.size());
      REQUIRE(is_over(a.state));
      REQUIRE(a.state == b.state);
      REQUIRE(hash(a.state) == hash(b.state));
    }
  }
}

TEST_CASE("Copies are equal and hash alike, and any change shows in the hash", "[determinism]") {
  GameState state = new_game(Options{4, false, false, false}, 99);
  GameState copy = state;
  REQUIRE(copy == state);
  REQUIRE(hash(copy) == hash(state));
  copy.players[2].court += 1;
  REQUIRE_FALSE(copy == state);
  REQUIRE(hash(copy) != hash(state));
  copy = state;
  copy.rng.next();  // the secret generator is part of the state
  REQUIRE(hash(copy) != hash(state));
}

TEST_CASE("Different seeds give different games", "[determinism]") {
  const GameState a = new_game(Options{4, false, false, false}, 1);
  const GameState b = new_game(Options{4, false, false, false}, 2);
  REQUIRE(hash(a) != hash(b));
}

// Golden games: play_random_game's records for fixed seeds, pinned. They change only when
// a rule or the bot changes on purpose; update them in the same commit and say why.
TEST_CASE("Golden games keep their final scores", "[determinism][golden]") {
  struct Golden {
    Options options;
    std::uint64_t seed;
    std::array<int, kMaxPlayers> scores;
    std::uint64_t final_hash;
  };
  const Golden goldens[] = {
      {Options{4, false, false, false}, 42, {125, 58, 63, 91, 0}, 0x9100a2cd10c75503ull},
      {Options{2, false, true, false}, 43, {53, 43, 0, 0, 0}, 0xcfc26285015b1e2eull},
      {Options{5, true, false, false}, 44, {43, 37, 75, 49, 44}, 0x1a84298745ebbc17ull},
  };
  for (const Golden& golden : goldens) {
    const GameRecord record = play_random_game(golden.options, golden.seed);
    const ReplayResult result = replay(record);
    INFO("seed " << golden.seed << " hash " << std::hex << hash(result.state));
    for (Seat p = 0; p < golden.options.players; ++p) CHECK(result.state.players[p].score == golden.scores[p]);
    CHECK(hash(result.state) == golden.final_hash);
  }
}
