#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/player.hpp"
#include "common/recipient.hpp"

namespace elgrande::server {

// Who is connected, and on which connections: a player may have several (a phone and a
// laptop). Internally locked; nothing blocks or calls out under the lock. Tables ask only
// when a player joins them; after that each table keeps its members' connections itself,
// told of every change, so that no command waits on this lock.
class Presence {
 public:
  void attach(PlayerId player, const RecipientPtr& connection);
  void detach(PlayerId player, const Recipient* connection);
  std::vector<RecipientPtr> connections_of(PlayerId player) const;
  bool connected(PlayerId player) const;
  // How long the player has had no connection (since the server started, if it has not
  // seen them); nothing while they have one. For turn notices (docs/notifications.md).
  std::optional<std::chrono::milliseconds> away_for(PlayerId player) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<PlayerId, std::vector<WeakRecipient>> connections_;
  std::unordered_map<PlayerId, std::chrono::steady_clock::time_point> left_;  // when each last left
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace elgrande::server
