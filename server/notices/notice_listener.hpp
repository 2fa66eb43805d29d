#pragma once

#include <chrono>
#include <cstdint>

#include "elgrande/notices/preferences.hpp"
#include "events/events.hpp"

namespace elgrande::server {

class Bus;
class NoticeSender;
class Reach;

// Writes notices into the outbox in the transaction of what causes them
// (docs/notifications.md): a turn with the move that made it, its end with the move that
// answers it, a game's end with its result. It runs on the database's writer thread and
// asks only Reach, in memory, so that a move concerning nobody reachable costs nothing.
class NoticeListener {
 public:
  NoticeListener(Reach& reach, NoticeSender& sender, bool mail, std::chrono::milliseconds turn_after, int digest_hour,
                 std::chrono::milliseconds reminder_before);

  void listen(Bus& bus);

  void on_turns(const SavingTurns& turns) const;
  void on_result(const SavingResult& saving) const;
  void on_board(const BoardSeated& board) const;
  void on_tournament_end(const TournamentEnded& ended) const;
  void on_registered(const EntrantRegistered& entry) const;


  // When a digest written at `now` (Unix ms) goes out: the next digest_hour o'clock UTC.
  static std::int64_t next_digest(std::int64_t now, int digest_hour);

 private:
  // One row per channel the player wants and can be reached by.
  void enqueue(db::Store& store, PlayerId player, notices::Kind kind, std::optional<std::int64_t> table,
               const std::string& payload, std::int64_t due_at) const;

  Reach& reach_;
  NoticeSender& sender_;
  const bool mail_;  // a relay is configured
  const std::chrono::milliseconds turn_after_;
  const int digest_hour_;
  // A tournament's reminder goes this long before it starts, or when its check-in opens.
  const std::chrono::milliseconds reminder_before_;
};

}  // namespace elgrande::server
