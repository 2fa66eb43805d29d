#include "encode.hpp"

#include <iomanip>
#include <sstream>

namespace elgrande::protocol {
namespace detail {

Json area_mask_json(AreaMask mask) {
  Json areas = Json::array();
  for (int i = 0; i < kAreaCount; ++i)
    if (contains(mask, area_at(i))) areas.push_back(id(area_at(i)));
  return areas;
}

Json power_cards_json(PowerCards cards) {
  Json values = Json::array();
  for (int v = 1; v <= kPowerCardCount; ++v)
    if ((cards & power_bit(v)) != 0) values.push_back(v);
  return values;
}

Json seat_mask_json(std::uint8_t seats) {
  Json list = Json::array();
  for (int s = 0; s < kMaxPlayers; ++s)
    if ((seats >> s) & 1u) list.push_back(s);
  return list;
}

Json moves_json(const FixedVector<Move, kMaxMoves>& moves) {
  Json list = Json::array();
  for (const Move& m : moves)
    list.push_back(
        {{"colour", m.colour}, {"from", id(m.from)}, {"to", id(m.to)}, {"count", m.count}});
  return list;
}

}  // namespace detail

std::string_view phase_name(Phase phase) {
  switch (phase) {
    case Phase::power_cards:
      return "power_cards";
    case Phase::take_caballeros:
      return "take_caballeros";
    case Phase::choose_action_card:
      return "choose_action_card";
    case Phase::use_action_card:
      return "use_action_card";
    case Phase::veto_window:
      return "veto_window";
    case Phase::returning:
      return "returning";
    case Phase::disk_setting:
      return "disk_setting";
    case Phase::game_over:
      return "game_over";
  }
  return "unknown";
}

std::string_view disk_purpose_name(DiskPurpose purpose) {
  switch (purpose) {
    case DiskPurpose::general_scoring:
      return "general_scoring";
    case DiskPurpose::disk_return_two:
      return "disk_return_two";
    case DiskPurpose::disk_return_all:
      return "disk_return_all";
    case DiskPurpose::eviction:
      return "eviction";
    case DiskPurpose::secret_scoring:
      return "secret_scoring";
  }
  return "unknown";
}

std::string hash_hex(std::uint64_t hash) {
  std::ostringstream out;
  out << std::hex << std::setw(16) << std::setfill('0') << hash;
  return out.str();
}

Json to_json(const ActionCard& card) {
  return {{"id", card.id}, {"stack", card.stack}, {"kind", std::string(name(card.kind))}};
}

Json deck_json() {
  Json cards = Json::array();
  for (const ActionCard& card : classic_deck()) cards.push_back(to_json(card));
  return cards;
}

Json to_json(const Rejection& rejection) {
  return {{"code", std::string(name(rejection.code))}, {"reason", rejection.reason}};
}

Json to_json(const DecodeError& error) {
  return {{"code", error.code}, {"message", error.message}};
}

}  // namespace elgrande::protocol
