#include <algorithm>

#include "rules.hpp"

namespace elgrande {

using namespace rules;

namespace {

// Up to `limit` caballeros into the court: the province's first, then own ones from regions;
// `at_least` of them from the province.
CaballerosToTake to_take(const GameState& s, Seat seat, int limit, int at_least = 0) {
  CaballerosToTake take{.province = s.players[seat].province, .regions = takeable_regions(s, seat)};
  take.up_to = static_cast<std::uint8_t>(std::min(limit, take.province + take.regions.total()));
  take.at_least = static_cast<std::uint8_t>(at_least);
  return take;
}

ActionCardUse card_use(const GameState& s, Seat seat) {
  const ActionCard& card = action_card(*s.turn.card);
  ActionCardUse use;
  use.card = card.id;
  use.special = card.kind;
  use.may_place = !s.turn.placed;
  use.place_up_to = use.may_place ? static_cast<std::uint8_t>(std::min<int>(card.stack, s.players[seat].court)) : 0;
  use.place_into = placement_areas(s);
  use.may_act = !s.turn.special_done;
  if (!use.may_act) return use;

  const Player& player = s.players[seat];
  const AreaMask not_king = static_cast<AreaMask>(kAllRegions & ~bit(s.king));
  using enum CardKind;
  use.moves = move_limits(card.kind);
  if (use.moves) use.move_from = movable_caballeros(s, seat, *use.moves);
  if (use.moves || card.kind == place_two_anywhere) use.move_to = static_cast<AreaMask>(not_king | bit(Area::castillo));
  if (card.kind == place_two_anywhere || card.kind == place_two_or_move_all_own)
    use.extra_up_to = static_cast<std::uint8_t>(std::min<int>(2, player.court));
  if (card.kind == court) {
    const CaballerosToTake take = to_take(s, seat, 2);
    use.take_up_to = take.up_to;
    use.take_province = take.province;
    use.take_regions = take.regions;
  }
  switch (card.kind) {
    case score_chosen_region: use.targets = static_cast<AreaMask>(kAllRegions | bit(Area::castillo)); break;
    case royal_advisor: use.targets = neighbours(s.king); break;
    case king:
    case eviction: use.targets = not_king; break;
    case remove_one_each:
      use.targets = not_king;
      use.remove_from = removable_caballeros(s, seat);
      break;
    case grande: use.targets = player.grande == s.king ? AreaMask{0} : static_cast<AreaMask>(not_king & ~bit(player.grande)); break;
    case scoreboard:
      for (int b = 0; b < kScoreboardCount; ++b) {
        use.scoreboard_to[b] = scoreboard_destinations(s, static_cast<Scoreboard>(b));
        use.targets |= use.scoreboard_to[b];  // where some board may go
      }
      break;
    case power_cards: use.take_back = player.discards; break;
    default: break;
  }
  return use;
}

}  // namespace

Decisions pending(const GameState& s) {
  Decisions out;
  switch (s.phase) {
    case Phase::power_cards: {
      const Player& player = s.players[s.power_seat];
      out.push_back({s.power_seat, PowerCardChoice{static_cast<PowerCards>(player.hand & ~played_mask(s))}});
      break;
    }
    case Phase::take_caballeros: {
      const Seat seat = active_seat(s);
      out.push_back({seat, to_take(s, seat, caballeros_granted(s.players[seat].played), taken_in_full(s, seat))});
      break;
    }
    case Phase::choose_action_card: {
      ActionCardChoice choice;
      for (int i = 0; i < s.stack_count; ++i)
        if (s.stacks[i].revealed) choice.offered.push_back(*s.stacks[i].revealed);
      if (s.king_card_available) choice.offered.push_back(kKingCard);
      out.push_back({active_seat(s), choice});
      break;
    }
    case Phase::use_action_card:
      out.push_back({active_seat(s), card_use(s, active_seat(s))});
      break;
    case Phase::veto_window:
      for (Seat p = 0; p < s.options.players; ++p)
        if (s.veto_owed & seat_bit(p)) out.push_back({p, VetoChoice{active_seat(s), *s.turn.card}});
      break;
    case Phase::returning: {
      const Seat seat = s.returners[0];
      out.push_back({seat, CaballerosToReturn{static_cast<std::uint8_t>(std::min(3, returnable(s, seat))),
                                              s.players[seat].court, takeable_regions(s, seat)}});
      break;
    }
    case Phase::disk_setting:
      for (Seat p = 0; p < s.options.players; ++p)
        if (s.disks_owed & seat_bit(p)) out.push_back({p, DiskChoice{s.disk_purpose, disk_allowed(s, p, s.disk_purpose)}});
      break;
    case Phase::game_over:
      break;
  }
  return out;
}

std::uint8_t waiting_for(const GameState& s) {
  switch (s.phase) {
    case Phase::power_cards: return seat_bit(s.power_seat);
    case Phase::take_caballeros:
    case Phase::choose_action_card:
    case Phase::use_action_card: return seat_bit(active_seat(s));
    case Phase::veto_window: return s.veto_owed;
    case Phase::returning: return seat_bit(s.returners[0]);
    case Phase::disk_setting: return s.disks_owed;
    case Phase::game_over: return 0;
  }
  return 0;
}

}  // namespace elgrande
