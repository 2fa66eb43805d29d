#include <algorithm>
#include <bit>

#include "rules.hpp"

namespace elgrande {

using namespace rules;

namespace rules {

AreaMask placement_areas(const GameState& s) {
  return static_cast<AreaMask>(neighbours(s.king) | bit(Area::castillo));
}

AreaCounts takeable_regions(const GameState& s, Colour colour) {
  AreaCounts counts;
  for (int r = 0; r < kRegionCount; ++r) counts.n[r] = s.caballeros[r][colour];
  counts[s.king] = 0;  // nothing leaves the king's region: one store, not a test per region
  return counts;
}

int takeable_count(const GameState& s, Colour colour) {
  // All the regions' but the king's (the castillo is no region).
  return caballeros_in_regions(s, colour) - (is_region(s.king) ? s.caballeros[index(s.king)][colour] : 0);
}

int returnable(const GameState& s, Seat seat) { return s.players[seat].court + takeable_count(s, seat); }

PowerCards played_mask(const GameState& s) {
  // Without a test per seat: "none yet" (0) sets bit 0, which no power card uses.
  PowerCards mask = power_bit(s.automa.played);
  for (Seat p = 0; p < s.options.players; ++p) mask |= power_bit(s.players[p].played);
  return static_cast<PowerCards>(mask & ~power_bit(0));
}

std::optional<Rejection> check_take(const GameState& s, Seat seat, const TakeCaballeros& c,
                                    int up_to, int at_least) {
  const Player& player = s.players[seat];
  if (c.from_province < at_least)
    return illegal("the 1995 rules take the power card's " + std::to_string(at_least) + " from the province in full");
  if (c.from_province > player.province) return illegal("not that many caballeros in your province");
  if (c.from_regions[Area::castillo] > 0) return illegal("nothing ever leaves the castillo");
  const AreaCounts available = takeable_regions(s, seat);
  for (int r = 0; r < kRegionCount; ++r) {
    if (c.from_regions.n[r] == 0) continue;
    if (area_at(r) == s.king) return illegal("nothing leaves the king's region");
    if (c.from_regions.n[r] > available.n[r]) return illegal("not that many of your caballeros there");
  }
  if (c.from_regions.total() > 0 && c.from_province < player.province)
    return illegal("caballeros come from regions only once the province is empty");
  if (c.from_province + c.from_regions.total() > up_to)
    return illegal("at most " + std::to_string(up_to) + " caballeros may be taken");
  return std::nullopt;
}

int taken_in_full(const GameState& s, Seat seat) {
  if (s.options.edition != Edition::y1995) return 0;
  return std::min<int>(caballeros_granted(s.players[seat].played), s.players[seat].province);
}

bool court_card_takes_regions(const GameState& s) {
  return s.options.edition != Edition::y1995 || s.options.rules_revision < 3;
}

void take(GameState& s, Seat seat, const TakeCaballeros& c, Events& ev) {
  Player& player = s.players[seat];
  player.province = static_cast<std::uint8_t>(player.province - c.from_province);
  for (int r = 0; r < kRegionCount; ++r) s.caballeros[r][seat] = static_cast<std::uint8_t>(s.caballeros[r][seat] - c.from_regions.n[r]);
  player.court = static_cast<std::uint8_t>(player.court + c.from_province + c.from_regions.total());
  tell_all(ev, CaballerosTaken{seat, c.from_province, c.from_regions});
}

void return_to_province(GameState& s, Colour colour, std::uint8_t from_court,
                        const AreaCounts& from_regions, Events& ev) {
  for (int r = 0; r < kRegionCount; ++r) s.caballeros[r][colour] = static_cast<std::uint8_t>(s.caballeros[r][colour] - from_regions.n[r]);
  const auto count = static_cast<std::uint8_t>(from_court + from_regions.total());
  if (is_automa(s, colour)) {
    s.automa.supply = static_cast<std::uint8_t>(s.automa.supply + count);
  } else {
    Player& player = s.players[colour];
    player.court = static_cast<std::uint8_t>(player.court - from_court);
    player.province = static_cast<std::uint8_t>(player.province + count);
  }
  tell_all(ev, CaballerosReturned{colour, from_court, from_regions});
}

AreaCounts only(Area area, std::uint8_t count) {
  AreaCounts counts;
  counts[area] = count;
  return counts;
}

AreaMask disk_allowed(const GameState& s, Seat seat, DiskPurpose purpose) {
  // 2023 lets these disks name the king's region, whose caballeros then go back to the court;
  // in 1995 the king's region is untouchable, and naming it is only ever a mistake.
  const AreaMask destinations = s.options.edition == Edition::y1995 ? static_cast<AreaMask>(kAllRegions & ~bit(s.king))
                                                                     : kAllRegions;
  switch (purpose) {
    case DiskPurpose::general_scoring:
      return destinations;
    case DiskPurpose::secret_scoring:
      return kAllRegions;
    case DiskPurpose::eviction:
      return static_cast<AreaMask>(destinations & ~bit(s.evicted_from));
    case DiskPurpose::disk_return_two:
    case DiskPurpose::disk_return_all: {
      // Removing effects never point at the king's region; "two" prefers regions with two.
      AreaMask one = 0, two = 0;
      for (int r = 0; r < kRegionCount; ++r) {
        if (area_at(r) == s.king) continue;
        if (s.caballeros[r][seat] >= 1) one |= bit(area_at(r));
        if (s.caballeros[r][seat] >= 2) two |= bit(area_at(r));
      }
      return purpose == DiskPurpose::disk_return_two && two ? two : one;
    }
  }
  return 0;
}

void open_disks(GameState& s, DiskPurpose purpose, std::uint8_t seats, Events& ev) {
  s.phase = Phase::disk_setting;
  s.disk_purpose = purpose;
  s.disks_asked = seats;
  s.disks_owed = 0;
  for (Seat p = 0; p < s.options.players; ++p) {
    if (!(seats & seat_bit(p))) continue;
    s.players[p].disk.reset();
    const AreaMask allowed = disk_allowed(s, p, purpose);
    if (std::popcount(allowed) == 1) {
      // A forced pick needs no question.
      s.players[p].disk = area_at(std::countr_zero(allowed));
      tell_only(ev, p, DiskSet{p, s.players[p].disk});
      tell_all_but(ev, p, DiskSet{p, std::nullopt});
    } else {
      s.disks_owed = static_cast<std::uint8_t>(s.disks_owed | seat_bit(p));
    }
  }
}

void resolve_disks(GameState& s, Events& ev) {
  DisksRevealed revealed{.purpose = s.disk_purpose};
  for (Seat p = 0; p < s.options.players; ++p)
    if (s.disks_asked & seat_bit(p)) revealed.disks[p] = s.players[p].disk;
  for (Player& player : s.players) player.disk.reset();
  s.disks_asked = 0;

  if (s.disk_purpose == DiskPurpose::general_scoring) {
    general_scoring(s, revealed, ev);
    return;
  }
  tell_all(ev, revealed);
  AreaMask picked_once = 0, picked_more = 0;
  for (Seat p = 0; p < s.options.players; ++p) {
    if (!revealed.disks[p]) continue;
    const Area region = *revealed.disks[p];
    auto& here = s.caballeros[index(region)][p];
    switch (s.disk_purpose) {
      case DiskPurpose::disk_return_two:
      case DiskPurpose::disk_return_all: {
        const auto count = s.disk_purpose == DiskPurpose::disk_return_two
                               ? std::min<std::uint8_t>(2, here) : here;
        return_to_province(s, p, 0, only(region, count), ev);
        break;
      }
      case DiskPurpose::eviction: {
        auto& from = s.caballeros[index(s.evicted_from)][p];
        const std::uint8_t count = from;
        from = 0;
        std::optional<Area> to;
        if (region == s.king) {
          s.players[p].court = static_cast<std::uint8_t>(s.players[p].court + count);
        } else {
          to = region;
          here = static_cast<std::uint8_t>(here + count);
        }
        tell_all(ev, CaballerosEvicted{p, s.evicted_from, to, count});
        break;
      }
      case DiskPurpose::secret_scoring:
        if (picked_once & bit(region)) picked_more |= bit(region);
        picked_once |= bit(region);
        break;
      case DiskPurpose::general_scoring:
        break;
    }
  }
  if (s.disk_purpose == DiskPurpose::secret_scoring)
    score_areas(s, static_cast<AreaMask>(picked_once & ~picked_more), places_scored(s), ev);
  s.phase = Phase::use_action_card;
}

static void next_turn(GameState& s, Events& ev) {
  s.turn = Turn{};
  ++s.turn_index;
  if (s.turn_index >= s.turn_order.size()) {
    end_round(s, ev);
    return;
  }
  s.phase = Phase::take_caballeros;
}

// The automa takes the offered card with the most caballeros and discards it unused.
static void automa_turn(GameState& s, Events& ev) {
  std::optional<CardId> taken;
  if (s.king_card_available) {
    taken = kKingCard;
    s.king_card_available = false;
  } else {
    for (int i = s.stack_count - 1; i >= 0; --i) {
      if (s.stacks[i].revealed) {
        taken = s.stacks[i].revealed;
        s.stacks[i].revealed.reset();
        break;
      }
    }
  }
  if (taken) tell_all(ev, ActionCardTaken{automa_colour(s), *taken});
}

void advance(GameState& s, Events& ev) {
  for (;;) {
    switch (s.phase) {
      case Phase::take_caballeros: {
        const Colour colour = s.turn_order[s.turn_index];
        if (is_automa(s, colour)) {
          automa_turn(s, ev);
          next_turn(s, ev);
          continue;
        }
        const Player& player = s.players[colour];
        const int granted = caballeros_granted(player.played);
        const int at_least = taken_in_full(s, colour);
        if (granted == 0 || player.province + takeable_count(s, colour) == 0) {
          s.phase = Phase::choose_action_card;
          continue;
        }
        if (at_least == std::min(granted, player.province + takeable_count(s, colour))) {
          // The 1995 take with nothing left to choose: the province holds them all.
          take(s, colour, TakeCaballeros{static_cast<std::uint8_t>(at_least), {}}, ev);
          s.phase = Phase::choose_action_card;
          continue;
        }
        return;
      }
      case Phase::use_action_card:
        if (s.turn.placed && s.turn.special_done) {
          next_turn(s, ev);
          continue;
        }
        return;
      case Phase::veto_window:
        if (s.veto_owed) return;
        {
          const Seat actor = active_seat(s);
          const Command announced = *s.turn.announced;
          s.turn.announced.reset();
          s.phase = Phase::use_action_card;
          s.turn.special_done = true;
          if (s.veto_yes) {
            // Several vetoes at once: the first holder clockwise from the actor uses theirs.
            Seat by = next_seat(s, actor);
            while (!(s.veto_yes & seat_bit(by))) by = next_seat(s, by);
            for (VetoCard& veto : s.vetoes) {
              if (veto.holder == by) {
                veto.holder = -1;
                break;
              }
            }
            s.veto_yes = 0;
            tell_all(ev, SpecialActionVetoed{actor, by});
          } else {
            perform_special(s, actor, action_card(*s.turn.card).kind, announced, ev);
          }
        }
        continue;
      case Phase::returning:
        while (!s.returners.empty()) {
          const Seat seat = s.returners[0];
          const int available = returnable(s, seat);
          if (available > 3) return;
          // Three or fewer: there is only one way to return them all.
          return_to_province(s, seat, s.players[seat].court, takeable_regions(s, seat), ev);
          s.returners.erase_at(0);
        }
        s.phase = Phase::use_action_card;
        continue;
      case Phase::disk_setting:
        if (s.disks_owed) return;
        resolve_disks(s, ev);
        continue;
      case Phase::power_cards:
      case Phase::choose_action_card:
      case Phase::game_over:
        return;
    }
  }
}

}  // namespace rules

namespace {

Rejection wrong(std::string reason) { return Rejection{Rejection::Code::wrong_command, std::move(reason)}; }

std::optional<Rejection> check_seat_owes(const GameState& s, Seat seat) {
  if (s.phase == Phase::game_over) return Rejection{Rejection::Code::game_over, "the game is over"};
  if (seat < 0 || seat >= s.options.players) return malformed("no such seat");
  if (!(waiting_for(s) & seat_bit(seat)))
    return Rejection{Rejection::Code::not_your_turn, "you owe no decision now"};
  return std::nullopt;
}

bool valid(Area a) { return index(a) < kAreaCount; }

// Values no decoder should produce; the engine still refuses them rather than trust input.
std::optional<Rejection> check_well_formed(const Command& command) {
  bool ok = true;
  std::visit(
      [&](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, MoveCaballeros>) {
          for (const Move& m : c.moves) ok = ok && valid(m.from) && valid(m.to) && m.colour >= 0 && m.colour < kMaxColours;
        } else if constexpr (std::is_same_v<C, RemoveCaballeros>) {
          for (const ColourRegion& p : c.picks) ok = ok && valid(p.region) && p.colour >= 0 && p.colour < kMaxColours;
        } else if constexpr (std::is_same_v<C, ScoreArea>) {
          ok = valid(c.area);
        } else if constexpr (std::is_same_v<C, PlaceScoreboard>) {
          ok = valid(c.to) && static_cast<int>(c.board) < kScoreboardCount;
        } else if constexpr (std::is_same_v<C, MoveKing> || std::is_same_v<C, MoveGrande>) {
          ok = valid(c.to);
        } else if constexpr (std::is_same_v<C, Evict> || std::is_same_v<C, SetDisk>) {
          ok = valid(c.region);
        }
      },
      command);
  if (!ok) return malformed("a value is out of range");
  return std::nullopt;
}

std::optional<Rejection> check_area_counts(const AreaCounts& counts) {
  if (counts.total() > kCaballerosPerColour) return malformed("more caballeros than a colour has");
  return std::nullopt;
}

// Validation of every command; nothing is changed here.
std::optional<Rejection> check(const GameState& s, Seat seat, const Command& command) {
  if (auto r = check_seat_owes(s, seat)) return r;
  if (auto r = check_well_formed(command)) return r;
  const Player& player = s.players[seat];
  return std::visit(
      [&](const auto& c) -> std::optional<Rejection> {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, PlayPowerCard>) {
          if (s.phase != Phase::power_cards) return wrong("a power card is not what is asked now");
          if (c.value < 1 || c.value > kPowerCardCount) return malformed("power cards are 1 to 13");
          if (!(player.hand & power_bit(c.value))) return illegal("that power card is not in your hand");
          if (played_mask(s) & power_bit(c.value)) return illegal("that value was already played this round");
          return std::nullopt;
        } else if constexpr (std::is_same_v<C, TakeCaballeros>) {
          if (auto r = check_area_counts(c.from_regions)) return r;
          if (s.phase == Phase::take_caballeros) {
            return check_take(s, seat, c, caballeros_granted(player.played), taken_in_full(s, seat));
          }
          if (s.phase == Phase::use_action_card) return check_special(s, seat, action_card(*s.turn.card).kind, c);
          return wrong("taking caballeros is not what is asked now");
        } else if constexpr (std::is_same_v<C, TakeActionCard>) {
          if (s.phase != Phase::choose_action_card) return wrong("taking an action card is not what is asked now");
          if (c.card >= kActionCardCount) return malformed("no such action card");
          if (c.card == kKingCard) {
            if (!s.king_card_available) return illegal("the King card is not available this round");
            return std::nullopt;
          }
          for (int i = 0; i < s.stack_count; ++i)
            if (s.stacks[i].revealed == c.card) return std::nullopt;
          return illegal("that action card is not on offer");
        } else if constexpr (std::is_same_v<C, PlaceCaballeros>) {
          if (s.phase != Phase::use_action_card) return wrong("placing is not what is asked now");
          if (auto r = check_area_counts(c.to)) return r;
          if (s.turn.placed) return illegal("you have already placed caballeros this turn");
          const int up_to = std::min<int>(action_card(*s.turn.card).stack, player.court);
          if (c.to.total() > up_to) return illegal("at most " + std::to_string(up_to) + " caballeros may be placed");
          const AreaMask allowed = placement_areas(s);
          for (int a = 0; a < kAreaCount; ++a)
            if (c.to.n[a] && !contains(allowed, area_at(a)))
              return illegal(std::string("placement goes only next to the king or into the castillo, not ") +
                             std::string(name(area_at(a))));
          return std::nullopt;
        } else if constexpr (std::is_same_v<C, SkipSpecialAction>) {
          if (s.phase != Phase::use_action_card) return wrong("there is no special action to skip now");
          if (s.turn.special_done) return illegal("the special action is already done");
          return std::nullopt;
        } else if constexpr (std::is_same_v<C, AnswerVeto>) {
          if (s.phase != Phase::veto_window) return wrong("no veto is being asked");
          return std::nullopt;
        } else if constexpr (std::is_same_v<C, ReturnCaballeros>) {
          if (s.phase != Phase::returning) return wrong("returning caballeros is not what is asked now");
          if (auto r = check_area_counts(c.from_regions)) return r;
          if (c.from_court > player.court) return illegal("not that many caballeros in your court");
          if (c.from_regions[Area::castillo]) return illegal("nothing ever leaves the castillo");
          const AreaCounts available = takeable_regions(s, seat);
          for (int r = 0; r < kRegionCount; ++r)
            if (c.from_regions.n[r] > available.n[r])
              return illegal(area_at(r) == s.king ? "nothing leaves the king's region"
                                                  : "not that many of your caballeros there");
          const int owed = std::min(3, returnable(s, seat));
          if (c.from_court + c.from_regions.total() != owed)
            return illegal("you must return exactly " + std::to_string(owed) + " caballeros");
          return std::nullopt;
        } else if constexpr (std::is_same_v<C, SetDisk>) {
          if (s.phase != Phase::disk_setting) return wrong("no disk is being asked");
          if (!is_region(c.region)) return illegal("a disk points at a region");
          if (!contains(disk_allowed(s, seat, s.disk_purpose), c.region))
            return illegal("your disk may not point at " + std::string(name(c.region)) + " now");
          return std::nullopt;
        } else if constexpr (std::is_same_v<C, Undo>) {
          return wrong("an undo is carried out with the game's history (undo.hpp)");
        } else {
          if (s.phase != Phase::use_action_card) return wrong("no special action is being played now");
          return check_special(s, seat, action_card(*s.turn.card).kind, command);
        }
      },
      command);
}

