#include <charconv>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "elgrande/protocol/envelope.hpp"
#include "encode.hpp"
#include "reader.hpp"
#include "text.hpp"

namespace elgrande::protocol {
namespace {

using detail::area_counts_json;
using detail::area_mask_json;
using detail::id;
using detail::power_cards_json;
using detail::put_area;
using detail::seat_mask_json;
using detail::open;
using detail::put;
using detail::put_areas;
using detail::put_id;
using detail::put_json;
using detail::put_key;
using detail::put_list;
using detail::put_power_cards;
using detail::put_seats;

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

// --- The view as JSON text, written directly: the server writes one per viewer after every
// command, and building nlohmann documents for them cost more than all the rest of a
// command's work on the table's strand. ---

// A document key by key: all of it (`before` none), or the keys whose values differ from
// `before`'s, a key `before` had and this one lacks as null: a JSON merge patch (RFC 7386)
// from before's document to this one. One writer for both, so that the patch always
// rebuilds exactly the document.
template <class Value>
class KeyWriter {
 public:
  KeyWriter(std::string& out, const Value* before) : out_(out), before_(before) {}

  // `field` picks the value(s) a key is made of; `write` appends its JSON, or nothing when
  // the document lacks the key.
  template <class Field, class Write>
  void key(std::string_view name, Field field, Write write, const Value& after) {
    if (before_ && field(*before_) == field(after)) return;
    const std::size_t start = out_.size();
    put_key(out_, name);
    const std::size_t value = out_.size();
    write(out_, after);
    if (out_.size() != value) return;
    if (before_) {
      out_ += "null";
    } else {
      out_.resize(start);
    }
  }

  // A member written as it is: a number, a boolean, an area, or an optional one of them.
  template <class Member>
  void plain(std::string_view name, Member Value::*member, const Value& after) {
    key(name, [member](const Value& x) -> const Member& { return x.*member; },
        [member](std::string& out, const Value& x) { put(out, x.*member); }, after);
  }

  // A seat, or nobody (-1): no key.
  void seat(std::string_view name, Seat Value::*member, const Value& after) {
    key(name, [member](const Value& x) { return x.*member; },
        [member](std::string& out, const Value& x) {
          if (x.*member >= 0) put(out, x.*member);
        }, after);
  }

  // A key whose value is an object, absent when `field` gives none: `write(out, was, now)`
  // writes all of it (`was` null) or its patch from `was`.
  template <class Field, class Write>
  void nested(std::string_view name, Field field, Write write, const Value& after) {
    key(name, field, [&](std::string& out, const Value& x) {
      const auto& now = field(x);
      if (!now) return;
      if (!before_) return write(out, nullptr, *now);
      const auto& was = field(*before_);
      write(out, was ? &*was : nullptr, *now);
    }, after);
  }

  // A key whose value is an object (or absent, a null Json): a patch names only the keys
  // within it that changed.
  template <class Field, class Make>
  void object(std::string_view name, Field field, Make make, const Value& after) {
    key(name, field, [&](std::string& out, const Value& x) {
      const Json now = make(x);
      if (now.is_null()) return;
      const Json was = before_ ? make(*before_) : Json();
      put_json(out, was.is_object() && now.is_object() ? merge_diff(was, now) : now);
    }, after);
  }

