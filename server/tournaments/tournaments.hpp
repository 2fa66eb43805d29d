#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "events/bus.hpp"
#include "events/events.hpp"
#include "tournaments/tournament.hpp"

namespace elgrande::server {

// Every tournament the server runs, by id, and which tournament each of their tables
// plays for. Internally locked; it never calls into a tournament but to hand it a finished
// game or close it.
class Tournaments {
 public:
  Tournaments(net::any_io_executor executor, TournamentServices& services);
  Tournaments(const Tournaments&) = delete;
  Tournaments& operator=(const Tournaments&) = delete;

  // The game their tables play, which reads a tournament's game settings.
  const games::GameModule& game() const;

  // A new tournament, saved and announced to its creator with tournament.create.ok.
  std::shared_ptr<Tournament> create(std::string name, PlayerId director, TournamentSettings settings,
                                     RecipientPtr creator, std::optional<protocol::RequestId> request_id);
  // Brings back the stored tournaments at start (after the tables). A tournament whose
  // settings no longer read is left out, with a log line.
  void restore(std::vector<db::StoredTournament> stored, TournamentId highest_id);
  std::shared_ptr<Tournament> find(TournamentId id) const;
  // Newest first: those with ids below `before`, at most `limit`, of one status or any.
  protocol::Json list(std::optional<std::string> status, std::optional<TournamentId> before, std::size_t limit) const;

  // A tournament's board is played at `table`.
  void note_table(TableId table, TournamentId tournament);
  // A table's game is over and saved: its tournament, if any, hears of it. Subscribed to
  // the bus's GameFinished by listen().
  void game_finished(const GameFinished& finished) const;
  // Hears the bus's GameFinished from now on.
  void listen(Bus& bus) const;
  void close_all();

 private:
  net::any_io_executor executor_;
  TournamentServices& services_;
  mutable std::mutex mutex_;
  TournamentId next_id_ = 1;
  std::map<TournamentId, std::shared_ptr<Tournament>> tournaments_;
  std::unordered_map<TableId, TournamentId> tournament_of_table_;
};

}  // namespace elgrande::server
