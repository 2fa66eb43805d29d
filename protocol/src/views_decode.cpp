// Decoders for what the server sends (views and decisions), for clients written in C++.
// They invert to_json(View) and to_json(Decision) in views.cpp, strictly: a field of the
// wrong type or out of its range, or a view that contradicts itself (a seat beyond the
// table, another seat's secrets, a decision owed by someone else), is a DecodeError.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>

#include "reader.hpp"

namespace elgrande::protocol {
namespace {

using detail::decode;
using detail::Reader;

constexpr int kPhaseCount = static_cast<int>(Phase::game_over) + 1;
constexpr int kDiskPurposeCount = static_cast<int>(DiskPurpose::secret_scoring) + 1;
constexpr std::size_t kMaxOffered = 5;   // the revealed cards and the King card
constexpr std::size_t kStackCount = 4;

// --- Values shared by decisions and views. ---

Area region(const Reader& r) {
  const Area area = r.area();
  if (!is_region(area)) r.fail("must be a region, not the castillo");
  return area;
}

// A seat at this table (0..players-1).
Seat seat_at(const Reader& r, int players) {
  return static_cast<Seat>(r.integer(0, players - 1));
}

// Sets are arrays in ascending order without repeats, so each set has one spelling.
template <typename Element>
std::uint32_t bit_set(const Reader& r, std::size_t max, Element element) {
  const std::size_t n = r.array_size(max);
  std::uint32_t set = 0;
  int last = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const Reader item = r.element(i);
    const int bit_index = element(item);
    if (bit_index <= last) item.fail("must be in ascending order without repeats");
    last = bit_index;
    set |= 1u << bit_index;
  }
  return set;
}

AreaMask area_set(const Reader& r) {
  return static_cast<AreaMask>(
      bit_set(r, kAreaCount, [](const Reader& item) { return index(item.area()); }));
}

PowerCards power_set(const Reader& r) {
  return static_cast<PowerCards>(
      bit_set(r, kPowerCardCount, [](const Reader& item) { return int{item.power_value()}; }));
}

std::uint8_t seat_set(const Reader& r, int players) {
  return static_cast<std::uint8_t>(bit_set(
      r, static_cast<std::size_t>(players), [players](const Reader& item) { return int{seat_at(item, players)}; }));
}

CardKind card_kind(const Reader& r) {
  const auto kind = card_kind_from_name(r.string());
  if (!kind) r.fail("unknown card kind " + detail::quote_if_safe(r.string()));
  return *kind;
}

Phase phase(const Reader& r) {
  const std::string_view text = r.string();
  for (int p = 0; p < kPhaseCount; ++p)
    if (phase_name(static_cast<Phase>(p)) == text) return static_cast<Phase>(p);
  r.fail("unknown phase " + detail::quote_if_safe(text));
}

DiskPurpose disk_purpose(const Reader& r) {
  const std::string_view text = r.string();
  for (int p = 0; p < kDiskPurposeCount; ++p)
    if (disk_purpose_name(static_cast<DiskPurpose>(p)) == text) return static_cast<DiskPurpose>(p);
  r.fail("unknown disk purpose " + detail::quote_if_safe(text));
}

std::uint8_t power_value_or_none(const Reader& r) {  // 0: none
  return static_cast<std::uint8_t>(r.integer(0, kPowerCardCount));
}

// Per colour, ascending without repeats; a colour left out has none.
CaballerosByColour colour_counts(const Reader& r) {
  CaballerosByColour by_colour{};
  const std::size_t n = r.array_size(kMaxColours);
  int last = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const Reader item = r.element(i);
    item.expect_object();
    const Reader colour_field = item.field("colour");
    const Colour colour = colour_field.colour();
    if (colour <= last) colour_field.fail("must be in ascending order without repeats");
    last = colour;
    by_colour[static_cast<std::size_t>(colour)] = item.field("regions").area_counts();
  }
  return by_colour;
}

