#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"

namespace elgrande {

namespace {

// The bot sees what its seat sees: every choice below is drawn from the seat's decision
// (the constraints its view carries) and the table's options alone.

[[noreturn]] void no_choice() {
  throw std::logic_error("random_command: the decision offers no choice");
}

int colour_count(const Options& options) {
  return std::min(options.players + (options.automa ? 1 : 0), kMaxColours);
}

// Set bits of a mask, inline: without -mpopcnt (a build flag not every build may use)
// std::popcount is a call into libgcc, and a random move asks for it several times.
constexpr std::uint32_t bits_set(std::uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}
static_assert(bits_set(0) == 0 && bits_set(0x1FFFu) == 13 && bits_set(0xFFFFFFFFu) == 32);

// A uniformly chosen set bit of a non-empty mask.
int pick_bit(std::uint32_t mask, Rng& rng) {
  if (!mask) no_choice();
  // The skip-th set bit: clear the lowest set bit skip times.
  for (auto skip = rng.below(bits_set(mask)); skip > 0; --skip) mask &= mask - 1;
  return std::countr_zero(mask);
}

Area pick_area(AreaMask mask, Rng& rng) { return area_at(pick_bit(mask, rng)); }

// `count` caballeros chosen one by one, uniformly among those still available.
AreaCounts pick_from(AreaCounts available, int count, Rng& rng) {
  AreaCounts picked;
  for (int i = 0; i < count; ++i) {
    int which = static_cast<int>(rng.below(static_cast<std::uint32_t>(available.total())));
    for (int a = 0; a < kAreaCount; ++a) {
      if (which < available.n[a]) {
        --available.n[a];
        ++picked.n[a];
        break;
      }
      which -= available.n[a];
    }
  }
  return picked;
}

AreaCounts spread(int count, AreaMask into, Rng& rng) {
  AreaCounts to;
  for (int i = 0; i < count; ++i) ++to[pick_area(into, rng)];
  return to;
}

TakeCaballeros random_take(int up_to, int at_least, int province, const AreaCounts& regions, Rng& rng) {
  up_to = std::min(up_to, province + regions.total());
  const int count = at_least + static_cast<int>(rng.below(static_cast<std::uint32_t>(up_to - at_least + 1)));
  TakeCaballeros take;
  take.from_province = static_cast<std::uint8_t>(std::min(count, province));
  take.from_regions = pick_from(regions, count - take.from_province, rng);
  return take;
}

std::optional<Command> random_moves(const Options& options, Seat actor, const MoveLimits& limits,
                                    const CaballerosByColour& sources, AreaMask destinations, Rng& rng) {
  const int colours = colour_count(options);
  // The actor's and the others' caballeros that may move, per region and in all, so that a
  // draw skips whole regions: the same caballero as walking colour by colour, fewer steps.
  std::array<int, kRegionCount> own_left{}, opposing_left{};
  for (Colour c = 0; c < colours; ++c)
    for (int r = 0; r < kRegionCount; ++r) (c == actor ? own_left : opposing_left)[r] += sources[c].n[r];
  AreaMask usable = 0;
  for (int r = 0; r < kRegionCount; ++r)
    if (own_left[r] + opposing_left[r]) usable |= bit(area_at(r));
  if (!usable) return std::nullopt;
  const AreaMask only_from = limits.single_source ? bit(pick_area(usable, rng)) : usable;
  int own_pool = 0, opposing_pool = 0;
  for (int r = 0; r < kRegionCount; ++r) {
    if (!contains(only_from, area_at(r))) own_left[r] = opposing_left[r] = 0;  // never drawn from
    own_pool += own_left[r], opposing_pool += opposing_left[r];
  }
  if (limits.total == 0) return std::nullopt;
  const int pool = own_pool + opposing_pool;
  const int wanted = 1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(std::min<int>(limits.total, pool))));
  CaballerosByColour left = sources;  // drawn only in the regions counted above
  int own = 0, opposing = 0;
  MoveCaballeros command;
  for (int i = 0; i < wanted; ++i) {
    // Caballeros still allowed by the own/opposing limits.
    const bool own_allowed = own < limits.own, opposing_allowed = opposing < limits.opposing;
    const int choices = (own_allowed ? own_pool : 0) + (opposing_allowed ? opposing_pool : 0);
    if (choices == 0) break;
    int which = static_cast<int>(rng.below(static_cast<std::uint32_t>(choices)));
    int r = 0;
    for (;; ++r) {
      const int here = (own_allowed ? own_left[r] : 0) + (opposing_allowed ? opposing_left[r] : 0);
      if (which < here) break;
      which -= here;
    }
    for (Colour c = 0; c < colours; ++c) {
      if (!(c == actor ? own_allowed : opposing_allowed)) continue;
      if (which >= left[c].n[r]) {
        which -= left[c].n[r];
        continue;
      }
      --left[c].n[r];
      if (c == actor) {
        ++own, --own_left[r], --own_pool;
      } else {
        ++opposing, --opposing_left[r], --opposing_pool;
      }
      const Area from = area_at(r);
      const Area to = pick_area(static_cast<AreaMask>(destinations & ~bit(from)), rng);
      bool merged = false;
      for (Move& m : command.moves)
        if (m.colour == c && m.from == from && m.to == to) ++m.count, merged = true;
      if (!merged) {
        if (command.moves.full()) return command;
        command.moves.push_back(Move{c, from, to, 1});
      }
      break;
    }
  }
  return command;
}