 private:
  std::string& out_;
  const Value* before_;
};

// A player's entry, or (given `before`) its patch.
void write_player(std::string& out, const PlayerView* before, const PlayerView& p) {
  open(out, '{');
  KeyWriter<PlayerView> w(out, before);
  w.plain("court", &PlayerView::court, p);
  w.plain("province", &PlayerView::province, p);
  w.plain("score", &PlayerView::score, p);
  w.plain("grande", &PlayerView::grande, p);
  w.plain("hand_count", &PlayerView::hand_count, p);
  w.plain("played", &PlayerView::played, p);
  w.plain("disk_set", &PlayerView::disk_set, p);
  w.plain("live_vetoes", &PlayerView::live_vetoes, p);
  const auto power_cards = [](std::optional<PowerCards> PlayerView::*member) {
    return [member](std::string& out, const PlayerView& x) {
      if (x.*member) put_power_cards(out, *(x.*member));
    };
  };
  w.key("hand", [](const PlayerView& x) { return x.hand; }, power_cards(&PlayerView::hand), p);
  w.key("discards", [](const PlayerView& x) { return x.discards; }, power_cards(&PlayerView::discards), p);
  w.plain("castillo", &PlayerView::castillo, p);
  w.plain("disk", &PlayerView::disk, p);
  out += '}';
}

// --- The decision, key for key what to_json(Decision) writes. It changes with almost every
// command, and as nlohmann documents (two of them, for the patch) it took a third of the
// time spent writing updates. ---

// {area: n} for the areas with any.
void put_area_counts(std::string& out, const AreaCounts* before, const AreaCounts& after) {
  open(out, '{');
  KeyWriter<AreaCounts> w(out, before);
  for (int i = 0; i < kAreaCount; ++i) {
    const Area area = area_at(i);
    w.key(name(area), [area](const AreaCounts& c) { return c[area]; },
          [area](std::string& o, const AreaCounts& c) {
            if (c[area] != 0) put(o, c[area]);
          }, after);
  }
  out += '}';
}

void put_move_limits(std::string& out, const MoveLimits* before, const MoveLimits& after) {
  open(out, '{');
  KeyWriter<MoveLimits> w(out, before);
  w.plain("own", &MoveLimits::own, after);
  w.plain("opposing", &MoveLimits::opposing, after);
  w.plain("total", &MoveLimits::total, after);
  w.plain("single_source", &MoveLimits::single_source, after);
  w.plain("all_own", &MoveLimits::all_own, after);
  out += '}';
}

using ScoreboardAreas = std::array<AreaMask, kScoreboardCount>;

// {scoreboard: [area, ...]} for the scoreboards with any.
void put_scoreboard_areas(std::string& out, const ScoreboardAreas* before, const ScoreboardAreas& after) {
  open(out, '{');
  KeyWriter<ScoreboardAreas> w(out, before);
  for (std::size_t b = 0; b < after.size(); ++b) {
    w.key(name(static_cast<Scoreboard>(b)), [b](const ScoreboardAreas& x) { return x[b]; },
          [b](std::string& o, const ScoreboardAreas& x) {
            if (x[b] != 0) put_areas(o, x[b]);
          }, after);
  }
  out += '}';
}

// The member `m` of the decision's detail, if the detail is an `Alt`; with `if_set`, also
// none when it is zero (or empty): to_json leaves those keys out.
template <class Alt, class T>
auto member(T Alt::*m, bool if_set = false) {
  return [m, if_set](const Decision& d) -> std::optional<T> {
    const auto* alt = std::get_if<Alt>(&d.detail);
    if (!alt || (if_set && alt->*m == T{})) return std::nullopt;
    return alt->*m;
  };
}

// The first of two alternatives' members that applies: one key, two kinds of decision.
template <class A, class B>
auto either(A a, B b) {
  return [a, b](const Decision& d) {
    if (auto value = a(d)) return value;
    return b(d);
  };
}

void write_decision(std::string& out, const Decision* before, const Decision& d) {
  static constexpr std::array<std::string_view, std::variant_size_v<DecisionDetail>> kKinds = {
      "power_card", "take_caballeros", "action_card", "use_action_card", "veto", "return_caballeros", "disk"};
  const auto number = [](std::string& o, auto n) { put(o, n); };
  const auto areas = [](std::string& o, AreaMask mask) { put_areas(o, mask); };
  const auto power_cards = [](std::string& o, PowerCards cards) { put_power_cards(o, cards); };
  const auto colour_counts = [](std::string& o, const CaballerosByColour& c) { put_json(o, colour_counts_json(c)); };
  open(out, '{');
  KeyWriter<Decision> w(out, before);
  // A key made of `field` (absent when it gives none), written with `put_value`.
  const auto add = [&](std::string_view key, auto field, auto put_value) {
    w.key(key, field, [&](std::string& o, const Decision& x) {
      if (const auto value = field(x)) put_value(o, *value);
    }, d);
  };
  w.plain("seat", &Decision::seat, d);
  w.key("kind", [](const Decision& x) { return x.detail.index(); },
        [](std::string& o, const Decision& x) { put_id(o, kKinds[x.detail.index()]); }, d);
  // power_card
  add("playable", member(&PowerCardChoice::playable), power_cards);
  // take_caballeros, return_caballeros
  add("up_to", member(&CaballerosToTake::up_to), number);
  add("at_least", member(&CaballerosToTake::at_least, true), number);
  add("province", member(&CaballerosToTake::province), number);
  w.nested("regions", either(member(&CaballerosToTake::regions), member(&CaballerosToReturn::regions)),
           put_area_counts, d);
  add("count", member(&CaballerosToReturn::count), number);
  add("court", member(&CaballerosToReturn::court), number);
  // action_card
  add("offered", member(&ActionCardChoice::offered), [](std::string& o, const auto& cards) { put_list(o, cards); });
  // use_action_card, veto
  add("card", either(member(&ActionCardUse::card), member(&VetoChoice::card)), number);
  add("actor", member(&VetoChoice::actor), number);
  add("special", member(&ActionCardUse::special), [](std::string& o, CardKind kind) { put_id(o, name(kind)); });
  add("may_place", member(&ActionCardUse::may_place), number);
  add("place_up_to", member(&ActionCardUse::place_up_to), number);
  add("place_into", member(&ActionCardUse::place_into), areas);
  add("may_act", member(&ActionCardUse::may_act), number);
  w.nested("moves", [](const Decision& x) {
    const auto* use = std::get_if<ActionCardUse>(&x.detail);
    return use ? use->moves : std::nullopt;
  }, put_move_limits, d);
  add("move_to", member(&ActionCardUse::move_to, true), areas);
  add("extra_up_to", member(&ActionCardUse::extra_up_to, true), number);
  add("take_up_to", member(&ActionCardUse::take_up_to, true), number);
  add("targets", member(&ActionCardUse::targets, true), areas);
  add("move_from", member(&ActionCardUse::move_from, true), colour_counts);
  add("take_province", member(&ActionCardUse::take_province, true), number);
  w.nested("take_regions", member(&ActionCardUse::take_regions, true), put_area_counts, d);
  add("remove_from", member(&ActionCardUse::remove_from, true), colour_counts);
  w.nested("scoreboard_to", member(&ActionCardUse::scoreboard_to, true), put_scoreboard_areas, d);
  add("take_back", member(&ActionCardUse::take_back, true), power_cards);
  // disk
  add("purpose", member(&DiskChoice::purpose), [](std::string& o, DiskPurpose p) { put_id(o, disk_purpose_name(p)); });
  add("allowed", member(&DiskChoice::allowed), areas);
  out += '}';
}

void write_view(std::string& out, const View* before, const View& v) {
  const int seats = detail::seat_count(v.options);
  const int colours = detail::colour_count(v.options);
  open(out, '{');
  KeyWriter<View> w(out, before);

  w.seat("viewer", &View::viewer, v);
  w.object("options", [](const View& x) { return x.options; }, [](const View& x) { return to_json(x.options); }, v);
  w.key("phase", [](const View& x) { return x.phase; },
        [](std::string& o, const View& x) { put_id(o, phase_name(x.phase)); }, v);
  w.plain("round", &View::round, v);
  w.plain("rounds_played", &View::rounds_played, v);
  w.plain("general_scorings", &View::general_scorings, v);
  w.plain("version", &View::version, v);
  w.plain("king", &View::king, v);
  w.object("scoreboards", [](const View& x) { return x.scoreboards; },
           [](const View& x) { return scoreboards_json(x.scoreboards); }, v);

  // Regions by id: a patch names only the regions whose counts changed.
  const auto region_changed = [&](int r) {
    return !before || before->regions[static_cast<std::size_t>(r)] != v.regions[static_cast<std::size_t>(r)];
  };
  bool any_region = !before;
  for (int r = 0; r < kRegionCount && !any_region; ++r) any_region = region_changed(r);
  if (any_region) {
    put_key(out, "regions");
    open(out, '{');
    for (int r = 0; r < kRegionCount; ++r) {
      if (!region_changed(r)) continue;
      put_key(out, name(area_at(r)));
      const auto& counts = v.regions[static_cast<std::size_t>(r)];
      put_list(out, std::span(counts.data(), static_cast<std::size_t>(colours)));
    }
    out += '}';
  }

  // Players by index: a patch names only the players whose entries changed.
  if (!before) {
    put_key(out, "players");
    open(out, '[');
    for (int s = 0; s < seats; ++s) write_player(out, nullptr, v.players[static_cast<std::size_t>(s)]);
    out += ']';
  } else {
    bool any_player = false;
    for (int s = 0; s < seats; ++s) {
      const auto i = static_cast<std::size_t>(s);
      if (before->players[i] == v.players[i]) continue;
      if (!any_player) {
        put_key(out, "players");
        open(out, '{');
        any_player = true;
      }
      put_key(out, std::to_string(s));
      write_player(out, &before->players[i], v.players[i]);
    }
    if (any_player) out += '}';
  }
  w.object("automa", [](const View& x) { return x.automa; },
           [](const View& x) {
             if (!x.automa) return Json();
             return Json{{"supply", x.automa->supply},
                         {"played", x.automa->played},
                         {"power_cards_left", x.automa->power_cards_left}};
           }, v);
  w.key("offered", [](const View& x) { return x.offered; }, [](std::string& o, const View& x) { put_list(o, x.offered); }, v);
  w.key("stack_sizes", [](const View& x) { return x.stack_sizes; },
        [](std::string& o, const View& x) { put_list(o, x.stack_sizes); }, v);
  // An array of objects: replaced whole when it changes.
  w.key("vetoes", [](const View& x) { return x.vetoes; },
        [](std::string& o, const View& x) { put_json(o, vetoes_json(x.vetoes)); }, v);
  w.plain("first_player", &View::first_player, v);
  w.seat("power_seat", &View::power_seat, v);
  w.key("turn_order", [](const View& x) { return x.turn_order; },
        [](std::string& o, const View& x) { put_list(o, x.turn_order); }, v);
  w.plain("turn_index", &View::turn_index, v);
  w.seat("active", &View::active, v);
  w.plain("card", &View::card, v);
  w.plain("placed", &View::placed, v);
  w.plain("special_done", &View::special_done, v);
  w.object("announced", [](const View& x) { return x.announced; },
           [](const View& x) { return x.announced ? to_json(*x.announced) : Json(); }, v);
  w.key("disk_purpose", [](const View& x) { return x.disk_purpose; },
        [](std::string& o, const View& x) {
          if (x.disk_purpose) put_id(o, disk_purpose_name(*x.disk_purpose));
        }, v);
  w.plain("evicted_from", &View::evicted_from, v);
  w.key("waiting_for", [](const View& x) { return x.waiting_for; },
        [](std::string& o, const View& x) { put_seats(o, x.waiting_for); }, v);
  w.nested("decision", [](const View& x) -> const std::optional<Decision>& { return x.decision; }, write_decision, v);
  w.key("winners", [](const View& x) { return x.winners; },
        [](std::string& o, const View& x) { put_seats(o, x.winners); }, v);
  out += '}';
}

}  // namespace

void append_view(std::string& out, const View& v) { write_view(out, nullptr, v); }

void append_view_patch(std::string& out, const View& before, const View& after) { write_view(out, &before, after); }

Json to_json(const View& v) {
  std::string text;
  append_view(text, v);
  return Json::parse(text);
}

Json view_patch(const View& before, const View& after) {
  std::string text;
  append_view_patch(text, before, after);
  return Json::parse(text);
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
