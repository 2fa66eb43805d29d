#include "answers.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"

namespace elgrande::ai {

namespace {

void add(std::vector<Command>& out, Command command) {
  if (std::find(out.begin(), out.end(), command) == out.end()) out.push_back(std::move(command));
}

FixedVector<Area, kAreaCount> areas_in(AreaMask mask) {
  FixedVector<Area, kAreaCount> areas;
  // The set bits, lowest first: the areas in their order.
  for (auto left = static_cast<std::uint32_t>(mask & ((1u << kAreaCount) - 1)); left; left &= left - 1)
    areas.push_back(area_at(std::countr_zero(left)));
  return areas;
}

// `count` caballeros over one to three of the areas, drawn.
AreaCounts random_spread(int count, AreaMask into, Rng& rng) {
  AreaCounts to;
  FixedVector<Area, kAreaCount> areas = areas_in(into);
  if (areas.empty() || count == 0) return to;
  rng.shuffle(areas);
  const auto most = static_cast<std::uint32_t>(std::min({3, static_cast<int>(areas.size()), count}));
  const std::uint32_t used = 1 + rng.below(most);
  // Each used area gets one, the rest go to any of them.
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(count); ++i) ++to[areas[i < used ? i : rng.below(used)]];
  return to;
}

// `count` caballeros into the court: the province's first, then own ones from regions, drawn.
TakeCaballeros take(int count, int province, AreaCounts regions, Rng& rng) {
  TakeCaballeros command;
  command.from_province = static_cast<std::uint8_t>(std::min(count, province));
  for (int left = count - command.from_province; left > 0 && regions.total() > 0; --left) {
    int which = static_cast<int>(rng.below(static_cast<std::uint32_t>(regions.total())));
    for (int a = 0; a < kAreaCount; ++a) {
      if (which < regions.n[a]) {
        --regions.n[a];
        ++command.from_regions.n[a];
        break;
      }
      which -= regions.n[a];
    }
  }
  return command;
}

// Ways to put `count` caballeros into the areas: all into one area each, then drawn spreads.
template <class Make>
void add_spreads(std::vector<Command>& out, int count, AreaMask into, int width, Rng& rng, Make make) {
  const std::size_t start = out.size();
  auto room = [&] { return out.size() - start < static_cast<std::size_t>(width); };
  if (count == 0 || !into) return add(out, make(AreaCounts{}));
  for (Area area : areas_in(into)) {
    if (!room()) return;
    AreaCounts all;
    all[area] = static_cast<std::uint8_t>(count);
    add(out, make(all));
  }
  for (int attempt = 0; attempt < 4 * width && room(); ++attempt) add(out, make(random_spread(count, into, rng)));
}

// Up to `width` distinct special actions as the engine's random bot draws them.
void add_drawn_specials(std::vector<Command>& out, const View& view, int width, Rng& rng) {
  View acting = view;
  std::get<ActionCardUse>(acting.decision->detail).may_place = false;
  const std::size_t start = out.size();
  for (int attempt = 0; attempt < 4 * width && out.size() - start < static_cast<std::size_t>(width); ++attempt) {
    Command command = random_command(acting, rng);
    if (!std::holds_alternative<SkipSpecialAction>(command)) add(out, std::move(command));
  }
}

void add_specials(std::vector<Command>& out, const View& view, const ActionCardUse& use, int width, Rng& rng) {
  using enum SpecialAnswer;
  auto each_target = [&](auto make) {
    for (Area area : areas_in(use.targets)) add(out, make(area));
  };
  switch (special_answer(use.special)) {
    case score_area: each_target([](Area a) { return ScoreArea{a}; }); break;
    case move_king: each_target([](Area a) { return MoveKing{a}; }); break;
    case evict: each_target([](Area a) { return Evict{a}; }); break;
    case move_grande: each_target([](Area a) { return MoveGrande{a}; }); break;
    case place_scoreboard:
      for (int b = 0; b < kScoreboardCount; ++b)
        for (Area area : areas_in(use.scoreboard_to[b])) add(out, PlaceScoreboard{static_cast<Scoreboard>(b), area});
      break;
    case take_back_power_card:
      for (int value = 1; value <= kPowerCardCount; ++value)
        if (use.take_back & power_bit(value)) add(out, TakeBackPowerCard{static_cast<std::uint8_t>(value)});
      break;
    case take_caballeros:
      for (int count = use.take_up_to; count >= 0; --count) add(out, take(count, use.take_province, use.take_regions, rng));
      break;
    case place_extra:
      add_spreads(out, use.extra_up_to, use.move_to, width, rng, [](AreaCounts to) { return PlaceExtraCaballeros{to}; });
      break;
    case place_or_move:
      add_spreads(out, use.extra_up_to, use.move_to, width / 2, rng, [](AreaCounts to) { return PlaceExtraCaballeros{to}; });
      add_drawn_specials(out, view, width / 2, rng);
      break;
    case move_caballeros:
    case remove_caballeros:
      add_drawn_specials(out, view, width, rng);
      break;
    case perform:
      add(out, PerformSpecialAction{});
      break;
  }
}

}  // namespace

