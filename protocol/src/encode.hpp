#pragma once

// Small encoders shared by the output codecs.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "elgrande/engine/board.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/options.hpp"
#include "elgrande/protocol/codec.hpp"

namespace elgrande::protocol::detail {

inline std::string id(Area a) {
  return std::string(name(a));
}

Json area_mask_json(AreaMask mask);       // area ids in board order
Json power_cards_json(PowerCards cards);  // values, ascending
Json seat_mask_json(std::uint8_t seats);  // seats, ascending
Json moves_json(const FixedVector<Move, kMaxMoves>& moves);

// Entries used by per-seat and per-colour arrays, never more than the arrays hold.
inline int seat_count(const Options& o) {
  return std::clamp(o.players, 0, kMaxPlayers);
}
inline int colour_count(const Options& o) {
  return std::clamp(o.players + (o.automa ? 1 : 0), 0, kMaxColours);
}

// Sets j[key] unless the value is "nobody" (-1) or empty.
inline void put_seat(Json& j, const char* key, Seat seat) {
  if (seat >= 0) j[key] = seat;
}
inline void put_area(Json& j, const char* key, const std::optional<Area>& area) {
  if (area) j[key] = id(*area);
}

}  // namespace elgrande::protocol::detail
