#include <algorithm>
#include <string>
#include <variant>

#include "encode.hpp"
#include "reader.hpp"
#include "text.hpp"

namespace elgrande::protocol {
namespace {

using detail::area_counts_json;
using detail::id;
using detail::put_area;
using detail::put_seat;
using detail::seat_mask_json;

// Per-seat and per-colour arrays of an event, sized by the game's options.
struct Sizes {
  int seats = 0;
  int colours = 0;
};

template <typename T, std::size_t N>
Json first(const std::array<T, N>& items, int count) {
  Json list = Json::array();
  for (int i = 0; i < count && i < static_cast<int>(N); ++i)
    list.push_back(items[static_cast<std::size_t>(i)]);
  return list;
}

Json cards_json(const FixedVector<CardId, 5>& cards) {
  Json list = Json::array();
  for (CardId card : cards) list.push_back(card);
  return list;
}

void write(Json& j, const GameStarted& e, Sizes n) {
  j["king"] = id(e.king);
  Json homes = Json::array();
  for (int s = 0; s < n.seats; ++s) homes.push_back(id(e.homes[static_cast<std::size_t>(s)]));
  j["homes"] = std::move(homes);
  j["first_player"] = e.first_player;
}
void write(Json& j, const RoundStarted& e, Sizes) {
  j["round"] = e.round;
  j["offered"] = cards_json(e.offered);
}
void write(Json& j, const AutomaPlacedCaballeros& e, Sizes) {
  j["region"] = id(e.region);
  j["count"] = e.count;
}
void write(Json& j, const AutomaPowerCardFlipped& e, Sizes) {
  j["value"] = e.value;
}
void write(Json& j, const PowerCardPlayed& e, Sizes) {
  j["seat"] = e.seat;
  j["value"] = e.value;
}
void write(Json& j, const CaballerosTaken& e, Sizes) {
  j["seat"] = e.seat;
  j["from_province"] = e.from_province;
  j["from_regions"] = area_counts_json(e.from_regions);
}
void write(Json& j, const ActionCardTaken& e, Sizes) {
  j["colour"] = e.colour;
  j["card"] = e.card;
}
void write(Json& j, const CaballerosPlaced& e, Sizes) {
  j["seat"] = e.seat;
  j["to"] = area_counts_json(e.to);
}
void write(Json& j, const SpecialActionAnnounced& e, Sizes) {
  j["seat"] = e.seat;
  j["card"] = e.card;
  j["action"] = to_json(e.action);
}
void write(Json& j, const SpecialActionVetoed& e, Sizes) {
  j["seat"] = e.seat;
  j["by"] = e.by;
}
void write(Json& j, const SpecialActionSkipped& e, Sizes) {
  j["seat"] = e.seat;
}
void write(Json& j, const CaballerosMoved& e, Sizes) {
  j["by"] = e.by;
  j["moves"] = detail::moves_json(e.moves);
}
void write(Json& j, const CaballerosReturned& e, Sizes) {
  j["colour"] = e.colour;
  j["from_court"] = e.from_court;
  j["from_regions"] = area_counts_json(e.from_regions);
}
void write(Json& j, const CaballerosEvicted& e, Sizes) {
  j["seat"] = e.seat;
  j["from"] = id(e.from);
  put_area(j, "to", e.to);  // absent: back to the court (the disk named the king's region)
  j["count"] = e.count;
}
void write(Json& j, const ScoreboardPlaced& e, Sizes) {
  j["board"] = std::string(name(e.board));
  put_area(j, "from", e.from);
  j["to"] = id(e.to);
}
void write(Json& j, const KingMoved& e, Sizes) {
  j["from"] = id(e.from);
  j["to"] = id(e.to);
}
void write(Json& j, const GrandeMoved& e, Sizes) {
  j["seat"] = e.seat;
  j["from"] = id(e.from);
  j["to"] = id(e.to);
}
void write(Json& j, const PowerCardTakenBack& e, Sizes) {
  j["seat"] = e.seat;
  if (e.value != 0) j["value"] = e.value;  // 0 in everyone else's copy: the card is secret
}
void write(Json& j, const VetoLaid& e, Sizes) {
  j["seat"] = e.seat;
}
void write(Json& j, const CommandUndone& e, Sizes) {
  j["seat"] = e.seat;
}
void write(Json& j, const VetoExpired& e, Sizes) {
  j["seat"] = e.seat;
}
void write(Json& j, const DiskSet& e, Sizes) {
  j["seat"] = e.seat;
  put_area(j, "region", e.region);
}
void write(Json& j, const DisksRevealed& e, Sizes n) {
  j["purpose"] = std::string(disk_purpose_name(e.purpose));
  Json disks = Json::array();  // null for a seat that was not asked
  for (int s = 0; s < n.seats; ++s) {
    const auto& disk = e.disks[static_cast<std::size_t>(s)];
    disks.push_back(disk ? Json(id(*disk)) : Json(nullptr));
  }
  j["disks"] = std::move(disks);
}
void write(Json& j, const GeneralScoringStarted& e, Sizes) {
  j["number"] = e.number;
}
void write(Json& j, const AreaScored& e, Sizes n) {
  j["area"] = id(e.area);
  j["caballeros"] = first(e.caballeros, n.colours);
  j["points"] = first(e.points, n.seats);
  put_seat(j, "king_bonus", e.king_bonus);
  put_seat(j, "grande_bonus", e.grande_bonus);
}
void write(Json& j, const CastilloEmptied& e, Sizes) {
  j["colour"] = e.colour;
  j["count"] = e.count;
  put_area(j, "to", e.to);
}
void write(Json& j, const RoundEnded& e, Sizes) {
  j["round"] = e.round;
  j["first_player"] = e.first_player;
}
void write(Json& j, const GameEnded& e, Sizes n) {
  j["scores"] = first(e.scores, n.seats);
  j["winners"] = seat_mask_json(e.winners);
}

// --- The same events as text, byte for byte what to_json and nlohmann's dump write: keys
// in alphabetical order, as nlohmann keeps an object's. Every command's events are written
// once for all its viewers, and as documents they were a fifth of the time spent writing
// updates. ---

using detail::open;
using detail::put;
using detail::put_id;
using detail::put_counts;
using detail::put_json;
using detail::put_key;
using detail::put_seats;

template <class T, std::size_t N>
void put_first(std::string& out, const std::array<T, N>& items, int count) {
  open(out, '[');
  for (int i = 0; i < count && i < static_cast<int>(N); ++i) put(out, items[static_cast<std::size_t>(i)]);
  out += ']';
}

// Appends "key":value.
template <class T>
void field(std::string& out, std::string_view key, const T& value) {
  put_key(out, key);
  put(out, value);
}
template <class T>
void field(std::string& out, std::string_view key, const std::optional<T>& value) {
  if (value) field(out, key, *value);
}
void seat_field(std::string& out, std::string_view key, Seat seat) {
  if (seat >= 0) field(out, key, seat);
}

void text(std::string& out, const GameStarted& e, Sizes n) {
  field(out, "first_player", e.first_player);
  put_key(out, "homes");
  put_first(out, e.homes, n.seats);
  field(out, "king", e.king);
}
void text(std::string& out, const RoundStarted& e, Sizes) {
  put_key(out, "offered");
  detail::put_list(out, e.offered);
  field(out, "round", e.round);
}
void text(std::string& out, const AutomaPlacedCaballeros& e, Sizes) {
  field(out, "count", e.count);
  field(out, "region", e.region);
}
void text(std::string&, const AutomaPowerCardFlipped&, Sizes) {}  // "value" follows "type"
void text(std::string& out, const PowerCardPlayed& e, Sizes) { field(out, "seat", e.seat); }
void text(std::string& out, const CaballerosTaken& e, Sizes) {
  field(out, "from_province", e.from_province);
  put_key(out, "from_regions");
  put_counts(out, e.from_regions);
  field(out, "seat", e.seat);
}
void text(std::string& out, const ActionCardTaken& e, Sizes) {
  field(out, "card", e.card);
  field(out, "colour", e.colour);
}
void text(std::string& out, const CaballerosPlaced& e, Sizes) {
  field(out, "seat", e.seat);
  put_key(out, "to");
  put_counts(out, e.to);
}
void text(std::string& out, const SpecialActionAnnounced& e, Sizes) {
  put_key(out, "action");
  put_json(out, to_json(e.action));
  field(out, "card", e.card);
  field(out, "seat", e.seat);
}
void text(std::string& out, const SpecialActionVetoed& e, Sizes) {
  field(out, "by", e.by);
  field(out, "seat", e.seat);
}
void text(std::string& out, const SpecialActionSkipped& e, Sizes) { field(out, "seat", e.seat); }
void text(std::string& out, const CaballerosMoved& e, Sizes) {
  field(out, "by", e.by);
  put_key(out, "moves");
  put_json(out, detail::moves_json(e.moves));
}
void text(std::string& out, const CaballerosReturned& e, Sizes) {
  field(out, "colour", e.colour);
  field(out, "from_court", e.from_court);
  put_key(out, "from_regions");
  put_counts(out, e.from_regions);
}
void text(std::string& out, const CaballerosEvicted& e, Sizes) {
  field(out, "count", e.count);
  field(out, "from", e.from);
  field(out, "seat", e.seat);
  field(out, "to", e.to);
}
void text(std::string& out, const ScoreboardPlaced& e, Sizes) {
  put_key(out, "board");
  put_id(out, name(e.board));
  field(out, "from", e.from);
  field(out, "to", e.to);
}
void text(std::string& out, const KingMoved& e, Sizes) {
  field(out, "from", e.from);
  field(out, "to", e.to);
}
void text(std::string& out, const GrandeMoved& e, Sizes) {
  field(out, "from", e.from);
  field(out, "seat", e.seat);
  field(out, "to", e.to);
}
void text(std::string& out, const PowerCardTakenBack& e, Sizes) { field(out, "seat", e.seat); }
void text(std::string& out, const VetoLaid& e, Sizes) { field(out, "seat", e.seat); }
void text(std::string& out, const CommandUndone& e, Sizes) { field(out, "seat", e.seat); }
void text(std::string& out, const VetoExpired& e, Sizes) { field(out, "seat", e.seat); }
void text(std::string& out, const DiskSet& e, Sizes) {
  field(out, "region", e.region);
  field(out, "seat", e.seat);
}
void text(std::string& out, const DisksRevealed& e, Sizes n) {
  put_key(out, "disks");
  open(out, '[');
  for (int s = 0; s < n.seats; ++s) {
    if (const auto& disk = e.disks[static_cast<std::size_t>(s)]) {
      put(out, *disk);
    } else {
      put_json(out, nullptr);
    }
  }
  out += ']';
  put_key(out, "purpose");
  put_id(out, disk_purpose_name(e.purpose));
}
void text(std::string& out, const GeneralScoringStarted& e, Sizes) { field(out, "number", e.number); }
void text(std::string& out, const AreaScored& e, Sizes n) {
  field(out, "area", e.area);
  put_key(out, "caballeros");
  put_first(out, e.caballeros, n.colours);
  seat_field(out, "grande_bonus", e.grande_bonus);
  seat_field(out, "king_bonus", e.king_bonus);
  put_key(out, "points");
  put_first(out, e.points, n.seats);
}
void text(std::string& out, const CastilloEmptied& e, Sizes) {
  field(out, "colour", e.colour);
  field(out, "count", e.count);
  field(out, "to", e.to);
}
void text(std::string& out, const RoundEnded& e, Sizes) {
  field(out, "first_player", e.first_player);
  field(out, "round", e.round);
}
void text(std::string& out, const GameEnded& e, Sizes n) {
  put_key(out, "scores");
  put_first(out, e.scores, n.seats);
}

// The keys that sort after "type".
void text_after_type(std::string&, const auto&) {}
void text_after_type(std::string& out, const AutomaPowerCardFlipped& e) { field(out, "value", e.value); }
void text_after_type(std::string& out, const PowerCardPlayed& e) { field(out, "value", e.value); }
void text_after_type(std::string& out, const PowerCardTakenBack& e) {
  if (e.value != 0) field(out, "value", e.value);
}
void text_after_type(std::string& out, const GameEnded& e) {
  put_key(out, "winners");
  put_seats(out, e.winners);
}

}  // namespace

Json to_json(const EventBody& body, const Options& options) {
  const Sizes sizes{detail::seat_count(options), detail::colour_count(options)};
  Json j = Json::object();
  j["type"] = std::string(event_name(body));
  std::visit([&j, sizes](const auto& event) { write(j, event, sizes); }, body);
  return j;
}

Json to_json(const Event& event, const Options& options) {
  return to_json(event.body, options);
}

void append_event_text(std::string& out, const EventBody& body, const Options& options) {
  const Sizes sizes{detail::seat_count(options), detail::colour_count(options)};
  open(out, '{');
  std::visit([&out, sizes, &body](const auto& event) {
    text(out, event, sizes);
    put_key(out, "type");
    put_id(out, event_name(body));
    text_after_type(out, event);
  }, body);
  out += '}';
}

}  // namespace elgrande::protocol
