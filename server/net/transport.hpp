#pragma once

#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <memory>
#include <utility>

#include "common/net.hpp"
#include "net/frame_socket.hpp"

namespace elgrande::server {

namespace ssl = boost::asio::ssl;

// The bytes under one client's sessions: TCP, or TLS over it when the server has a
// certificate (docs/deploy.md). One type for both, so HttpSession and WsSession are
// written once; the branch per read and write costs nothing beside TLS's own work. The
// TLS stream lives on the heap: with its buffers it takes about 35 KB, which a plain
// connection should not pay for.
class Transport {
 public:
  using executor_type = FrameSocket::executor_type;
  using next_layer_type = FrameSocket;  // the TCP socket under both, for beast::get_lowest_layer

  explicit Transport(StrandSocket&& socket) : plain_(std::move(socket)) {}

  // From now on the bytes are TLS's, with this context's certificate; it is kept as long as
  // the connection, so that a reload (SIGHUP) does not pull it from under running games.
  void start_tls(std::shared_ptr<ssl::context> context) {
    context_ = std::move(context);
    tls_ = std::make_unique<ssl::stream<FrameSocket>>(std::move(plain_), *context_);
  }
  bool tls() const noexcept { return tls_ != nullptr; }

  // The server's side of the handshake; `already_read` holds what was read before it (the
  // bytes after a trusted proxy's PROXY line). The handler gets the bytes it used.
  template <class Handler>
  void async_handshake(net::const_buffer already_read, Handler&& handler) {
    tls_->async_handshake(ssl::stream_base::server, already_read, std::forward<Handler>(handler));
  }

  executor_type get_executor() noexcept { return next_layer().get_executor(); }
  FrameSocket& next_layer() noexcept { return tls_ ? tls_->next_layer() : plain_; }
  const FrameSocket& next_layer() const noexcept { return tls_ ? tls_->next_layer() : plain_; }
  StrandSocket& socket() noexcept { return next_layer().next_layer(); }
  void more_follows(bool more) noexcept { next_layer().more_follows(more); }  // see FrameSocket

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    if (tls_) return tls_->async_read_some(buffers, std::forward<Token>(token));
    return plain_.async_read_some(buffers, std::forward<Token>(token));
  }

  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    if (tls_) return tls_->async_write_some(buffers, std::forward<Token>(token));
    return plain_.async_write_some(buffers, std::forward<Token>(token));
  }

  // How Beast's WebSocket stream closes it: TLS's close_notify first, when there is TLS.
  friend void teardown(beast::role_type role, Transport& transport, beast::error_code& ec) {
    if (transport.tls_) return beast::teardown(role, *transport.tls_, ec);
    teardown(role, transport.plain_, ec);
  }

  template <class Handler>
  friend void async_teardown(beast::role_type role, Transport& transport, Handler&& handler) {
    if (transport.tls_) return beast::async_teardown(role, *transport.tls_, std::forward<Handler>(handler));
    async_teardown(role, transport.plain_, std::forward<Handler>(handler));
  }

 private:
  FrameSocket plain_;  // moved into tls_ by start_tls
  std::shared_ptr<ssl::context> context_;
  std::unique_ptr<ssl::stream<FrameSocket>> tls_;
};

}  // namespace elgrande::server
