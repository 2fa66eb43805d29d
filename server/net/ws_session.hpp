#pragma once

#include <algorithm>
#include <boost/beast/websocket/stream.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "requests/client.hpp"
#include "app/services.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "net/connection_limit.hpp"
#include "net/transport.hpp"
#include "common/net.hpp"

namespace elgrande::server {

// A token bucket: `rate` tokens a second up to `capacity`, one per message.
class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  TokenBucket(double rate, double capacity, Clock::time_point now)
      : rate_(rate), capacity_(capacity), tokens_(capacity), last_(now) {}

  bool take(Clock::time_point now) {
    const std::chrono::duration<double> elapsed = now - last_;
    last_ = now;
    tokens_ = std::min(capacity_, tokens_ + elapsed.count() * rate_);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

 private:
  double rate_;
  double capacity_;
  double tokens_;
  Clock::time_point last_;
};

// One WebSocket connection speaking the game protocol (docs/protocol.md), taken over
// from an HttpSession after the upgrade request: the transport only. Each text message
// goes to the dispatcher (app/dispatcher.hpp), which answers through this session as a
// Client. Like HttpSession it keeps itself alive through its pending handlers and runs
// every handler on the connection's strand. At most one write is in flight; the queue
// behind it is bounded, and a peer that lets it fill is dropped rather than allowed to
// grow the server's memory.
class WsSession : public Client, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(Transport&& transport, std::shared_ptr<const Services> services, ConnectionLimit::Slot slot);
  ~WsSession() override;
  WsSession(const WsSession&) = delete;
  WsSession& operator=(const WsSession&) = delete;

  // Completes the handshake for this upgrade request, then serves messages.
  // `forwarded_client`: the client's address, when another server process forwards it.
  void run(http::request<http::string_body> upgrade, std::optional<std::string> forwarded_client = std::nullopt);

  // Closes with 1001 (going away) after the write in flight. Callable from any thread.
  void go_away() override;

  // Recipient: callable from any thread.
  void deliver(std::shared_ptr<const std::string> message) override;
  void deliver(std::shared_ptr<const std::string> first, std::shared_ptr<const std::string> then) override;
  using Recipient::deliver;
  void close() override;  // cuts a peer that let messages pile up for it
  void end(protocol::CloseCode code, std::string_view reason) override;

  // Client: on the strand.
  void send(std::string message) override;
  void post(std::function<void()> work) override;
  void pause_reading() override { reading_paused_ = true; }
  void resume_reading() override;
  std::shared_ptr<Client> self() override { return shared_from_this(); }

 private:
  using Clock = TokenBucket::Clock;

  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void refuse_flood();

  void send_error(protocol::ErrorCode code, std::string_view message);
  void send(std::shared_ptr<const std::string> message);
  // Queues a message; true if the queue was empty, so that a write must begin.
  bool enqueue(std::shared_ptr<const std::string> message);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);

  // Stops taking new messages, lets the queue drain, then sends a close frame.
  void close_after_flush(websocket::close_reason reason);
  void do_close(websocket::close_reason reason);
  void on_close(beast::error_code ec);
  // Cuts the TCP connection without a close handshake, for a peer that stopped reading.
  void drop(std::string_view why);

  // Covers 99% of the messages a game sends (commands, at most a few hundred bytes).
  static constexpr std::size_t kFirstReadBytes = 256;

  websocket::stream<Transport, false> ws_;  // false: no permessage-deflate, which we never offer
  beast::flat_buffer buffer_;
  std::shared_ptr<const Services> services_;
  ConnectionLimit::Slot slot_;
  std::string peer_;  // for the log: the client's address and port

  // Messages to send, oldest first; the front one is being written. A vector and the index
  // of its front rather than a std::deque, which takes over half a kilobyte even empty: most
  // connections are idle, and one process holds up to 19,000 of them.
  std::vector<std::shared_ptr<const std::string>> queue_;
  std::size_t queue_front_ = 0;
  std::size_t queued() const { return queue_.size() - queue_front_; }
  // On the heap, as few connections ever close this way: a close_reason is 128 bytes.
  std::unique_ptr<websocket::close_reason> close_when_flushed_;
  // Its number on the peer link to the leader, when another process serves it
  // (net/peer_relay.hpp).
  std::optional<std::uint64_t> relayed_as_;
  bool accepted_ = false;
  bool closing_ = false;         // no more reads or replies
  bool reading_paused_ = false;  // an answer waits (hello saving an identity)
  bool handling_ = false;        // a message read is being handled (on_read)

  TokenBucket bucket_;
  Clock::time_point flood_window_start_;
  std::size_t refused_in_window_ = 0;
};

}  // namespace elgrande::server
