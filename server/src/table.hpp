#pragma once

#include <array>
#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/engine/game.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "lobby.hpp"

namespace elgrande::server {

// One table and its game. Everything here runs on the table's own strand: requests from
// connections and timer expiries are posted to it, so the game state needs no lock and
// no call on it ever blocks. Outgoing messages are serialised once per seat (and once
// for all spectators) and handed to each connection's own queue.
class Table : public std::enable_shared_from_this<Table> {
 public:
  using Clock = std::chrono::steady_clock;

  Table(net::any_io_executor executor, Lobby& lobby, TableId id, std::string name, Player host,
        Options options, int turn_seconds);
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  TableId id() const { return id_; }
  // The game's phase, readable from any thread (for metrics).
  Phase phase() const { return phase_.load(std::memory_order_relaxed); }

  // Each posts to the strand and returns at once.
  // The creator sits at seat 0 and is answered with table.create.ok.
  void open(std::shared_ptr<WsSession> host_session, std::optional<protocol::RequestId> request_id);
  // A table.* or game.* request from `player` on `session`, read at `received`.
  void handle(std::shared_ptr<WsSession> session, Player player, protocol::Envelope request,
              Clock::time_point received);
  // A connection of a seated player opened (it gets the table and its view) or one closed.
  void player_connected(std::shared_ptr<WsSession> session, PlayerId player);
  void player_disconnected(PlayerId player);
  void spectator_left(const WsSession* session);
  void close();  // stops the timers so that they release the table

 private:
  struct Seat {
    enum class Kind : std::uint8_t { empty, human, bot } kind = Kind::empty;
    std::optional<Player> player;  // kept after a resignation, for the record
    bool resigned = false;
    // The seat's pending decision times out then (turn limits only).
    std::optional<Clock::time_point> deadline;
    std::int64_t deadline_unix_ms = 0;
  };
  struct Request {
    std::shared_ptr<WsSession> session;
    Player player;
    protocol::Envelope envelope;
  };

  // Request handlers; each answers with a reply or a typed error.
  void join(const Request& r);
  void choose_seat(const Request& r);
  void leave(const Request& r);
  void add_bot(const Request& r);
  void remove_bot(const Request& r);
  void start(const Request& r);
  void spectate(const Request& r);
  void chat(const Request& r);
  void command(const Request& r, Clock::time_point received);
  void resign(const Request& r);

  // Checks shared by the handlers: send the error and return false when they fail.
  bool require_status(const Request& r, TableStatus status, std::string_view doing);
  bool require_host(const Request& r);
  // Reads the payload's "seat" into `seat`; false (after answering) when it is bad.
  bool read_seat(const Request& r, bool required, std::optional<int>& seat);

  void reply(const Request& r, protocol::Json payload = protocol::Json::object());
  void refuse(const Request& r, protocol::ErrorCode code, std::string_view message,
              std::string_view reason = {});

  std::optional<int> seat_of(PlayerId player) const;  // a seat the player plays now
  std::optional<int> first_empty_seat() const;
  std::optional<int> waiting_bot() const;  // the lowest bot seat owing a decision
  bool is_host(PlayerId player) const { return host_ == player; }
  void hand_over_host();

  // The engine step shared by players, bots and timeouts; the command must be accepted.
  void play(int seat, const Command& command, Events& events);
  // After every change of the game: clocks, everyone's update, bots, the end.
  void after_change(const Events& events, std::optional<int> actor);
  void update_deadlines(std::optional<int> actor);
  void schedule_bot();
  void schedule_clock();
  void finish();

  // Messages.
  protocol::Json description() const;  // the Table shape of docs/protocol.md
  protocol::Json result() const;       // scores and winners
  std::string game_update(int viewer, const Events& events) const;
  void send_table_update();           // to every member, and to the lobby
  void send_game_updates(const Events& events);
  void send_to_members(const std::string& message);  // seated players and spectators

  net::any_io_executor strand_;
  Lobby& lobby_;
  const TableId id_;
  const std::string name_;
  PlayerId host_;
  const Options options_;
  const int turn_seconds_;

  TableStatus status_ = TableStatus::open;
  std::vector<Seat> seats_;
  std::vector<std::weak_ptr<WsSession>> spectators_;

  std::atomic<Phase> phase_{Phase::power_cards};
  std::optional<GameState> game_;
  std::uint64_t seed_ = 0;
  std::vector<RecordedCommand> log_;  // the game's command log (persisted by issue 5)
  Rng bots_{0};

  net::steady_timer bot_timer_;
  net::steady_timer clock_timer_;
  net::steady_timer expiry_timer_;
  bool bot_scheduled_ = false;
  std::uint64_t clock_generation_ = 0;
  bool closed_ = false;  // removed from the lobby or shutting down
};

}  // namespace elgrande::server
