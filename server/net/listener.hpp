#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>

#include "app/services.hpp"
#include "net/connection_limit.hpp"
#include "common/net.hpp"
#include "net/http_session.hpp"
#include "ops/log_throttle.hpp"

namespace elgrande::server {


// Accepts connections and gives each its own strand and HttpSession; beyond the
// connection limit, in the overflow (see ConnectionLimit).
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Binds and listens at once, so a taken port fails startup (throws) instead of
  // surfacing later inside the I/O threads.
  Listener(net::io_context& io, const tcp::endpoint& endpoint,
           std::shared_ptr<const Services> services, HttpRole role = HttpRole::serve);
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // The bound address; with port 0 this is where the kernel's choice is learnt.
  tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }

  void run();

  // Stops accepting (on the acceptor's strand), then calls stopped. Open sessions are
  // not touched; the caller decides when the io_context stops.
  void stop(std::function<void()> stopped);

 private:
  void do_accept();
  void on_accept(beast::error_code ec, StrandSocket socket);
  bool shed_waiting_connection();
  void keep_in_overflow(const std::shared_ptr<HttpSession>& session);

  net::io_context& io_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;  // paces accepts after a failure other than running out of descriptors
  std::shared_ptr<const Services> services_;
  HttpRole role_;
  // Kept open to be given up when the process is out of descriptors, so that the
  // connection waiting to be accepted can be accepted and closed instead of left hanging.
  int spare_descriptor_ = -1;
  std::deque<std::weak_ptr<HttpSession>> overflow_;  // oldest first; on the acceptor's strand
  LogThrottle descriptors_log_{std::chrono::seconds(10)};
  LogThrottle over_limit_log_{std::chrono::seconds(10)};
};

}  // namespace elgrande::server
