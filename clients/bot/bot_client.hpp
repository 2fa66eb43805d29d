#pragma once

// A WebSocket client that plays El Grande with random legal moves: the reference client
// of docs/protocol.md, the driver of the integration tests and the load tool.
//
// Everything runs on one io_context on the caller's thread. A Swarm holds many Clients,
// one per seat (each its own identity and connection), and sets up tables for them.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/engine/options.hpp"
#include "elgrande/engine/rng.hpp"

namespace elgrande::bot {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Where the server is: ws://HOST:PORT/PATH.
struct Url {
  std::string host;
  std::string port;
  std::string path = "/ws";
};
std::optional<Url> parse_url(std::string_view text);

class Swarm;

// One player on one connection. Answers every decision its view shows with
// random_command(view), one command in flight at a time, each carrying the version of the
// game.update it answers.
class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(Swarm& swarm, std::size_t index, std::string name, std::uint64_t seed);

  // Connects and says hello (with the token from an earlier connection, if any).
  void connect();
  // Cuts the connection without a close handshake, as a crashed browser would.
  void drop();
  void send(const Json& message);

  std::size_t index() const { return index_; }
  bool connected() const { return open_; }
  const std::optional<std::int64_t>& player_id() const { return player_id_; }
  const std::string& token() const { return token_; }
  std::optional<std::int64_t> table() const { return table_; }
  std::optional<int> seat() const { return seat_; }
  bool game_over() const { return game_over_; }
  // A tournament entrant's work is done when its tournament is; anyone else's when its game is.
  bool done() const { return entrant_ && !entrant_->play_now ? tournament_over_ : game_over_; }
  bool entrant() const { return entrant_.has_value(); }
  bool spectator() const { return spectator_; }
  const Json& result() const { return result_; }
  std::size_t reconnections() const { return reconnections_; }
  // The server address this client uses now (SwarmSettings::more_urls).
  const Url& url() const;
  // Every frame received, in order, when the swarm records frames (a reconnection starts
  // a new connection but not a new list).
  const std::vector<std::string>& frames() const { return frames_; }

 private:
  friend class Swarm;

  void on_connect(beast::error_code ec);
  void on_handshake(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_message(const Json& message);
  void on_game_update(const Json& payload);
  void act(bool thought = false);  // thought: the think time is over, answer now
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void fail(std::string_view what, beast::error_code ec);

  Swarm& swarm_;
  std::size_t index_;
  std::string name_;
  Rng rng_;
  // A player the server seats: signs up as this account, then registers for a tournament
  // and plays every table it seats them at until it is over, or asks to play now
  // (play.join with this payload) and plays the table it is matched to.
  struct Entrant {
    std::int64_t tournament = 0;
    std::string username;
    bool account = false;  // signed up: reconnections say hello with the session's token
    bool signing_up = false;  // account.sign_up sent, not yet answered
    std::optional<Json> play_now;
    std::optional<Clock::time_point> joined_queue;    // play.join sent
    std::optional<Clock::time_point> first_decision;  // of its table, this seat's first
  };
  std::optional<Entrant> entrant_;
  bool tournament_over_ = false;

  std::unique_ptr<websocket::stream<beast::tcp_stream, false>> ws_;  // no permessage-deflate
  tcp::resolver resolver_;
  net::steady_timer retry_;  // after a rate_limited refusal, or a lost connection
  net::steady_timer think_;
  bool thinking_ = false;  // waiting out the think time
  beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;
  bool open_ = false;

  std::optional<std::int64_t> player_id_;
  std::string token_;
  std::optional<std::int64_t> table_;
  std::optional<int> seat_;
  bool spectator_ = false;
  std::int64_t next_id_ = 1;

  // The latest game.update, and the version this client last answered.
  Json latest_;  // the last game.update's payload
  // The view it holds of each table it hears from: whole from the server, then patched (a
  // tournament's player may still hear from the table before while the next one begins).
  std::map<std::int64_t, Json> views_;
  std::int64_t latest_version_ = -1;
  std::int64_t acted_version_ = -1;
  std::optional<Clock::time_point> in_flight_;  // a game.command awaiting its reply
  bool game_over_ = false;
  Json result_;
  std::vector<std::string> frames_;
  std::size_t reconnections_ = 0;
};

// A table the swarm sets up: `options.players` seats, the last `server_bots` of them
// played by the server's bots, the others by this swarm's clients.
struct TableSpec {
  Options options;
  int server_bots = 0;
  std::string server_bot_level;  // how they play (docs/ai.md); empty: the server's default
  int turn_seconds = 0;
  int spectators = 0;  // extra clients that watch the table from its start
};

struct SwarmSettings {
  Url url;
  // Other processes serving the same community (docs/scaling.md): client i connects to the
  // i-th of url and these, in turn, and after each lost connection to the next one, as
  // clients behind a load balancer would.
  std::vector<Url> more_urls;
  std::uint64_t seed = 1;
  bool record_frames = false;
  // A client whose connection fails (the server restarts) connects again after this
  // pause, as often as needed, and carries on with its token.
  bool reconnect = false;
  std::chrono::milliseconds reconnect_pause{200};
  // How long a client waits before answering a decision (0: at once).
  std::chrono::milliseconds think{0};
  // The protocol version the clients speak: 2 takes view patches, 1 whole views.
  int protocol = 2;
  // Called with every message a client receives, after the client has handled it.
  std::function<void(Client&, const Json&)> on_message;
  // Called with every message a client sends.
  std::function<void(Client&, const Json&)> on_send;
};

struct Report {
  std::size_t tables = 0;
  std::size_t games_finished = 0;
  std::size_t commands = 0;        // accepted game.command replies
  std::map<std::string, std::size_t> errors;  // error replies by code[/engine reason]
  std::map<std::string, std::string> error_examples;  // the first message of each
  std::vector<std::string> failures;          // connection failures and protocol surprises
  double seconds = 0;
  // From sending a command to every swarm seat of its table having the update with the
  // resulting version, in microseconds.
  std::vector<double> latencies_us;
  // Per play-now table of this swarm's seekers only: from the last of them sending
  // play.join to the first of them being shown a decision, in milliseconds.
  std::vector<double> join_to_decision_ms;
};

class Swarm {
 public:
  explicit Swarm(SwarmSettings settings);
  ~Swarm();
  Swarm(const Swarm&) = delete;
  Swarm& operator=(const Swarm&) = delete;

