#pragma once

#include <array>
#include <cstdint>
#include <variant>

#include "elgrande/engine/board.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/fixed_vector.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande {

// What a seat owes, with enough constraints to render the choice or enumerate it.
// A command is legal when `apply` accepts it; these constraints describe the same rules.

struct PowerCardChoice {  // answer: PlayPowerCard
  PowerCards playable = 0;
  friend bool operator==(const PowerCardChoice&, const PowerCardChoice&) = default;
};

struct CaballerosToTake {  // answer: TakeCaballeros (turn step 3a, or the `court` card's)
  std::uint8_t up_to = 0;
  std::uint8_t province = 0;
  AreaCounts regions;  // own caballeros that may be taken once the province is empty
  std::uint8_t at_least = 0;  // from the province: the 1995 rules take the power card's in full
  friend bool operator==(const CaballerosToTake&, const CaballerosToTake&) = default;
};

struct ActionCardChoice {  // answer: TakeActionCard
  FixedVector<CardId, 5> offered;
  friend bool operator==(const ActionCardChoice&, const ActionCardChoice&) = default;
};

// Caballeros per colour and area (index: colour; the automa's after the seats').
using CaballerosByColour = std::array<AreaCounts, kMaxColours>;

// The card's two parts, in either order: PlaceCaballeros, and the special action (the
// command its kind takes, or PerformSpecialAction) or SkipSpecialAction.
struct ActionCardUse {
  CardId card = 0;
  CardKind special = CardKind::king;
  bool may_place = false;        // placement not made yet
  std::uint8_t place_up_to = 0;  // min(card's number, court)
  AreaMask place_into = 0;       // regions next to the king, and the castillo
  bool may_act = false;          // special action neither done nor skipped yet
  // The special action's own limits, where it has them:
  std::optional<MoveLimits> moves;  // move cards: how many may move, from one region or many
  AreaMask move_to = 0;             // where moved or extra-placed caballeros may go
  std::uint8_t extra_up_to = 0;     // place_two_*: caballeros from the court
  std::uint8_t take_up_to = 0;      // court: caballeros to the court
  AreaMask targets = 0;             // the area a one-area choice may name (king, grande, eviction, scoring, scoreboard)
  CaballerosByColour move_from{};   // move cards: per colour, caballeros that may leave each region (none: that colour stays)
  std::uint8_t take_province = 0;   // court: caballeros in the province, taken before any region
  AreaCounts take_regions;          // court: own caballeros that may be taken once the province is empty
  CaballerosByColour remove_from{}; // remove_one_each: per opponent, its caballeros one may be picked from; each colour listed loses one
  std::array<AreaMask, kScoreboardCount> scoreboard_to{};  // scoreboard: per board, where it may go (none: it stays)
  PowerCards take_back = 0;         // power_cards: the played cards one of which may come back
  friend bool operator==(const ActionCardUse&, const ActionCardUse&) = default;
};

struct VetoChoice {  // answer: AnswerVeto
  Seat actor = 0;
  CardId card = 0;
  friend bool operator==(const VetoChoice&, const VetoChoice&) = default;
};

struct CaballerosToReturn {  // answer: ReturnCaballeros (angry king)
  std::uint8_t count = 0;
  std::uint8_t court = 0;
  AreaCounts regions;  // own caballeros that may go back (not the king's region, castillo)
  friend bool operator==(const CaballerosToReturn&, const CaballerosToReturn&) = default;
};

struct DiskChoice {  // answer: SetDisk
  DiskPurpose purpose = DiskPurpose::general_scoring;
  AreaMask allowed = 0;
  friend bool operator==(const DiskChoice&, const DiskChoice&) = default;
};

using DecisionDetail = std::variant<PowerCardChoice, CaballerosToTake, ActionCardChoice,
                                    ActionCardUse, VetoChoice, CaballerosToReturn, DiskChoice>;

struct Decision {
  Seat seat = 0;
  DecisionDetail detail;
  friend bool operator==(const Decision&, const Decision&) = default;
};
using Decisions = FixedVector<Decision, kMaxPlayers>;

// Every seat that owes an answer now (several at once for disks and vetoes), by seat.
Decisions pending(const GameState& state);
// The seat's own pending decision, if it owes one (what `pending` lists for it).
std::optional<Decision> decision_for(const GameState& state, Seat seat);
// The same seats as a bit mask; asked before every command, so inline.
inline std::uint8_t waiting_for(const GameState& s) {
  const auto seat = [](Seat p) { return static_cast<std::uint8_t>(1u << p); };
  switch (s.phase) {
    case Phase::power_cards: return seat(s.power_seat);
    case Phase::take_caballeros:
    case Phase::choose_action_card:
    case Phase::use_action_card: return seat(active_seat(s));
    case Phase::veto_window: return s.veto_owed;
    case Phase::returning: return seat(s.returners[0]);
    case Phase::disk_setting: return s.disks_owed;
    case Phase::game_over: return 0;
  }
  return 0;
}

}  // namespace elgrande
