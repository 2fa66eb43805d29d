#include "elgrande/engine/determinize.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "rules.hpp"

namespace elgrande {

using namespace rules;

namespace {

// `count` values drawn uniformly from the set bits of `from` (all of them if fewer).
PowerCards draw_cards(PowerCards from, int count, Rng& rng) {
  FixedVector<std::uint8_t, kPowerCardCount> values;
  for (int v = 1; v <= kPowerCardCount; ++v)
    if (from & power_bit(v)) values.push_back(static_cast<std::uint8_t>(v));
  rng.shuffle(values);
  PowerCards drawn = 0;
  for (std::size_t i = 0; i < values.size() && static_cast<int>(i) < count; ++i) drawn |= power_bit(values[i]);
  return drawn;
}

int stack_of(const ActionCard& card, bool merged) {
  const int stack = card.stack - 1;
  return merged && stack >= 2 ? stack - 1 : stack;
}

// The automa's region deck is reshuffled after each general scoring and loses two cards at
// each round's start: its size follows from the round (its order and which regions are left
// are drawn; a supply run dry would have stopped the draws sooner, which the view cannot tell).
int automa_regions_left(const View& v) {
  const int first_round = 3 * v.general_scorings + (v.options.short_game ? 2 : 1);
  return std::max(0, kRegionCount - 2 * (v.round - first_round + 1));
}

}  // namespace

GameState determinize(const View& v, Rng& rng) {
  const Seat me = v.viewer;
  if (me < 0 || me >= v.options.players) throw std::invalid_argument("determinize: a seat's view is needed");
  GameState s;
  s.options = v.options;
  s.rng.state = rng.next();
  s.phase = v.phase;
  s.round = v.round;
  s.rounds_played = v.rounds_played;
  s.general_scorings = v.general_scorings;
  s.version = v.version;
  s.king = v.king;
  s.scoreboards = v.scoreboards;
  for (int r = 0; r < kRegionCount; ++r) s.caballeros[r] = v.regions[r];

  // Each colour has 30 caballeros: what is in no public place is in the castillo.
  auto& castillo = s.caballeros[index(Area::castillo)];
  for (Seat p = 0; p < v.options.players; ++p) {
    const PlayerView& pv = v.players[p];
    Player& player = s.players[p];
    player.court = pv.court;
    player.province = pv.province;
    player.score = pv.score;
    player.grande = pv.grande;
    player.played = pv.played;
    int placed = 0;
    for (int r = 0; r < kRegionCount; ++r) placed += v.regions[r][p];
    castillo[p] = static_cast<std::uint8_t>(kCaballerosPerColour - pv.court - pv.province - placed);
    if (p == me) {
      player.hand = pv.hand.value_or(0);
      player.discards = pv.discards.value_or(0);
      player.disk = pv.disk;
      continue;
    }
    // Drawn from the values not on the table this round, unless the seat took its own back.
    PowerCards candidates = static_cast<PowerCards>(kAllPowerCards & ~(pv.played ? power_bit(pv.played) : 0));
    if (std::popcount(candidates) < pv.hand_count) candidates = kAllPowerCards;
    player.hand = draw_cards(candidates, pv.hand_count, rng);
    player.discards = static_cast<PowerCards>(kAllPowerCards & ~player.hand);
  }
  if (v.automa) {
    const Colour automa = automa_colour(s);
    s.automa.supply = v.automa->supply;
    s.automa.played = v.automa->played;
    int placed = 0;
    for (int r = 0; r < kRegionCount; ++r) placed += v.regions[r][automa];
    castillo[automa] = static_cast<std::uint8_t>(kCaballerosPerColour - v.automa->supply - placed);
    const PowerCards unflipped = static_cast<PowerCards>(kAllPowerCards & ~power_bit(v.automa->played));
    const PowerCards deck = draw_cards(unflipped, v.automa->power_cards_left, rng);
    for (int value = 1; value <= kPowerCardCount; ++value)
      if (deck & power_bit(value)) s.automa.power_deck.push_back(static_cast<std::uint8_t>(value));
    rng.shuffle(s.automa.power_deck);
    for (int r = 0; r < kRegionCount; ++r) s.automa.region_deck.push_back(area_at(r));
    rng.shuffle(s.automa.region_deck);
    while (static_cast<int>(s.automa.region_deck.size()) > automa_regions_left(v)) s.automa.region_deck.pop_back();
  }

  // The offered cards lie on their stacks; each stack's face-down cards are drawn from the
  // rest of its cards, less the one in play.
  const bool merged = v.options.automa || v.options.four_stacks;
  s.stack_count = merged ? 3 : 4;
  s.king_card_available = false;
  for (CardId id : v.offered) {
    if (id == kKingCard) {
      s.king_card_available = true;
    } else {
      s.stacks[stack_of(action_card(id), merged)].revealed = id;
    }
  }
  // Every stack's pool in one pass over the deck (each in deck order), then drawn stack by stack.
  std::array<FixedVector<CardId, kActionCardCount>, 4> pools;
  for (const ActionCard& card : classic_deck()) {
    if (card.id == kKingCard || card.id == v.card) continue;
    if (std::find(v.offered.begin(), v.offered.end(), card.id) != v.offered.end()) continue;
    const int i = stack_of(card, merged);
    if (i < s.stack_count) pools[static_cast<std::size_t>(i)].push_back(card.id);
  }
  for (int i = 0; i < s.stack_count; ++i) {
    FixedVector<CardId, kActionCardCount>& pool = pools[static_cast<std::size_t>(i)];
    rng.shuffle(pool);
    for (std::size_t n = 0; n < std::size_t{v.stack_sizes[i]} && n < pool.size(); ++n) s.stacks[i].face_down.push_back(pool[n]);
  }
  s.vetoes = v.vetoes;

  s.first_player = v.first_player;
  s.power_seat = v.phase == Phase::power_cards ? v.power_seat : v.first_player;
  s.turn_order = v.turn_order;
  s.turn_index = v.turn_index;
  s.turn.card = v.card;
  s.turn.placed = v.placed;
  s.turn.special_done = v.special_done;
  s.turn.announced = v.announced;
  if (v.announced && v.active != me && std::holds_alternative<TakeBackPowerCard>(*v.announced)) {
    // Which card comes back is the actor's secret: one of its discards.
    const PowerCards discards = s.players[v.active].discards;
    int skip = static_cast<int>(rng.below(static_cast<std::uint32_t>(std::max(1, std::popcount(discards)))));
    for (int value = 1; value <= kPowerCardCount; ++value)
      if ((discards & power_bit(value)) && skip-- == 0) s.turn.announced = TakeBackPowerCard{static_cast<std::uint8_t>(value)};
  }

  switch (v.phase) {
    case Phase::veto_window:
      s.veto_owed = v.waiting_for;
      break;
    case Phase::disk_setting:
      s.disk_purpose = *v.disk_purpose;
      if (v.evicted_from) s.evicted_from = *v.evicted_from;
      s.disks_owed = v.waiting_for;
      s.disks_asked = v.waiting_for;
      for (Seat p = 0; p < v.options.players; ++p) {
        if (!v.players[p].disk_set) continue;
        s.disks_asked = static_cast<std::uint8_t>(s.disks_asked | seat_bit(p));
        if (p == me) continue;
        const AreaMask allowed = disk_allowed(s, p, s.disk_purpose);
        int skip = static_cast<int>(rng.below(static_cast<std::uint32_t>(std::max(1, std::popcount(allowed)))));
        for (int r = 0; r < kRegionCount; ++r)
          if (contains(allowed, area_at(r)) && skip-- == 0) s.players[p].disk = area_at(r);
      }
      break;
    case Phase::returning: {
      // The angry king's opponents return in turn from the actor's left; those after the one
      // returning now are still to come, if they have anything to return.
      const Seat now = static_cast<Seat>(std::countr_zero(v.waiting_for));
      s.returners.push_back(now);
      for (Seat p = next_seat(s, now); p != v.active; p = next_seat(s, p))
        if (returnable(s, p) > 0) s.returners.push_back(p);
      break;
    }
    default:
      break;
  }
  return s;
}

}  // namespace elgrande