  void add_table(const TableSpec& spec);
  // `count` clients that sign up as accounts `<prefix><n>`, register for the tournament,
  // and play every table it seats them at; run() then lasts until the tournament is over.
  void add_entrants(std::size_t count, std::int64_t tournament, const std::string& prefix);
  // `count` clients that sign up as accounts `<prefix><n>`, ask to play now with this
  // play.join payload, and play the table the server seats them at.
  void add_seekers(std::size_t count, const Json& play_join, const std::string& prefix);
  // Runs until every table's game is over at every seat, or until `limit`.
  Report run(std::chrono::seconds limit);

  net::io_context& io() { return io_; }
  const std::vector<std::shared_ptr<Client>>& clients() const { return clients_; }
  const SwarmSettings& settings() const { return settings_; }

 private:
  friend class Client;

  struct TableRun {
    TableSpec spec;
    std::vector<std::size_t> seated;    // client indexes, the host first
    std::vector<std::size_t> watching;  // spectating clients
    std::optional<std::int64_t> id;
    std::size_t joined = 0;
    bool started = false;
    // Commands whose resulting version not every seat has seen yet: version -> sent.
    std::map<std::int64_t, Clock::time_point> pending;
  };

  // Client callbacks.
  void on_hello(Client& client);
  // Entrants sign up a few at a time, as people arriving would: a server refuses password
  // hashes beyond what its workers can queue (unavailable), and such a refusal is tried
  // again a second later.
  void sign_up_later(Client& client);
  void sign_up_next();
  void on_sign_up_answer(Client& client, const Json& message);
  void join(Client& client, std::int64_t table);  // sit down, or watch
  void on_reply(Client& client, const Json& message, std::optional<Clock::time_point> sent);
  void on_version_seen(Client& client, std::int64_t version);
  void failure(std::string what);
  void check_done();
  std::vector<double> join_to_decision_ms() const;

  SwarmSettings settings_;
  net::io_context io_;
  std::vector<std::shared_ptr<Client>> clients_;
  std::vector<TableRun> tables_;
  std::map<std::size_t, std::size_t> table_of_client_;
  static constexpr std::size_t kSignUpsAtOnce = 16;
  std::deque<std::size_t> to_sign_up_;  // client indexes, in order of their hello
  std::size_t signing_up_ = 0;
  Report report_;
};

}  // namespace elgrande::bot
