#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/player.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/protocol/codec.hpp"

namespace elgrande::server {

// The events of the Bus (events/bus.hpp): what happened, in the game's words, with what its
// listeners need to know and nothing of who publishes it.

// A seat of a finished game, beside its result row: how it ended for the seat.
struct FinishedSeat {
  std::optional<PlayerId> player;  // none: a server bot's seat
  bool resigned = false;
  bool replaced = false;  // by a bot, after too many timeouts
  std::string name;  // as the table showed it (a bot's, too)
};

// A game's end, played out or by time called, as its table saves the result rows.
struct GameFinished {
  db::GameResult result;  // the rows saved: the table, when, each seat's score
  std::vector<FinishedSeat> seats;  // in seat order
  std::string ladder;  // the rating ladder its game counts on (GameModule::ladder)
  bool rated = false;  // a rated table's game, played out: ratings rate it (or say why not)
  std::string table_name;
};

// Something a listener has to tell the finished table's members once the result is saved,
// as a push message of `type` (`table.rated`). The table keeps it for members who come back.
struct Announcement {
  std::string type;
  protocol::Json payload;
};

// Published inside the transaction that saves a finished game's result, on the database's
// writer thread: for work that must commit with the result or not at all (ratings). A
// listener writes through `store` and may leave, in `after_commit`, what to do once the
// transaction has committed: it runs on the table's strand, before GameFinished is
// published, and may give an announcement for the table's members.
struct SavingResult {
  const GameFinished& game;
  db::Store& store;
  std::vector<std::function<std::optional<Announcement>()>>& after_commit;
};

// A table's save that logs a person's move or makes it someone's turn, published inside its
// transaction on the database's writer thread (as SavingResult): a turn notice is written
// with the move that causes it, and dropped with the move that answers it
// (docs/notifications.md). A listener must be quick: every person's move publishes it.
struct SavingTurns {
  std::int64_t table = 0;
  const std::string& table_name;
  std::vector<PlayerId> played;  // whose moves this save logs (a person's own, not a bot's for them)
  std::vector<PlayerId> owing;   // whose turn it became, none of them among `played`
  db::Store& store;
};

// A new table's first save, inside its transaction on the database's writer thread: a
// process of a cluster takes the table it creates (cluster/table_claims.hpp).
struct SavingNewTable {
  std::int64_t table = 0;
  db::Store& store;
};

// A tournament's board has its table, inside the table's first transaction on the database's
// writer thread: its players are told where they play (notices), with the table.
struct BoardSeated {
  std::int64_t tournament = 0;
  const std::string& tournament_name;
  int round = 0;
  std::int64_t table = 0;
  const std::string& table_name;
  const std::vector<PlayerId>& players;
  db::Store& store;
};

// A player registered for a tournament, inside the transaction that saves the entry: a
// reminder before it starts is written with it (notices).
struct EntrantRegistered {
  std::int64_t tournament = 0;
  const std::string& tournament_name;
  std::optional<std::int64_t> starts_at;  // Unix ms; none: the director starts it
  int check_in_minutes = 0;               // before starts_at; 0: no check-in
  PlayerId player = 0;
  db::Store& store;
};

// A tournament finished, inside the transaction that saves it: each entrant's final place.
struct TournamentEnded {
  std::int64_t tournament = 0;
  const std::string& tournament_name;
  const std::vector<std::pair<PlayerId, int>>& places;  // by place, 1 first
  db::Store& store;
};

// An account is being deleted, inside the transaction that deletes it on the database's
// writer thread: each capability forgets the player's personal data with it (notices: the
// address, tokens, devices, preferences and waiting notices).
struct ForgettingPlayer {
  PlayerId player = 0;
  db::Store& store;
};

// A player took a new name (hello with a token and another name), saved.
struct PlayerRenamed {
  Player player;
};

}  // namespace elgrande::server
