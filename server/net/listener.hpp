#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>

#include "net/net.hpp"
#include "app/services.hpp"

namespace elgrande::server {

// Accepts connections and gives each its own strand and HttpSession.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Binds and listens at once, so a taken port fails startup (throws) instead of
  // surfacing later inside the I/O threads.
  Listener(net::io_context& io, const tcp::endpoint& endpoint,
           std::shared_ptr<const Services> services);

  // The bound address; with port 0 this is where the kernel's choice is learnt.
  tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }

  void run();

  // Stops accepting (on the acceptor's strand), then calls stopped. Open sessions are
  // not touched; the caller decides when the io_context stops.
  void stop(std::function<void()> stopped);

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& io_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;  // paces accepts after a failure (e.g. out of descriptors)
  std::shared_ptr<const Services> services_;
};

}  // namespace elgrande::server
