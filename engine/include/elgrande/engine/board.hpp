#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace elgrande {

// Where caballeros stand: the nine regions of Spain, and the castillo (not a region).
enum class Area : std::uint8_t {
  galicia,
  pais_vasco,
  aragon,
  cataluna,
  castilla_vieja,
  castilla_nueva,
  valencia,
  sevilla,
  granada,
  castillo,
};

inline constexpr int kRegionCount = 9;
inline constexpr int kAreaCount = 10;

constexpr int index(Area a) { return static_cast<int>(a); }
constexpr Area area_at(int i) { return static_cast<Area>(i); }
constexpr bool is_region(Area a) { return a != Area::castillo; }

// A set of areas as a bit mask (bit i = area i).
using AreaMask = std::uint16_t;
constexpr AreaMask bit(Area a) { return static_cast<AreaMask>(1u << index(a)); }
constexpr bool contains(AreaMask mask, Area a) { return (mask & bit(a)) != 0; }
inline constexpr AreaMask kAllRegions = (1u << kRegionCount) - 1;

// Points for 1st / 2nd / 3rd place.
struct Values {
  std::uint8_t first = 0, second = 0, third = 0;
  constexpr std::uint8_t place(int p) const { return p == 1 ? first : p == 2 ? second : p == 3 ? third : 0; }
  friend bool operator==(const Values&, const Values&) = default;
};

// The two mobile scoreboards.
enum class Scoreboard : std::uint8_t { eight_four_zero, four_zero_zero };
inline constexpr int kScoreboardCount = 2;
constexpr Values scoreboard_values(Scoreboard s) {
  return s == Scoreboard::eight_four_zero ? Values{8, 4, 0} : Values{4, 0, 0};
}

Values printed_values(Area a);
AreaMask neighbours(Area region);  // empty for the castillo
bool adjacent(Area a, Area b);

// Order in which a general scoring displays the areas: castillo first, then the regions.
const std::array<Area, kAreaCount>& scoring_order();

std::string_view name(Area a);  // stable ids used in records and the protocol
std::optional<Area> area_from_name(std::string_view id);
std::string_view name(Scoreboard s);
std::optional<Scoreboard> scoreboard_from_name(std::string_view id);

// Caballeros of one colour per area.
struct AreaCounts {
  std::array<std::uint8_t, kAreaCount> n{};
  std::uint8_t& operator[](Area a) { return n[static_cast<std::size_t>(index(a))]; }
  std::uint8_t operator[](Area a) const { return n[static_cast<std::size_t>(index(a))]; }
  // Asked on every take, placement and check of a command: the ten bytes are summed as
  // words, pairwise, then the four words at once (exact for any byte values, any byte order).
  int total() const {
    static_assert(kAreaCount == 10);
    std::uint64_t first8 = 0;
    std::uint16_t last2 = 0;
    std::memcpy(&first8, n.data(), 8);
    std::memcpy(&last2, n.data() + 8, 2);
    constexpr std::uint64_t kLowBytes = 0x00FF00FF00FF00FFull;
    first8 = (first8 & kLowBytes) + ((first8 >> 8) & kLowBytes);  // four words of at most 510
    const auto words = static_cast<int>((first8 * 0x0001000100010001ull) >> 48);  // their sum, at most 2040
    return words + (last2 & 0xFF) + (last2 >> 8);
  }
  friend bool operator==(const AreaCounts&, const AreaCounts&) = default;
};

}  // namespace elgrande
