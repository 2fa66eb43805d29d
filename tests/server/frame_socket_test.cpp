// The socket under a WebSocket session, on loopback: a frame written with more to follow
// waits in the kernel for the next and leaves with it, and Beast's WebSocket stream works
// on it as on a plain socket (the handshake, messages both ways, a ping answered, the
// close handshake).
#include <catch2/catch.hpp>
#include <linux/sockios.h>
#include <sys/ioctl.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/websocket.hpp>
#include <string>
#include <thread>
#include <vector>

#include "net/frame_socket.hpp"

using namespace elgrande::server;

namespace {

// Two connected loopback sockets, without Nagle's delay as the server's are.
struct Loopback {
  Loopback() {
    tcp::acceptor acceptor(io, {net::ip::make_address("127.0.0.1"), 0});
    client.connect(acceptor.local_endpoint());
    acceptor.accept(server);
    server.set_option(tcp::no_delay(true));
    client.set_option(tcp::no_delay(true));
  }
  net::io_context io;
  StrandSocket server{net::make_strand(io)};  // as the server's listener accepts them
  tcp::socket client{io};
};

// Bytes written to the socket that the kernel has not sent yet.
int unsent(StrandSocket& socket) {
  int bytes = -1;
  REQUIRE(ioctl(socket.native_handle(), SIOCOUTQNSD, &bytes) == 0);
  return bytes;
}

void write(net::io_context& io, FrameSocket& socket, const std::string& text) {
  beast::error_code failed;
  net::async_write(socket, net::buffer(text), [&](beast::error_code ec, std::size_t) { failed = ec; });
  io.restart();
  io.run();
  REQUIRE_FALSE(failed);
}

}  // namespace

TEST_CASE("a write with more to follow waits in the kernel and leaves with the next", "[net]") {
  Loopback loopback;
  FrameSocket socket(std::move(loopback.server));

  socket.more_follows(true);
  write(loopback.io, socket, "first ");
  CHECK(unsent(socket.next_layer()) == 6);
  CHECK(loopback.client.available() == 0);

  socket.more_follows(false);
  write(loopback.io, socket, "second");
  CHECK(unsent(socket.next_layer()) == 0);
  std::string received(12, '\0');
  net::read(loopback.client, net::buffer(received));
  CHECK(received == "first second");
}

TEST_CASE("Beast's WebSocket stream runs on it: two messages held and sent together, a ping answered, the close",
          "[net]") {
  Loopback loopback;
  websocket::stream<FrameSocket, false> server(FrameSocket(std::move(loopback.server)));
  websocket::stream<tcp::socket> client(std::move(loopback.client));

  // The client, a plain Beast WebSocket, on a thread of its own with blocking calls.
  std::vector<std::string> heard;
  bool ponged = false;
  beast::error_code client_end;
  std::thread peer([&] {
    client.handshake("127.0.0.1", "/");
    beast::flat_buffer buffer;
    for (int i = 0; i < 2; ++i) {
      client.read(buffer);
      heard.push_back(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
    }
    client.control_callback([&](websocket::frame_type kind, beast::string_view) {
      if (kind == websocket::frame_type::pong) ponged = true;
    });
    client.ping({});
    client.write(net::buffer(std::string("bye")));
    client.read(buffer, client_end);  // the pong, then the server's close
  });

  int held = -1;
  std::string said;
  beast::error_code server_failed;
  beast::flat_buffer buffer;
  const std::string first = "the answer";
  const std::string then = "the update";
  auto fail_on = [&](beast::error_code ec) {
    if (ec) server_failed = ec;
    return bool(ec);
  };
  server.async_accept([&](beast::error_code ec) {
    if (fail_on(ec)) return;
    server.next_layer().more_follows(true);
    server.async_write(net::buffer(first), [&](beast::error_code ec, std::size_t) {
      if (fail_on(ec)) return;
      held = unsent(server.next_layer().next_layer());
      server.next_layer().more_follows(false);
      server.async_write(net::buffer(then), [&](beast::error_code ec, std::size_t) {
        if (fail_on(ec)) return;
        server.async_read(buffer, [&](beast::error_code ec, std::size_t) {
          if (fail_on(ec)) return;
          said = beast::buffers_to_string(buffer.data());
          server.async_close(websocket::close_code::normal, [&](beast::error_code ec) { fail_on(ec); });
        });
      });
    });
  });
  loopback.io.run();
  peer.join();

  CHECK_FALSE(server_failed);
  CHECK(held == 2 + static_cast<int>(first.size()));  // the first frame, header and all, waited
  CHECK(heard == std::vector<std::string>{first, then});
  CHECK(said == "bye");
  CHECK(ponged);
  CHECK(client_end == websocket::error::closed);
}
