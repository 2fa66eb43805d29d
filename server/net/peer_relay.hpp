#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/net.hpp"
#include "net/peer_link.hpp"
#include "requests/client.hpp"

namespace elgrande::server {

// What a process that does not lead serves its clients with (docs/scaling.md): it holds
// their sockets, TLS and WebSocket framing, with the transport's limits, and relays every
// message and plain HTTP request to the leader over one peer link, which serves them as
// its own (net/peer_clients.hpp) and answers over the same link. Callable from any thread.
class PeerRelay : public std::enable_shared_from_this<PeerRelay> {
 public:
  struct Leader {
    std::string address;  // host:port
    std::string key;      // what its peer links take
    bool operator==(const Leader&) const = default;
  };

  explicit PeerRelay(net::io_context& io) : io_(io) {}

  // Where the leader is now, or none while no process leads. When it changes, the link to
  // the one before closes, and with it the connections relayed there: their clients
  // reconnect, and reach the new one.
  void follow(std::optional<Leader> leader);
  // Closes the link, and every connection relayed over it; no more are relayed.
  void stop();
  // Whether it knows where the leader is (its readiness).
  bool has_leader() {
    const std::lock_guard lock(mutex_);
    return leader_.has_value() && !stopped_;
  }

  // A client's WebSocket opened: its number on the link, or none when no process leads (it
  // is then closed, and its client tries again).
  std::optional<std::uint64_t> open(const std::shared_ptr<Client>& client, std::string_view address);
  void text(std::uint64_t connection, std::string_view text);
  void closed(std::uint64_t connection);
  // A plain HTTP request, whole; `answered` gets the answer's bytes, or none when it could
  // not reach the leader. On the link's strand.
  void http(std::string_view request, std::function<void(std::optional<std::string>)> answered);

  class Tap;

 private:
  struct Relayed {
    std::weak_ptr<Client> client;
    std::uint64_t link = 0;  // the link it went over
  };
  using Answered = std::function<void(std::optional<std::string>)>;
  struct Asked {
    Answered answered;
    std::uint64_t link = 0;
  };

  // The link to the leader, opened when first needed; under the mutex.
  std::shared_ptr<PeerLink> link();
  void received(std::uint64_t link, const PeerMessage& message);
  void lost(std::uint64_t link);

  net::io_context& io_;
  std::mutex mutex_;
  std::optional<Leader> leader_;
  bool stopped_ = false;
  std::shared_ptr<PeerLink> link_;
  std::uint64_t link_number_ = 0;  // counts the links opened
  std::uint64_t next_connection_ = 1;
  std::unordered_map<std::uint64_t, Relayed> clients_;
  std::unordered_map<std::uint64_t, Asked> requests_;
};

}  // namespace elgrande::server
