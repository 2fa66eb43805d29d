#include <algorithm>
#include <stdexcept>

#include "rules.hpp"

namespace elgrande {

using namespace rules;

GameState new_game(const Options& options, std::uint64_t seed, Events* events) {
  if (auto problem = check(options)) throw std::invalid_argument(*problem);
  GameState s;
  s.options = options;
  s.rng.state = seed;
  Events local;
  Events& ev = events ? *events : local;

  // Region cards: the first drawn holds the king, then one per player for their grande.
  FixedVector<Area, kRegionCount> regions;
  for (int r = 0; r < kRegionCount; ++r) regions.push_back(area_at(r));
  s.rng.shuffle(regions);
  s.king = regions[0];
  GameStarted started{.king = s.king};
  for (Seat p = 0; p < options.players; ++p) {
    Player& player = s.players[p];
    player.grande = regions[1 + p];
    player.court = 7;
    player.province = kCaballerosPerColour - 7 - 2;
    s.caballeros[index(player.grande)][p] = 2;
    started.homes[p] = player.grande;
  }

  // Action stacks 1..4 (2 and 3 merged for the automa or the 3-player option); the King
  // card is stack 5 on its own.
  const bool merged = options.automa || options.four_stacks;
  s.stack_count = merged ? 3 : 4;
  for (const ActionCard& card : classic_deck()) {
    if (card.stack == 5) continue;
    int stack = card.stack - 1;
    if (merged && stack >= 2) --stack;
    s.stacks[stack].face_down.push_back(card.id);
  }
  for (int i = 0; i < s.stack_count; ++i) s.rng.shuffle(s.stacks[i].face_down);

  if (options.automa) {
    s.automa.supply = kCaballerosPerColour;
    for (int v = kPowerCardCount; v >= 1; --v) s.automa.power_deck.push_back(static_cast<std::uint8_t>(v));
    s.rng.shuffle(s.automa.power_deck);
    for (int r = 0; r < kRegionCount; ++r) s.automa.region_deck.push_back(area_at(r));
    s.rng.shuffle(s.automa.region_deck);
  }

  s.first_player = options.first_player >= 0
                       ? static_cast<Seat>(options.first_player)
                       : static_cast<Seat>(s.rng.below(static_cast<std::uint32_t>(options.players)));
  started.first_player = s.first_player;
  tell_all(ev, started);
  start_round(s, options.short_game ? 2 : 1, ev);
  return s;
}

namespace rules {

void start_round(GameState& s, std::uint8_t round, Events& ev) {
  s.round = round;
  ++s.rounds_played;
  s.king_card_available = true;
  RoundStarted started;
  started.round = round;
  for (int i = 0; i < s.stack_count; ++i) {
    ActionStack& stack = s.stacks[i];
    if (stack.face_down.empty()) continue;
    stack.revealed = stack.face_down.back();
    stack.face_down.pop_back();
    started.offered.push_back(*stack.revealed);
  }
  started.offered.push_back(kKingCard);
  tell_all(ev, started);

  if (s.options.automa) {
    // The automa draws two region cards and puts two caballeros in each, never into the
    // king's region, until all thirty are out.
    const Colour automa = automa_colour(s);
    for (int draw = 0; draw < 2 && s.automa.supply > 0 && !s.automa.region_deck.empty(); ++draw) {
      const Area region = s.automa.region_deck.back();
      s.automa.region_deck.pop_back();
      if (region == s.king) continue;
      const auto count = std::min<std::uint8_t>(2, s.automa.supply);
      s.automa.supply = static_cast<std::uint8_t>(s.automa.supply - count);
      s.caballeros[index(region)][automa] = static_cast<std::uint8_t>(s.caballeros[index(region)][automa] + count);
      tell_all(ev, AutomaPlacedCaballeros{region, count});
    }
    s.automa.played = s.automa.power_deck.back();
    s.automa.power_deck.pop_back();
    tell_all(ev, AutomaPowerCardFlipped{s.automa.played});
  }

  s.phase = Phase::power_cards;
  s.power_seat = s.first_player;
  s.turn_order.clear();
  s.turn_index = 0;
  s.turn = Turn{};
}

void end_round(GameState& s, Events& ev) {
  for (int i = 0; i < s.stack_count; ++i) s.stacks[i].revealed.reset();

  Seat lowest = 0;
  for (Seat p = 1; p < s.options.players; ++p)
    if (s.players[p].played < s.players[lowest].played) lowest = p;
  s.first_player = lowest;
  for (Seat p = 0; p < s.options.players; ++p) s.players[p].played = 0;
  s.automa.played = 0;

  for (VetoCard& veto : s.vetoes) {
    if (veto.holder >= 0 && veto.expires_after <= s.rounds_played) {
      tell_all(ev, VetoExpired{veto.holder});
      veto.holder = -1;
    }
  }
  tell_all(ev, RoundEnded{s.round, s.first_player});
  s.turn_order.clear();
  s.turn_index = 0;
  s.turn = Turn{};

  if (s.round % 3 == 0) {
    tell_all(ev, GeneralScoringStarted{static_cast<std::uint8_t>(s.general_scorings + 1)});
    open_disks(s, DiskPurpose::general_scoring, all_seats(s), ev);
    return;
  }
  std::uint8_t next = static_cast<std::uint8_t>(s.round + 1);
  if (s.options.short_game && (next == 4 || next == 7)) ++next;
  start_round(s, next, ev);
}

// After the castillo has been scored and emptied and every region scored.
static void finish_general_scoring(GameState& s, Events& ev) {
  ++s.general_scorings;
  if (s.options.automa) {
    s.automa.region_deck.clear();
    for (int r = 0; r < kRegionCount; ++r) s.automa.region_deck.push_back(area_at(r));
    s.rng.shuffle(s.automa.region_deck);
  }
  if (s.general_scorings == kGeneralScorings) {
    s.phase = Phase::game_over;
    GameEnded ended{.winners = winners(s)};
    for (Seat p = 0; p < s.options.players; ++p) ended.scores[p] = s.players[p].score;
    tell_all(ev, ended);
    return;
  }
  std::uint8_t next = static_cast<std::uint8_t>(s.round + 1);
  if (s.options.short_game && (next == 4 || next == 7)) ++next;
  start_round(s, next, ev);
}

void general_scoring(GameState& s, const DisksRevealed& disks, Events& ev) {
  // (b) the castillo is opened and scored, (c) its caballeros go where the disks point
  // (the king's region sends them back to the court), (d) every region is scored.
  const int places = places_scored(s);
  score_area(s, Area::castillo, places, ev);
  tell_all(ev, disks);
  auto& castillo = s.caballeros[index(Area::castillo)];
  for (Colour c = 0; c < colour_count(s); ++c) {
    const std::uint8_t count = castillo[c];
    if (count == 0) continue;
    castillo[c] = 0;
    std::optional<Area> to;
    if (is_automa(s, c)) {
      // The automa cannot choose a region: its caballeros go back beside the board.
      s.automa.supply = static_cast<std::uint8_t>(s.automa.supply + count);
    } else if (*disks.disks[c] == s.king) {
      s.players[c].court = static_cast<std::uint8_t>(s.players[c].court + count);
    } else {
      to = disks.disks[c];
      s.caballeros[index(*to)][c] = static_cast<std::uint8_t>(s.caballeros[index(*to)][c] + count);
    }
    tell_all(ev, CastilloEmptied{c, count, to});
  }
  score_areas(s, kAllRegions, places, ev);
  finish_general_scoring(s, ev);
}

}  // namespace rules
}  // namespace elgrande
