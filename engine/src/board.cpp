#include "elgrande/engine/board.hpp"

namespace elgrande {
namespace {

struct AreaData {
  std::string_view id;
  Values values;
  AreaMask neighbours;
};

constexpr AreaMask mask(std::initializer_list<Area> areas) {
  AreaMask m = 0;
  for (Area a : areas) m = static_cast<AreaMask>(m | bit(a));
  return m;
}

using enum Area;
constexpr std::array<AreaData, kAreaCount> kAreas{{
    {"galicia", {4, 2, 0}, mask({castilla_vieja, pais_vasco})},
    {"pais_vasco", {5, 3, 1}, mask({galicia, castilla_vieja, aragon})},
    {"aragon", {5, 4, 1}, mask({pais_vasco, castilla_vieja, castilla_nueva, cataluna, valencia})},
    {"cataluna", {4, 2, 1}, mask({aragon, valencia})},
    {"castilla_vieja", {6, 4, 2}, mask({galicia, pais_vasco, aragon, castilla_nueva})},
    {"castilla_nueva", {7, 4, 2}, mask({castilla_vieja, aragon, valencia, granada, sevilla})},
    {"valencia", {5, 3, 2}, mask({aragon, cataluna, castilla_nueva, granada})},
    {"sevilla", {4, 3, 1}, mask({castilla_nueva, granada})},
    {"granada", {6, 3, 1}, mask({sevilla, castilla_nueva, valencia})},
    {"castillo", {5, 3, 1}, 0},
}};

constexpr bool symmetric() {
  for (int a = 0; a < kAreaCount; ++a)
    for (int b = 0; b < kAreaCount; ++b)
      if (contains(kAreas[a].neighbours, area_at(b)) != contains(kAreas[b].neighbours, area_at(a)))
        return false;
  return true;
}
static_assert(symmetric(), "adjacency must be symmetric");

constexpr std::array<Area, kAreaCount> kScoringOrder{
    castillo, galicia, pais_vasco, cataluna, aragon, castilla_vieja, castilla_nueva,
    valencia, sevilla, granada};

}  // namespace

Values printed_values(Area a) { return kAreas[index(a)].values; }
AreaMask neighbours(Area region) { return kAreas[index(region)].neighbours; }
bool adjacent(Area a, Area b) { return contains(neighbours(a), b); }
const std::array<Area, kAreaCount>& scoring_order() { return kScoringOrder; }

std::string_view name(Area a) { return kAreas[index(a)].id; }

std::optional<Area> area_from_name(std::string_view id) {
  for (int i = 0; i < kAreaCount; ++i)
    if (kAreas[i].id == id) return area_at(i);
  return std::nullopt;
}

std::string_view name(Scoreboard s) {
  return s == Scoreboard::eight_four_zero ? "eight_four_zero" : "four_zero_zero";
}

std::optional<Scoreboard> scoreboard_from_name(std::string_view id) {
  if (id == "eight_four_zero") return Scoreboard::eight_four_zero;
  if (id == "four_zero_zero") return Scoreboard::four_zero_zero;
  return std::nullopt;
}

}  // namespace elgrande
