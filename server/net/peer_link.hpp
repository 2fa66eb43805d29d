#pragma once

#include <boost/beast/websocket/stream.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "common/net.hpp"
#include "net/peer_messages.hpp"
#include "net/transport.hpp"

namespace elgrande::server {

// What a peer link's owner hears, on the link's strand.
class PeerEnd {
 public:
  virtual ~PeerEnd() = default;
  // Each message, in the order sent.
  virtual void received(const PeerMessage& message) = 0;
  // Once, when the link closed, whichever end closed it or however it broke.
  virtual void lost() = 0;
};

// One WebSocket between two server processes, carrying the messages of many client
// connections (net/peer_messages.hpp; docs/scaling.md): whatever is queued while a frame
// is being written leaves together in the next one, so a busy link writes few large frames
// rather than one per message. The process that connects presents the key the other wrote
// into its `processes` row; only the processes on the database can read it.
class PeerLink : public std::enable_shared_from_this<PeerLink> {
 public:
  static constexpr std::string_view kPath = "/peer";

  // The accepting side, on a connection whose upgrade request asked for kPath with the key.
  PeerLink(Transport&& transport, std::shared_ptr<PeerEnd> end);
  // Connects to `address` (host:port) with `key`. Messages sent before the link is open
  // wait for it; if it never opens, the end hears lost().
  static std::shared_ptr<PeerLink> connect(net::io_context& io, const std::string& address, std::string key,
                                           std::shared_ptr<PeerEnd> end);
  ~PeerLink();
  PeerLink(const PeerLink&) = delete;
  PeerLink& operator=(const PeerLink&) = delete;

  void accept(http::request<http::string_body> upgrade);

  // Queues a message; callable from any thread. Nothing happens once the link is closed.
  void send(PeerKind kind, std::uint64_t connection, std::string_view body = {});
  // Two messages of one connection that must leave together (an answer and its update).
  void send(PeerKind kind, std::uint64_t connection, std::string_view first, std::string_view then);
  // Closes at once; what is queued is lost. Callable from any thread.
  void close();

  // The key an accepting process checks: "Bearer <key>" in the upgrade's Authorization.
  static bool authorised(const http::request<http::string_body>& upgrade, std::string_view key);

 private:
  PeerLink(Strand strand, std::shared_ptr<PeerEnd> end);
  void do_connect(const std::string& address, std::string key);
  void opened(beast::error_code ec, std::string_view what);
  void enqueue(PeerKind kind, std::uint64_t connection, std::string_view body, const std::string_view* then);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void lose(beast::error_code ec, std::string_view what);  // on the strand

  // A queue past this many bytes is a peer that stopped reading: the link is cut rather
  // than let it grow.
  static constexpr std::size_t kMaxQueuedBytes = 64 * 1024 * 1024;

  websocket::stream<Transport, false> ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<PeerEnd> end_;  // until lost
  tcp::resolver resolver_;

  std::mutex mutex_;  // guards what follows: send() is called from any thread
  std::string queued_;  // the next frame, being built
  bool writing_ = false;  // a write is in flight or posted
  bool open_ = false;     // the handshake is done
  bool closed_ = false;

  std::string written_;  // the frame in flight: the strand's
};

}  // namespace elgrande::server
