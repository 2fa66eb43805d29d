#include <string>
#include <variant>

#include "encode.hpp"
#include "reader.hpp"

namespace elgrande::protocol {
namespace {

using detail::area_counts_json;
using detail::area_mask_json;
using detail::id;
using detail::power_cards_json;
using detail::put_area;
using detail::put_seat;
using detail::seat_mask_json;

// Per colour, the non-empty counts: [{"colour": c, "regions": {area: n}}, ...].
Json colour_counts_json(const CaballerosByColour& by_colour) {
  Json list = Json::array();
  for (int c = 0; c < kMaxColours; ++c) {
    const AreaCounts& counts = by_colour[static_cast<std::size_t>(c)];
    if (counts.total() > 0) list.push_back({{"colour", c}, {"regions", area_counts_json(counts)}});
  }
  return list;
}

// --- Decision details: "kind" and the constraints of the answer. ---

void write(Json& j, const PowerCardChoice& d) {
  j["kind"] = "power_card";
  j["playable"] = power_cards_json(d.playable);
}
void write(Json& j, const CaballerosToTake& d) {
  j["kind"] = "take_caballeros";
  j["up_to"] = d.up_to;
  if (d.at_least) j["at_least"] = d.at_least;
  j["province"] = d.province;
  j["regions"] = area_counts_json(d.regions);
}
void write(Json& j, const ActionCardChoice& d) {
  j["kind"] = "action_card";
  Json offered = Json::array();
  for (CardId card : d.offered) offered.push_back(card);
  j["offered"] = std::move(offered);
}
void write(Json& j, const ActionCardUse& d) {
  j["kind"] = "use_action_card";
  j["card"] = d.card;
  j["special"] = std::string(name(d.special));
  j["may_place"] = d.may_place;
  j["place_up_to"] = d.place_up_to;
  j["place_into"] = area_mask_json(d.place_into);
  j["may_act"] = d.may_act;
  if (d.moves) {
    j["moves"] = {{"own", d.moves->own},
                  {"opposing", d.moves->opposing},
                  {"total", d.moves->total},
                  {"single_source", d.moves->single_source},
                  {"all_own", d.moves->all_own}};
  }
  if (d.move_to) j["move_to"] = area_mask_json(d.move_to);
  if (d.extra_up_to) j["extra_up_to"] = d.extra_up_to;
  if (d.take_up_to) j["take_up_to"] = d.take_up_to;
  if (d.targets) j["targets"] = area_mask_json(d.targets);
  // Each only for the card it belongs to: most uses build none of them.
  if (d.move_from != CaballerosByColour{}) j["move_from"] = colour_counts_json(d.move_from);
  if (d.take_province) j["take_province"] = d.take_province;
  if (d.take_regions.total() > 0) j["take_regions"] = area_counts_json(d.take_regions);
  if (d.remove_from != CaballerosByColour{}) j["remove_from"] = colour_counts_json(d.remove_from);
  if (d.scoreboard_to != std::array<AreaMask, kScoreboardCount>{}) {
    Json& boards = j["scoreboard_to"];
    for (int b = 0; b < kScoreboardCount; ++b)
      if (const AreaMask to = d.scoreboard_to[static_cast<std::size_t>(b)])
        boards[std::string(name(static_cast<Scoreboard>(b)))] = area_mask_json(to);
  }
  if (d.take_back) j["take_back"] = power_cards_json(d.take_back);
}
void write(Json& j, const VetoChoice& d) {
  j["kind"] = "veto";
  j["actor"] = d.actor;
  j["card"] = d.card;
}
void write(Json& j, const CaballerosToReturn& d) {
  j["kind"] = "return_caballeros";
  j["count"] = d.count;
  j["court"] = d.court;
  j["regions"] = area_counts_json(d.regions);
}
void write(Json& j, const DiskChoice& d) {
  j["kind"] = "disk";
  j["purpose"] = std::string(disk_purpose_name(d.purpose));
  j["allowed"] = area_mask_json(d.allowed);
}

Json player_json(const PlayerView& p) {
  Json j = {{"court", p.court},       {"province", p.province},      {"score", p.score},
            {"grande", id(p.grande)}, {"hand_count", p.hand_count},  {"played", p.played},
            {"disk_set", p.disk_set}, {"live_vetoes", p.live_vetoes}};
  if (p.hand) j["hand"] = power_cards_json(*p.hand);
  if (p.discards) j["discards"] = power_cards_json(*p.discards);
  if (p.castillo) j["castillo"] = *p.castillo;
  put_area(j, "disk", p.disk);
  return j;
}

Json scoreboards_json(const std::array<std::optional<Area>, kScoreboardCount>& boards) {
  Json j = Json::object();
  for (int b = 0; b < kScoreboardCount; ++b)
    if (const auto& area = boards[static_cast<std::size_t>(b)])
      j[std::string(name(static_cast<Scoreboard>(b)))] = id(*area);
  return j;
}

Json vetoes_json(const std::array<VetoCard, 2>& vetoes) {
  Json list = Json::array();
  for (const VetoCard& v : vetoes)
    if (v.holder >= 0) list.push_back({{"holder", v.holder}, {"expires_after", v.expires_after}});
  return list;
}

}  // namespace

Json to_json(const Decision& decision) {
  Json j = {{"seat", decision.seat}};
  std::visit([&j](const auto& detail) { write(j, detail); }, decision.detail);
  return j;
}

Json to_json(const View& v) {
  const int seats = detail::seat_count(v.options);
  const int colours = detail::colour_count(v.options);

  Json j = Json::object();
  put_seat(j, "viewer", v.viewer);
  j["options"] = to_json(v.options);
  j["phase"] = std::string(phase_name(v.phase));
  j["round"] = v.round;
  j["rounds_played"] = v.rounds_played;
  j["general_scorings"] = v.general_scorings;
  j["version"] = v.version;

  j["king"] = id(v.king);
  j["scoreboards"] = scoreboards_json(v.scoreboards);
  Json regions = Json::object();
  for (int r = 0; r < kRegionCount; ++r) {
    Json counts = Json::array();
    for (int c = 0; c < colours; ++c)
      counts.push_back(v.regions[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]);
    regions[id(area_at(r))] = std::move(counts);
  }
  j["regions"] = std::move(regions);
  Json players = Json::array();
  for (int s = 0; s < seats; ++s)
    players.push_back(player_json(v.players[static_cast<std::size_t>(s)]));
  j["players"] = std::move(players);
  if (v.automa)
    j["automa"] = {{"supply", v.automa->supply},
                   {"played", v.automa->played},
                   {"power_cards_left", v.automa->power_cards_left}};

  Json offered = Json::array();
  for (CardId card : v.offered) offered.push_back(card);
  j["offered"] = std::move(offered);
  j["stack_sizes"] = v.stack_sizes;
  j["vetoes"] = vetoes_json(v.vetoes);

  j["first_player"] = v.first_player;
  put_seat(j, "power_seat", v.power_seat);
  Json order = Json::array();
  for (Colour c : v.turn_order) order.push_back(c);
  j["turn_order"] = std::move(order);
  j["turn_index"] = v.turn_index;
  put_seat(j, "active", v.active);
  if (v.card) j["card"] = *v.card;
  j["placed"] = v.placed;
  j["special_done"] = v.special_done;
  if (v.announced) j["announced"] = to_json(*v.announced);
  if (v.disk_purpose) j["disk_purpose"] = std::string(disk_purpose_name(*v.disk_purpose));
  put_area(j, "evicted_from", v.evicted_from);

  j["waiting_for"] = seat_mask_json(v.waiting_for);
  if (v.decision) j["decision"] = to_json(*v.decision);
  j["winners"] = seat_mask_json(v.winners);
  return j;
}

Json summary_json(const GameState& state) {
  const bool over = is_over(state);
  Json scores = Json::array();
  for (int s = 0; s < detail::seat_count(state.options); ++s)
    scores.push_back(state.players[static_cast<std::size_t>(s)].score);
  return {{"phase", std::string(phase_name(state.phase))},
          {"round", state.round},
          {"rounds_played", state.rounds_played},
          {"general_scorings", state.general_scorings},
          {"version", state.version},
          {"over", over},
          {"scores", std::move(scores)},
          {"winners", seat_mask_json(over ? winners(state) : 0)},
          {"hash", hash_hex(hash(state))}};
}

}  // namespace elgrande::protocol
