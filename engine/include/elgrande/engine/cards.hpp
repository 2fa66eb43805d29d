#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace elgrande {

// Power cards are valued 1..13; the value also grants caballeros (1 -> 6 ... 13 -> 0).
inline constexpr int kPowerCardCount = 13;
using PowerCards = std::uint16_t;  // bit v set = power card v (1..13)
constexpr PowerCards power_bit(int value) { return static_cast<PowerCards>(1u << value); }
inline constexpr PowerCards kAllPowerCards = 0x3FFE;
int caballeros_granted(int power_value);

// The special action of an action card, named after its effect.
enum class CardKind : std::uint8_t {
  // stack 1
  move_all_own_from_region,
  place_two_anywhere,
  place_two_or_move_all_own,
  move_five_from_region,
  move_three_opposing,
  move_three_any,
  move_two_own_two_opposing,
  move_four_own,
  move_four_any,
  // stack 2
  veto,
  decay_all_court,
  decay_three_court,
  angry_king,
  remove_one_each,
  disk_return_two,
  disk_return_all,
  score_chosen_region,
  // stack 3
  score_fours,
  score_fives,
  score_six_seven,
  score_castillo,
  score_most,
  score_fewest,
  score_first_only,
  // stack 4
  scoreboard,
  royal_advisor,
  eviction,
  grande,
  power_cards,
  court,
  secret_scoring,
  // stack 5
  king,
};
inline constexpr int kCardKindCount = static_cast<int>(CardKind::king) + 1;

// One physical action card: its id is its index in the classic deck (0..44).
using CardId = std::uint8_t;
inline constexpr int kActionCardCount = 45;
inline constexpr CardId kKingCard = 44;

struct ActionCard {
  CardId id;
  std::uint8_t stack;  // 1..5; also the number of caballeros it lets you place
  CardKind kind;
};
const ActionCard& action_card(CardId id);
const std::array<ActionCard, kActionCardCount>& classic_deck();

// How a moving card may move caballeros (regions to regions or into the castillo).
struct MoveLimits {
  std::uint8_t own = 0;       // at most this many of your own
  std::uint8_t opposing = 0;  // at most this many of other colours
  std::uint8_t total = 0;     // at most this many in all
  bool single_source = false; // all from one region
  bool all_own = false;       // "any or all of your caballeros" (no count limit)
  friend bool operator==(const MoveLimits&, const MoveLimits&) = default;
};
std::optional<MoveLimits> move_limits(CardKind kind);

// The command that answers a card's special action: the one table that the rules' check,
// the random bot and the AI's candidates each switch on, so the three cannot drift apart.
enum class SpecialAnswer : std::uint8_t {
  perform,               // PerformSpecialAction: the card does the rest itself
  move_caballeros,       // MoveCaballeros, within move_limits(kind)
  place_extra,           // PlaceExtraCaballeros
  place_or_move,         // PlaceExtraCaballeros or MoveCaballeros
  remove_caballeros,     // RemoveCaballeros: one of each opponent's
  score_area,            // ScoreArea
  place_scoreboard,      // PlaceScoreboard
  move_king,             // MoveKing
  evict,                 // Evict
  move_grande,           // MoveGrande
  take_back_power_card,  // TakeBackPowerCard
  take_caballeros,       // TakeCaballeros
};
SpecialAnswer special_answer(CardKind kind);

std::string_view name(CardKind kind);
std::optional<CardKind> card_kind_from_name(std::string_view id);

}  // namespace elgrande
