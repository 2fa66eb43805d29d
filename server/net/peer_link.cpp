#include "net/peer_link.hpp"

#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <utility>

namespace elgrande::server {
namespace {

// A frame holds whatever queued while the one before was written: under load, thousands
// of messages. One past this is no peer of ours.
constexpr std::size_t kMaxFrameBytes = 256 * 1024 * 1024;

// A peer that stopped answering pings (a stopped or unplugged machine) is lost within this.
constexpr auto kIdleTimeout = std::chrono::seconds(10);

websocket::stream_base::timeout link_timeouts() {
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = std::chrono::seconds(10);
  timeouts.idle_timeout = kIdleTimeout;
  timeouts.keep_alive_pings = true;
  return timeouts;
}

}  // namespace

PeerLink::PeerLink(Transport&& transport, std::shared_ptr<PeerEnd> end)
    : ws_(std::move(transport)), end_(std::move(end)), resolver_(ws_.get_executor()) {}

PeerLink::PeerLink(Strand strand, std::shared_ptr<PeerEnd> end)
    : PeerLink(Transport(StrandSocket(strand)), std::move(end)) {}

PeerLink::~PeerLink() = default;

std::shared_ptr<PeerLink> PeerLink::connect(net::io_context& io, const std::string& address, std::string key,
                                            std::shared_ptr<PeerEnd> end) {
  std::shared_ptr<PeerLink> link(new PeerLink(net::make_strand(io), std::move(end)));
  net::post(link->ws_.get_executor(), [link, address, key = std::move(key)]() mutable {
    link->do_connect(address, std::move(key));
  });
  return link;
}

void PeerLink::do_connect(const std::string& address, std::string key) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos) return lose(net::error::invalid_argument, "peer address");
  std::string host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);  // an IPv6 literal
  resolver_.async_resolve(
      host, address.substr(colon + 1),
      [self = shared_from_this(), host = address, key = std::move(key)](beast::error_code ec,
                                                                         const tcp::resolver::results_type& found) mutable {
        if (ec) return self->lose(ec, "peer resolve");
        net::async_connect(beast::get_lowest_layer(self->ws_), found,
                           [self, host = std::move(host), key = std::move(key)](beast::error_code ec, const tcp::endpoint&) {
                             if (ec) return self->lose(ec, "peer connect");
                             beast::error_code ignored;
                             beast::get_lowest_layer(self->ws_).set_option(tcp::no_delay(true), ignored);
                             self->ws_.set_option(link_timeouts());
                             self->ws_.set_option(websocket::stream_base::decorator([key](websocket::request_type& req) {
                               req.set(http::field::authorization, "Bearer " + key);
                               req.set(http::field::user_agent, kServerName);
                             }));
                             self->ws_.async_handshake(host, std::string(kPath), [self](beast::error_code ec) {
                               self->opened(ec, "peer handshake");
                             });
                           });
      });
}

void PeerLink::accept(http::request<http::string_body> upgrade) {
  net::dispatch(ws_.get_executor(), [self = shared_from_this(), upgrade = std::move(upgrade)] {
    self->ws_.set_option(link_timeouts());
    self->ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(http::field::server, kServerName);
    }));
    self->ws_.async_accept(upgrade, [self](beast::error_code ec) { self->opened(ec, "peer accept"); });
  });
}

bool PeerLink::authorised(const http::request<http::string_body>& upgrade, std::string_view key) {
  if (key.empty()) return false;
  const std::string_view given = upgrade[http::field::authorization];
  constexpr std::string_view kBearer = "Bearer ";
  if (!given.starts_with(kBearer)) return false;
  // Compared in time that does not depend on where they differ.
  const std::string_view presented = given.substr(kBearer.size());
  return presented.size() == key.size() && CRYPTO_memcmp(presented.data(), key.data(), key.size()) == 0;
}

void PeerLink::opened(beast::error_code ec, std::string_view what) {
  if (ec) return lose(ec, what);
  ws_.binary(true);
  ws_.read_message_max(kMaxFrameBytes);
  bool write = false;
  {
    const std::lock_guard lock(mutex_);
    if (closed_) return;
    open_ = true;
    write = !queued_.empty() && !writing_;
    writing_ = writing_ || write;
  }
  if (write) do_write();
  do_read();
}

void PeerLink::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&PeerLink::on_read, shared_from_this()));
}

void PeerLink::on_read(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec) return lose(ec, "peer read");
  const auto data = buffer_.cdata();
  const std::string_view frame(static_cast<const char*>(data.data()), data.size());
  const auto messages = read_peer_frame(frame);
  if (!messages) {
    spdlog::warn("a peer process sent a frame that is not a peer link's: closing the link");
    return lose({}, "peer read");
  }
  for (const PeerMessage& message : *messages) {
    if (!end_) return;
    end_->received(message);
  }
  buffer_.consume(buffer_.size());
  do_read();
}

void PeerLink::send(PeerKind kind, std::uint64_t connection, std::string_view body) {
  enqueue(kind, connection, body, nullptr);
}

void PeerLink::send(PeerKind kind, std::uint64_t connection, std::string_view first, std::string_view then) {
  enqueue(kind, connection, first, &then);
}

void PeerLink::enqueue(PeerKind kind, std::uint64_t connection, std::string_view body, const std::string_view* then) {
  bool write = false;
  bool overflow = false;
  {
    const std::lock_guard lock(mutex_);
    if (closed_) return;
    append_peer_message(queued_, kind, connection, body);
    if (then) append_peer_message(queued_, kind, connection, *then);
    overflow = queued_.size() > kMaxQueuedBytes;
    closed_ = overflow;
    write = !overflow && open_ && !writing_;
    writing_ = writing_ || write;
  }
  if (write) net::post(ws_.get_executor(), [self = shared_from_this()] { self->do_write(); });
  if (overflow) {
    net::post(ws_.get_executor(), [self = shared_from_this()] {
      self->lose({}, "peer link cut: more than 64 MiB waits for a process that does not read");
    });
  }
}

void PeerLink::do_write() {
  {
    const std::lock_guard lock(mutex_);
    if (closed_ || queued_.empty()) {
      writing_ = false;
      return;
    }
    written_.swap(queued_);
    queued_.clear();
  }
  ws_.async_write(net::buffer(written_), beast::bind_front_handler(&PeerLink::on_write, shared_from_this()));
}

void PeerLink::on_write(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec) return lose(ec, "peer write");
  written_.clear();
  // The frame's storage is kept for the next one, unless a burst made it large.
  if (written_.capacity() > 1024 * 1024) written_.shrink_to_fit();
  do_write();
}

void PeerLink::close() {
  net::dispatch(ws_.get_executor(), [self = shared_from_this()] { self->lose({}, {}); });
}

void PeerLink::lose(beast::error_code ec, std::string_view what) {
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    queued_.clear();
  }
  if (ec) fail(ec, what);
  else if (!what.empty()) spdlog::warn("{}", what);
  beast::error_code ignored;
  resolver_.cancel();
  beast::get_lowest_layer(ws_).close(ignored);
  if (auto end = std::exchange(end_, nullptr)) end->lost();
}

}  // namespace elgrande::server
