#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "elgrande/engine/board.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/fixed_vector.hpp"
#include "elgrande/engine/options.hpp"
#include "elgrande/engine/rng.hpp"

namespace elgrande {

inline constexpr int kCaballerosPerColour = 30;
inline constexpr int kGeneralScorings = 3;

// What the game is waiting for.
enum class Phase : std::uint8_t {
  power_cards,         // `power_seat` plays a power card
  take_caballeros,     // the active seat takes caballeros into its court
  choose_action_card,  // the active seat takes one revealed action card
  use_action_card,     // the active seat places and/or announces the special action
  veto_window,         // holders of a live veto answer, all at once
  returning,           // `angry_king`: opponents return 3 caballeros, one after the other
  disk_setting,        // seats in `disks_owed` set their secret disk, all at once
  game_over,
};

enum class DiskPurpose : std::uint8_t {
  general_scoring,
  disk_return_two,
  disk_return_all,
  eviction,
  secret_scoring,
};

struct Player {
  PowerCards hand = kAllPowerCards;
  PowerCards discards = 0;   // played cards, this round's included
  std::uint8_t played = 0;   // value played this round, 0 = none yet
  std::uint8_t court = 0;
  std::uint8_t province = 0;
  Area grande = Area::galicia;  // the player's home region is where the grande stands
  std::int16_t score = 0;
  std::optional<Area> disk;     // set for the current disk decision, secret until revealed
  friend bool operator==(const Player&, const Player&) = default;
};

// A face-down action stack and the card revealed from it this round.
inline constexpr int kMaxStackCards = 22;
struct ActionStack {
  FixedVector<CardId, kMaxStackCards> face_down;  // back() is the top
  std::optional<CardId> revealed;
  friend bool operator==(const ActionStack&, const ActionStack&) = default;
};

struct VetoCard {
  Seat holder = -1;                 // -1: not in front of anyone
  std::uint8_t expires_after = 0;   // live until the end of this played round (1-based)
  friend bool operator==(const VetoCard&, const VetoCard&) = default;
};

struct Automa {
  std::uint8_t supply = 0;                        // caballeros beside the board
  FixedVector<std::uint8_t, 13> power_deck;       // back() is the top
  std::uint8_t played = 0;                        // power card flipped this round
  FixedVector<Area, kRegionCount> region_deck;    // back() is the top
  friend bool operator==(const Automa&, const Automa&) = default;
};

// The active seat's turn.
struct Turn {
  std::optional<CardId> card;
  bool placed = false;
  bool special_done = false;
  std::optional<Command> announced;  // special action held while vetoes are asked
  friend bool operator==(const Turn&, const Turn&) = default;
};

// The whole game: plain data, copyable, comparable. Hidden information (hands, disks,
// castillo counts, stack order, the generator) lives here and only `view` redacts it.
struct GameState {
  Options options;
  Rng rng;
  Phase phase = Phase::power_cards;
  std::uint8_t round = 0;          // the round's number on the track (1..9)
  std::uint8_t rounds_played = 0;  // rounds begun so far (1-based count)
  std::uint8_t general_scorings = 0;
  std::uint32_t version = 0;       // commands accepted so far, undos included

  Area king = Area::galicia;
  std::array<std::optional<Area>, kScoreboardCount> scoreboards;
  std::array<std::array<std::uint8_t, kMaxColours>, kAreaCount> caballeros{};  // [area][colour]

  std::array<Player, kMaxPlayers> players;
  Automa automa;

  std::array<ActionStack, 4> stacks;  // stacks 1..4 (or 1, 2+3, 4)
  std::uint8_t stack_count = 4;
  bool king_card_available = true;
  std::array<VetoCard, 2> vetoes;

  Seat first_player = 0;
  Seat power_seat = 0;                        // whose power card is awaited
  FixedVector<Colour, kMaxColours> turn_order;  // colours by descending power value
  std::uint8_t turn_index = 0;
  Turn turn;

  // Pending answers of other seats.
  std::uint8_t veto_owed = 0;   // seats still to answer (bit per seat)
  std::uint8_t veto_yes = 0;    // seats that vetoed
  DiskPurpose disk_purpose = DiskPurpose::general_scoring;
  std::uint8_t disks_owed = 0;  // seats still to set their disk
  std::uint8_t disks_asked = 0; // seats whose disk counts in this decision
  Area evicted_from = Area::galicia;
  FixedVector<Seat, kMaxPlayers> returners;  // angry king: seats still to return, in order

  friend bool operator==(const GameState&, const GameState&) = default;
};

// The next four are asked many times a command, by the rules and the playouts: inline.
// Players, plus 1 with the automa:
inline int colour_count(const GameState& s) { return s.options.players + (s.options.automa ? 1 : 0); }
inline bool is_automa(const GameState& s, Colour c) { return s.options.automa && c == s.options.players; }
inline Colour automa_colour(const GameState& s) {  // -1 without the automa
  return s.options.automa ? static_cast<Colour>(s.options.players) : Colour{-1};
}
inline Seat active_seat(const GameState& s) {  // whose turn it is, -1 outside turns
  switch (s.phase) {
    case Phase::take_caballeros:
    case Phase::choose_action_card:
    case Phase::use_action_card:
    case Phase::veto_window:
    case Phase::returning:
      return s.turn_order[s.turn_index];
    case Phase::disk_setting:
      return s.disk_purpose == DiskPurpose::general_scoring ? Seat{-1} : s.turn_order[s.turn_index];
    default:
      return -1;
  }
}
int places_scored(const GameState& state);     // 3, 2 or 1 places score
Values current_values(const GameState& state, Area area);
int caballeros_in_regions(const GameState& state, Colour colour);  // outside the castillo

}  // namespace elgrande
