#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/player.hpp"
#include "common/recipient.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "ops/metrics.hpp"
#include "tables/seating.hpp"

namespace elgrande::server {

class Webhook;

// What one table says, to whom, and when. It knows the connections of the table's members
// (seated players, including those who resigned or were replaced, and spectators), told
// of each change by the table, so that sending needs no lock. Every message waits in the
// outbox until the save it depends on is committed, so that nobody hears of a change a
// crash could undo; messages leave in the order they were produced. Runs on the table's
// strand.
class TableFeed {
 public:
  using Message = std::shared_ptr<const std::string>;
  using Clock = std::chrono::steady_clock;

  // A recipient with more than `max_waiting` messages held in the outbox is cut off,
  // as its own connection would cut it off for a full queue.
  TableFeed(Metrics& metrics, Webhook* webhook, std::size_t max_waiting);

  // --- Members' connections. ---
  void connect(PlayerId player, const RecipientPtr& connection);  // idempotent
  void disconnect(const Recipient* connection);                     // a player's or a spectator's
  bool watch(const RecipientPtr& connection, PlayerId player);  // false if it watches already
  bool watching(const Recipient* connection) const;
  bool stop_watching(const Recipient* connection);
  std::size_t spectators() const { return spectators_.size(); }
  void forget(PlayerId player);  // no longer a member

  // --- The outbox. ---
  // A save was handed to storage: what is sent from now on waits for its commit.
  void saving() { ++saves_; }
  void committed(std::uint64_t save);  // releases what waited for saves up to `save`
  // The table stopped: nothing held will be sent, but each held answer's stand-in (see
  // send), so that every request is answered.
  void abandon();
  std::uint64_t saves() const { return saves_; }
  // For the latency figure: a command read then is answered once the current save commits.
  void track(Clock::time_point received) { commands_waiting_.emplace_back(saves_, received); }

  // An answer to a request carries the request's id: if the table stops before the save
  // the answer waits for commits, an internal error with that id goes out instead. (Only
  // the id is kept: the stand-in is written only in that rare case.)
  struct Answering {
    std::optional<protocol::RequestId> id;
  };
  void send(const RecipientPtr& to, Message message, std::optional<Answering> answering = std::nullopt);
  void send(const RecipientPtr& to, std::string message) {
    send(to, std::make_shared<const std::string>(std::move(message)));
  }
  void notify(std::string body);  // the turn webhook, if there is one
  void send_to_player(PlayerId player, const Message& message);
  // To every member: seated players (also those who gave up their seat) and spectators;
  // with `wants`, only to those players for whom it says true.
  void send_to_members(const Seating& seating, std::string message,
                       const std::function<bool(PlayerId)>& wants = nullptr);
  // A game update for each viewer: every seat played by a person, and kSpectator for
  // everyone else who watches (spectators, players who gave their seat up). Built only for
  // viewers someone is connected as, by `update(viewer, whole, patch)`: the whole view for
  // the connections that need it, and a patch for those that read patches (protocol 2) and
  // hold that viewer's previous view.
  using Update = games::Update;  // `whole` empty unless asked for
  void send_update(const Seating& seating,
                   const std::function<Update(int viewer, bool whole, bool patch)>& update);
  // One connection's whole view of `viewer` (on connecting, spectating, asking for it):
  // it holds that viewer's view from then on.
  void send_view(const RecipientPtr& to, int viewer, std::string message);

 private:
  struct Outgoing {
    std::uint64_t after_save;
    RecipientPtr to;  // none: the turn webhook
    Message message;
    std::optional<Answering> answering;
  };
  void dispatch(const RecipientPtr& to, Message message);
  void flush();

  Metrics& metrics_;
  Webhook* webhook_;
  const std::size_t max_waiting_;

  std::unordered_map<PlayerId, std::vector<WeakRecipient>> players_;
  std::vector<WeakRecipient> spectators_;
  std::unordered_map<const Recipient*, PlayerId> spectator_players_;  // who each spectator is
  // The viewer whose latest view each connection holds: a patch of it is all it needs.
  std::unordered_map<const Recipient*, int> holds_;

  std::uint64_t saves_ = 0;      // saves handed to storage
  std::uint64_t committed_ = 0;  // of which committed
  std::deque<Outgoing> outbox_;
  // Answers released by flush, each until the next message to its connection (kept
  // between flushes only for its capacity).
  struct Unpaired {
    RecipientPtr to;
    Message message;
  };
  std::vector<Unpaired> unpaired_;
  std::unordered_map<const Recipient*, std::size_t> waiting_;  // outbox entries per recipient
  std::deque<std::pair<std::uint64_t, Clock::time_point>> commands_waiting_;
};

}  // namespace elgrande::server
