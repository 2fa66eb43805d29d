#pragma once

// A small blocking WebSocket client for the integration tests. Each call runs one
// asynchronous Beast operation to completion under a deadline (the tcp_stream's timer),
// so a server that stops answering fails the test instead of hanging it. Compiled once,
// in net_support.cpp: Beast's templates are costly to build in every test.

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
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

// TLS to the peer (nginx in front of the server, tests/integration/deploy_test.cpp): its
// certificate must chain to ca_file and name server_name, which is also sent as SNI.
struct TlsOptions {
  std::string ca_file;
  std::string server_name;
};

// How a connection is made beyond the address it goes to.
struct ConnectOptions {
  std::optional<TlsOptions> tls;
  std::string local_address;  // the client's own address, bound before connecting ("127.0.0.7")
  std::string host;           // the Host header; empty: "address:port"
  std::string origin;         // the Origin header of a WebSocket upgrade; empty: none
};

class WsClient {
 public:
  WsClient(const std::string& address, std::uint16_t port, std::string_view target = "/ws",
           std::chrono::milliseconds timeout = std::chrono::seconds(10), const ConnectOptions& options = {});
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
  // The close frame's reason: a short code ("banned"), never words for a person.
  std::string close_reason() const;
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One request on a fresh connection made as `options` say; the answer, failing after the
// timeout. A refused WebSocket upgrade is seen this way, with its status. (net_support.cpp)
boost::beast::http::response<boost::beast::http::string_body> send_http(
    const std::string& address, std::uint16_t port, boost::beast::http::request<boost::beast::http::string_body> request,
    const ConnectOptions& options, std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace elgrande::test
