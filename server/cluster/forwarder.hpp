#pragma once

#include <array>
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "common/net.hpp"

namespace elgrande::server {

// What a process that does not lead serves its clients with (docs/scaling.md): every
// connection it accepts is passed to the leader byte for byte, after a PROXY protocol
// line (version 1, HAProxy's) that names the client's address, so that the leader's
// per-address limits see the client rather than this process. HTTP and WebSocket alike
// pass through unchanged; nothing is parsed.
class Forwarder {
 public:
  // Listens at once: a taken port fails the start.
  Forwarder(net::io_context& io, const tcp::endpoint& endpoint);
  ~Forwarder();
  Forwarder(const Forwarder&) = delete;
  Forwarder& operator=(const Forwarder&) = delete;

  tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
  void run();

  // Where the leader is (host:port), or none while no process leads. Connections to an
  // earlier leader are closed: their clients reconnect, and reach the new one.
  void set_leader(std::optional<std::string> address);
  // Stops accepting and closes every connection; callable from any thread.
  void stop();

  class Pipe;

 private:
  void do_accept();

  net::io_context& io_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;  // paces accepts after a failure
  std::mutex mutex_;
  std::optional<std::string> leader_;
  std::set<std::shared_ptr<Pipe>> pipes_;
  friend class Pipe;
};

// The PROXY protocol v1 line for a connection from `client` to `local`:
// "PROXY TCP4 <client> <local> <client port> <local port>\r\n" (TCP6 for IPv6).
std::string proxy_line(const tcp::endpoint& client, const tcp::endpoint& local);
// The client's address from such a line (without its "\r\n"), or none if it is not one.
std::optional<std::string> proxied_client(std::string_view line);

}  // namespace elgrande::server
