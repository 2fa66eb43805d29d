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

void fill_card_use(const GameState& s, Seat seat, ActionCardUse& use) {
  const ActionCard& card = action_card(*s.turn.card);
  use.card = card.id;
  use.special = card.kind;
  use.may_place = !s.turn.placed;
  use.place_up_to = use.may_place ? static_cast<std::uint8_t>(std::min<int>(card.stack, s.players[seat].court)) : 0;
  use.place_into = placement_areas(s);
  use.may_act = !s.turn.special_done;
  if (!use.may_act) return;

  const Player& player = s.players[seat];
  const AreaMask not_king = static_cast<AreaMask>(kAllRegions & ~bit(s.king));
  using enum CardKind;
  use.moves = move_limits(card.kind);
  if (use.moves) use.move_from = movable_caballeros(s, seat, *use.moves);
  if (use.moves || card.kind == place_two_anywhere) use.move_to = static_cast<AreaMask>(not_king | bit(Area::castillo));
  if (card.kind == place_two_anywhere || card.kind == place_two_or_move_all_own)
    use.extra_up_to = static_cast<std::uint8_t>(std::min<int>(2, player.court));
  if (card.kind == court) {
    CaballerosToTake take = to_take(s, seat, 2);
    if (!court_card_takes_regions(s)) {
      take.regions = {};
      take.up_to = static_cast<std::uint8_t>(std::min<int>(2, take.province));
    }
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
}

// The use is built where it is returned: it is 138 bytes, asked twice a turn, and copying
// it out through the variant and the optional cost more than working it out.
std::optional<Decision> card_use(const GameState& s, Seat seat) {
  std::optional<Decision> owed{std::in_place};
  owed->seat = seat;
  fill_card_use(s, seat, owed->detail.emplace<ActionCardUse>());
  return owed;
}

}  // namespace

std::optional<Decision> decision_for(const GameState& s, Seat seat) {
  if (seat < 0 || seat >= s.options.players || !(waiting_for(s) & seat_bit(seat))) return std::nullopt;
  switch (s.phase) {
    case Phase::power_cards: {
      const Player& player = s.players[seat];
      return Decision{seat, PowerCardChoice{static_cast<PowerCards>(player.hand & ~played_mask(s))}};
    }
    case Phase::take_caballeros:
      return Decision{seat, to_take(s, seat, caballeros_granted(s.players[seat].played), taken_in_full(s, seat))};
    case Phase::choose_action_card: {
      ActionCardChoice choice;
      for (int i = 0; i < s.stack_count; ++i)
        if (s.stacks[i].revealed) choice.offered.push_back(*s.stacks[i].revealed);
      if (s.king_card_available) choice.offered.push_back(kKingCard);
      return Decision{seat, choice};
    }
    case Phase::use_action_card:
      return card_use(s, seat);
    case Phase::veto_window:
      return Decision{seat, VetoChoice{active_seat(s), *s.turn.card}};
    case Phase::returning:
      return Decision{seat, CaballerosToReturn{static_cast<std::uint8_t>(std::min(3, returnable(s, seat))),
                                               s.players[seat].court, takeable_regions(s, seat)}};
    case Phase::disk_setting:
      return Decision{seat, DiskChoice{s.disk_purpose, disk_allowed(s, seat, s.disk_purpose)}};
    case Phase::game_over:
      break;
  }
  return std::nullopt;
}

Decisions pending(const GameState& s) {
  Decisions out;
  const std::uint8_t owing = waiting_for(s);
  for (Seat p = 0; p < s.options.players; ++p)
    if (owing & seat_bit(p)) out.push_back(*decision_for(s, p));
  return out;
}

}  // namespace elgrande
