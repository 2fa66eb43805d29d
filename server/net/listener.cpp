#include "net/listener.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/strand.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "net/http_session.hpp"

namespace elgrande::server {

Listener::Listener(net::io_context& io, const tcp::endpoint& endpoint,
                   std::shared_ptr<const Services> services)
    : io_(io),
      acceptor_(net::make_strand(io)),
      retry_(acceptor_.get_executor()),
      services_(std::move(services)) {
  beast::error_code ec;
  const auto check = [&](const char* step) {
    if (ec) {
      throw std::runtime_error("cannot listen on " + endpoint.address().to_string() + ":" +
                               std::to_string(endpoint.port()) + ": " + step + ": " + ec.message());
    }
  };
  acceptor_.open(endpoint.protocol(), ec);
  check("open");
  // A restart must not fail while the previous process's connections sit in TIME_WAIT.
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  check("set_option");
  acceptor_.bind(endpoint, ec);
  check("bind");
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
  check("listen");
}

void Listener::run() {
  net::dispatch(acceptor_.get_executor(),
                beast::bind_front_handler(&Listener::do_accept, shared_from_this()));
}

void Listener::stop(std::function<void()> stopped) {
  net::dispatch(acceptor_.get_executor(),
                [self = shared_from_this(), stopped = std::move(stopped)] {
                  beast::error_code ignored;
                  self->acceptor_.close(ignored);
                  self->retry_.cancel();
                  stopped();
                });
}

void Listener::do_accept() {
  // Each connection gets its own strand, so sessions never need locks of their own.
  acceptor_.async_accept(net::make_strand(io_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (!acceptor_.is_open()) return;  // stopped: let the pending accept end the loop
  if (ec) {
    // One failed accept must not stop the server, nor spin it: wait a little, then retry.
    fail(ec, "accept");
    retry_.expires_after(std::chrono::milliseconds(100));
    retry_.async_wait([self = shared_from_this()](beast::error_code) { self->do_accept(); });
    return;
  }
  // Game messages are small and answered at once: without this, Nagle's algorithm holds a
  // reply back until the peer's delayed ACK (40 ms on Linux).
  beast::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  std::make_shared<HttpSession>(std::move(socket), services_)->run();
  do_accept();
}

}  // namespace elgrande::server
