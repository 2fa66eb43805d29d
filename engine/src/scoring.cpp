#include <algorithm>

#include "rules.hpp"

namespace elgrande::rules {

int area_total(const GameState& s, Area area) {
  int total = 0;
  for (Colour c = 0; c < colour_count(s); ++c) total += s.caballeros[index(area)][c];
  return total;
}

// Players tied at a place all score the next lower place, however many tie, and the next
// player ranks one place below that. Only the sole first can earn the king and grande
// bonuses. The automa takes places but never scores.
void score_area(GameState& s, Area area, int places, Events& ev) {
  const Values values = current_values(s, area);
  AreaScored scored{.area = area};
  const int colours = colour_count(s);
  for (Colour c = 0; c < colours; ++c) scored.caballeros[c] = s.caballeros[index(area)][c];

  const Colour automa = automa_colour(s);
  int place = 1;
  int above = 1000;  // the count of the group ranked just above
  // Groups ranked below the last scoring place earn nothing (and no bonus): not walked.
  while (place == 1 || place <= places) {
    int count = 0;
    for (Colour c = 0; c < colours; ++c)
      if (scored.caballeros[c] < above) count = std::max<int>(count, scored.caballeros[c]);
    if (count == 0) break;
    int tied = 0;
    Colour sole = -1;
    for (Colour c = 0; c < colours; ++c)
      if (scored.caballeros[c] == count) ++tied, sole = c;
    const int scored_place = tied == 1 ? place : place + 1;
    const int points = scored_place <= places ? values.place(scored_place) : 0;
    for (Colour c = 0; c < colours; ++c)
      if (scored.caballeros[c] == count && c != automa) scored.points[c] = static_cast<std::uint8_t>(points);
    if (tied == 1 && place == 1 && sole != automa) {
      if (area == s.king) {
        scored.points[sole] = static_cast<std::uint8_t>(scored.points[sole] + 2);
        scored.king_bonus = sole;
      }
      if (s.players[sole].grande == area) {
        scored.points[sole] = static_cast<std::uint8_t>(scored.points[sole] + 2);
        scored.grande_bonus = sole;
      }
    }
    place += tied == 1 ? 1 : 2;
    above = count;
  }
  for (Seat p = 0; p < s.options.players; ++p) s.players[p].score = static_cast<std::int16_t>(s.players[p].score + scored.points[p]);
  ev.push_back(to_all(scored));
}

void score_areas(GameState& s, AreaMask areas, int places, Events& ev) {
  for (Area area : scoring_order())
    if (contains(areas, area)) score_area(s, area, places, ev);
}

}  // namespace elgrande::rules
