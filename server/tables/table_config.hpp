#pragma once

#include <chrono>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/player.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/codec.hpp"

namespace elgrande::db {
class Store;
}

namespace elgrande::server {

enum class TableStatus : std::uint8_t { open, playing, finished };
std::string_view name(TableStatus status);
std::optional<TableStatus> table_status_from(std::string_view name);

// What happens when a seat's time runs out.
enum class OnTimeout : std::uint8_t {
  bot_answers,   // the server's bot answers this decision; the seat stays the player's
  replace_seat,  // the same, and after `replace_after` timeouts in a row a bot takes the seat
};
std::string_view name(OnTimeout policy);
std::optional<OnTimeout> on_timeout_from(std::string_view name);

// What a table's creator chose: the game and its clock.
struct TableConfig {
  std::string name;  // empty: "Table <id>"
  games::Json options;  // the game module's, normalised (GameModule::read_options)
  int turn_seconds = 0;  // 0: no limit
  OnTimeout on_timeout = OnTimeout::bot_answers;
  int replace_after = 0;  // with replace_seat: timeouts in a row that cost the seat
  // Whether the finished game moves its players' ratings (docs/ratings.md); none: the
  // default of whatever makes the table (the lobby: rated when the host has an account).
  std::optional<bool> rated;
  // Whether the finished game's replay and record keep each seat's secrets (hands, disks,
  // the castillo): spectators' information only. Open by default (docs/replays.md#secrets).
  bool secrets_closed = false;
};

// The limits every table config is checked against, wherever it comes from.
inline constexpr std::size_t kMaxTableNameBytes = 64;
// A turn limit: none (0), or from a second (blitz, and tests) to two weeks (games by mail).
inline constexpr int kMinTurnSeconds = 1;
inline constexpr int kMaxTurnSeconds = 14 * 24 * 3600;
// With on_timeout "replace_seat": the timeouts in a row that cost a seat, unless chosen.
inline constexpr int kDefaultReplaceAfter = 3;
inline constexpr int kMaxReplaceAfter = 10;

// Reads a table config from a request payload (table.create's fields: name, options,
// turn_seconds, on_timeout, replace_after, rated, secrets_after_end); `game` reads the options. The error's
// message names the field.
protocol::Decoded<TableConfig> table_config_from_json(const protocol::Json& payload, const games::GameModule& game);

// How a table is made: by the lobby for a player who creates one, and later by
// tournaments and "play now" for players they seat themselves.
struct TableSpec {
  TableConfig config;
  // May add and remove bots and start; passes to another player who leaves. It must be a
  // saved identity (the database refers to it): tables without a host (tournaments) will
  // need a schema that allows one.
  PlayerId host = 0;
  // Who sits where from the start: none (an empty seat), a player, or a bot. Missing
  // entries are empty seats.
  struct SeatSpec {
    enum class Kind : std::uint8_t { empty, player, bot } kind = Kind::empty;
    std::optional<Player> player;
  };
  std::vector<SeatSpec> seats;
  // Starts the game as soon as no seat is empty, without waiting for the host.
  bool auto_start = false;
  // Runs in the transaction that first saves the table, with its id: what made the table
  // (a tournament's board) records it there, so that the two are saved together or not at all.
  std::function<void(db::Store&, TableId)> first_save;

  // The lobby's table of `seats` seats: its creator hosts it from seat 0, and starts it when ready.
  static TableSpec hosted_by(Player host, TableConfig config, int seats);
};

// What every table needs from the server around it, fixed at startup.
struct TableSettings {
  std::chrono::milliseconds bot_delay{600};
  // The level of bots made without naming one (a host's, play now's), and of the bot that
  // answers for a late seat and plays a resigned or replaced one (docs/ai.md).
  games::BotLevel bot_level = games::BotLevel::medium;
  games::BotLevel replacement_bot_level = games::BotLevel::medium;
  // A finished table stays for spectators and late readers this long, then goes.
  std::chrono::minutes finished_lifetime{60};
  // A deadline that passed while the server was down (or could not save) is moved to this
  // long after it can save again (or the table's whole turn time, if shorter), so that
  // nobody loses a turn to an outage without a chance to come back.
  std::chrono::seconds restart_grace{60};
};

}  // namespace elgrande::server