std::array<AreaMask, kScoreboardCount> scoreboard_areas(const Reader& r) {
  r.expect_object();
  for (const auto& [key, value] : r.json().items())
    if (!scoreboard_from_name(key)) r.fail("unknown scoreboard " + detail::quote_if_safe(key));
  std::array<AreaMask, kScoreboardCount> boards{};
  for (int b = 0; b < kScoreboardCount; ++b)
    if (const auto areas = r.optional_field(name(static_cast<Scoreboard>(b))))
      boards[static_cast<std::size_t>(b)] = area_set(*areas);
  return boards;
}

template <std::size_t N>
FixedVector<CardId, N> cards(const Reader& r) {
  FixedVector<CardId, N> out;
  const std::size_t n = r.array_size(N);
  for (std::size_t i = 0; i < n; ++i) out.push_back(r.element(i).card());
  return out;
}

// --- Decisions: "kind" and the constraints of the answer. ---

PowerCardChoice read_power_card(const Reader& r) {
  return PowerCardChoice{power_set(r.field("playable"))};
}

CaballerosToTake read_take(const Reader& r) {
  CaballerosToTake take{r.field("up_to").byte(), r.field("province").byte(), r.field("regions").area_counts()};
  if (const auto at_least = r.optional_field("at_least")) take.at_least = at_least->byte();
  return take;
}

ActionCardChoice read_action_card(const Reader& r) {
  return ActionCardChoice{cards<kMaxOffered>(r.field("offered"))};
}

ActionCardUse read_use(const Reader& r) {
  ActionCardUse use;
  use.card = r.field("card").card();
  use.special = card_kind(r.field("special"));
  use.may_place = r.field("may_place").boolean();
  use.place_up_to = r.field("place_up_to").byte();
  use.place_into = area_set(r.field("place_into"));
  use.may_act = r.field("may_act").boolean();
  // The special action's limits are written only where it has them.
  if (const auto moves = r.optional_field("moves")) {
    use.moves = MoveLimits{.own = moves->field("own").byte(),
                           .opposing = moves->field("opposing").byte(),
                           .total = moves->field("total").byte(),
                           .single_source = moves->field("single_source").boolean(),
                           .all_own = moves->field("all_own").boolean()};
  }
  if (const auto move_to = r.optional_field("move_to")) use.move_to = area_set(*move_to);
  if (const auto extra = r.optional_field("extra_up_to")) use.extra_up_to = extra->byte();
  if (const auto take = r.optional_field("take_up_to")) use.take_up_to = take->byte();
  if (const auto targets = r.optional_field("targets")) use.targets = area_set(*targets);
  if (const auto from = r.optional_field("move_from")) use.move_from = colour_counts(*from);
  if (const auto province = r.optional_field("take_province")) use.take_province = province->byte();
  if (const auto regions = r.optional_field("take_regions")) use.take_regions = regions->area_counts();
  if (const auto from = r.optional_field("remove_from")) use.remove_from = colour_counts(*from);
  if (const auto boards = r.optional_field("scoreboard_to")) use.scoreboard_to = scoreboard_areas(*boards);
  if (const auto back = r.optional_field("take_back")) use.take_back = power_set(*back);
  return use;
}

VetoChoice read_veto(const Reader& r) {
  return VetoChoice{r.field("actor").seat(), r.field("card").card()};
}

CaballerosToReturn read_return(const Reader& r) {
  return CaballerosToReturn{r.field("count").byte(), r.field("court").byte(),
                            r.field("regions").area_counts()};
}

DiskChoice read_disk(const Reader& r) {
  return DiskChoice{disk_purpose(r.field("purpose")), area_set(r.field("allowed"))};
}

