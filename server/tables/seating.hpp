#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/player.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "tables/table_config.hpp"

namespace elgrande::server {

using games::kMaxSeats;
using games::kSpectator;

struct Seat {
  enum class Kind : std::uint8_t { empty, human, bot } kind = Kind::empty;
  std::optional<Player> player;  // kept after a resignation or replacement, for the record
  bool resigned = false;
  bool replaced = false;  // handed to a bot after repeated timeouts
  int timeouts = 0;       // in a row; reset when the player answers
  bool left = false;      // gone from a finished table: no longer among the player's games
  // How strongly the bot that plays the seat thinks: the host's choice for a bot's seat, the
  // server's for one a bot took over (docs/ai.md).
  games::BotLevel bot_level = games::BotLevel::random;
  friend bool operator==(const Seat&, const Seat&) = default;
};
std::string_view name(Seat::Kind kind);  // "empty", "human", "bot"
std::optional<Seat::Kind> seat_kind_from(std::string_view name);

// A seat as a Table and a history entry show it (docs/protocol.md, Seat), without
// `connected`, which only a live table knows. `bot_level` is shown for a bot's seat.
protocol::Json seat_json(std::size_t seat, std::string_view kind, const std::optional<Player>& player,
                         bool resigned, bool replaced, int timeouts, std::optional<std::string_view> bot_level);

// Why a request was refused, in the protocol's words.
struct Refusal {
  protocol::ErrorCode code;
  std::string message;
  protocol::Json facts{};  // for the client to word: a mute's `until` and `moderator_reason`
  friend bool operator==(const Refusal&, const Refusal&) = default;
};

// A seat number, or why there is none.
using SeatOrRefusal = std::variant<int, Refusal>;

// Who sits where at one table, who hosts it, and the rules for changing that: a plain
// value with no I/O, so every rule is tested directly. Each rule either changes the
// seating and says what happened, or says why not and changes nothing.
class Seating {
 public:
  Seating(std::vector<Seat> seats, PlayerId host);
  // The `seats` seats of a spec (those it leaves out are empty), its bots at `bots`.
  static Seating from(const TableSpec& spec, int seats, games::BotLevel bots);

  const std::vector<Seat>& seats() const { return seats_; }
  const Seat& operator[](int seat) const { return seats_[static_cast<std::size_t>(seat)]; }
  Seat& operator[](int seat) { return seats_[static_cast<std::size_t>(seat)]; }
  int size() const { return static_cast<int>(seats_.size()); }
  PlayerId host() const { return host_; }

  std::optional<int> seat_of(PlayerId player) const;  // the seat the player plays now
  // The seat the player has or had: resigned and replaced players still belong.
  std::optional<int> member_seat(PlayerId player) const;
  std::vector<PlayerId> members() const;  // every player with a seat, in seat order
  std::optional<int> first_empty() const;
  bool full() const { return !first_empty(); }
  bool anyone_human() const;

  // --- Before the game (the caller checks that the table is open). ---
  // Sits the player at `seat`, or at the first empty seat.
  SeatOrRefusal join(const Player& player, std::optional<int> seat);
  SeatOrRefusal move(PlayerId player, int seat);
  // Frees the player's seat; the host's role passes to the next human at the table.
  std::optional<Refusal> leave(PlayerId player);
  SeatOrRefusal add_bot(PlayerId by, std::optional<int> seat, games::BotLevel level);
  std::optional<Refusal> remove_bot(PlayerId by, int seat);
  std::optional<Refusal> may_start(PlayerId by) const;

  // --- During the game. ---
  // A bot of `level` plays the seat from now on; the player stays a member and watches.
  void resign(int seat, games::BotLevel level);
  void replace(int seat, games::BotLevel level);  // after too many timeouts in a row
  // Off a finished table's list of members (and so off the player's games).
  bool forget(PlayerId player);
  // The player's new name on every seat they have or had; whether they have one.
  bool rename(const Player& player);

 private:
  std::optional<Refusal> require_host(PlayerId by) const;
  std::optional<Refusal> require_empty(int seat) const;

  std::vector<Seat> seats_;
  PlayerId host_;
};

}  // namespace elgrande::server
