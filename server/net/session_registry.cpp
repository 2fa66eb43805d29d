#include "net/session_registry.hpp"

#include <utility>
#include <vector>

#include "requests/client.hpp"

namespace elgrande::server {

bool SessionRegistry::join(const std::shared_ptr<Client>& session) {
  const std::lock_guard lock(mutex_);
  if (closing_) return false;
  sessions_.emplace(session.get(), session);
  return true;
}

void SessionRegistry::leave(const Client* session) {
  std::function<void()> done;
  {
    const std::lock_guard lock(mutex_);
    sessions_.erase(session);
    if (closing_ && sessions_.empty()) done = std::exchange(all_closed_, nullptr);
  }
  if (done) done();
}

void SessionRegistry::close_all(std::function<void()> all_closed) {
  std::vector<std::weak_ptr<Client>> open;
  {
    const std::lock_guard lock(mutex_);
    closing_ = true;
    if (!sessions_.empty()) {
      all_closed_ = std::move(all_closed);
      open.reserve(sessions_.size());
      for (const auto& [key, session] : sessions_) open.push_back(session);
    }
  }
  if (open.empty()) {
    if (all_closed) all_closed();
    return;
  }
  for (const auto& weak : open) {
    if (auto session = weak.lock()) session->go_away();
  }
}

std::size_t SessionRegistry::size() const {
  const std::lock_guard lock(mutex_);
  return sessions_.size();
}

}  // namespace elgrande::server
