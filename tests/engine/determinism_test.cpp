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
      const ReplayResult a = replay(record, [&](const GameState& s, std::size_t, const Events&) { first.push_back(hash(s)); });
      std::size_t step = 0;
      const ReplayResult b = replay(record, [&](const GameState& s, std::size_t i, const Events&) {
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
  const auto revision = [](Options options, int rules_revision, Edition edition = Edition::y2023) {
    options.rules_revision = rules_revision;
    options.edition = edition;
    return options;
  };
  const Golden goldens[] = {
      // Revision 1 (the veto card's laying a special action): the scores these games had
      // before revision 2, so that games begun under it go on as they were played.
      {revision(Options{4, false, false, false}, 1), 42, {125, 58, 63, 91, 0}, 0x21a4384b868438eeull},
      {revision(Options{2, false, true, false}, 1), 43, {53, 43, 0, 0, 0}, 0xfe1486a26a55f6c7ull},
      {revision(Options{5, true, false, false}, 1), 44, {43, 37, 75, 49, 44}, 0xb9fb35c65f20346aull},
      // Revision 2, and the 1995 edition under it (its court card took from regions too).
      {revision(Options{4, false, false, false}, 2), 42, {88, 60, 53, 117, 0}, 0x4265e231839987fdull},
      {revision(Options{2, false, true, false}, 2), 43, {53, 43, 0, 0, 0}, 0x196c28b7a3dcfd70ull},
      {revision(Options{5, true, false, false}, 2), 44, {44, 47, 72, 46, 56}, 0xffd63618d6a90d06ull},
      {revision(Options{4, false, false, false}, 2, Edition::y1995), 45, {91, 62, 100, 40, 0}, 0x58a64c589a2e63a6ull},
      {revision(Options{3, true, false, false}, 2, Edition::y1995), 46, {53, 40, 58, 0, 0}, 0xe345591ac6872442ull},
      // Today's rules (revision 3: the same 2023 games, only the revision differs in the hash),
      // and the 1995 edition.
      {Options{4, false, false, false}, 42, {88, 60, 53, 117, 0}, 0x7f46e0acf3996a50ull},
      {Options{2, false, true, false}, 43, {53, 43, 0, 0, 0}, 0x3c3d44c3114a11b9ull},
      {revision(Options{4, false, false, false}, 3, Edition::y1995), 45, {91, 62, 100, 40, 0}, 0xa60a92e9b7c70a9bull},
      {revision(Options{3, true, false, false}, 3, Edition::y1995), 46, {53, 40, 58, 0, 0}, 0x39cffffaf433d20full},
      // One 1995 game whose court card met an empty province: revision 2 took from a region,
      // revision 3 does not, and each record replays to its own result.
      {revision(Options{4, false, false, false}, 2, Edition::y1995), 74, {47, 124, 62, 73, 0}, 0xa280f999f1590876ull},
      {revision(Options{4, false, false, false}, 3, Edition::y1995), 74, {54, 123, 55, 74, 0}, 0x66c2fe4e97db31edull},
  };
  for (const Golden& golden : goldens) {
    const GameRecord record = play_random_game(golden.options, golden.seed);
    const ReplayResult result = replay(record);
    INFO("seed " << golden.seed << " hash " << std::hex << hash(result.state));
    for (Seat p = 0; p < golden.options.players; ++p) CHECK(result.state.players[p].score == golden.scores[p]);
    CHECK(hash(result.state) == golden.final_hash);
  }
}