Decision read_decision(const Reader& r) {
  r.expect_object();
  Decision decision;
  decision.seat = r.field("seat").seat();
  const Reader kind_field = r.field("kind");
  const std::string_view kind = kind_field.string();
  if (kind == "power_card") decision.detail = read_power_card(r);
  else if (kind == "take_caballeros") decision.detail = read_take(r);
  else if (kind == "action_card") decision.detail = read_action_card(r);
  else if (kind == "use_action_card") decision.detail = read_use(r);
  else if (kind == "veto") decision.detail = read_veto(r);
  else if (kind == "return_caballeros") decision.detail = read_return(r);
  else if (kind == "disk") decision.detail = read_disk(r);
  else kind_field.fail("unknown decision kind " + detail::quote_if_safe(kind));
  return decision;
}

// --- The view. ---

PlayerView read_player(const Reader& r, bool own) {
  r.expect_object();
  PlayerView p;
  p.court = r.field("court").byte();
  p.province = r.field("province").byte();
  p.score = static_cast<std::int16_t>(r.field("score").integer(
      std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max()));
  p.grande = region(r.field("grande"));
  p.hand_count = static_cast<std::uint8_t>(r.field("hand_count").integer(0, kPowerCardCount));
  p.played = power_value_or_none(r.field("played"));
  p.disk_set = r.field("disk_set").boolean();
  p.live_vetoes = r.field("live_vetoes").byte();
  // A player's secrets: in the viewer's own entry only.
  const auto hand = r.optional_field("hand");
  const auto discards = r.optional_field("discards");
  const auto castillo = r.optional_field("castillo");
  const auto disk = r.optional_field("disk");
  if (!own && (hand || discards || castillo || disk))
    r.fail("hand, discards, castillo and disk are shown to their owner only");
  if (hand) p.hand = power_set(*hand);
  if (discards) p.discards = power_set(*discards);
  if (castillo) p.castillo = castillo->byte();
  if (disk) p.disk = region(*disk);
  return p;
}

std::array<std::optional<Area>, kScoreboardCount> read_scoreboards(const Reader& r) {
  r.expect_object();
  for (const auto& [key, value] : r.json().items())
    if (!scoreboard_from_name(key)) r.fail("unknown scoreboard " + detail::quote_if_safe(key));
  std::array<std::optional<Area>, kScoreboardCount> boards;
  for (int b = 0; b < kScoreboardCount; ++b)
    if (const auto area = r.optional_field(name(static_cast<Scoreboard>(b))))
      boards[static_cast<std::size_t>(b)] = area->area();
  return boards;
}

// All nine regions, each with one count per colour.
std::array<std::array<std::uint8_t, kMaxColours>, kRegionCount> read_regions(const Reader& r,
                                                                              int colours) {
  r.expect_object();
  for (const auto& [key, value] : r.json().items()) {
    const auto area = area_from_name(key);
    if (!area || !is_region(*area)) r.fail("unknown region " + detail::quote_if_safe(key));
  }
  std::array<std::array<std::uint8_t, kMaxColours>, kRegionCount> regions{};
  for (int i = 0; i < kRegionCount; ++i) {
    const Reader counts = r.field(name(area_at(i)));
    if (counts.array_size(kMaxColours) != static_cast<std::size_t>(colours))
      counts.fail("must have one count per colour (" + std::to_string(colours) + ")");
    for (int c = 0; c < colours; ++c)
      regions[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)] =
          counts.element(static_cast<std::size_t>(c)).byte();
  }
  return regions;
}

std::array<VetoCard, 2> read_vetoes(const Reader& r, int players) {
  std::array<VetoCard, 2> vetoes;
  const std::size_t n = r.array_size(vetoes.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Reader v = r.element(i);
    vetoes[i] = VetoCard{seat_at(v.field("holder"), players), v.field("expires_after").byte()};
  }
  return vetoes;
}

// The announced action is a command, except that others see a taken-back card as value 0.
Command read_announced(const Reader& r) {
  r.expect_object();
  const auto& json = r.json();
  const auto type = json.find("type");
  const auto value = json.find("value");
  if (type != json.end() && *type == "take_back_power_card" && value != json.end() &&
      value->is_number_integer() && *value == 0)
    return TakeBackPowerCard{0};
  return detail::read_command(r);
}

