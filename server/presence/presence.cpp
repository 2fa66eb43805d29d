#include "presence/presence.hpp"

#include <algorithm>

namespace elgrande::server {

void Presence::attach(PlayerId player, const RecipientPtr& connection) {
  const std::lock_guard lock(mutex_);
  connections_[player].push_back(connection);
}

void Presence::detach(PlayerId player, const Recipient* connection) {
  const std::lock_guard lock(mutex_);
  const auto found = connections_.find(player);
  if (found == connections_.end()) return;
  // The connection may be being destroyed, its weak pointer already expired: compare
  // owners by address, and drop the expired ones on the way.
  std::erase_if(found->second, [&](const WeakRecipient& weak) {
    const auto alive = weak.lock();
    return !alive || alive.get() == connection;
  });
  if (found->second.empty()) {
    connections_.erase(found);
    left_[player] = std::chrono::steady_clock::now();
  }
}

std::optional<std::chrono::milliseconds> Presence::away_for(PlayerId player) const {
  const auto now = std::chrono::steady_clock::now();
  const std::lock_guard lock(mutex_);
  const auto found = connections_.find(player);
  if (found != connections_.end() &&
      std::any_of(found->second.begin(), found->second.end(), [](const auto& weak) { return !weak.expired(); })) {
    return std::nullopt;
  }
  const auto left = left_.find(player);
  // Not seen since the server started: away at least that long.
  return std::chrono::duration_cast<std::chrono::milliseconds>(now - (left == left_.end() ? started_ : left->second));
}

std::vector<RecipientPtr> Presence::connections_of(PlayerId player) const {
  std::vector<RecipientPtr> alive;
  const std::lock_guard lock(mutex_);
  const auto found = connections_.find(player);
  if (found == connections_.end()) return alive;
  for (const auto& weak : found->second) {
    if (auto connection = weak.lock()) alive.push_back(std::move(connection));
  }
  return alive;
}

bool Presence::connected(PlayerId player) const {
  const std::lock_guard lock(mutex_);
  const auto found = connections_.find(player);
  return found != connections_.end() &&
         std::any_of(found->second.begin(), found->second.end(), [](const auto& weak) { return !weak.expired(); });
}

}  // namespace elgrande::server
