#include "net/http_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <memory>
#include <sstream>
#include <string_view>
#include <utility>

#include "net/proxy_protocol.hpp"
#include "net/origin.hpp"
#include "net/peer_clients.hpp"
#include "net/peer_relay.hpp"
#include "ops/log_throttle.hpp"
#include "net/router.hpp"
#include "net/ws_session.hpp"

namespace elgrande::server {
namespace {

// One for all sessions: a hostile page opened by many visitors must not flood the log.
LogThrottle& origin_log() {
  static LogThrottle log(std::chrono::seconds(10));
  return log;
}

}  // namespace

HttpSession::HttpSession(StrandSocket&& socket, std::shared_ptr<const Services> services,
                         ConnectionLimit::Slot slot, std::shared_ptr<ssl::context> tls, HttpRole role)
    : transport_(std::move(socket)),
      deadline_(transport_.get_executor()),
      tls_(std::move(tls)),
      role_(role),
      services_(std::move(services)),
      slot_(std::move(slot)) {}

void HttpSession::run() {
  // Start on the session's strand, so no two of its handlers ever run concurrently.
  net::dispatch(transport_.get_executor(), [self = shared_from_this()] {
    self->trusted_ = self->may_forward();
    if (self->trusted_) return self->read_proxy_line();
    self->begin();
  });
}

void HttpSession::expire_after(std::chrono::seconds timeout) {
  const std::uint64_t step = ++deadline_step_;
  deadline_.expires_after(timeout);
  // Weak, so that a connection which ended early is not kept for its deadline.
  deadline_.async_wait([weak = weak_from_this(), step](beast::error_code ec) {
    if (ec) return;  // cancelled: the step finished, or another began
    // A wait that expired just as its step finished may already be queued: the step says.
    if (const auto self = weak.lock(); self && self->deadline_step_ == step) {
      beast::error_code ignored;
      self->transport_.socket().close(ignored);  // what waits on it ends with operation_aborted
    }
  });
}

void HttpSession::begin() {
  // Another process of the cluster on loopback or among the trusted proxies may open its
  // peer link in plain HTTP on a TLS port, and for nothing else (on_read); anyone else
  // begins with TLS's handshake (0x16).
  peer_link_only_ = tls_ && trusted_ && buffer_.size() > 0 &&
                    *static_cast<const unsigned char*>(buffer_.data().data()) != 0x16;
  if (!tls_ || peer_link_only_) return do_read();
  transport_.start_tls(std::move(tls_));
  expire_after(kHandshakeTimeout);
  // The bytes already read (after a PROXY line, or in looking for one) begin the handshake.
  transport_.async_handshake(buffer_.data(), [self = shared_from_this()](beast::error_code ec, std::size_t used) {
    self->services_->metrics->tls_handshakes.fetch_add(1, std::memory_order_relaxed);
    if (ec) {
      // Scanners, plain HTTP sent to the HTTPS port, clients that distrust the certificate:
      // the peer's business, so only a count and a debug line.
      self->services_->metrics->tls_handshakes_failed.fetch_add(1, std::memory_order_relaxed);
      spdlog::debug("tls handshake: {}", ec.message());
      return;
    }
    self->buffer_.consume(used);
    self->do_read();
  });
}

bool HttpSession::may_forward() {
  beast::error_code ec;
  const tcp::endpoint peer = transport_.socket().remote_endpoint(ec);
  if (ec) return false;
  if (peer.address().is_loopback() ||
      (peer.address().is_v6() && peer.address().to_v6().is_v4_mapped() &&
       net::ip::make_address_v4(net::ip::v4_mapped, peer.address().to_v6()).is_loopback())) {
    return true;
  }
  const auto& trusted = services_->trusted_proxies;
  return std::find(trusted.begin(), trusted.end(), peer.address().to_string()) != trusted.end();
}

void HttpSession::read_proxy_line() {
  static constexpr std::string_view kProxy = "PROXY ";
  static constexpr std::size_t kLongestLine = 107;  // the protocol's bound, "\r\n" included
  expire_after(slot_->overflow() ? kOverflowReadTimeout : kReadTimeout);
  transport_.socket().async_read_some(buffer_.prepare(512), [self = shared_from_this()](beast::error_code ec, std::size_t read) {
    if (ec) return fail(ec, "http read");
    self->buffer_.commit(read);
    const std::string_view data(static_cast<const char*>(self->buffer_.data().data()), self->buffer_.size());
    // Not a PROXY line: an ordinary request, whose bytes the parser reads first.
    if (!data.starts_with(kProxy) && !(data.size() < kProxy.size() && kProxy.starts_with(data))) return self->begin();
    const std::size_t end = data.find("\r\n");
    if (end == std::string_view::npos) {
      if (data.size() >= kLongestLine) return self->do_close();
      return self->read_proxy_line();
    }
    self->forwarded_client_ = proxied_client(data.substr(0, end));
    if (!self->forwarded_client_) return self->do_close();
    self->buffer_.consume(end + 2);
    self->begin();
  });
}

void HttpSession::cut() {
  net::dispatch(transport_.get_executor(), [self = shared_from_this()] {
    beast::error_code ignored;
    self->transport_.socket().close(ignored);
  });
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->body_limit(kMaxBodyBytes);
  parser_->header_limit(kMaxHeaderBytes);
  expire_after(slot_->overflow() ? kOverflowReadTimeout : kReadTimeout);
  http::async_read(transport_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::disarm() {
  ++deadline_step_;
  deadline_.cancel();
}

void HttpSession::on_read(beast::error_code ec, std::size_t /*bytes*/) {
  disarm();
  if (ec == http::error::end_of_stream) return do_close();
  if (ec == http::error::body_limit) {
    // The header is complete, so the client can be told why; the unread body makes the
    // connection unusable afterwards.
    return send(text_response(parser_->get(), http::status::payload_too_large,
                              "request body too large\n", false));
  }
  if (ec) return fail(ec, "http read");
  if (slot_->overflow()) return send(answer_when_full(parser_->get(), *services_));
  if (role_ == HttpRole::redirect_to_https) return send(answer_plain_http(parser_->get(), *services_));

  const std::string_view path = parser_->get().target().substr(0, parser_->get().target().find('?'));
  if (peer_link_only_ && !(websocket::is_upgrade(parser_->get()) && path == PeerLink::kPath)) {
    return send(text_response(parser_->get(), http::status::bad_request, "this port speaks HTTPS\n", false));
  }
  if (websocket::is_upgrade(parser_->get())) {
    const HttpRequest& upgrade = parser_->get();
    if (path == kWebSocketPath) {
      if (!origin_allowed(upgrade[http::field::origin], upgrade[http::field::host], services_->allowed_origins)) {
        return refuse_origin();
      }
      // The game protocol takes over the socket and this request, on the same strand.
      std::make_shared<WsSession>(std::move(transport_), services_, std::move(*slot_))
          ->run(parser_->release(), forwarded_client_);
      return;
    }
    if (path == PeerLink::kPath) return accept_peer();
    return send(text_response(parser_->get(), http::status::not_found,
                              "no WebSocket endpoint here; use /ws\n",
                              parser_->get().keep_alive()));
  }

  if (services_->relay) {
    // The probes are the follower's own; everything else is the leader's.
    if (auto answer = probe(parser_->get(), *services_)) return send(std::move(*answer));
    return relay_request();
  }
  answer_request(parser_->get(), *services_, [self = shared_from_this()](http::message_generator answer) {
    net::dispatch(self->transport_.get_executor(), [self, answer = std::move(answer)]() mutable {
      self->send(std::move(answer));
    });
  });
}

void HttpSession::send(http::message_generator&& message) {
  const bool keep_alive = message.keep_alive();
  expire_after(kWriteTimeout);
  beast::async_write(
      transport_, std::move(message),
      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t /*bytes*/) {
  disarm();
  if (ec) return fail(ec, "http write");
  if (!keep_alive || slot_->overflow()) return do_close();
  do_read();
}

void HttpSession::relay_request() {
  std::ostringstream request;
  request << parser_->get();
  const bool keep_alive = parser_->get().keep_alive();
  services_->relay->http(request.str(), [self = shared_from_this(), keep_alive](std::optional<std::string> answer) {
    net::dispatch(self->transport_.get_executor(), [self, keep_alive, answer = std::move(answer)]() mutable {
      if (!answer) {
        return self->send(text_response(self->parser_->get(), http::status::service_unavailable,
                                        "no server process leads at the moment; try again in a few seconds\n",
                                        keep_alive));
      }
      // The leader's answer, as its bytes go on the wire.
      auto bytes = std::make_shared<const std::string>(std::move(*answer));
      self->expire_after(kWriteTimeout);
      net::async_write(self->transport_, net::buffer(*bytes),
                       [self, bytes, keep_alive](beast::error_code ec, std::size_t written) {
                         self->on_write(keep_alive, ec, written);
                       });
    });
  });
}

void HttpSession::accept_peer() {
  if (!PeerLink::authorised(parser_->get(), services_->peer_key)) {
    beast::error_code ec;
    const tcp::endpoint from = transport_.socket().remote_endpoint(ec);
    spdlog::warn("refused a peer link from {}: not a process of this database (wrong or no key)",
                 ec ? std::string("?") : from.address().to_string());
    return send(text_response(parser_->get(), http::status::forbidden, "not a peer process of this server\n", false));
  }
  // Another process of the cluster: its clients are served here, over this connection.
  auto clients = std::make_shared<PeerClients>(transport_.get_executor().get_inner_executor().context(), services_);
  auto link = std::make_shared<PeerLink>(std::move(transport_), clients);
  clients->serve(link);
  link->accept(parser_->release());
}

void HttpSession::refuse_origin() {
  const HttpRequest& upgrade = parser_->get();
  services_->metrics->origins_refused.fetch_add(1, std::memory_order_relaxed);
  // Another site's page tried to connect on its visitor's behalf: worth knowing, once in a while.
  if (const auto times = origin_log().occurred(std::chrono::steady_clock::now())) {
    spdlog::warn("refused {} WebSocket upgrade(s) from pages on other sites since the last report, lately "
                 "from origin '{}' (host '{}'); allow it with allowed_origins",
                 times, std::string_view(upgrade[http::field::origin]), std::string_view(upgrade[http::field::host]));
  }
  send(text_response(upgrade, http::status::forbidden,
                     "WebSocket connections from pages on this origin are not allowed here\n", false));
}

void HttpSession::do_close() {
  // A half-close lets the peer read everything we sent before it sees the end.
  beast::error_code ignored;
  transport_.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

}  // namespace elgrande::server
