#pragma once

#include <mutex>
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

 private:
  mutable std::mutex mutex_;
  std::unordered_map<PlayerId, std::vector<WeakRecipient>> connections_;
};

}  // namespace elgrande::server