View read_view(const Reader& r) {
  r.expect_object();
  View v;
  v.options = detail::read_options(r.field("options"));
  const int players = v.options.players;
  const int colours = players + (v.options.automa ? 1 : 0);
  if (const auto viewer = r.optional_field("viewer")) v.viewer = seat_at(*viewer, players);
  v.phase = phase(r.field("phase"));
  v.round = r.field("round").byte();
  v.rounds_played = r.field("rounds_played").byte();
  v.general_scorings = r.field("general_scorings").byte();
  v.version = static_cast<std::uint32_t>(
      r.field("version").integer(0, std::numeric_limits<std::uint32_t>::max()));

  v.king = region(r.field("king"));
  v.scoreboards = read_scoreboards(r.field("scoreboards"));
  v.regions = read_regions(r.field("regions"), colours);
  const Reader list = r.field("players");
  if (list.array_size(kMaxPlayers) != static_cast<std::size_t>(players))
    list.fail("must have one entry per seat (" + std::to_string(players) + ")");
  for (int s = 0; s < players; ++s)
    v.players[static_cast<std::size_t>(s)] =
        read_player(list.element(static_cast<std::size_t>(s)), s == v.viewer);
  const auto automa = v.options.automa ? std::optional<Reader>(r.field("automa")) : r.optional_field("automa");
  if (automa && !v.options.automa) automa->fail("only in games with the automa");
  if (automa) {
    automa->expect_object();
    v.automa = AutomaView{automa->field("supply").byte(), power_value_or_none(automa->field("played")),
                          static_cast<std::uint8_t>(automa->field("power_cards_left").integer(0, kPowerCardCount))};
  }

  v.offered = cards<kMaxOffered>(r.field("offered"));
  const Reader sizes = r.field("stack_sizes");
  if (sizes.array_size(kStackCount) != kStackCount) sizes.fail("must have 4 entries");
  for (std::size_t i = 0; i < kStackCount; ++i) v.stack_sizes[i] = sizes.element(i).byte();
  v.vetoes = read_vetoes(r.field("vetoes"), players);

  v.first_player = seat_at(r.field("first_player"), players);
  if (const auto seat = r.optional_field("power_seat")) v.power_seat = seat_at(*seat, players);
  const Reader order = r.field("turn_order");
  const std::size_t n = order.array_size(kMaxColours);
  for (std::size_t i = 0; i < n; ++i)
    v.turn_order.push_back(static_cast<Colour>(order.element(i).integer(0, colours - 1)));
  v.turn_index = r.field("turn_index").byte();
  if (const auto seat = r.optional_field("active")) v.active = seat_at(*seat, players);
  if (const auto card = r.optional_field("card")) v.card = card->card();
  v.placed = r.field("placed").boolean();
  v.special_done = r.field("special_done").boolean();
  if (const auto announced = r.optional_field("announced")) v.announced = read_announced(*announced);
  if (const auto purpose = r.optional_field("disk_purpose")) v.disk_purpose = disk_purpose(*purpose);
  if (const auto from = r.optional_field("evicted_from")) v.evicted_from = region(*from);

  v.waiting_for = seat_set(r.field("waiting_for"), players);
  if (const auto decision = r.optional_field("decision")) {
    v.decision = read_decision(*decision);
    if (v.decision->seat != v.viewer) decision->fail("must be the viewer's own");
    if (const auto* use = std::get_if<ActionCardUse>(&v.decision->detail))
      for (int c = colours; c < kMaxColours; ++c)
        if (use->move_from[static_cast<std::size_t>(c)].total() > 0 ||
            use->remove_from[static_cast<std::size_t>(c)].total() > 0)
          decision->fail("names a colour beyond the table's");
  }
  v.winners = seat_set(r.field("winners"), players);
  return v;
}

}  // namespace

Decoded<Decision> decision_from_json(const Json& json) {
  return decode(json, "bad_decision", read_decision);
}

Decoded<View> view_from_json(const Json& json) {
  return decode(json, "bad_view", read_view);
}

}  // namespace elgrande::protocol
