#pragma once

#include <cstdint>
#include <string_view>
#include <variant>

#include "elgrande/engine/board.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/fixed_vector.hpp"

namespace elgrande {

// A seat is a player's place at the table (0..4); colours are seats, plus the automa.
using Seat = std::int8_t;
using Colour = std::int8_t;
inline constexpr int kMaxPlayers = 5;
inline constexpr int kMaxColours = 5;
inline constexpr Seat kSpectator = -1;

// --- Commands: one per kind of decision; multi-part choices are a single command. ---

struct PlayPowerCard {
  std::uint8_t value = 0;
  friend bool operator==(const PlayPowerCard&, const PlayPowerCard&) = default;
};

// Province -> court (turn step 3a, and the `court` card). Regions may be drawn on only
// once the province is empty.
struct TakeCaballeros {
  std::uint8_t from_province = 0;
  AreaCounts from_regions;
  friend bool operator==(const TakeCaballeros&, const TakeCaballeros&) = default;
};

struct TakeActionCard {
  CardId card = 0;
  friend bool operator==(const TakeActionCard&, const TakeActionCard&) = default;
};

// The card's placement: court -> regions next to the king and/or the castillo.
struct PlaceCaballeros {
  AreaCounts to;
  friend bool operator==(const PlaceCaballeros&, const PlaceCaballeros&) = default;
};

struct SkipSpecialAction {
  friend bool operator==(const SkipSpecialAction&, const SkipSpecialAction&) = default;
};

// Special actions without a parameter (scorings, decays, angry king, disk returns, veto,
// secret scoring).
struct PerformSpecialAction {
  friend bool operator==(const PerformSpecialAction&, const PerformSpecialAction&) = default;
};

struct Move {
  Colour colour = 0;
  Area from = Area::galicia;
  Area to = Area::galicia;
  std::uint8_t count = 0;
  friend bool operator==(const Move&, const Move&) = default;
};
inline constexpr int kMaxMoves = 10;
struct MoveCaballeros {
  FixedVector<Move, kMaxMoves> moves;
  friend bool operator==(const MoveCaballeros&, const MoveCaballeros&) = default;
};

// `place_two_anywhere`: court -> any regions (not the king's) and/or the castillo.
struct PlaceExtraCaballeros {
  AreaCounts to;
  friend bool operator==(const PlaceExtraCaballeros&, const PlaceExtraCaballeros&) = default;
};

// `score_chosen_region`: a region (the king's too) or the castillo.
struct ScoreArea {
  Area area = Area::galicia;
  friend bool operator==(const ScoreArea&, const ScoreArea&) = default;
};

// `remove_one_each`: for each opponent, the region one of their caballeros leaves.
struct ColourRegion {
  Colour colour = 0;
  Area region = Area::galicia;
  friend bool operator==(const ColourRegion&, const ColourRegion&) = default;
};
struct RemoveCaballeros {
  FixedVector<ColourRegion, kMaxColours> picks;
  friend bool operator==(const RemoveCaballeros&, const RemoveCaballeros&) = default;
};

struct PlaceScoreboard {
  Scoreboard board = Scoreboard::eight_four_zero;
  Area to = Area::galicia;
  friend bool operator==(const PlaceScoreboard&, const PlaceScoreboard&) = default;
};

// `royal_advisor` (to a neighbour) and `king` (anywhere).
struct MoveKing {
  Area to = Area::galicia;
  friend bool operator==(const MoveKing&, const MoveKing&) = default;
};

struct Evict {
  Area region = Area::galicia;
  friend bool operator==(const Evict&, const Evict&) = default;
};

struct MoveGrande {
  Area to = Area::galicia;
  friend bool operator==(const MoveGrande&, const MoveGrande&) = default;
};

struct TakeBackPowerCard {
  std::uint8_t value = 0;
  friend bool operator==(const TakeBackPowerCard&, const TakeBackPowerCard&) = default;
};

// Answers of players who are not the active one.
struct AnswerVeto {
  bool veto = false;
  friend bool operator==(const AnswerVeto&, const AnswerVeto&) = default;
};

// `angry_king`: court and/or regions -> province.
struct ReturnCaballeros {
  std::uint8_t from_court = 0;
  AreaCounts from_regions;
  friend bool operator==(const ReturnCaballeros&, const ReturnCaballeros&) = default;
};

struct SetDisk {
  Area region = Area::galicia;
  friend bool operator==(const SetDisk&, const SetDisk&) = default;
};

// Takes back the seat's last command of its turn (undo.hpp), while nothing has happened
// since that it should not be able to take back. Answers no decision; the game's
// UndoHistory carries it out.
struct Undo {
  friend bool operator==(const Undo&, const Undo&) = default;
};

using Command =
    std::variant<PlayPowerCard, TakeCaballeros, TakeActionCard, PlaceCaballeros,
                 SkipSpecialAction, PerformSpecialAction, MoveCaballeros, PlaceExtraCaballeros,
                 ScoreArea, RemoveCaballeros, PlaceScoreboard, MoveKing, Evict, MoveGrande,
                 TakeBackPowerCard, AnswerVeto, ReturnCaballeros, SetDisk, Undo>;

std::string_view command_name(const Command& command);  // e.g. "play_power_card"

}  // namespace elgrande
