#include <algorithm>
#include <bit>
#include <cstdint>

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
  static_assert(kCaballerosPerColour < 64, "counts are bits of a 64-bit mask below");
  const Values values = current_values(s, area);
  AreaScored scored{.area = area};
  const int colours = colour_count(s);
  // The counts held, as bits: the groups are met from the largest count down without
  // walking the colours once per group to find it.
  std::uint64_t counts = 0;
  for (Colour c = 0; c < colours; ++c) {
    scored.caballeros[c] = s.caballeros[index(area)][c];
    counts |= std::uint64_t{1} << scored.caballeros[c];
  }
  counts &= ~std::uint64_t{1};  // no caballeros, no place

  const Colour automa = automa_colour(s);
  int place = 1;
  // Groups ranked below the last scoring place earn nothing (and no bonus): not walked.
  while (counts && (place == 1 || place <= places)) {
    const int count = std::bit_width(counts) - 1;
    counts &= ~(std::uint64_t{1} << count);
    std::uint32_t group = 0;  // the colours that hold `count`, as bits
    // Over every slot (those past the colours hold 0): a fixed count the compiler unrolls.
    for (Colour c = 0; c < kMaxColours; ++c)
      if (scored.caballeros[c] == count) group |= 1u << c;
    const bool sole = (group & (group - 1)) == 0;
    const int scored_place = sole ? place : place + 1;
    const int points = scored_place <= places ? values.place(scored_place) : 0;
    for (Colour c = 0; c < kMaxColours; ++c)
      if ((group >> c & 1u) && c != automa) scored.points[c] = static_cast<std::uint8_t>(points);
    const auto first = static_cast<Colour>(std::countr_zero(group));
    if (sole && place == 1 && first != automa) {
      if (area == s.king) {
        scored.points[first] = static_cast<std::uint8_t>(scored.points[first] + 2);
        scored.king_bonus = first;
      }
      if (s.players[first].grande == area) {
        scored.points[first] = static_cast<std::uint8_t>(scored.points[first] + 2);
        scored.grande_bonus = first;
      }
    }
    place += sole ? 1 : 2;
  }
  // Seats past the players' have no points here: adding 0 leaves them as they are.
  for (Seat p = 0; p < kMaxPlayers; ++p) s.players[p].score = static_cast<std::int16_t>(s.players[p].score + scored.points[p]);
  tell_all(ev, scored);
}

void score_areas(GameState& s, AreaMask areas, int places, Events& ev) {
  for (Area area : scoring_order())
    if (contains(areas, area)) score_area(s, area, places, ev);
}

}  // namespace elgrande::rules
