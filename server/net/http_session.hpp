#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <string_view>

#include "app/services.hpp"
#include "net/connection_limit.hpp"
#include "common/net.hpp"
#include "net/router.hpp"
#include "net/transport.hpp"

namespace elgrande::server {

// What a listening port is for: the server itself, or (beside an HTTPS port) plain HTTP
// answering with redirects and certbot's challenges.
enum class HttpRole : std::uint8_t { serve, redirect_to_https };

// One HTTP connection, over TCP or TLS,, answering one request at a time (so at most one write is
// ever in flight). It keeps itself alive through the handlers it has pending and dies
// when the peer leaves, a timeout fires, or the server stops.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // Requests carry no large payloads; anything bigger is abuse or a mistake.
  static constexpr std::size_t kMaxBodyBytes = 64 * 1024;
  static constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
  // Bounds a whole request read, including the idle wait for the next keep-alive request.
  static constexpr std::chrono::seconds kReadTimeout{30};
  // A connection over the limit gets one probe's worth of time.
  static constexpr std::chrono::seconds kOverflowReadTimeout{5};
  // A client that stops reading its answer must not hold the connection forever.
  static constexpr std::chrono::seconds kWriteTimeout{30};
  // A TLS handshake is a few round trips; one that drags on is a slow-loris.
  static constexpr std::chrono::seconds kHandshakeTimeout{10};
  // Upgrade requests for this path (any query string) become a WsSession.
  static constexpr std::string_view kWebSocketPath = "/ws";

  // All of this session's handlers run on the socket's strand. A slot in the overflow
  // gets one answer (see answer_when_full) and is closed. With a TLS context, the
  // connection is TLS after any PROXY line.
  HttpSession(StrandSocket&& socket, std::shared_ptr<const Services> services, ConnectionLimit::Slot slot,
              std::shared_ptr<ssl::context> tls = nullptr, HttpRole role = HttpRole::serve);

  void run();
  // Closes the connection at once, from any thread: an idle one in the overflow.
  void cut();

 private:
  // Loopback or a trusted proxy: a PROXY protocol line naming the client is believed from
  // it, and plain HTTP on a TLS port (another process's peer link, docs/scaling.md).
  bool may_forward();
  void read_proxy_line();
  void begin();  // after any PROXY line: the TLS handshake, if any, then requests
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void send(http::message_generator&& message);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void relay_request();  // to the leader, by a process that does not lead
  void accept_peer();
  void refuse_origin();
  void do_close();
  // Closes the connection if the next step has not finished in time; disarm when it has.
  void expire_after(std::chrono::seconds timeout);
  void disarm();

  Transport transport_;
  net::steady_timer deadline_;
  std::uint64_t deadline_step_ = 0;  // which step the deadline's wait is for
  std::shared_ptr<ssl::context> tls_;  // until the handshake begins
  HttpRole role_;
  beast::flat_buffer buffer_;
  std::shared_ptr<const Services> services_;
  std::optional<ConnectionLimit::Slot> slot_;  // handed to the WsSession on an upgrade
  bool trusted_ = false;  // a loopback peer or a trusted proxy: may send a PROXY line
  bool peer_link_only_ = false;  // plain bytes on a TLS port: a peer link, or nothing
  std::optional<std::string> forwarded_client_;  // as a forwarding process's PROXY line names it
  // A fresh parser per request, because body and header limits are per message.
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace elgrande::server
