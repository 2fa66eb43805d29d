#include "net/ws_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <array>
#include <utility>

#include "app/dispatcher.hpp"
#include "net/handler_memory.hpp"
#include "net/peer_relay.hpp"
#include "net/origin.hpp"
#include "net/session_registry.hpp"

namespace elgrande::server {
namespace {

namespace protocol = elgrande::protocol;
using protocol::ErrorCode;


}  // namespace

WsSession::WsSession(Transport&& transport, std::shared_ptr<const Services> services, ConnectionLimit::Slot slot)
    : ws_(std::move(transport)),
      services_(std::move(services)),
      slot_(std::move(slot)),
      bucket_(services_->ws_limits.messages_per_second, services_->ws_limits.message_burst,
              Clock::now()),
      flood_window_start_(Clock::now()) {}

WsSession::~WsSession() {
  spdlog::debug("websocket {}: session ended", peer_);
  services_->sessions->leave(this);
  if (!services_->relay) {
    farewell(*services_, *this);
  } else if (relayed_as_) {
    services_->relay->closed(*relayed_as_);
  }
}

void WsSession::run(http::request<http::string_body> upgrade, std::optional<std::string> forwarded_client) {
  beast::error_code ec;
  const tcp::endpoint endpoint = beast::get_lowest_layer(ws_).remote_endpoint(ec);
  // A PROXY line names the peer the proxy saw, which may itself be a trusted proxy (nginx
  // in front of HAProxy): its X-Forwarded-For counts as it would here.
  beast::error_code unnamed;
  const net::ip::address peer = forwarded_client ? net::ip::make_address(*forwarded_client, unnamed) : endpoint.address();
  address = forwarded_client && unnamed ? *forwarded_client
            : ec && !forwarded_client   ? std::string("unknown")
                                        : client_address(peer, upgrade["X-Forwarded-For"], services_->trusted_proxies);
  peer_ = address + ":" + (ec ? std::string("?") : std::to_string(endpoint.port()));
  // The request travels with the handshake rather than stay in the session: Beast reads it
  // only to build the response, and an idle connection would keep its 120 bytes.
  net::dispatch(ws_.get_executor(), [self = shared_from_this(), upgrade = std::move(upgrade)] {
    // Shutdown has begun: a connection that upgrades now is simply not served.
    if (!self->services_->sessions->join(self)) return;

    // The websocket timeouts cover the handshake, idle peers and keep-alive pings.
    self->ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    self->ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(http::field::server, kServerName);
    }));
    // Beast fails a read past this size with message_too_big and closes with 1009.
    self->ws_.read_message_max(self->services_->ws_limits.max_message_bytes);
    self->ws_.async_accept(upgrade, beast::bind_front_handler(&WsSession::on_accept, self));
  });
}

void WsSession::go_away() {
  net::dispatch(ws_.get_executor(), [self = shared_from_this()] {
    if (!self->accepted_) {
      // Mid-handshake: there is no WebSocket yet to say goodbye on.
      beast::error_code ignored;
      beast::get_lowest_layer(self->ws_).close(ignored);
      return;
    }
    if (self->closing_ && !self->close_when_flushed_) return;  // already closing
    // Replies still queued would only delay the goodbye; the one in flight must finish.
    if (self->queued() > 1) {
      self->queue_.erase(self->queue_.begin() + static_cast<std::ptrdiff_t>(self->queue_front_) + 1, self->queue_.end());
    }
    self->close_after_flush(websocket::close_code::going_away);
  });
}

void WsSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "websocket handshake");
  accepted_ = true;
  services_->metrics->connections_total.fetch_add(1, std::memory_order_relaxed);
  spdlog::debug("websocket {}: connected", peer_);
  if (services_->relay) {
    relayed_as_ = services_->relay->open(shared_from_this(), address);
    if (!relayed_as_) return close_after_flush(websocket::close_code::try_again_later);  // no process leads
  }
  do_read();
}

void WsSession::do_read() {
  // A message's first read takes at most kFirstReadBytes, rather than the 1,536 Beast asks
  // of an empty buffer: the buffer is allocated when the read begins, so an idle connection
  // holds it while it waits. Longer messages (1% of those a game sends) read on from there.
  const std::size_t limit = buffer_.size() == 0 ? kFirstReadBytes : 0;
  ws_.async_read_some(buffer_, limit,
                      net::bind_allocator(HandlerAllocator<void>{},
                                          beast::bind_front_handler(&WsSession::on_read, shared_from_this())));
}

void WsSession::on_read(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec == websocket::error::message_too_big) {
    // Beast has already sent the close frame (1009) and torn the connection down.
    spdlog::debug("websocket {}: message over {} bytes, closed with 1009", peer_,
                  services_->ws_limits.max_message_bytes);
    return;
  }
  if (ec) return fail(ec, "websocket read");
  if (closing_) return;
  if (!ws_.is_message_done()) return do_read();
  const auto received = Clock::now();
  services_->metrics->messages_in.fetch_add(1, std::memory_order_relaxed);

  if (!ws_.got_text()) {
    buffer_.consume(buffer_.size());
    if (bucket_.take(received)) {
      send_error(ErrorCode::bad_envelope, "binary frames are not accepted; send JSON text");
    } else {
      refuse_flood();
    }
  } else {
    // Read in place: every handler copies what it keeps, and no read starts before it
    // returns (resume_reading).
    const auto frame = buffer_.data();
    const std::string_view text(static_cast<const char*>(frame.data()), frame.size());
    if (bucket_.take(received)) {
      handling_ = true;
      if (relayed_as_) {
        services_->relay->text(*relayed_as_, text);
      } else {
        dispatch(*services_, *this, text, received);
      }
      handling_ = false;
    } else {
      refuse_flood();
    }
    buffer_.consume(buffer_.size());
  }
  // A long message's storage goes back rather than stay with the connection while it idles.
  if (buffer_.capacity() > kFirstReadBytes) buffer_.shrink_to_fit();
  if (!closing_ && !reading_paused_) do_read();
}

