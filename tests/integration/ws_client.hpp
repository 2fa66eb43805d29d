#pragma once

// A small blocking WebSocket client for the integration tests. Each call runs one
// asynchronous Beast operation to completion under a deadline (the tcp_stream's timer),
// so a server that stops answering fails the test instead of hanging it. Compiled once,
// in net_support.cpp: Beast's templates are costly to build in every test.

#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace elgrande::test {

namespace websocket = boost::beast::websocket;
using Json = nlohmann::json;

// What one read produced: a message, or the error that ended the connection.
struct WsReceived {
  boost::system::error_code error;
  std::string text;
  bool binary = false;
};

// How to speak TLS to the server (wss://): the CA its certificate is checked against, and
// the name it must carry (sent as SNI and in the Host header).
struct WsTls {
  std::string ca_file;
  std::string server_name = "localhost";
};

class WsClient {
 public:
  WsClient(const std::string& address, std::uint16_t port, std::string_view target = "/ws",
           std::chrono::milliseconds timeout = std::chrono::seconds(10), std::optional<WsTls> tls = std::nullopt);
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  void send(std::string_view text);
  // Like send, but a failed write is returned instead of thrown.
  boost::system::error_code try_send(std::string_view text);
  void send_binary(std::string_view bytes);
  void send(const Json& message) { send(std::string_view(message.dump())); }

  // The next message, or the error that ended the connection (see close_code()).
  WsReceived read_any();
  // The next message as JSON; throws if the connection failed or it is not JSON text.
  Json read();
  Json request(const Json& message) {
    send(message);
    return read();
  }

  // The code of the close frame the server sent, once a read has failed with `closed`.
  std::uint16_t close_code() const;
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace elgrande::test
