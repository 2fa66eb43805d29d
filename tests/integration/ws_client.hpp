#pragma once

// A small blocking WebSocket client for the integration tests. Each call runs one
// asynchronous Beast operation to completion under a deadline (the tcp_stream's timer),
// so a server that stops answering fails the test instead of hanging it.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace elgrande::test {

namespace websocket = boost::beast::websocket;
using Json = nlohmann::json;

// What one read produced: a message, or the error that ended the connection.
struct WsReceived {
  boost::beast::error_code error;
  std::string text;
  bool binary = false;
};

class WsClient {
 public:
  WsClient(const std::string& address, std::uint16_t port, std::string_view target = "/ws",
           std::chrono::milliseconds timeout = std::chrono::seconds(10))
      : ws_(io_), timeout_(timeout) {
    const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address(address), port);
    check(run([&](auto done) { lowest().async_connect(endpoint, done); }), "connect");
    boost::beast::error_code ignored;
    lowest().socket().set_option(boost::asio::ip::tcp::no_delay(true), ignored);
    check(run([&](auto done) {
            ws_.async_handshake(address + ":" + std::to_string(port), std::string(target), done);
          }),
          "handshake");
  }

  void send(std::string_view text) {
    ws_.text(true);
    check(run([&](auto done) { ws_.async_write(boost::asio::buffer(text), done); }), "write");
  }

  void send_binary(std::string_view bytes) {
    ws_.binary(true);
    check(run([&](auto done) { ws_.async_write(boost::asio::buffer(bytes), done); }), "write");
  }

  void send(const Json& message) { send(std::string_view(message.dump())); }

  // The next message, or the error that ended the connection (see close_code()).
  WsReceived read_any() {
    boost::beast::flat_buffer buffer;
    WsReceived received;
    received.error = run([&](auto done) { ws_.async_read(buffer, done); });
    received.text = boost::beast::buffers_to_string(buffer.data());
    received.binary = !ws_.got_text();
    return received;
  }

  // The next message as JSON; throws if the connection failed or it is not JSON text.
  Json read() {
    WsReceived received = read_any();
    check(received.error, "read");
    return Json::parse(received.text);
  }

  Json request(const Json& message) {
    send(message);
    return read();
  }

  // The code of the close frame the server sent, once a read has failed with `closed`.
  std::uint16_t close_code() const { return ws_.reason().code; }

  void close() {
    check(run([&](auto done) { ws_.async_close(websocket::close_code::normal, done); }), "close");
  }

 private:
  boost::beast::tcp_stream& lowest() { return boost::beast::get_lowest_layer(ws_); }

  // Starts one operation and runs it to completion or to the deadline.
  template <typename Start>
  boost::beast::error_code run(Start start) {
    boost::beast::error_code result;
    bool finished = false;
    lowest().expires_after(timeout_);
    start([&](boost::beast::error_code ec, auto&&...) {
      result = ec;
      finished = true;
    });
    io_.restart();
    io_.run();
    if (!finished) throw std::logic_error("WebSocket operation did not complete");
    return result;
  }

  static void check(boost::beast::error_code ec, const char* step) {
    if (ec) throw std::runtime_error(std::string("WebSocket ") + step + ": " + ec.message());
  }

  boost::asio::io_context io_;
  websocket::stream<boost::beast::tcp_stream> ws_;
  std::chrono::milliseconds timeout_;
};

}  // namespace elgrande::test
