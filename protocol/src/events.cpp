#include <string>
#include <variant>

#include "encode.hpp"
#include "reader.hpp"

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

}  // namespace elgrande::protocol