// The special action's own choices come from the decision's constraints, so every random
// game also checks that what `pending` offers is what `apply` accepts.
std::optional<Command> random_special(const Options& options, Seat actor, const ActionCardUse& use, Rng& rng) {
  using enum SpecialAnswer;
  switch (special_answer(use.special)) {
    case place_or_move:
      if (rng.below(2) && use.moves) return random_moves(options, actor, *use.moves, use.move_from, use.move_to, rng);
      [[fallthrough]];
    case place_extra:
      return PlaceExtraCaballeros{spread(static_cast<int>(rng.below(use.extra_up_to + 1u)), use.move_to, rng)};
    case move_caballeros:
      if (!use.moves) return std::nullopt;
      return random_moves(options, actor, *use.moves, use.move_from, use.move_to, rng);
    case remove_caballeros: {
      RemoveCaballeros remove;
      for (Colour c = 0; c < colour_count(options); ++c) {
        AreaMask where = 0;
        for (int r = 0; r < kRegionCount; ++r)
          if (use.remove_from[c].n[r]) where |= bit(area_at(r));
        if (where) remove.picks.push_back({c, pick_area(where, rng)});
      }
      return remove;
    }
    case place_scoreboard: {
      if (!use.targets) return std::nullopt;
      const Area to = pick_area(use.targets, rng);
      std::uint32_t movable = 0;  // boards that may go there
      for (int b = 0; b < kScoreboardCount; ++b)
        if (contains(use.scoreboard_to[b], to)) movable |= 1u << b;
      return PlaceScoreboard{static_cast<Scoreboard>(pick_bit(movable, rng)), to};
    }
    case score_area:
      return ScoreArea{pick_area(use.targets, rng)};
    case move_king:
      return MoveKing{pick_area(use.targets, rng)};
    case evict:
      return Evict{pick_area(use.targets, rng)};
    case move_grande:
      if (!use.targets) return std::nullopt;
      return MoveGrande{pick_area(use.targets, rng)};
    case take_back_power_card:
      if (!use.take_back) return std::nullopt;
      return TakeBackPowerCard{static_cast<std::uint8_t>(pick_bit(use.take_back, rng))};
    case take_caballeros:
      return random_take(use.take_up_to, 0, use.take_province, use.take_regions, rng);
    case perform:
      break;
  }
  return PerformSpecialAction{};
}

Command random_answer(const Options& options, Seat seat, const DecisionDetail& detail, Rng& rng) {
  return std::visit(
      [&](const auto& d) -> Command {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, PowerCardChoice>) {
          return PlayPowerCard{static_cast<std::uint8_t>(pick_bit(d.playable, rng))};
        } else if constexpr (std::is_same_v<D, CaballerosToTake>) {
          return random_take(d.up_to, d.at_least, d.province, d.regions, rng);
        } else if constexpr (std::is_same_v<D, ActionCardChoice>) {
          if (d.offered.empty()) no_choice();
          return TakeActionCard{d.offered[rng.below(static_cast<std::uint32_t>(d.offered.size()))]};
        } else if constexpr (std::is_same_v<D, ActionCardUse>) {
          if (d.may_place && (!d.may_act || rng.below(2))) {
            const int count = static_cast<int>(rng.below(d.place_up_to + 1u));
            return PlaceCaballeros{spread(count, d.place_into, rng)};
          }
          if (rng.below(5) == 0) return SkipSpecialAction{};
          if (auto special = random_special(options, seat, d, rng)) return *special;
          return SkipSpecialAction{};
        } else if constexpr (std::is_same_v<D, VetoChoice>) {
          return AnswerVeto{rng.below(3) == 0};
        } else if constexpr (std::is_same_v<D, CaballerosToReturn>) {
          AreaCounts available = d.regions;
          available[Area::castillo] = d.court;  // the court stands in the castillo's slot here
          AreaCounts picked = pick_from(available, d.count, rng);
          ReturnCaballeros r{.from_court = picked[Area::castillo], .from_regions = picked};
          r.from_regions[Area::castillo] = 0;
          return r;
        } else {
          return SetDisk{pick_area(d.allowed, rng)};
        }
      },
      detail);
}

}  // namespace

Command random_command(const View& view, Rng& rng) {
  if (!view.decision) throw std::logic_error("random_command: the viewer owes no decision");
  const Seat seat = view.decision->seat;
  if (seat < 0 || seat >= kMaxPlayers) throw std::logic_error("random_command: no such seat");
  return random_answer(view.options, seat, view.decision->detail, rng);
}

Command random_command(const GameState& state, Seat seat, Rng& rng) {
  // The seat's pending decision is what its view would carry: the same policy, without
  // building the rest of the view.
  const std::optional<Decision> decision = decision_for(state, seat);
  if (!decision) throw std::logic_error("random_command: the seat owes no decision");
  return random_answer(state.options, seat, decision->detail, rng);
}

Command random_command(const Options& options, const Decision& decision, Rng& rng) {
  return random_answer(options, decision.seat, decision.detail, rng);
}

GameRecord play_random_game(const Options& options, std::uint64_t seed, GameState* final_state) {
  // Far beyond any real game (a few hundred commands): only a stalled engine gets here.
  constexpr std::size_t kMaxCommands = 20000;
  GameRecord record{options, seed, {}};
  GameState state = new_game(options, seed);
  Rng bots{seed};
  Events events;
  while (!is_over(state)) {
    if (record.commands.size() >= kMaxCommands) throw InvariantBroken("a random game did not end");
    const Decisions decisions = pending(state);
    if (decisions.empty()) throw InvariantBroken("a random game stalled: nobody owes a decision");
    const Seat seat = decisions[0].seat;
    Command command = random_command(state, seat, bots);
    events.clear();
    if (const auto rejection = apply(state, seat, command, events))
      throw InvariantBroken("the engine refused its own bot's command: " + rejection->reason);
    record.commands.push_back(RecordedCommand{seat, std::move(command)});
  }
  if (final_state) *final_state = state;
  return record;
}

}  // namespace elgrande
