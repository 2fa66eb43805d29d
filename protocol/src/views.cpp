#include <charconv>
#include <stdexcept>
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

namespace {

bool objects_alike(const Json& a, const Json& b) {
  if (!a.is_array() || !b.is_array() || a.size() != b.size() || a.empty()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!a[i].is_object() || !b[i].is_object()) return false;
  return true;
}

// The view patch from one JSON value to another: an object is patched key by key (a key
// the new one lacks becomes null); an array of as many objects (the players) element by
// element, by index; anything else is replaced whole.
Json merge_diff(const Json& from, const Json& to) {
  if (objects_alike(from, to)) {
    Json patch = Json::object();
    for (std::size_t i = 0; i < to.size(); ++i)
      if (from[i] != to[i]) patch[std::to_string(i)] = merge_diff(from[i], to[i]);
    return patch;
  }
  if (!from.is_object() || !to.is_object()) return to;
  Json patch = Json::object();
  for (const auto& [key, value] : from.items())
    if (!to.contains(key)) patch[key] = nullptr;
  for (const auto& [key, value] : to.items()) {
    const auto old = from.find(key);
    if (old == from.end()) {
      patch[key] = value;
    } else if (*old != value) {
      patch[key] = merge_diff(*old, value);
    }
  }
  return patch;
}

template <class T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

// A document key by key: all of it (`before` none), or the keys whose values differ from
// `before`'s, a key `before` had and this one lacks as null: a JSON merge patch (RFC 7386)
// from before's document to this one. One writer for both, so that the patch always
// rebuilds exactly the document.
template <class Value>
class KeyWriter {
 public:
  KeyWriter(Json& out, const Value* before) : out_(out), before_(before) {}

  // `field` picks the value(s) a key is made of; `make` encodes them, or returns a null
  // Json when the key is absent.
  template <class Field, class Make>
  void key(const char* name, Field field, Make make, const Value& after) {
    if (!before_) {
      if (Json value = make(after); !value.is_null()) out_[name] = std::move(value);
      return;
    }
    if (field(*before_) == field(after)) return;
    Json now = make(after);
    out_[name] = now.is_structured() ? merge_diff(make(*before_), now) : std::move(now);
  }

