#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string_view>

#include "common/player.hpp"
#include "common/recipient.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/envelope.hpp"

namespace elgrande::server {

class Table;
class TableListing;

// A request for a table, as the connection's handler hands it over.
struct TableRequest {
  RecipientPtr from;  // the connection that asked
  Player player;
  protocol::Envelope envelope;
  std::chrono::steady_clock::time_point received;
  std::optional<games::CommandMessage> game_command;  // as in Request
};

// A table as the rest of the server reaches it: the directory, hello and farewell, the
// dispatcher and tournaments know no more of it than this. A table this process runs is a
// Table; once tables are spread over the processes (docs/scaling.md, issue 47), one that
// another process owns is reached through this too, its requests relayed there. Every call
// returns at once: the table does the work on its own strand.
class TableEndpoint {
 public:
  // What a request asks of the table (a Table's request handler, picked by the request's
  // type in app/dispatcher.cpp).
  using Handler = void (Table::*)(const TableRequest&);

  virtual ~TableEndpoint() = default;

  virtual TableId id() const = 0;
  // The game's phase (an index into the module's phases()), readable from any thread (for
  // metrics); counted only while the game is on.
  virtual int phase() const = 0;
  // What the lobby and "my games" show of it.
  virtual TableListing& listing() = 0;

  // Runs `handler` for the request; its answer goes to the request's connection. `text` is
  // the message as its client sent it, valid during the call: a table another process
  // owns is sent that, rather than the request read again.
  virtual void handle(Handler handler, TableRequest request, std::string_view text) = 0;
  // A connection of a member opened (it gets the table and its view) or one closed.
  virtual void player_connected(RecipientPtr connection, PlayerId player) = 0;
  virtual void connection_closed(const Recipient* connection) = 0;
  // The player's new name on their seat and their chat lines here; the members are told.
  virtual void player_renamed(Player player) = 0;
  // Time is called (a tournament round's limit): a game in play ends at once with the
  // scores as they stand, and its result is saved like that of a game played out.
  virtual void call_time() = 0;
  // The server shutting down: stops the timers, and answers no more requests.
  virtual void close() = 0;
};

using TableEndpointPtr = std::shared_ptr<TableEndpoint>;

}  // namespace elgrande::server
