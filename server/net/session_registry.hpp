#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace elgrande::server {

class Client;

// The open client connections (WebSocket sessions, and those another process relays), as in Beast's chat-multi example: weak references under a
// mutex, copied out under the lock and used outside it, so a session's strand never
// waits on another's.
class SessionRegistry {
 public:
  // False once shutdown has begun: the caller then drops the connection.
  bool join(const std::shared_ptr<Client>& session);
  // Called from the session's destructor.
  void leave(const Client* session);

  // Asks every session to close with 1001 (going away) and refuses new ones. Calls
  // all_closed (on whichever thread the last session ends) once none is left.
  void close_all(std::function<void()> all_closed);

  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const Client*, std::weak_ptr<Client>> sessions_;
  bool closing_ = false;
  std::function<void()> all_closed_;
};

}  // namespace elgrande::server