 private:
  Json& out_;
  const Value* before_;
};

// A player's entry, or (given `before`) its patch.
void write_player(Json& j, const PlayerView* before, const PlayerView& p) {
  KeyWriter<PlayerView> w(j, before);
  w.key("court", [](const PlayerView& x) { return x.court; }, [](const PlayerView& x) { return Json(x.court); }, p);
  w.key("province", [](const PlayerView& x) { return x.province; }, [](const PlayerView& x) { return Json(x.province); }, p);
  w.key("score", [](const PlayerView& x) { return x.score; }, [](const PlayerView& x) { return Json(x.score); }, p);
  w.key("grande", [](const PlayerView& x) { return x.grande; }, [](const PlayerView& x) { return Json(id(x.grande)); }, p);
  w.key("hand_count", [](const PlayerView& x) { return x.hand_count; }, [](const PlayerView& x) { return Json(x.hand_count); }, p);
  w.key("played", [](const PlayerView& x) { return x.played; }, [](const PlayerView& x) { return Json(x.played); }, p);
  w.key("disk_set", [](const PlayerView& x) { return x.disk_set; }, [](const PlayerView& x) { return Json(x.disk_set); }, p);
  w.key("live_vetoes", [](const PlayerView& x) { return x.live_vetoes; },
        [](const PlayerView& x) { return Json(x.live_vetoes); }, p);
  w.key("hand", [](const PlayerView& x) { return x.hand; },
        [](const PlayerView& x) { return x.hand ? power_cards_json(*x.hand) : Json(); }, p);
  w.key("discards", [](const PlayerView& x) { return x.discards; },
        [](const PlayerView& x) { return x.discards ? power_cards_json(*x.discards) : Json(); }, p);
  w.key("castillo", [](const PlayerView& x) { return x.castillo; }, [](const PlayerView& x) { return optional_json(x.castillo); }, p);
  w.key("disk", [](const PlayerView& x) { return x.disk; },
        [](const PlayerView& x) { return x.disk ? Json(id(*x.disk)) : Json(); }, p);
}

Json seat_or_null(Seat seat) { return seat >= 0 ? Json(seat) : Json(); }

void write_view(Json& j, const View* before, const View& v) {
  const int seats = detail::seat_count(v.options);
  const int colours = detail::colour_count(v.options);
  KeyWriter<View> w(j, before);

  w.key("viewer", [](const View& x) { return x.viewer; }, [](const View& x) { return seat_or_null(x.viewer); }, v);
  w.key("options", [](const View& x) { return x.options; }, [](const View& x) { return to_json(x.options); }, v);
  w.key("phase", [](const View& x) { return x.phase; }, [](const View& x) { return Json(phase_name(x.phase)); }, v);
  w.key("round", [](const View& x) { return x.round; }, [](const View& x) { return Json(x.round); }, v);
  w.key("rounds_played", [](const View& x) { return x.rounds_played; }, [](const View& x) { return Json(x.rounds_played); }, v);
  w.key("general_scorings", [](const View& x) { return x.general_scorings; },
        [](const View& x) { return Json(x.general_scorings); }, v);
  w.key("version", [](const View& x) { return x.version; }, [](const View& x) { return Json(x.version); }, v);
  w.key("king", [](const View& x) { return x.king; }, [](const View& x) { return Json(id(x.king)); }, v);
  w.key("scoreboards", [](const View& x) { return x.scoreboards; },
        [](const View& x) { return scoreboards_json(x.scoreboards); }, v);

  // Regions by id: a patch names only the regions whose counts changed.
  Json regions = Json::object();
  for (int r = 0; r < kRegionCount; ++r) {
    const auto& counts = v.regions[static_cast<std::size_t>(r)];
    if (before && before->regions[static_cast<std::size_t>(r)] == counts) continue;
    Json list = Json::array();
    for (int c = 0; c < colours; ++c) list.push_back(counts[static_cast<std::size_t>(c)]);
    regions[id(area_at(r))] = std::move(list);
  }
  if (!before || !regions.empty()) j["regions"] = std::move(regions);

  // Players by index: a patch names only the players whose entries changed.
  if (!before) {
    Json players = Json::array();
    for (int s = 0; s < seats; ++s) write_player(players.emplace_back(Json::object()), nullptr, v.players[static_cast<std::size_t>(s)]);
    j["players"] = std::move(players);
  } else {
    Json players = Json::object();
    for (int s = 0; s < seats; ++s) {
      const auto i = static_cast<std::size_t>(s);
      if (before->players[i] == v.players[i]) continue;
      write_player(players[std::to_string(s)], &before->players[i], v.players[i]);
    }
    if (!players.empty()) j["players"] = std::move(players);
  }
  w.key("automa", [](const View& x) { return x.automa; },
        [](const View& x) {
          if (!x.automa) return Json();
          return Json{{"supply", x.automa->supply},
                      {"played", x.automa->played},
                      {"power_cards_left", x.automa->power_cards_left}};
        }, v);
  w.key("offered", [](const View& x) { return x.offered; },
        [](const View& x) {
          Json offered = Json::array();
          for (CardId card : x.offered) offered.push_back(card);
          return offered;
        }, v);
  w.key("stack_sizes", [](const View& x) { return x.stack_sizes; }, [](const View& x) { return Json(x.stack_sizes); }, v);
  w.key("vetoes", [](const View& x) { return x.vetoes; }, [](const View& x) { return vetoes_json(x.vetoes); }, v);
  w.key("first_player", [](const View& x) { return x.first_player; }, [](const View& x) { return Json(x.first_player); }, v);
  w.key("power_seat", [](const View& x) { return x.power_seat; }, [](const View& x) { return seat_or_null(x.power_seat); }, v);
  w.key("turn_order", [](const View& x) { return x.turn_order; },
        [](const View& x) {
          Json order = Json::array();
          for (Colour c : x.turn_order) order.push_back(c);
          return order;
        }, v);
  w.key("turn_index", [](const View& x) { return x.turn_index; }, [](const View& x) { return Json(x.turn_index); }, v);
  w.key("active", [](const View& x) { return x.active; }, [](const View& x) { return seat_or_null(x.active); }, v);
  w.key("card", [](const View& x) { return x.card; }, [](const View& x) { return optional_json(x.card); }, v);
  w.key("placed", [](const View& x) { return x.placed; }, [](const View& x) { return Json(x.placed); }, v);
  w.key("special_done", [](const View& x) { return x.special_done; }, [](const View& x) { return Json(x.special_done); }, v);
  w.key("announced", [](const View& x) { return x.announced; },
        [](const View& x) { return x.announced ? to_json(*x.announced) : Json(); }, v);
  w.key("disk_purpose", [](const View& x) { return x.disk_purpose; },
        [](const View& x) { return x.disk_purpose ? Json(disk_purpose_name(*x.disk_purpose)) : Json(); }, v);
  w.key("evicted_from", [](const View& x) { return x.evicted_from; },
        [](const View& x) { return x.evicted_from ? Json(id(*x.evicted_from)) : Json(); }, v);
  w.key("waiting_for", [](const View& x) { return x.waiting_for; },
        [](const View& x) { return seat_mask_json(x.waiting_for); }, v);
  w.key("decision", [](const View& x) { return x.decision; },
        [](const View& x) { return x.decision ? to_json(*x.decision) : Json(); }, v);
  w.key("winners", [](const View& x) { return x.winners; }, [](const View& x) { return seat_mask_json(x.winners); }, v);
}

}  // namespace

Json to_json(const View& v) {
  Json j = Json::object();
  write_view(j, nullptr, v);
  return j;
}

Json view_patch(const View& before, const View& after) {
  Json j = Json::object();
  write_view(j, &before, after);
  return j;
}

void apply_merge_patch(Json& target, const Json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (target.is_array()) {
    for (const auto& [key, value] : patch.items()) {
      std::size_t index = 0;
      const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), index);
      if (error != std::errc() || end != key.data() + key.size() || index >= target.size())
        throw std::invalid_argument("view patch: no element " + key + " to patch");
      apply_merge_patch(target[index], value);
    }
    return;
  }
  if (!target.is_object()) target = Json::object();
  for (const auto& [key, value] : patch.items()) {
    if (value.is_null()) {
      target.erase(key);
    } else {
      apply_merge_patch(target[key], value);
    }
  }
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