void WsSession::refuse_flood() {
  const auto now = Clock::now();
  if (now - flood_window_start_ >= std::chrono::seconds(1)) {
    flood_window_start_ = now;
    refused_in_window_ = 0;
  }
  ++refused_in_window_;
  // Ten bursts' worth of refusals within a second is no client bug: stop reading it.
  const auto limit = static_cast<std::size_t>(10 * services_->ws_limits.message_burst);
  if (refused_in_window_ > limit) {
    spdlog::info("websocket {}: closed for flooding", peer_);
    send_error(ErrorCode::rate_limited, "too many messages; closing");
    close_after_flush(
        websocket::close_reason(websocket::close_code::policy_error, "rate_limited"));
    return;
  }
  send_error(ErrorCode::rate_limited, "too many messages; this one was ignored");
}

void WsSession::resume_reading() {
  // A handler that paused and resumed at once: on_read reads on when it returns.
  if (std::exchange(reading_paused_, false) && !closing_ && !handling_) do_read();
}

void WsSession::post(std::function<void()> work) {
  net::post(ws_.get_executor(), [self = shared_from_this(), work = std::move(work)] { work(); });
}

void WsSession::close() {
  net::dispatch(ws_.get_executor(), [self = shared_from_this()] {
    if (!self->closing_) self->drop("too many messages held for it");
  });
}

void WsSession::end(protocol::CloseCode code, std::string_view reason) {
  net::dispatch(ws_.get_executor(), [self = shared_from_this(), code, reason = std::string(reason)] {
    if (!self->closing_) {
      self->close_after_flush(websocket::close_reason(static_cast<websocket::close_code>(code), reason));
    }
  });
}

void WsSession::deliver(std::shared_ptr<const std::string> message) {
  net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)] {
    self->send(std::move(message));
  });
}

// Both in the queue before the first is written, so that they leave in one segment (an
// answer and the update it brought, from a table).
void WsSession::deliver(std::shared_ptr<const std::string> first, std::shared_ptr<const std::string> then) {
  net::post(ws_.get_executor(), [self = shared_from_this(), first = std::move(first), then = std::move(then)] {
    const bool idle = self->enqueue(std::move(first));
    self->enqueue(std::move(then));
    if (idle && !self->closing_) self->do_write();
  });
}

void WsSession::send_error(ErrorCode code, std::string_view message) {
  services_->metrics->count_error(code);
  send(protocol::error_message(code, message));
}

void WsSession::send(std::string message) {
  send(std::make_shared<const std::string>(std::move(message)));
}

void WsSession::send(std::shared_ptr<const std::string> message) {
  if (enqueue(std::move(message))) do_write();
}

bool WsSession::enqueue(std::shared_ptr<const std::string> message) {
  if (closing_) return false;
  if (queued() >= services_->ws_limits.max_queued_messages) {
    drop("outgoing queue full; the peer is not reading");
    return false;
  }
  services_->metrics->messages_out.fetch_add(1, std::memory_order_relaxed);
  queue_.push_back(std::move(message));
  return queued() == 1;
}

void WsSession::do_write() {
  // With more queued behind it, the kernel holds this frame for the next (FrameSocket).
  ws_.next_layer().more_follows(queued() > 1);
  ws_.text(true);
  ws_.async_write(net::buffer(*queue_[queue_front_]),
                  net::bind_allocator(HandlerAllocator<void>{},
                                      beast::bind_front_handler(&WsSession::on_write, shared_from_this())));
}

void WsSession::on_write(beast::error_code ec, std::size_t /*bytes*/) {
  ws_.next_layer().more_follows(false);
  if (ec) return fail(ec, "websocket write");
  queue_[queue_front_++].reset();
  // Written slots are dropped once they are half the vector, so a queue that never quite
  // drains (a spectator of a busy table) does not grow without end.
  if (queue_front_ * 2 >= queue_.size()) {
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(queue_front_));
    queue_front_ = 0;
  }
  if (queued() > 0) return do_write();
  if (close_when_flushed_) do_close(*std::exchange(close_when_flushed_, nullptr));
}

void WsSession::close_after_flush(websocket::close_reason reason) {
  closing_ = true;
  if (queued() == 0) return do_close(reason);
  close_when_flushed_ = std::make_unique<websocket::close_reason>(std::move(reason));
}

void WsSession::do_close(websocket::close_reason reason) {
  ws_.async_close(reason, beast::bind_front_handler(&WsSession::on_close, shared_from_this()));
}

void WsSession::on_close(beast::error_code ec) {
  if (ec) return fail(ec, "websocket close");
  spdlog::debug("websocket {}: closed", peer_);
}

void WsSession::drop(std::string_view why) {
  spdlog::info("websocket {}: dropped: {}", peer_, why);
  closing_ = true;
  close_when_flushed_.reset();
  // Pending operations end with operation_aborted and release the session.
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).close(ignored);
}

}  // namespace elgrande::server
