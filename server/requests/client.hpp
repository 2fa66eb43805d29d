#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "common/player.hpp"
#include "common/recipient.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/envelope.hpp"

namespace elgrande::server {

class TableEndpoint;

// One decoded request, as its handler receives it.
struct Request {
  protocol::Envelope envelope;
  std::chrono::steady_clock::time_point received;
  // A game.command read whole on the game module's fast path: its payload is here, decoded,
  // and the envelope's is empty.
  std::optional<games::CommandMessage> game_command;
  // The message as its client sent it, valid while the request is handled: what a table
  // another process owns is sent (TableEndpoint::handle).
  std::string_view text;
};

// The connection a request came on, as request handlers use it: a WebSocket today. Every
// member and method is for the connection's own strand, where handlers run, except
// Recipient's, which any thread may call.
class Client : public Recipient {
 public:
  // Sends at once, in order with the other answers of this strand.
  virtual void send(std::string message) = 0;
  // Runs `work` on the connection's strand (from another thread, such as the database's).
  virtual void post(std::function<void()> work) = 0;
  // While an answer waits (hello saving an identity), nothing more is read, so that no
  // later request can overtake it.
  virtual void pause_reading() = 0;
  virtual void resume_reading() = 0;
  virtual std::shared_ptr<Client> self() = 0;
  // Closes with 1001 (going away) after what is being written: the server is shutting
  // down. Callable from any thread.
  virtual void go_away() = 0;

  std::string address;            // the client's IP address, for caps and logs
  std::optional<Player> player;  // from hello: who this connection speaks for
  std::optional<std::int64_t> session;  // the account's session it signed in with, if any
  std::set<TableId> watching;    // tables it spectates, to tell when it closes
  // The tables it has spoken to, so that a game command finds its table without the
  // directory's lock.
  std::unordered_map<TableId, std::weak_ptr<TableEndpoint>> tables;
};

using ClientPtr = std::shared_ptr<Client>;

// Reads the payload's "protocol" (1 or 2) and notes whether the connection takes view
// patches; otherwise why not, for a bad_payload.
std::optional<std::string> read_protocol(const protocol::Json& payload, Client& client);

}  // namespace elgrande::server
