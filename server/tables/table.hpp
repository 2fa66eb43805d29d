#pragma once

#include <array>
#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/db/store.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "lobby.hpp"
#include "storage.hpp"

namespace elgrande::server {

// One table and its game. Everything here runs on the table's own strand: requests from
// connections and timer expiries are posted to it, so the game state needs no lock and
// no call on it ever blocks.
//
// Every change is saved before anyone hears of it: the table hands its new rows and
// commands to Storage, and holds back every message produced after that (replies,
// updates, turn notifications) in its outbox until the commit is reported. Meanwhile it
// goes on serving requests against the state in memory; their messages queue behind.
class Table : public std::enable_shared_from_this<Table> {
 public:
  using Clock = std::chrono::steady_clock;

  // A new table, with its host at seat 0.
  Table(net::any_io_executor executor, Lobby& lobby, Storage& storage, TableId id, Player host,
        TableConfig config);
  // A table brought back from the database at start; call resume() once it is listed.
  Table(net::any_io_executor executor, Lobby& lobby, Storage& storage, db::RestoredTable restored);
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  TableId id() const { return id_; }
  // The game's phase, readable from any thread (for metrics).
  Phase phase() const { return phase_.load(std::memory_order_relaxed); }

  // Each posts to the strand and returns at once.
  // Saves the new table, then answers the creator with table.create.ok.
  void open(std::shared_ptr<WsSession> host_session, std::optional<protocol::RequestId> request_id);
  // Publishes a restored table and restarts its bots and clocks.
  void resume();
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
    bool replaced = false;  // handed to a bot after repeated timeouts
    int timeouts = 0;       // in a row; reset when the player answers
    // The seat's pending decision times out then (turn limits only).
    std::optional<Clock::time_point> deadline;
    std::int64_t deadline_unix_ms = 0;
  };
  struct Request {
    std::shared_ptr<WsSession> session;
    Player player;
    protocol::Envelope envelope;
  };
  // A message waiting for the save it depends on; no session means the turn webhook.
  struct Outgoing {
    std::uint64_t after_save;
    std::shared_ptr<WsSession> to;
    std::shared_ptr<const std::string> message;
  };

  // Runs the table's work on its strand. An exception there is a bug (the engine found its
  // own state impossible, say): this table stops, and the rest of the server goes on.
  template <class Work>
  void guarded(Work&& work) noexcept {
    try {
      work();
    } catch (const std::exception& error) {
      stop(error.what());
    }
  }
  // Refuses everything from now on (`internal`) and stops the bots and clocks. Whatever
  // was committed stays, and a restart brings the table back from it.
  void stop(std::string_view why);

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
  // The payload's "seat", which must be empty, or else the first empty seat.
  bool pick_empty_seat(const Request& r, std::optional<int>& seat);

  void reply(const Request& r, protocol::Json payload = protocol::Json::object());
  void refuse(const Request& r, protocol::ErrorCode code, std::string_view message,
              std::string_view reason = {});

  std::optional<int> seat_of(PlayerId player) const;  // a seat the player plays now
  std::optional<int> first_empty_seat() const;
  std::optional<int> waiting_bot() const;  // the lowest bot seat owing a decision
  bool is_host(PlayerId player) const { return host_ == player; }
  void hand_over_host();
  void hand_to_bot(int seat);  // for the rest of the game

  // The engine step shared by bots and timeouts; the command must be accepted.
  void play(int seat, const Command& command, db::Source source, Events& events);
  Rng bot_rng() const;
  // After every change of the game, in two steps so that a reply can go between them:
  // changed() updates whose turn it is, the clocks and the status, and saves; it returns
  // whose turn it was before. announce() sends everyone's update, tells the webhook,
  // and schedules bots and clocks (or ends the game).
  std::uint8_t changed(std::optional<int> actor);
  void announce(const Events& events, std::uint8_t waiting_before);
  void after_change(const Events& events, std::optional<int> actor);
  void update_deadlines(std::optional<int> actor);
  void schedule_bot();
  void schedule_clock();
  void on_clock();
  void finish();
  void expire(Clock::duration after);  // leaves the lobby then

  // Persistence: save() hands every change since the last save to Storage; saved() runs
  // when it is committed and releases the messages that waited for it.
  db::TableRecord record() const;
  void save();
  void persist(Storage::Work work);  // messages sent after this wait for its commit
  void saved(std::uint64_t save, bool committed);
  void send(const std::shared_ptr<WsSession>& to, std::shared_ptr<const std::string> message);
  void send(const std::shared_ptr<WsSession>& to, std::string message) {
    send(to, std::make_shared<const std::string>(std::move(message)));
  }
  void dispatch(const std::shared_ptr<WsSession>& to, std::shared_ptr<const std::string> message);  // now
  void flush();

  // Messages.
  protocol::Json description() const;  // the Table shape of docs/protocol.md
  protocol::Json result() const;       // scores and winners
  std::string game_update(int viewer, const Events& events) const;
  void send_table_update();           // to every member, and to the lobby
  void send_game_updates(const Events& events);
  void send_to_members(const std::string& message);  // seated players and spectators
  void send_recent_chat(const std::shared_ptr<WsSession>& to);  // to one who comes (back)
  void notify_turns(std::uint8_t before);  // the webhook, for seats whose turn just came
  void publish_turns();                    // whose turn it is, for "my games"

  net::any_io_executor strand_;
  Lobby& lobby_;
  Storage& storage_;
  const TableId id_;
  const TableConfig config_;
  PlayerId host_;
  std::int64_t created_at_ms_ = 0;
  std::optional<std::int64_t> started_at_ms_;
  std::optional<std::int64_t> finished_at_ms_;

  TableStatus status_ = TableStatus::open;
  std::vector<Seat> seats_;
  std::vector<std::weak_ptr<WsSession>> spectators_;
  std::deque<db::ChatLine> recent_chat_;  // the last db::kRecentChat lines, oldest first

  std::atomic<Phase> phase_{Phase::power_cards};
  std::optional<GameState> game_;
  std::uint64_t seed_ = 0;
  std::uint8_t waiting_ = 0;  // seats owing a decision (bit per seat)

  // Persistence.
  std::vector<db::LoggedCommand> unsaved_;       // commands applied since the last save
  std::optional<db::TableRecord> saved_record_;  // the rows as last handed to Storage
  std::uint32_t snapshot_version_ = 0;           // the game's version at the last snapshot
  std::uint64_t saves_ = 0;                      // saves handed to Storage
  std::uint64_t committed_ = 0;                  // of which committed
  bool broken_ = false;                          // a save failed for good
  std::deque<Outgoing> outbox_;
  std::deque<std::pair<std::uint64_t, Clock::time_point>> commands_waiting_;  // for latency

  net::steady_timer bot_timer_;
  net::steady_timer clock_timer_;
  net::steady_timer expiry_timer_;
  bool bot_scheduled_ = false;
  std::uint64_t clock_generation_ = 0;
  bool closed_ = false;  // removed from the lobby or shutting down
};

}  // namespace elgrande::server