void begin_turns(GameState& s) {
  s.turn_order.clear();
  for (Seat p = 0; p < s.options.players; ++p) s.turn_order.push_back(p);
  if (s.options.automa) s.turn_order.push_back(automa_colour(s));
  auto value = [&](Colour c) { return is_automa(s, c) ? s.automa.played : s.players[c].played; };
  std::sort(s.turn_order.begin(), s.turn_order.end(),
            [&](Colour a, Colour b) { return value(a) > value(b); });
  s.turn_index = 0;
  s.turn = Turn{};
  s.phase = Phase::take_caballeros;
}

// A special action is announced; holders of a live veto are asked before it is carried out.
void announce_special(GameState& s, Seat seat, const Command& command, Events& ev) {
  const Command shown = public_part(command);
  if (shown == command) {
    tell_all(ev, SpecialActionAnnounced{seat, *s.turn.card, command});
  } else {
    tell_only(ev, seat, SpecialActionAnnounced{seat, *s.turn.card, command});
    tell_all_but(ev, seat, SpecialActionAnnounced{seat, *s.turn.card, shown});
  }
  const std::uint8_t holders = live_veto_holders(s, seat);
  if (holders) {
    s.turn.announced = command;
    s.veto_owed = holders;
    s.veto_yes = 0;
    s.phase = Phase::veto_window;
  } else {
    perform_special(s, seat, action_card(*s.turn.card).kind, command, ev);
  }
}

