#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande {

// What one party may know (rules section 8). `view` is the only place that redacts.

struct PlayerView {
  std::uint8_t court = 0;
  std::uint8_t province = 0;
  std::int16_t score = 0;
  Area grande = Area::galicia;
  std::uint8_t hand_count = 0;
  std::uint8_t played = 0;  // this round's power card, 0 = none yet
  bool disk_set = false;    // during a disk decision: has set it (never where)
  std::uint8_t live_vetoes = 0;
  // Only in the view of this player themself:
  std::optional<PowerCards> hand;
  std::optional<PowerCards> discards;
  std::optional<std::uint8_t> castillo;
  std::optional<Area> disk;
  friend bool operator==(const PlayerView&, const PlayerView&) = default;
};

struct AutomaView {
  std::uint8_t supply = 0;
  std::uint8_t played = 0;
  std::uint8_t power_cards_left = 0;
  friend bool operator==(const AutomaView&, const AutomaView&) = default;
};

struct View {
  Seat viewer = kSpectator;
  Options options;
  Phase phase = Phase::power_cards;
  std::uint8_t round = 0;
  std::uint8_t rounds_played = 0;
  std::uint8_t general_scorings = 0;
  std::uint32_t version = 0;

  Area king = Area::galicia;
  std::array<std::optional<Area>, kScoreboardCount> scoreboards;
  std::array<std::array<std::uint8_t, kMaxColours>, kRegionCount> regions{};  // [region][colour]
  std::array<PlayerView, kMaxPlayers> players{};  // the first options.players are used
  std::optional<AutomaView> automa;

  FixedVector<CardId, 5> offered;  // revealed cards, and the King card while available
  std::array<std::uint8_t, 4> stack_sizes{};
  std::array<VetoCard, 2> vetoes;  // those in front of someone first; the rest VetoCard{}

  Seat first_player = 0;
  Seat power_seat = -1;
  FixedVector<Colour, kMaxColours> turn_order;
  std::uint8_t turn_index = 0;
  Seat active = -1;
  std::optional<CardId> card;  // the active seat's action card
  bool placed = false;
  bool special_done = false;
  std::optional<Command> announced;  // a special action waiting on veto holders
  std::optional<DiskPurpose> disk_purpose;
  std::optional<Area> evicted_from;

  std::uint8_t waiting_for = 0;       // seats that owe an answer (bit per seat)
  std::optional<Decision> decision;   // the viewer's own, with its constraints
  std::uint8_t winners = 0;           // once the game is over

  friend bool operator==(const View&, const View&) = default;
};

View view(const GameState& state, Seat viewer);

}  // namespace elgrande
