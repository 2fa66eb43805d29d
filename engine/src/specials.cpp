#include <algorithm>

#include "rules.hpp"

namespace elgrande::rules {

namespace {

// Seats (not the actor) that still have caballeros outside the king's region and castillo.
std::uint8_t opponents_on_board(const GameState& s, Seat actor) {
  std::uint8_t mask = 0;
  for (Seat p = 0; p < s.options.players; ++p)
    if (p != actor && takeable_count(s, p) > 0) mask = static_cast<std::uint8_t>(mask | seat_bit(p));
  return mask;
}

std::string area_name(Area a) { return std::string(name(a)); }

// Whether a moving card moves this colour's caballeros at all.
bool moves_colour(const MoveLimits& limits, Seat actor, Colour colour) {
  return (colour == actor ? limits.own : limits.opposing) > 0;
}

std::optional<Rejection> check_moves(const GameState& s, Seat actor, const MoveLimits& limits,
                                     const MoveCaballeros& c) {
  int own = 0, opposing = 0;
  std::array<std::array<int, kMaxColours>, kAreaCount> leaving{};
  for (const Move& m : c.moves) {
    if (m.colour < 0 || m.colour >= colour_count(s)) return malformed("no such colour");
    if (m.count == 0) return malformed("a move moves at least one caballero");
    if (!is_region(m.from)) return illegal("nothing ever leaves the castillo");
    if (m.from == s.king || m.to == s.king) return illegal("nothing enters or leaves the king's region");
    if (m.from == m.to) return illegal("a move goes to another area");
    if (limits.single_source && m.from != c.moves[0].from) return illegal("all moves come from one region");
    (m.colour == actor ? own : opposing) += m.count;
    leaving[index(m.from)][m.colour] += m.count;
    if (leaving[index(m.from)][m.colour] > s.caballeros[index(m.from)][m.colour])
      return illegal("not that many of those caballeros in " + area_name(m.from));
  }
  if (own > limits.own) return illegal("at most " + std::to_string(limits.own) + " of your own may move");
  if (opposing > limits.opposing) {
    return illegal(limits.opposing == 0 ? std::string("only your own caballeros may move")
                                        : "at most " + std::to_string(limits.opposing) + " opposing caballeros may move");
  }
  if (own + opposing > limits.total) return illegal("at most " + std::to_string(limits.total) + " caballeros may move");
  return std::nullopt;
}

std::optional<Rejection> check_place_extra(const GameState& s, Seat actor, const PlaceExtraCaballeros& c) {
  if (c.to[s.king]) return illegal("nothing is ever placed in the king's region");
  const int up_to = std::min<int>(2, s.players[actor].court);
  if (c.to.total() > up_to) return illegal("at most " + std::to_string(up_to) + " caballeros may be placed");
  return std::nullopt;
}

template <typename C>
const C* as(const Command& c) {
  return std::get_if<C>(&c);
}

Rejection needs(CardKind kind, std::string_view command) {
  return Rejection{Rejection::Code::wrong_command,
                   std::string(name(kind)) + " takes " + std::string(command) + " (or skip_special_action)"};
}

}  // namespace

CaballerosByColour movable_caballeros(const GameState& s, Seat actor, const MoveLimits& limits) {
  CaballerosByColour movable{};
  for (Colour colour = 0; colour < colour_count(s); ++colour)
    if (moves_colour(limits, actor, colour)) movable[colour] = takeable_regions(s, colour);
  return movable;
}

CaballerosByColour removable_caballeros(const GameState& s, Seat actor) {
  CaballerosByColour removable{};
  for (Colour colour = 0; colour < colour_count(s); ++colour)
    if (colour != actor) removable[colour] = takeable_regions(s, colour);
  return removable;
}

// Never into or out of the king's region, never where it lies, never onto the other board.
AreaMask scoreboard_destinations(const GameState& s, Scoreboard board) {
  const std::optional<Area> at = s.scoreboards[static_cast<int>(board)];
  const std::optional<Area> other = s.scoreboards[1 - static_cast<int>(board)];
  if (at == s.king) return 0;
  AreaMask to = 0;
  for (int a = 0; a < kAreaCount; ++a)
    if (area_at(a) != s.king && area_at(a) != at && area_at(a) != other) to |= bit(area_at(a));
  return to;
}

Command public_part(const Command& announced) {
  if (std::holds_alternative<TakeBackPowerCard>(announced)) return TakeBackPowerCard{0};
  return announced;
}

std::uint8_t live_veto_holders(const GameState& s, Seat except) {
  std::uint8_t mask = 0;
  for (const VetoCard& veto : s.vetoes)
    if (veto.holder >= 0 && veto.holder != except) mask = static_cast<std::uint8_t>(mask | seat_bit(veto.holder));
  return mask;
}

std::optional<Rejection> check_special(const GameState& s, Seat actor, CardKind kind, const Command& c) {
  if (s.turn.special_done) return illegal("the special action is already done");
  const Player& player = s.players[actor];
  using enum SpecialAnswer;
  switch (special_answer(kind)) {
    case move_caballeros:
      if (auto* m = as<MoveCaballeros>(c)) return check_moves(s, actor, *move_limits(kind), *m);
      return needs(kind, "move_caballeros");
    case place_extra:
      if (auto* p = as<PlaceExtraCaballeros>(c)) return check_place_extra(s, actor, *p);
      return needs(kind, "place_extra_caballeros");
    case place_or_move:
      if (auto* p = as<PlaceExtraCaballeros>(c)) return check_place_extra(s, actor, *p);
      if (auto* m = as<MoveCaballeros>(c)) return check_moves(s, actor, *move_limits(kind), *m);
      return needs(kind, "place_extra_caballeros or move_caballeros");
    case perform:
      if (as<PerformSpecialAction>(c)) return std::nullopt;
      return needs(kind, "perform_special_action");
    case remove_caballeros: {
      auto* r = as<RemoveCaballeros>(c);
      if (!r) return needs(kind, "remove_caballeros");
      const CaballerosByColour removable = removable_caballeros(s, actor);
      std::uint8_t seen = 0;
      for (const ColourRegion& pick : r->picks) {
        if (pick.colour < 0 || pick.colour >= colour_count(s)) return malformed("no such colour");
        if (pick.colour == actor) return illegal("only opponents' caballeros are removed");
        if (seen & (1u << pick.colour)) return illegal("one caballero of each opponent");
        seen = static_cast<std::uint8_t>(seen | (1u << pick.colour));
        if (!is_region(pick.region)) return illegal("nothing ever leaves the castillo");
        if (pick.region == s.king) return illegal("nothing leaves the king's region");
        if (removable[pick.colour][pick.region] == 0)
          return illegal("that colour has no caballero in " + area_name(pick.region));
      }
      for (Colour colour = 0; colour < colour_count(s); ++colour)
        if (!(seen & (1u << colour)) && removable[colour].total() > 0)
          return illegal("every opponent with caballeros on the board loses one");
      return std::nullopt;
    }
    case score_area:
      if (as<ScoreArea>(c)) return std::nullopt;
      return needs(kind, "score_area");
    case place_scoreboard: {
      auto* p = as<PlaceScoreboard>(c);
      if (!p) return needs(kind, "place_scoreboard");
      const std::optional<Area> at = s.scoreboards[static_cast<int>(p->board)];
      if (p->to == s.king) return illegal("nothing is put in the king's region");
      if (at == s.king) return illegal("that scoreboard lies in the king's region and stays there");
      if (at == p->to) return illegal("that scoreboard already lies there");
      if (s.scoreboards[1 - static_cast<int>(p->board)] == p->to) return illegal("never two scoreboards on one area");
      return std::nullopt;
    }
    case move_king: {
      auto* k = as<MoveKing>(c);
      if (!k) return needs(kind, "move_king");
      if (kind == CardKind::royal_advisor) {
        if (!is_region(k->to) || !adjacent(s.king, k->to)) return illegal("the royal advisor moves the king to a neighbouring region");
        return std::nullopt;
      }
      if (!is_region(k->to)) return illegal("the king goes only to a region");
      if (k->to == s.king) return illegal("the king is already there");
      return std::nullopt;
    }
    case evict: {
      auto* e = as<Evict>(c);
      if (!e) return needs(kind, "evict");
      if (!is_region(e->region)) return illegal("eviction names a region");
      if (e->region == s.king) return illegal("nothing leaves the king's region");
      return std::nullopt;
    }
    case move_grande: {
      auto* g = as<MoveGrande>(c);
      if (!g) return needs(kind, "move_grande");
      if (player.grande == s.king) return illegal("your grande is in the king's region and cannot leave");
      if (!is_region(g->to)) return illegal("a grande never goes into the castillo");
      if (g->to == s.king) return illegal("nothing enters the king's region");
      if (g->to == player.grande) return illegal("your grande is already there");
      return std::nullopt;
    }
    case take_back_power_card: {
      auto* t = as<TakeBackPowerCard>(c);
      if (!t) return needs(kind, "take_back_power_card");
      if (t->value < 1 || t->value > kPowerCardCount) return malformed("power cards are 1 to 13");
      if (!(player.discards & power_bit(t->value))) return illegal("you have not played that power card");
      return std::nullopt;
    }
    case take_caballeros: {
      auto* t = as<TakeCaballeros>(c);
      if (!t) return needs(kind, "take_caballeros");
      if (t->from_regions.total() > 0 && !court_card_takes_regions(s))
        return illegal("the 1995 court card takes caballeros from the province only");
      return check_take(s, actor, *t, 2);
    }
  }
  return illegal("unknown card");
}

void lay_veto(GameState& s, Seat actor, Events& ev) {
  for (VetoCard& card : s.vetoes) {
    if (card.holder < 0) {
      card.holder = actor;
      card.expires_after = static_cast<std::uint8_t>(s.rounds_played + 1);
      break;
    }
  }
  tell_all(ev, VetoLaid{actor});
}

void perform_special(GameState& s, Seat actor, CardKind kind, const Command& c, Events& ev) {
  s.turn.special_done = true;
  Player& player = s.players[actor];
  const int places = places_scored(s);
  using enum CardKind;
  switch (kind) {
    case move_all_own_from_region:
    case move_five_from_region:
    case move_three_opposing:
    case move_three_any:
    case move_two_own_two_opposing:
    case move_four_own:
    case move_four_any:
    case place_two_anywhere:
    case place_two_or_move_all_own:
      if (auto* m = as<MoveCaballeros>(c)) {
        for (const Move& move : m->moves) {
          s.caballeros[index(move.from)][move.colour] = static_cast<std::uint8_t>(s.caballeros[index(move.from)][move.colour] - move.count);
          s.caballeros[index(move.to)][move.colour] = static_cast<std::uint8_t>(s.caballeros[index(move.to)][move.colour] + move.count);
        }
        tell_all(ev, CaballerosMoved{actor, m->moves});
      } else if (auto* p = as<PlaceExtraCaballeros>(c)) {
        for (int a = 0; a < kAreaCount; ++a) s.caballeros[a][actor] = static_cast<std::uint8_t>(s.caballeros[a][actor] + p->to.n[a]);
        player.court = static_cast<std::uint8_t>(player.court - p->to.total());
        tell_all(ev, CaballerosPlaced{actor, p->to});
      }
      return;
    case veto:  // rules revision 1; since 2 the card is laid as it is taken
      lay_veto(s, actor, ev);
      return;
    case decay_all_court:
    case decay_three_court:
      for (Seat p = 0; p < s.options.players; ++p) {
        if (p == actor || s.players[p].court == 0) continue;
        const auto count = kind == decay_all_court ? s.players[p].court : std::min<std::uint8_t>(3, s.players[p].court);
        return_to_province(s, p, count, AreaCounts{}, ev);
      }
      return;
    case angry_king:
      s.returners.clear();
      for (Seat p = next_seat(s, actor); p != actor; p = next_seat(s, p))
        if (returnable(s, p) > 0) s.returners.push_back(p);
      s.phase = Phase::returning;
      return;
    case remove_one_each:
      for (const ColourRegion& pick : std::get<RemoveCaballeros>(c).picks)
        return_to_province(s, pick.colour, 0, only(pick.region, 1), ev);
      return;
    case disk_return_two:
    case disk_return_all:
      if (const std::uint8_t victims = opponents_on_board(s, actor))
        open_disks(s, kind == disk_return_two ? DiskPurpose::disk_return_two : DiskPurpose::disk_return_all, victims, ev);
      return;
    case eviction: {
      s.evicted_from = std::get<Evict>(c).region;
      std::uint8_t evicted = 0;
      for (Seat p = 0; p < s.options.players; ++p)
        if (p != actor && s.caballeros[index(s.evicted_from)][p] > 0) evicted = static_cast<std::uint8_t>(evicted | seat_bit(p));
      if (evicted) open_disks(s, DiskPurpose::eviction, evicted, ev);
      return;
    }
    case secret_scoring:
      open_disks(s, DiskPurpose::secret_scoring, all_seats(s), ev);
      return;
    case score_chosen_region:
      score_area(s, std::get<ScoreArea>(c).area, places, ev);
      return;
    case score_fours:
    case score_fives:
    case score_six_seven: {
      AreaMask regions = 0;
      for (int r = 0; r < kRegionCount; ++r) {
        const int first = current_values(s, area_at(r)).first;
        const bool scored = kind == score_fours ? first == 4 : kind == score_fives ? first == 5 : (first == 6 || first == 7);
        if (scored) regions |= bit(area_at(r));
      }
      score_areas(s, regions, places, ev);
      return;
    }
    case score_castillo:
      score_area(s, Area::castillo, places, ev);
      return;
    case score_most:
    case score_fewest: {
      int target = kind == score_most ? 1 : 1000;
      for (int r = 0; r < kRegionCount; ++r) {
        const int total = area_total(s, area_at(r));
        if (total > 0) target = kind == score_most ? std::max(target, total) : std::min(target, total);
      }
      AreaMask regions = 0;
      for (int r = 0; r < kRegionCount; ++r)
        if (area_total(s, area_at(r)) == target) regions |= bit(area_at(r));
      score_areas(s, regions, places, ev);
      return;
    }
    case score_first_only:
      score_areas(s, kAllRegions, 1, ev);
      return;
    case scoreboard: {
      const auto& p = std::get<PlaceScoreboard>(c);
      auto& at = s.scoreboards[static_cast<int>(p.board)];
      tell_all(ev, ScoreboardPlaced{p.board, at, p.to});
      at = p.to;
      return;
    }
    case royal_advisor:
    case king: {
      const Area to = std::get<MoveKing>(c).to;
      tell_all(ev, KingMoved{s.king, to});
      s.king = to;
      return;
    }
    case grande: {
      const Area to = std::get<MoveGrande>(c).to;
      tell_all(ev, GrandeMoved{actor, player.grande, to});
      player.grande = to;
      return;
    }
    case power_cards: {
      const std::uint8_t value = std::get<TakeBackPowerCard>(c).value;
      player.discards = static_cast<PowerCards>(player.discards & ~power_bit(value));
      player.hand = static_cast<PowerCards>(player.hand | power_bit(value));
      tell_only(ev, actor, PowerCardTakenBack{actor, value});
      tell_all_but(ev, actor, PowerCardTakenBack{actor, 0});
      return;
    }
    case court:
      take(s, actor, std::get<TakeCaballeros>(c), ev);
      return;
  }
}

}  // namespace elgrande::rules