void execute(GameState& s, Seat seat, const Command& command, Events& ev) {
  Player& player = s.players[seat];
  std::visit(
      [&](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, PlayPowerCard>) {
          player.hand = static_cast<PowerCards>(player.hand & ~power_bit(c.value));
          player.discards = static_cast<PowerCards>(player.discards | power_bit(c.value));
          player.played = c.value;
          tell_all(ev, PowerCardPlayed{seat, c.value});
          s.power_seat = next_seat(s, seat);
          if (s.power_seat == s.first_player) begin_turns(s);
        } else if constexpr (std::is_same_v<C, TakeCaballeros>) {
          if (s.phase == Phase::take_caballeros) {
            take(s, seat, c, ev);
            s.phase = Phase::choose_action_card;
          } else {
            announce_special(s, seat, command, ev);
          }
        } else if constexpr (std::is_same_v<C, TakeActionCard>) {
          if (c.card == kKingCard) {
            s.king_card_available = false;
          } else {
            for (int i = 0; i < s.stack_count; ++i)
              if (s.stacks[i].revealed == c.card) s.stacks[i].revealed.reset();
          }
          s.turn.card = c.card;
          s.phase = Phase::use_action_card;
          tell_all(ev, ActionCardTaken{seat, c.card});
          if (action_card(c.card).kind == CardKind::veto && s.options.rules_revision >= 2) {
            lay_veto(s, seat, ev);  // taken is laid: not a special action to skip or veto
            s.turn.special_done = true;
          }
        } else if constexpr (std::is_same_v<C, PlaceCaballeros>) {
          for (int a = 0; a < kAreaCount; ++a) s.caballeros[a][seat] = static_cast<std::uint8_t>(s.caballeros[a][seat] + c.to.n[a]);
          player.court = static_cast<std::uint8_t>(player.court - c.to.total());
          s.turn.placed = true;
          tell_all(ev, CaballerosPlaced{seat, c.to});
        } else if constexpr (std::is_same_v<C, SkipSpecialAction>) {
          s.turn.special_done = true;
          tell_all(ev, SpecialActionSkipped{seat});
        } else if constexpr (std::is_same_v<C, AnswerVeto>) {
          s.veto_owed = static_cast<std::uint8_t>(s.veto_owed & ~seat_bit(seat));
          if (c.veto) s.veto_yes = static_cast<std::uint8_t>(s.veto_yes | seat_bit(seat));
        } else if constexpr (std::is_same_v<C, ReturnCaballeros>) {
          return_to_province(s, seat, c.from_court, c.from_regions, ev);
          s.returners.erase_at(0);
        } else if constexpr (std::is_same_v<C, SetDisk>) {
          player.disk = c.region;
          s.disks_owed = static_cast<std::uint8_t>(s.disks_owed & ~seat_bit(seat));
          tell_only(ev, seat, DiskSet{seat, c.region});
          tell_all_but(ev, seat, DiskSet{seat, std::nullopt});
        } else {
          announce_special(s, seat, command, ev);
        }
      },
      command);
}

}  // namespace

std::optional<Rejection> apply(GameState& state, Seat seat, const Command& command, Events& events) {
  if (auto rejection = check(state, seat, command)) return rejection;
  ++state.version;
  execute(state, seat, command, events);
  advance(state, events);
  return std::nullopt;
}

std::uint8_t winners(const GameState& s) {
  if (s.phase != Phase::game_over) return 0;
  std::int16_t best = s.players[0].score;
  for (Seat p = 1; p < s.options.players; ++p) best = std::max(best, s.players[p].score);
  std::uint8_t mask = 0;
  for (Seat p = 0; p < s.options.players; ++p)
    if (s.players[p].score == best) mask = static_cast<std::uint8_t>(mask | seat_bit(p));
  return mask;
}

std::string_view name(Rejection::Code code) {
  switch (code) {
    case Rejection::Code::game_over: return "game_over";
    case Rejection::Code::not_your_turn: return "not_your_turn";
    case Rejection::Code::wrong_command: return "wrong_command";
    case Rejection::Code::illegal: return "illegal_command";
    case Rejection::Code::malformed: return "malformed_command";
  }
  return "illegal_command";
}

}  // namespace elgrande
