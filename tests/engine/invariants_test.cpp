// Properties over thousands of random games of every player count and variant.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

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
  for (int g = 0; g < games_per_variant(4000); ++g) {
    play_checked(Options{2, false, false, false}, 20000 + g);
    play_checked(Options{2, true, false, false}, 30000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 2 players with the automa", "[invariants]") {
  for (int g = 0; g < games_per_variant(4000); ++g) {
    play_checked(Options{2, false, true, false}, 40000 + g);
    play_checked(Options{2, true, true, false}, 50000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 3 players", "[invariants]") {
  for (int g = 0; g < games_per_variant(4000); ++g) {
    play_checked(Options{3, false, false, false}, 60000 + g);
    play_checked(Options{3, true, false, false}, 70000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 3 players with four stacks", "[invariants]") {
  for (int g = 0; g < games_per_variant(4000); ++g) {
    play_checked(Options{3, false, false, true}, 80000 + g);
    play_checked(Options{3, true, false, true}, 90000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 4 players", "[invariants]") {
  for (int g = 0; g < games_per_variant(4000); ++g) {
    play_checked(Options{4, false, false, false}, 100000 + g);
    play_checked(Options{4, true, false, false}, 110000 + g);
  }
}

TEST_CASE("Random games keep every invariant: 5 players", "[invariants]") {
  for (int g = 0; g < games_per_variant(4000); ++g) {
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
    for (int g = 0; g < games_per_variant(150); ++g) {
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

// ---------------------------------------------------------------------------------------
// The constraints of five special actions list their options (court, move cards,
// remove_one_each, scoreboard, power_cards): what apply accepts is exactly what they allow.
// ---------------------------------------------------------------------------------------

namespace {

bool is_listed_special(CardKind kind) {
  return move_limits(kind) || kind == CardKind::court || kind == CardKind::remove_one_each ||
         kind == CardKind::scoreboard || kind == CardKind::power_cards;
}

// Each move to another area of move_to; together no more of a colour out of a region than
// move_from lists, and within the card's counts.
bool within_moves(const ActionCardUse& use, Seat actor, const MoveCaballeros& c) {
  if (!use.moves) return false;
  const MoveLimits& limits = *use.moves;
  CaballerosByColour left = use.move_from;
  int own = 0, opposing = 0;
  for (const Move& m : c.moves) {
    if (m.colour < 0 || m.colour >= kMaxColours || m.count == 0) return false;
    if (m.from == m.to || !contains(use.move_to, m.to)) return false;
    if (limits.single_source && m.from != c.moves[0].from) return false;
    std::uint8_t& there = left[static_cast<std::size_t>(m.colour)][m.from];
    if (m.count > there) return false;
    there = static_cast<std::uint8_t>(there - m.count);
    (m.colour == actor ? own : opposing) += m.count;
  }
  return own <= limits.own && opposing <= limits.opposing && own + opposing <= limits.total;
}

// The province first, then regions of take_regions; take_up_to in all.
bool within_take(const ActionCardUse& use, const TakeCaballeros& c) {
  if (c.from_province > use.take_province) return false;
  for (int a = 0; a < kAreaCount; ++a)
    if (c.from_regions.n[a] > use.take_regions.n[a]) return false;
  if (c.from_regions.total() > 0 && c.from_province < use.take_province) return false;
  return c.from_province + c.from_regions.total() <= use.take_up_to;
}

// Each colour of remove_from exactly once, in one of its regions; no other colour.
bool within_removal(const ActionCardUse& use, const RemoveCaballeros& c) {
  unsigned named = 0;
  for (const ColourRegion& pick : c.picks) {
    if (pick.colour < 0 || pick.colour >= kMaxColours || (named & (1u << pick.colour))) return false;
    named |= 1u << pick.colour;
    if (use.remove_from[static_cast<std::size_t>(pick.colour)][pick.region] == 0) return false;
  }
  for (Colour colour = 0; colour < kMaxColours; ++colour)
    if (use.remove_from[static_cast<std::size_t>(colour)].total() > 0 && !(named & (1u << colour))) return false;
  return true;
}

// Whether the special-action command keeps within the decision's constraints.
bool within(const ActionCardUse& use, Seat actor, const Command& command) {
  if (!use.may_act) return false;
  if (const auto* m = std::get_if<MoveCaballeros>(&command)) return within_moves(use, actor, *m);
  if (const auto* t = std::get_if<TakeCaballeros>(&command))
    return use.special == CardKind::court && within_take(use, *t);
  if (const auto* r = std::get_if<RemoveCaballeros>(&command))
    return use.special == CardKind::remove_one_each && within_removal(use, *r);
  if (const auto* p = std::get_if<PlaceScoreboard>(&command))
    return use.special == CardKind::scoreboard && contains(use.scoreboard_to[static_cast<std::size_t>(p->board)], p->to);
  if (const auto* b = std::get_if<TakeBackPowerCard>(&command))
    return use.special == CardKind::power_cards && b->value >= 1 && b->value <= kPowerCardCount &&
           (use.take_back & power_bit(b->value));
  return false;
}

Area random_area(Rng& r) { return area_at(static_cast<int>(r.below(kAreaCount))); }

// Commands of the card's kind: every single choice, every listed option completed, and
// random combinations (some near the limits, some beyond them).
std::vector<Command> candidates(const ActionCardUse& use, Rng& r) {
  std::vector<Command> out;
  if (use.moves) {
    for (Colour c = 0; c < kMaxColours; ++c)
      for (int from = 0; from < kAreaCount; ++from)
        for (int to = 0; to < kAreaCount; ++to) {
          // One, all that may leave, and one more than that.
          const int n = use.move_from[static_cast<std::size_t>(c)].n[from];
          std::vector<int> counts{1, n + 1};
          if (n > 1) counts.push_back(n);
          for (int count : counts)
            out.push_back(MoveCaballeros{{Move{c, area_at(from), area_at(to), static_cast<std::uint8_t>(count)}}});
        }
    for (int i = 0; i < 40; ++i) {
      MoveCaballeros m;
      for (int k = 1 + static_cast<int>(r.below(4)); k > 0; --k) {
        const auto c = static_cast<Colour>(r.below(kMaxColours));
        Area from = random_area(r);
        for (int tries = 0; tries < 10 && r.below(4) && !use.move_from[static_cast<std::size_t>(c)][from]; ++tries)
          from = random_area(r);
        m.moves.push_back(Move{c, from, random_area(r), static_cast<std::uint8_t>(1 + r.below(3))});
      }
      out.push_back(m);
    }
  }
  switch (use.special) {
    case CardKind::court: {
      std::vector<AreaCounts> regions{AreaCounts{}};
      for (int a = 0; a < kAreaCount; ++a) {
        for (std::uint8_t n : {1, 2}) {
          AreaCounts one;
          one.n[a] = n;
          regions.push_back(one);
        }
        for (int b = a + 1; b < kAreaCount; ++b) {
          AreaCounts two;
          two.n[a] = two.n[b] = 1;
          regions.push_back(two);
        }
      }
      for (std::uint8_t province = 0; province <= 3; ++province)
        for (const AreaCounts& from : regions) out.push_back(TakeCaballeros{province, from});
      break;
    }
    case CardKind::remove_one_each: {
      // Each colour that must lose one, at its first region: the base every option completes.
      RemoveCaballeros base;
      for (Colour c = 0; c < kMaxColours; ++c)
        for (int a = 0; a < kAreaCount && (base.picks.empty() || base.picks.back().colour != c); ++a)
          if (use.remove_from[static_cast<std::size_t>(c)].n[a]) base.picks.push_back({c, area_at(a)});
      out.push_back(base);
      for (std::size_t i = 0; i < base.picks.size(); ++i) {
        for (int a = 0; a < kAreaCount; ++a) {  // another region for that colour
          RemoveCaballeros other = base;
          other.picks[i].region = area_at(a);
          out.push_back(other);
        }
        RemoveCaballeros fewer = base;  // a colour left out
        fewer.picks.erase_at(i);
        out.push_back(fewer);
      }
      for (Colour c = 0; c < kMaxColours; ++c) {  // one pick too many
        if (base.picks.full()) break;
        RemoveCaballeros more = base;
        more.picks.push_back({c, random_area(r)});
        out.push_back(more);
      }
      for (int i = 0; i < 20; ++i) {
        RemoveCaballeros any;
        for (int k = static_cast<int>(r.below(5)); k > 0; --k)
          any.picks.push_back({static_cast<Colour>(r.below(kMaxColours)), random_area(r)});
        out.push_back(any);
      }
      break;
    }
    case CardKind::scoreboard:
      for (int b = 0; b < kScoreboardCount; ++b)
        for (int a = 0; a < kAreaCount; ++a) out.push_back(PlaceScoreboard{static_cast<Scoreboard>(b), area_at(a)});
      break;
    case CardKind::power_cards:
      for (std::uint8_t v = 0; v <= kPowerCardCount + 1; ++v) out.push_back(TakeBackPowerCard{v});
      break;
    default:
      break;
  }
  return out;
}

// Every listed option, in a completion apply accepts.
void require_options_accepted(const GameState& state, Seat seat, const ActionCardUse& use) {
  auto accepted = [&](const Command& command) {
    GameState trial = state;
    Events events;
    return !apply(trial, seat, command, events);
  };
  for (Colour c = 0; c < kMaxColours; ++c) {
    const AreaCounts& from = use.move_from[static_cast<std::size_t>(c)];
    for (int a = 0; a < kAreaCount; ++a) {
      if (!from.n[a]) continue;
      for (int to = 0; to < kAreaCount; ++to)
        if (to != a && contains(use.move_to, area_at(to)))
          REQUIRE(accepted(MoveCaballeros{{Move{c, area_at(a), area_at(to), 1}}}));
    }
  }
  if (use.special == CardKind::court) {
    REQUIRE(accepted(TakeCaballeros{static_cast<std::uint8_t>(std::min<int>(use.take_up_to, use.take_province)), {}}));
    if (use.take_province < use.take_up_to)
      for (int a = 0; a < kAreaCount; ++a)
        if (use.take_regions.n[a]) {
          AreaCounts one;
          one.n[a] = 1;
          REQUIRE(accepted(TakeCaballeros{use.take_province, one}));
        }
  }
  for (int b = 0; b < kScoreboardCount; ++b)
    for (int a = 0; a < kAreaCount; ++a)
      if (contains(use.scoreboard_to[static_cast<std::size_t>(b)], area_at(a)))
        REQUIRE(accepted(PlaceScoreboard{static_cast<Scoreboard>(b), area_at(a)}));
  for (int v = 1; v <= kPowerCardCount; ++v)
    if (use.take_back & power_bit(v)) REQUIRE(accepted(TakeBackPowerCard{static_cast<std::uint8_t>(v)}));
}

}  // namespace

TEST_CASE("Five special actions list exactly the options apply accepts", "[invariants][constraints]") {
  std::array<int, kCardKindCount> checked{};
  int accepted_total = 0;
  for (const auto& variant : all_variants()) {
    for (int g = 0; g < games_per_variant(50); ++g) {
      const std::uint64_t seed = 700000 + static_cast<std::uint64_t>(g);
      GameState state = new_game(variant.options, seed);
      Rng r{seed};
      Events events;
      while (!is_over(state)) {
        const Decision decision = pending(state)[0];
        const auto* use = std::get_if<ActionCardUse>(&decision.detail);
        if (use && use->may_act && is_listed_special(use->special)) {
          INFO(variant.label << ", seed " << seed << ", version " << state.version << ", " << name(use->special));
          ++checked[static_cast<std::size_t>(use->special)];
          // Constraints that do not apply to this card are empty.
          if (use->special != CardKind::court) CHECK((use->take_province == 0 && use->take_regions == AreaCounts{}));
          if (use->special != CardKind::remove_one_each) CHECK(use->remove_from == CaballerosByColour{});
          if (use->special != CardKind::scoreboard) CHECK(use->scoreboard_to == std::array<AreaMask, kScoreboardCount>{});
          if (use->special != CardKind::power_cards) CHECK(use->take_back == 0);
          if (!use->moves) CHECK(use->move_from == CaballerosByColour{});
          if (use->special == CardKind::scoreboard) CHECK(use->targets == (use->scoreboard_to[0] | use->scoreboard_to[1]));

          require_options_accepted(state, decision.seat, *use);
          std::vector<Command> commands = candidates(*use, r);
          commands.push_back(random_command(state, decision.seat, r));  // the bot's choice too
          for (const Command& command : commands) {
            GameState trial = state;
            events.clear();
            const auto rejection = apply(trial, decision.seat, command, events);
            if (std::holds_alternative<SkipSpecialAction>(command) || std::holds_alternative<PlaceCaballeros>(command) ||
                std::holds_alternative<PlaceExtraCaballeros>(command))
              continue;  // not part of these constraints
            INFO(command_name(command) << (rejection ? " refused: " + rejection->reason : std::string(" accepted")));
            REQUIRE(!rejection == within(*use, decision.seat, command));
            accepted_total += !rejection;
          }
        }
        const Seat seat = elgrande::testing::next_seat(state);
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, r), events));
      }
    }
  }
  // Each of the five kinds (and every moving card) came up many times.
  const int games = games_per_variant(50) * static_cast<int>(all_variants().size());
  for (int k = 0; k < kCardKindCount; ++k) {
    const auto kind = static_cast<CardKind>(k);
    INFO(name(kind));
    if (is_listed_special(kind)) CHECK(checked[static_cast<std::size_t>(k)] > games / 10);
  }
  CHECK(accepted_total > games * 10);
}