std::vector<Command> candidates(const View& view, int width, Rng& rng) {
  if (!view.decision) throw std::logic_error("candidates: the viewer owes no decision");
  std::vector<Command> out;
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, PowerCardChoice>) {
          for (int value = kPowerCardCount; value >= 1; --value)
            if (d.playable & power_bit(value)) add(out, PlayPowerCard{static_cast<std::uint8_t>(value)});
        } else if constexpr (std::is_same_v<D, CaballerosToTake>) {
          for (int count = d.up_to; count >= d.at_least; --count) add(out, take(count, d.province, d.regions, rng));
        } else if constexpr (std::is_same_v<D, ActionCardChoice>) {
          for (CardId card : d.offered) add(out, TakeActionCard{card});
        } else if constexpr (std::is_same_v<D, ActionCardUse>) {
          if (d.may_place)
            add_spreads(out, d.place_up_to, d.place_into, width, rng, [](AreaCounts to) { return PlaceCaballeros{to}; });
          if (d.may_act) {
            add_specials(out, view, d, width, rng);
            add(out, SkipSpecialAction{});
          }
        } else if constexpr (std::is_same_v<D, VetoChoice>) {
          add(out, AnswerVeto{false});
          add(out, AnswerVeto{true});
        } else if constexpr (std::is_same_v<D, CaballerosToReturn>) {
          // The court's first (they are not on the board yet), then drawn ones.
          const auto from_court = static_cast<std::uint8_t>(std::min(d.count, d.court));
          add(out, ReturnCaballeros{from_court, take(d.count - from_court, 0, d.regions, rng).from_regions});
          for (int attempt = 0; attempt < 4 * width && out.size() < static_cast<std::size_t>(width); ++attempt)
            add(out, random_command(view, rng));
        } else {
          for (Area region : areas_in(d.allowed)) add(out, SetDisk{region});
        }
      },
      view.decision->detail);
  if (out.empty()) out.push_back(random_command(view, rng));
  return out;
}

void play_out(GameState& state, Rng& rng, Events& scratch) {
  constexpr int kMaxCommands = 20000;  // far beyond any game: only a stalled engine gets here
  for (int commands = 0; !is_over(state); ++commands) {
    if (commands == kMaxCommands) throw std::logic_error("play_out: the game did not end");
    const auto seat = static_cast<Seat>(std::countr_zero(waiting_for(state)));
    const std::optional<Decision> owed = decision_for(state, seat);  // not copied out of its optional
    const Decision& decision = *owed;
    Command command;
    if (const auto* to_take = std::get_if<CaballerosToTake>(&decision.detail)) {
      command = take(to_take->up_to, to_take->province, to_take->regions, rng);
    } else if (const auto* use = std::get_if<ActionCardUse>(&decision.detail); use && use->may_place && use->place_up_to > 0) {
      command = PlaceCaballeros{random_spread(use->place_up_to, use->place_into, rng)};
    } else {
      command = random_command(state.options, decision, rng);
    }
    scratch.clear();
    if (const auto rejection = apply(state, decision.seat, command, scratch))
      throw std::logic_error("play_out: the engine refused the policy's command: " + rejection->reason);
  }
}

double win_share(const GameState& over, Seat seat) {
  const std::uint8_t won = winners(over);
  return (won >> seat) & 1u ? 1.0 / std::popcount(won) : 0.0;
}

double reward(const GameState& over, Seat seat) {
  const double share = win_share(over, seat);
  int best_other = -1000;
  for (Seat p = 0; p < over.options.players; ++p)
    if (p != seat) best_other = std::max<int>(best_other, over.players[p].score);
  const double margin = std::clamp((over.players[seat].score - best_other) / 40.0, -1.0, 1.0);
  return 0.5 * share + 0.25 * (1.0 + margin);
}

}  // namespace elgrande::ai
