#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "elgrande/engine/board.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande {

// Things that happened, in the past tense. Each event carries its audience; an event that
// holds a secret is emitted twice: in full to its owner, redacted to everyone else.

struct GameStarted {
  Area king = Area::galicia;
  std::array<Area, kMaxPlayers> homes{};
  Seat first_player = 0;
  friend bool operator==(const GameStarted&, const GameStarted&) = default;
};
struct RoundStarted {
  std::uint8_t round = 0;
  FixedVector<CardId, 5> offered;
  friend bool operator==(const RoundStarted&, const RoundStarted&) = default;
};
struct AutomaPlacedCaballeros {
  Area region = Area::galicia;
  std::uint8_t count = 0;
  friend bool operator==(const AutomaPlacedCaballeros&, const AutomaPlacedCaballeros&) = default;
};
struct AutomaPowerCardFlipped {
  std::uint8_t value = 0;
  friend bool operator==(const AutomaPowerCardFlipped&, const AutomaPowerCardFlipped&) = default;
};
struct PowerCardPlayed {
  Seat seat = 0;
  std::uint8_t value = 0;
  friend bool operator==(const PowerCardPlayed&, const PowerCardPlayed&) = default;
};
struct CaballerosTaken {
  Seat seat = 0;
  std::uint8_t from_province = 0;
  AreaCounts from_regions;
  friend bool operator==(const CaballerosTaken&, const CaballerosTaken&) = default;
};
struct ActionCardTaken {
  Colour colour = 0;  // a seat, or the automa (which discards it unused)
  CardId card = 0;
  friend bool operator==(const ActionCardTaken&, const ActionCardTaken&) = default;
};
// Public in full: how many go into the castillo is announced.
struct CaballerosPlaced {
  Seat seat = 0;
  AreaCounts to;
  friend bool operator==(const CaballerosPlaced&, const CaballerosPlaced&) = default;
};
// Veto holders decide knowing what is announced; a taken-back card's value stays hidden.
struct SpecialActionAnnounced {
  Seat seat = 0;
  CardId card = 0;
  Command action;
  friend bool operator==(const SpecialActionAnnounced&, const SpecialActionAnnounced&) = default;
};
struct SpecialActionVetoed {
  Seat seat = 0;
  Seat by = 0;
  friend bool operator==(const SpecialActionVetoed&, const SpecialActionVetoed&) = default;
};
struct SpecialActionSkipped {
  Seat seat = 0;
  friend bool operator==(const SpecialActionSkipped&, const SpecialActionSkipped&) = default;
};
struct CaballerosMoved {
  Seat by = 0;
  FixedVector<Move, kMaxMoves> moves;
  friend bool operator==(const CaballerosMoved&, const CaballerosMoved&) = default;
};
struct CaballerosReturned {  // to the province (or the automa's supply)
  Colour colour = 0;
  std::uint8_t from_court = 0;
  AreaCounts from_regions;
  friend bool operator==(const CaballerosReturned&, const CaballerosReturned&) = default;
};
struct CaballerosEvicted {  // `eviction`: all of a seat's caballeros leave a region
  Seat seat = 0;
  Area from = Area::galicia;
  std::optional<Area> to;  // nothing: the disk pointed at the king's region, so to the court
  std::uint8_t count = 0;
  friend bool operator==(const CaballerosEvicted&, const CaballerosEvicted&) = default;
};
struct ScoreboardPlaced {
  Scoreboard board = Scoreboard::eight_four_zero;
  std::optional<Area> from;
  Area to = Area::galicia;
  friend bool operator==(const ScoreboardPlaced&, const ScoreboardPlaced&) = default;
};
struct KingMoved {
  Area from = Area::galicia;
  Area to = Area::galicia;
  friend bool operator==(const KingMoved&, const KingMoved&) = default;
};
struct GrandeMoved {
  Seat seat = 0;
  Area from = Area::galicia;
  Area to = Area::galicia;
  friend bool operator==(const GrandeMoved&, const GrandeMoved&) = default;
};
struct PowerCardTakenBack {
  Seat seat = 0;
  std::uint8_t value = 0;  // 0 in the copy for everyone but the owner
  friend bool operator==(const PowerCardTakenBack&, const PowerCardTakenBack&) = default;
};
struct VetoLaid {
  Seat seat = 0;
  friend bool operator==(const VetoLaid&, const VetoLaid&) = default;
};
struct VetoExpired {
  Seat seat = 0;
  friend bool operator==(const VetoExpired&, const VetoExpired&) = default;
};
struct DiskSet {
  Seat seat = 0;
  std::optional<Area> region;  // only in the owner's copy
  friend bool operator==(const DiskSet&, const DiskSet&) = default;
};
struct DisksRevealed {
  DiskPurpose purpose = DiskPurpose::general_scoring;
  std::array<std::optional<Area>, kMaxPlayers> disks{};
  friend bool operator==(const DisksRevealed&, const DisksRevealed&) = default;
};
struct GeneralScoringStarted {
  std::uint8_t number = 0;  // 1..3
  friend bool operator==(const GeneralScoringStarted&, const GeneralScoringStarted&) = default;
};
struct AreaScored {
  Area area = Area::galicia;
  std::array<std::uint8_t, kMaxColours> caballeros{};
  std::array<std::uint8_t, kMaxPlayers> points{};  // bonuses included
  Seat king_bonus = -1;
  Seat grande_bonus = -1;
  friend bool operator==(const AreaScored&, const AreaScored&) = default;
};
struct CastilloEmptied {  // one colour's caballeros leave the castillo after its scoring
  Colour colour = 0;
  std::uint8_t count = 0;
  std::optional<Area> to;  // nothing: back to the court (or the automa's supply)
  friend bool operator==(const CastilloEmptied&, const CastilloEmptied&) = default;
};
struct RoundEnded {
  std::uint8_t round = 0;
  Seat first_player = 0;
  friend bool operator==(const RoundEnded&, const RoundEnded&) = default;
};
struct GameEnded {
  std::array<std::int16_t, kMaxPlayers> scores{};
  std::uint8_t winners = 0;  // bit per seat; ties share the win
  friend bool operator==(const GameEnded&, const GameEnded&) = default;
};

