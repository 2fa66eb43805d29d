#include "net/listener.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/strand.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "net/tls_certificate.hpp"

namespace elgrande::server {

Listener::Listener(net::io_context& io, const tcp::endpoint& endpoint,
                   std::shared_ptr<const Services> services, HttpRole role)
    : io_(io),
      acceptor_(net::make_strand(io)),
      retry_(acceptor_.get_executor()),
      services_(std::move(services)),
      role_(role) {
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
  spare_descriptor_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

Listener::~Listener() {
  if (spare_descriptor_ >= 0) ::close(spare_descriptor_);
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
  acceptor_.async_accept(net::make_strand(io_.get_executor()),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, StrandSocket socket) {
  if (!acceptor_.is_open()) return;  // stopped: let the pending accept end the loop
  if (ec == net::error::no_descriptors || ec == beast::errc::too_many_files_open_in_system) {
    // Something else holds the descriptors the limit keeps back. A connection left in the
    // backlog would hang until its client gave up: take it with the spare and close it.
    const bool shed = shed_waiting_connection();
    if (const auto times = descriptors_log_.occurred(std::chrono::steady_clock::now())) {
      spdlog::warn("out of file descriptors ({}): {} connection(s) closed at once since the last report",
                   ec.message(), times);
    }
    if (shed) return do_accept();
  } else if (ec) {
    fail(ec, "accept");
  }
  if (ec) {
    // One failed accept must not stop the server, nor spin it: wait a little, then retry.
    retry_.expires_after(std::chrono::milliseconds(100));
    retry_.async_wait([self = shared_from_this()](beast::error_code) { self->do_accept(); });
    return;
  }
  // Game messages are small and answered at once: without this, Nagle's algorithm holds a
  // reply back until the peer's delayed ACK (40 ms on Linux).
  beast::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  ConnectionLimit::Slot slot = services_->connections->admit();
  const bool overflow = slot.overflow();
  // The certificate of the moment: one reloaded later serves the connections after it.
  std::shared_ptr<ssl::context> tls =
      services_->tls && role_ == HttpRole::serve ? services_->tls->current() : nullptr;
  auto session = std::make_shared<HttpSession>(std::move(socket), services_, std::move(slot), std::move(tls), role_);
  if (overflow) keep_in_overflow(session);
  session->run();
  do_accept();
}

void Listener::keep_in_overflow(const std::shared_ptr<HttpSession>& session) {
  if (const auto times = over_limit_log_.occurred(std::chrono::steady_clock::now())) {
    spdlog::warn("connection limit {} reached: {} connection(s) since the last report were answered "
                 "health checks or 503 only",
                 services_->connections->limit(), times);
  }
  std::erase_if(overflow_, [](const std::weak_ptr<HttpSession>& kept) { return kept.expired(); });
  // A probe sends its request at once; idle connections piling up here must not starve it.
  if (overflow_.size() >= ConnectionLimit::kOverflow) {
    if (const auto oldest = overflow_.front().lock()) {
      services_->metrics->connections_refused.fetch_add(1, std::memory_order_relaxed);
      oldest->cut();
    }
    overflow_.pop_front();
  }
  overflow_.push_back(session);
}

bool Listener::shed_waiting_connection() {
  services_->metrics->connections_refused.fetch_add(1, std::memory_order_relaxed);
  if (spare_descriptor_ < 0) return false;
  ::close(spare_descriptor_);
  const int waiting = ::accept4(acceptor_.native_handle(), nullptr, nullptr, SOCK_CLOEXEC);
  if (waiting >= 0) ::close(waiting);
  spare_descriptor_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  return waiting >= 0;
}

}  // namespace elgrande::server
