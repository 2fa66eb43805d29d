#pragma once

#include <sys/socket.h>

#include <boost/beast/websocket/teardown.hpp>
#include <cstddef>
#include <utility>

#include "common/net.hpp"

namespace elgrande::server {

// The TCP socket under a WebSocket session (Beast's next layer), which can tell the kernel
// that another frame follows the one being written. Its writes then go with MSG_MORE: the
// kernel holds the frame and sends it in one segment with the next, so the two cost one
// trip through the network stack and one wake-up of the reader instead of two. On
// loopback that trip is most of what a write costs (docs/performance.md, step 11). Beast's
// own frames (pongs, pings, the close) pass through here too, in order, so whatever is
// held goes out with the next write that says nothing follows.
class FrameSocket {
 public:
  using executor_type = StrandSocket::executor_type;
  using next_layer_type = StrandSocket;
  using lowest_layer_type = StrandSocket::lowest_layer_type;  // what a TLS stream over it asks

  explicit FrameSocket(StrandSocket&& socket) : socket_(std::move(socket)) {}

  executor_type get_executor() noexcept { return socket_.get_executor(); }
  next_layer_type& next_layer() noexcept { return socket_; }
  const next_layer_type& next_layer() const noexcept { return socket_; }
  lowest_layer_type& lowest_layer() noexcept { return socket_.lowest_layer(); }
  const lowest_layer_type& lowest_layer() const noexcept { return socket_.lowest_layer(); }

  // Until changed, every write says whether more follows it at once.
  void more_follows(bool more) noexcept { flags_ = more ? kMore : 0; }

  // Blocking forms, which a TLS stream's teardown is written against; the server never blocks.
  template <class MutableBuffers>
  std::size_t read_some(const MutableBuffers& buffers, beast::error_code& ec) {
    return socket_.read_some(buffers, ec);
  }
  template <class ConstBuffers>
  std::size_t write_some(const ConstBuffers& buffers, beast::error_code& ec) {
    return socket_.send(buffers, flags_, ec);
  }

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return socket_.async_read_some(buffers, std::forward<Token>(token));
  }

  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return socket_.async_send(buffers, flags_, std::forward<Token>(token));
  }

 private:
#ifdef MSG_MORE
  static constexpr net::socket_base::message_flags kMore = MSG_MORE;
#else
  static constexpr net::socket_base::message_flags kMore = 0;  // not Linux: a write each
#endif

  StrandSocket socket_;
  net::socket_base::message_flags flags_ = 0;
};

// How Beast's WebSocket stream closes it: as it closes a plain socket.
inline void teardown(beast::role_type role, FrameSocket& socket, beast::error_code& ec) {
  websocket::teardown(role, socket.next_layer(), ec);
}

template <class Handler>
void async_teardown(beast::role_type role, FrameSocket& socket, Handler&& handler) {
  websocket::async_teardown(role, socket.next_layer(), std::forward<Handler>(handler));
}

}  // namespace elgrande::server
