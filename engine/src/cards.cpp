#include "elgrande/engine/cards.hpp"

#include <array>
#include <stdexcept>

namespace elgrande {
namespace {

struct KindData {
  std::string_view id;
  std::uint8_t stack;
  std::uint8_t copies;
};

using enum CardKind;
// In CardKind order; the classic deck lists the cards in this order, copies adjacent.
constexpr std::array<KindData, kCardKindCount> kKinds{{
    {"move_all_own_from_region", 1, 1},
    {"place_two_anywhere", 1, 1},
    {"place_two_or_move_all_own", 1, 1},
    {"move_five_from_region", 1, 2},
    {"move_three_opposing", 1, 1},
    {"move_three_any", 1, 1},
    {"move_two_own_two_opposing", 1, 2},
    {"move_four_own", 1, 1},
    {"move_four_any", 1, 1},
    {"veto", 2, 2},
    {"decay_all_court", 2, 1},
    {"decay_three_court", 2, 1},
    {"angry_king", 2, 1},
    {"remove_one_each", 2, 1},
    {"disk_return_two", 2, 1},
    {"disk_return_all", 2, 1},
    {"score_chosen_region", 2, 3},  // three in stack 2, and one more in stack 3 (below)
    {"score_fours", 3, 2},
    {"score_fives", 3, 2},
    {"score_six_seven", 3, 1},
    {"score_castillo", 3, 2},
    {"score_most", 3, 1},
    {"score_fewest", 3, 1},
    {"score_first_only", 3, 1},
    {"scoreboard", 4, 3},
    {"royal_advisor", 4, 1},
    {"eviction", 4, 1},
    {"grande", 4, 2},
    {"power_cards", 4, 2},
    {"court", 4, 1},
    {"secret_scoring", 4, 1},
    {"king", 5, 1},
}};

constexpr std::array<ActionCard, kActionCardCount> build_deck() {
  std::array<ActionCard, kActionCardCount> deck{};
  int next = 0;
  auto add = [&](CardKind kind, std::uint8_t stack) {
    deck[next] = ActionCard{static_cast<CardId>(next), stack, kind};
    ++next;
  };
  for (int k = 0; k < kCardKindCount; ++k) {
    const auto kind = static_cast<CardKind>(k);
    for (int c = 0; c < kKinds[k].copies; ++c) add(kind, kKinds[k].stack);
    if (kind == score_chosen_region) add(kind, 3);
  }
  return deck;
}
constexpr std::array<ActionCard, kActionCardCount> kDeck = build_deck();

constexpr bool stacks_are_classic() {
  int sizes[6] = {};
  for (const auto& card : kDeck) ++sizes[card.stack];
  return sizes[1] == 11 && sizes[2] == 11 && sizes[3] == 11 && sizes[4] == 11 && sizes[5] == 1 &&
         kDeck[kKingCard].kind == king;
}
static_assert(stacks_are_classic(), "classic stacks are 11/11/11/11/1 with the King card last");

constexpr std::array<int, 14> kGranted{0, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0};

}  // namespace

int caballeros_granted(int power_value) {
  return power_value >= 1 && power_value <= kPowerCardCount ? kGranted[power_value] : 0;
}

const ActionCard& action_card(CardId id) { return kDeck[id]; }
const std::array<ActionCard, kActionCardCount>& classic_deck() { return kDeck; }

namespace {

constexpr std::optional<MoveLimits> limits_of(CardKind kind) {
  switch (kind) {
    case move_all_own_from_region:
    case place_two_or_move_all_own:
      return MoveLimits{.own = 30, .opposing = 0, .total = 30, .single_source = true, .all_own = true};
    case move_five_from_region: return MoveLimits{.own = 5, .opposing = 5, .total = 5, .single_source = true};
    case move_three_opposing: return MoveLimits{.own = 0, .opposing = 3, .total = 3};
    case move_three_any: return MoveLimits{.own = 3, .opposing = 3, .total = 3};
    case move_two_own_two_opposing: return MoveLimits{.own = 2, .opposing = 2, .total = 4};
    case move_four_own: return MoveLimits{.own = 4, .opposing = 0, .total = 4};
    case move_four_any: return MoveLimits{.own = 4, .opposing = 4, .total = 4};
    default: return std::nullopt;
  }
}

// Read from a table: returned from the switch, the limits were written a byte at a time and
// read back whole by the caller, a stalled store on every action card's decision.
constexpr auto kMoveLimits = [] {
  std::array<std::optional<MoveLimits>, kCardKindCount> table{};
  for (int k = 0; k < kCardKindCount; ++k) table[static_cast<std::size_t>(k)] = limits_of(static_cast<CardKind>(k));
  return table;
}();

}  // namespace

std::optional<MoveLimits> move_limits(CardKind kind) { return kMoveLimits[static_cast<std::size_t>(kind)]; }

SpecialAnswer special_answer(CardKind kind) {
  switch (kind) {
    case move_all_own_from_region:
    case move_five_from_region:
    case move_three_opposing:
    case move_three_any:
    case move_two_own_two_opposing:
    case move_four_own:
    case move_four_any:
      return SpecialAnswer::move_caballeros;
    case place_two_anywhere:
      return SpecialAnswer::place_extra;
    case place_two_or_move_all_own:
      return SpecialAnswer::place_or_move;
    case veto:
    case decay_all_court:
    case decay_three_court:
    case angry_king:
    case disk_return_two:
    case disk_return_all:
    case score_fours:
    case score_fives:
    case score_six_seven:
    case score_castillo:
    case score_most:
    case score_fewest:
    case score_first_only:
    case secret_scoring:
      return SpecialAnswer::perform;
    case remove_one_each:
      return SpecialAnswer::remove_caballeros;
    case score_chosen_region:
      return SpecialAnswer::score_area;
    case scoreboard:
      return SpecialAnswer::place_scoreboard;
    case royal_advisor:
    case king:
      return SpecialAnswer::move_king;
    case eviction:
      return SpecialAnswer::evict;
    case grande:
      return SpecialAnswer::move_grande;
    case power_cards:
      return SpecialAnswer::take_back_power_card;
    case court:
      return SpecialAnswer::take_caballeros;
  }
  throw std::invalid_argument("no such card kind");
}

std::string_view name(CardKind kind) { return kKinds[static_cast<int>(kind)].id; }

std::optional<CardKind> card_kind_from_name(std::string_view id) {
  for (int k = 0; k < kCardKindCount; ++k)
    if (kKinds[k].id == id) return static_cast<CardKind>(k);
  return std::nullopt;
}

}  // namespace elgrande
