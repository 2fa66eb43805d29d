#pragma once

// Writing JSON text straight from the engine's values, as compact as nlohmann's dump: the
// views, their patches, the events and the replies are written with these instead of
// building documents (docs/performance.md).

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "elgrande/engine/board.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/protocol/envelope.hpp"

namespace elgrande::protocol::detail {

// Compact JSON has '{', '[' or ':' right before the first value of a container and before
// a key's value, and no value ends with one of them: anything else before a value or a key
// needs a comma.
inline void separate(std::string& out) {
  if (out.empty()) return;
  const char last = out.back();
  if (last != '{' && last != '[' && last != ':') out += ',';
}

inline void open(std::string& out, char bracket) {
  separate(out);
  out += bracket;
}

inline void put_key(std::string& out, std::string_view key) {
  separate(out);
  out += '"';
  out += key;
  out += "\":";
}

template <class Integer>
  requires std::is_integral_v<Integer>
void put(std::string& out, Integer n) {
  separate(out);
  if constexpr (std::is_same_v<Integer, bool>) {
    out += n ? "true" : "false";
  } else {
    char digits[24];
    const auto [end, error] = std::to_chars(digits, digits + sizeof digits, n);
    out.append(digits, end);
  }
}

// An engine id (an area, a phase...): plain ASCII, nothing to escape.
inline void put_id(std::string& out, std::string_view id) {
  separate(out);
  out += '"';
  out += id;
  out += '"';
}
inline void put(std::string& out, Area area) { put_id(out, name(area)); }

template <class T>
void put(std::string& out, const std::optional<T>& value) {
  if (value) put(out, *value);
}

inline void put_json(std::string& out, const Json& value) {
  separate(out);
  append_serialised(out, value);
}

template <class List>
void put_list(std::string& out, const List& values) {
  open(out, '[');
  for (const auto value : values) put(out, value);
  out += ']';
}

inline void put_power_cards(std::string& out, PowerCards cards) {
  open(out, '[');
  for (int v = 1; v <= kPowerCardCount; ++v)
    if ((cards & power_bit(v)) != 0) put(out, v);
  out += ']';
}

inline void put_seats(std::string& out, std::uint8_t seats) {
  open(out, '[');
  for (int s = 0; s < kMaxPlayers; ++s)
    if ((seats >> s) & 1u) put(out, s);
  out += ']';
}

// The areas in the order of their names, the order of an {area: n} object's keys.
inline const std::array<Area, kAreaCount>& areas_by_name() {
  static const std::array<Area, kAreaCount> sorted = [] {
    std::array<Area, kAreaCount> areas{};
    for (int i = 0; i < kAreaCount; ++i) areas[static_cast<std::size_t>(i)] = area_at(i);
    std::ranges::sort(areas, {}, [](Area a) { return name(a); });
    return areas;
  }();
  return sorted;
}

// {area: n} for the areas with any, as area_counts_json writes it.
inline void put_counts(std::string& out, const AreaCounts& counts) {
  open(out, '{');
  for (Area area : areas_by_name()) {
    if (counts[area] == 0) continue;
    put_key(out, name(area));
    put(out, counts[area]);
  }
  out += '}';
}

inline void put_areas(std::string& out, AreaMask mask) {
  open(out, '[');
  for (int i = 0; i < kAreaCount; ++i)
    if (contains(mask, area_at(i))) put(out, area_at(i));
  out += ']';
}

}  // namespace elgrande::protocol::detail
