#pragma once

#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/player.hpp"
#include "common/recipient.hpp"
#include "common/strand_actor.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/db/tournaments.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "common/net.hpp"
#include "events/events.hpp"
#include "tables/seating.hpp"
#include "tournaments/tournament_settings.hpp"

namespace elgrande::server {

class Identities;
class Metrics;
class Presence;
class Ratings;
class Storage;
class TableDirectory;
class TableFactory;
class Tournaments;

// What every tournament needs from the server around it, handed over at construction.
class Bus;

struct TournamentServices {
  Storage& storage;
  TableFactory& table_factory;
  const TableDirectory& tables;
  Presence& presence;
  const Identities& identities;
  Metrics& metrics;
  const Ratings* ratings = nullptr;  // what events seed by; none: they seed by lot
  // Where a board's table (BoardSeated) and an event's end (TournamentEnded) are published,
  // in their transactions; none: nobody hears.
  const Bus* bus = nullptr;
};

using TournamentId = std::int64_t;

// A request for a tournament, as the connection's handler hands it over.
struct TournamentRequest {
  RecipientPtr from;
  Player player;
  bool admin = false;      // admins may do whatever the director may
  bool may_enter = false;  // an account, or a guest where the configuration lets guests register
  protocol::Envelope envelope;
};

// One tournament: its registration, its rounds played as tables, its director's tools.
// Everything runs on its own strand, like a table's. Every change is saved before anyone
// hears of it; a save that fails for good stops the tournament, and a restart brings it
// back as last saved. Its rounds follow from the stored results alone (competition/), so
// after a restart it goes on where the database says it is: boards saved without their
// table get one, a round whose boards all finished meanwhile is closed, the next begins.
class Tournament : public std::enable_shared_from_this<Tournament>,
                   public StrandActor<Tournament, net::any_io_executor> {
 public:
  using Handler = void (Tournament::*)(const TournamentRequest&);

  Tournament(net::any_io_executor strand, TournamentServices& services, Tournaments& registry,
             db::StoredTournament stored, TournamentSettings settings);
  Tournament(const Tournament&) = delete;
  Tournament& operator=(const Tournament&) = delete;

  TournamentId id() const { return id_; }

  // Each posts to the strand and returns at once.
  // Saves the new tournament, then answers its creator with tournament.create.ok.
  void open(RecipientPtr creator, std::optional<protocol::RequestId> request_id);
  // After a restart: the tables its boards lack, the round that finished meanwhile, the
  // scheduled start, the round's time limit.
  void resume();
  void handle(Handler handler, TournamentRequest request);
  // A board's game is over and its result saved (the table's strand calls this).
  void game_finished(GameFinished finished);
  void close();  // shutting down: stops the timers

  // What the list and the detail show, as last saved; readable from any thread.
  protocol::Json summary() const;
  std::shared_ptr<const protocol::Json> detail() const;

  // --- Requests, run by handle() on the strand; each answers with a reply or an error. ---
  void enrol(const TournamentRequest& r);  // tournament.register
  void unregister(const TournamentRequest& r);
  void check_in(const TournamentRequest& r);
  void withdraw(const TournamentRequest& r);
  // The director's (or an admin's).
  void start(const TournamentRequest& r);
  void pause(const TournamentRequest& r);
  void resume_play(const TournamentRequest& r);
  void remove(const TournamentRequest& r);
  void disqualify(const TournamentRequest& r);
  void override_result(const TournamentRequest& r);
  void cancel(const TournamentRequest& r);

 private:
  // Its work runs on its strand (StrandActor); a throw there stops this tournament alone.
  friend class StrandActor<Tournament, net::any_io_executor>;
  void stop(std::string_view why);

  void reply(const TournamentRequest& r, protocol::Json payload = protocol::Json::object());
  void refuse(const TournamentRequest& r, protocol::ErrorCode code, std::string_view message,
              const protocol::Json& facts = nullptr);
  bool require_director(const TournamentRequest& r);
  bool require_status(const TournamentRequest& r, std::initializer_list<db::TournamentStatus> statuses,
                      std::string_view doing);
  db::EntrantRecord* entrant(PlayerId player);
  // The player the payload's "player" names among the entrants, and the director's reason.
  struct Target {
    db::EntrantRecord* entrant;
    std::string reason;
  };
  std::optional<Target> read_target(const TournamentRequest& r);

  // Hands `work` to storage; once it is committed, refreshes what readers see and runs
  // `then` (answers, pushes) on the strand.
  void save(std::function<void(db::Store&)> work, std::function<void()> then = {});
  // Runs `then` once everything asked so far is committed.
  void when_saved(std::function<void()> then);
  void save_entrant(const db::EntrantRecord& entrant, std::function<void()> then);
  void save_tournament(std::function<void()> then = {});
  void audit(PlayerId director, std::string action, PlayerId player, std::string detail, std::string reason);

  // The event's clock: the scheduled start, and the rounds.
  void schedule_start();
  // With round_time_seconds: calls time on the current round's games still in play once
  // the round has lasted that long.
  void schedule_round_time();
  // Starts the event: check-in enforced, entrants playing, round 1. Why not, if it cannot.
  std::optional<std::string> begin();
  // Closes the last round if every board has its result, then starts the next one (or
  // finishes the event) while it is running.
  void advance();
  void create_tables(db::RoundRecord& round);
  void finish(db::TournamentStatus status);  // finished or cancelled

  // The summary from stored_, and the detail too unless more saves are on their way.
  void refresh();
  void push_update();  // tournament.update to every entrant
  void tell(PlayerId player, protocol::Json round);  // tournament.round: a board's table, or a bye

  TournamentServices& services_;
  Tournaments& registry_;
  const TournamentId id_;
  const TournamentSettings settings_;
  db::StoredTournament stored_;
  net::steady_timer start_timer_;
  net::steady_timer round_timer_;
  net::steady_timer tables_timer_;  // boards left without a table when no table id was at hand
  int saves_in_flight_ = 0;  // asked of storage, not yet reported

  mutable std::mutex snapshot_mutex_;
  protocol::Json summary_;
  std::shared_ptr<const protocol::Json> detail_;
};

}  // namespace elgrande::server
