#pragma once

#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "common/id_supply.hpp"
#include "common/player.hpp"
#include "common/recipient.hpp"
#include "common/strand_actor.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "common/net.hpp"
#include "events/bus.hpp"
#include "events/events.hpp"
#include "ops/metrics.hpp"
#include "presence/presence.hpp"
#include "storage/storage.hpp"
#include "tables/chat_limits.hpp"
#include "tables/table_chat.hpp"
#include "tables/directory.hpp"
#include "tables/seating.hpp"
#include "tables/table_config.hpp"
#include "tables/table_endpoint.hpp"
#include "tables/table_feed.hpp"
#include "tables/table_saver.hpp"
#include "tables/turn_keeper.hpp"

namespace elgrande::server {

class BlockLists;
class BotWorkers;
class Ratings;
class Sanctions;
class Webhook;

// What every table needs from the server around it, handed over at construction.
struct TableServices {
  const games::GameModule& game;  // what every table plays (one game today: docs/modules.md)
  Storage& storage;
  Metrics& metrics;
  Webhook* webhook;  // none when no webhook is configured
  Presence& presence;
  TableDirectory& directory;
  TableSettings settings;
  // Messages a table may hold for one connection until their save commits (see TableFeed).
  std::size_t max_held_messages = 1024;
  // Where a finished game is published (SavingResult in the result's transaction, then
  // GameFinished once it commits): ratings and tournaments listen. None: no one hears.
  const Bus* bus = nullptr;
  ChatLimits chat_limits;  // one for all tables: a player's lines count wherever they are said
  const Sanctions* sanctions = nullptr;  // who is muted; none: nobody
  const BlockLists* block_lists = nullptr;  // whom each player blocks; none: nobody blocks
  // Chat lines' ids, across tables: lines are numbered here, before they are saved, so
  // that a moderator can name one to remove.
  IdSupply* chat_line_ids = nullptr;
  // Everyone's current ratings, shown beside names; none: no one is shown one.
  const Ratings* ratings = nullptr;
  // Whether a player has an account now: only account holders are rated, so only they are
  // shown a rating. None: nobody is.
  std::function<bool(PlayerId)> has_account = nullptr;
  // Where searching bots think, off the tables' strands; none: every bot plays at random.
  BotWorkers* bot_workers = nullptr;
};

// One table and its game: the coordinator of its seating, turn keeping, feed and saving.
// Everything runs on the table's own strand: requests and timer expiries are posted to it,
// so the game state needs no lock and no call on it ever blocks.
//
// Every change is saved before anyone hears of it: the table hands its new rows and
// commands to Storage, and its feed holds back every message produced after that
// (replies, updates, turn notifications) until the commit is reported. Meanwhile it goes
// on serving requests against the state in memory; their messages queue behind.
class Table final : public TableEndpoint,
                    public std::enable_shared_from_this<Table>,
                    public StrandActor<Table>,
                    private TurnTaker {
 public:
  using Clock = std::chrono::steady_clock;

  // A new table as `spec` describes it; call open() once it is in the directory.
  Table(Strand strand, TableServices& services, TableId id, TableSpec spec);
  // A table brought back from the database at start, with its seats' players looked up;
  // call resume() once it is in the directory.
  Table(Strand strand, TableServices& services, db::RestoredTable restored, Seating seating);
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // TableEndpoint: each call but the first three posts to the strand and returns at once.
  TableId id() const override { return id_; }
  int phase() const override { return phase_.load(std::memory_order_relaxed); }
  TableListing& listing() override { return listing_; }
  void handle(Handler handler, TableRequest request, std::string_view text) override;
  void player_connected(RecipientPtr connection, PlayerId player) override;
  void connection_closed(const Recipient* connection) override;
  void player_renamed(Player player) override;
  void call_time() override;
  void close() override;

  // Saves the new table, then answers its creator (if any) with table.create.ok.
  void open(RecipientPtr creator, std::optional<protocol::RequestId> request_id);
  // Publishes a restored table and restarts its bots and clocks.
  void resume();

  // --- Requests, run by handle() on the strand; each answers with a reply or an error. ---
  void join(const TableRequest& r);
  void choose_seat(const TableRequest& r);
  void leave(const TableRequest& r);
  void add_bot(const TableRequest& r);
  void remove_bot(const TableRequest& r);
  void start(const TableRequest& r);
  void spectate(const TableRequest& r);
  void chat(const TableRequest& r);
  void kick(const TableRequest& r);  // a moderator's, checked by mod.kick before it comes here
  void remove_chat(const TableRequest& r);  // a moderator's, checked by mod.delete_chat
  void command(const TableRequest& r);
  void resign(const TableRequest& r);
  void view_again(const TableRequest& r);  // game.view: the whole view, for a client that lost track

 private:
  // The table's work runs on its strand (StrandActor). An exception there is a bug (the
  // engine found its own state impossible, say): this table stops, and the rest of the
  // server goes on.
  friend class StrandActor<Table>;
  // Refuses everything from now on (`internal`) and stops the bots and clocks. Whatever
  // was committed stays, and a restart brings the table back from it.
  void stop(std::string_view why);

  bool require_status(const TableRequest& r, TableStatus status, std::string_view doing);
  // Reads the payload's "seat"; false (after answering) when it is missing but required,
  // or bad.
  bool read_seat(const TableRequest& r, bool required, std::optional<int>& seat);
  void reply(const TableRequest& r, protocol::Json payload = protocol::Json::object());
  void refuse(const TableRequest& r, protocol::ErrorCode code, std::string_view message,
              std::string_view reason = {}, const protocol::Json& facts = nullptr);
  void refuse(const TableRequest& r, const Refusal& refusal) {
    refuse(r, refusal.code, refusal.message, {}, refusal.facts);
  }

  // --- The game. ---
  // Answers `asked` (the host's table.start) once the start is saved.
  void start_game(const TableRequest* asked = nullptr);
  std::optional<int> waiting_bot() const;  // the lowest bot seat owing a decision, not thinking yet
  // Notes the version at which the seats of `posed` were asked their decision.
  void note_decisions(std::uint8_t posed);
  // Logs a move the game took.
  void log(int seat, const games::Move& move, db::Source source);
  std::uint64_t bot_seed(int seat) const;
  // A bot of `level` answers for the seat: a random one at once, a searching one on the
  // bot workers, its answer played when it comes back if the seat still owes the decision
  // it was asked (answered()).
  void answer_for(int seat, games::BotLevel level, db::Source source);
  void answered(int seat, std::uint32_t posed_at, db::Source source, const games::MovePtr& move);
  // The bots' and clocks' move, which the game must take.
  void play_answer(int seat, db::Source source, const games::Move& move);
  bool thinking(int seat) const { return (thinking_ >> seat) & 1u; }
  // After every change of the game, in two steps so that a reply can go between them:
  // changed() updates whose turn it is, the clocks and the status, and saves; it returns
  // whose turn it was before. announce() sends everyone's update, tells the webhook,
  // and schedules bots and clocks (or ends the game).
  // An undo keeps the actor's clock running: taking back and trying again buys no time.
  std::uint8_t changed(const games::Step& step, std::optional<int> actor, bool undone = false);
  void announce(const games::Said* said, std::uint8_t waiting_before);
  void finish();
  void expire(Clock::duration after);  // leaves the directory then

  // TurnTaker.
  std::shared_ptr<TurnTaker> turn_taker() override { return {shared_from_this(), this}; }
  bool may_play() override;
  void bot_turn() override;
  void time_ran_out(int seat) override;
  void deadlines_moved() override;

  // --- Saving: save() hands every change since the last save to Storage; saved() runs
  // when it is committed and releases the messages that waited for it. ---
  db::TableRecord record() const;
  void save();
  void persist(Storage::Work work);
  void saved(std::uint64_t save, bool committed);

  // --- Messages. ---
  protocol::Json description() const;  // the Table shape of docs/protocol.md
  protocol::Json result() const;       // scores and winners
  // Why the game does not move ratings as the seats stand ("table", "accounts" or
  // "time_called"), or nothing when it does: `rated` and `unrated` of the description.
  std::optional<std::string_view> unrated_reason() const;
  // A viewer's game.update: whole and/or as a patch of the view sent to that viewer last
  // (which it then replaces), as `whole` and `patch` ask.
  TableFeed::Update game_update(int viewer, const games::Said* said, bool whole, bool patch);
  std::string whole_update(int viewer);
  void send_updates(const games::Said* said);  // every viewer's, to every connection
  void send_table_update();  // to the directory, then to every member
  // The finished game as the bus tells it, while its result is being saved.
  GameFinished finished_event() const;
  // The recent chat, without the lines of whom `player` blocks.
  void send_recent_chat(const RecipientPtr& to, PlayerId player);
  // Frees the player's seat before the start, and saves; true when that left the table to
  // bots alone and closed it (the caller then removes it from the directory).
  bool unseat(PlayerId player);
  void notify_turns(std::uint8_t before);  // the webhook, for seats whose turn just came
  void publish_turns();                    // whose turn it is, for "my games"

  TableServices& services_;
  const TableId id_;
  const TableConfig config_;
  const bool auto_start_;
  std::function<void(db::Store&, TableId)> first_save_;  // see TableSpec; none once saved
  std::int64_t created_at_ms_ = 0;
  std::optional<std::int64_t> started_at_ms_;
  std::optional<std::int64_t> finished_at_ms_;

  TableStatus status_ = TableStatus::open;
  Seating seating_;
  bool result_saved_ = false;  // the result rows are saved, or on their way
  std::set<PlayerId> welcomed_;  // members whose connections the feed has from presence
  TableChat chat_;

  std::atomic<int> phase_{0};
  std::unique_ptr<games::Game> game_;  // once started
  std::uint64_t seed_ = 0;
  std::uint8_t waiting_ = 0;  // seats owing a decision (bit per seat)
  std::array<std::uint32_t, games::kMaxSeats> posed_at_{};  // the version each seat's was posed at
  std::uint8_t thinking_ = 0;  // seats whose answer a bot is searching for (bit per seat)
  // Per seat, the decision (by posed_at_) whose timeout was last counted.
  std::array<std::optional<std::uint32_t>, games::kMaxSeats> timed_out_at_{};

  TableSaver saver_;
  TableFeed feed_;
  TurnKeeper turns_;
  TableListing listing_;
  std::optional<db::GameResult> finishing_;  // the result, until its save commits
  std::uint64_t finishing_save_ = 0;         // the save that carries it
  // What the listeners of SavingResult left to do once the result commits (filled in on the
  // storage thread, run on this strand), and what they announced, for who comes back.
  std::shared_ptr<std::vector<std::function<std::optional<Announcement>()>>> after_result_;
  // Since the last save: whose moves it logs and whose turn it became (SavingTurns).
  struct TurnNews {
    std::vector<PlayerId> played;
    std::vector<PlayerId> owing;
  } turn_news_;
  std::vector<Announcement> announcements_;
  bool closed_ = false;  // removed from the directory or shutting down
  bool shutting_down_ = false;  // the server stops: requests go unanswered
  net::steady_timer expiry_timer_;
};

}  // namespace elgrande::server
