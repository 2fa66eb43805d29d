#include <bit>

#include "rules.hpp"
#include "elgrande/engine/view.hpp"

namespace elgrande {

using namespace rules;

View view(const GameState& s, Seat viewer) {
  View v;
  v.viewer = viewer;
  v.options = s.options;
  v.phase = s.phase;
  v.round = s.round;
  v.rounds_played = s.rounds_played;
  v.general_scorings = s.general_scorings;
  v.version = s.version;
  v.king = s.king;
  v.scoreboards = s.scoreboards;
  for (int r = 0; r < kRegionCount; ++r) v.regions[r] = s.caballeros[r];

  for (Seat p = 0; p < s.options.players; ++p) {
    const Player& player = s.players[p];
    PlayerView& pv = v.players[p];
    pv.court = player.court;
    pv.province = player.province;
    pv.score = player.score;
    pv.grande = player.grande;
    pv.hand_count = static_cast<std::uint8_t>(std::popcount(player.hand));
    pv.played = player.played;
    pv.disk_set = (s.disks_asked & seat_bit(p)) && player.disk.has_value();
    for (const VetoCard& veto : s.vetoes) pv.live_vetoes = static_cast<std::uint8_t>(pv.live_vetoes + (veto.holder == p));
    if (p == viewer) {
      pv.hand = player.hand;
      pv.discards = player.discards;
      pv.castillo = s.caballeros[index(Area::castillo)][p];
      pv.disk = player.disk;
    }
  }
  if (s.options.automa) {
    v.automa = AutomaView{s.automa.supply, s.automa.played,
                          static_cast<std::uint8_t>(s.automa.power_deck.size())};
  }

  for (int i = 0; i < s.stack_count; ++i) {
    if (s.stacks[i].revealed) v.offered.push_back(*s.stacks[i].revealed);
    v.stack_sizes[i] = static_cast<std::uint8_t>(s.stacks[i].face_down.size());
  }
  if (s.king_card_available) v.offered.push_back(kKingCard);
  // Only the cards in front of someone, in slot order: which slot a card sits in, and when
  // a returned card had expired, is bookkeeping that the view (and its JSON) leaves out.
  std::size_t held = 0;
  for (const VetoCard& veto : s.vetoes)
    if (veto.holder >= 0) v.vetoes[held++] = veto;

  v.first_player = s.first_player;
  v.power_seat = s.phase == Phase::power_cards ? s.power_seat : Seat{-1};
  v.turn_order = s.turn_order;
  v.turn_index = s.turn_index;
  v.active = active_seat(s);
  v.card = s.turn.card;
  v.placed = s.turn.placed;
  v.special_done = s.turn.special_done;
  if (s.turn.announced) v.announced = viewer == v.active ? *s.turn.announced : public_part(*s.turn.announced);
  if (s.phase == Phase::disk_setting) v.disk_purpose = s.disk_purpose;
  if (s.phase == Phase::disk_setting && s.disk_purpose == DiskPurpose::eviction) v.evicted_from = s.evicted_from;

  v.waiting_for = waiting_for(s);
  v.decision = decision_for(s, viewer);
  v.winners = winners(s);
  return v;
}

}  // namespace elgrande