// A seat took back its last command (undo.hpp): the game is as it was before it.
struct CommandUndone {
  Seat seat = 0;
  friend bool operator==(const CommandUndone&, const CommandUndone&) = default;
};

using EventBody =
    std::variant<GameStarted, RoundStarted, AutomaPlacedCaballeros, AutomaPowerCardFlipped,
                 PowerCardPlayed, CaballerosTaken, ActionCardTaken, CaballerosPlaced,
                 SpecialActionAnnounced, SpecialActionVetoed, SpecialActionSkipped,
                 CaballerosMoved, CaballerosReturned, CaballerosEvicted, ScoreboardPlaced, KingMoved, GrandeMoved,
                 PowerCardTakenBack, VetoLaid, VetoExpired, DiskSet, DisksRevealed,
                 GeneralScoringStarted, AreaScored, CastilloEmptied, RoundEnded, GameEnded, CommandUndone>;

struct Audience {
  enum class Kind : std::uint8_t { everyone, only, all_but } kind = Kind::everyone;
  Seat seat = -1;
  bool includes(Seat viewer) const {
    switch (kind) {
      case Kind::everyone: return true;
      case Kind::only: return viewer == seat;
      case Kind::all_but: return viewer != seat;
    }
    return false;
  }
  friend bool operator==(const Audience&, const Audience&) = default;
};

struct Event {
  Event() = default;
  // Built in place by the rules' tell_all and its siblings (engine/src/rules.hpp): spelled
  // out, since clang before 16 does not build an aggregate from parentheses.
  template <class Body>
  Event(Audience audience, Body&& body) : audience(audience), body(std::forward<Body>(body)) {}

  Audience audience;
  EventBody body;
  friend bool operator==(const Event&, const Event&) = default;
};
using Events = std::vector<Event>;

// The events a seat (or kSpectator) may see, in order.
Events visible_to(const Events& events, Seat viewer);
std::string_view event_name(const EventBody& body);  // e.g. "power_card_played"

}  // namespace elgrande
