// What the integration tests' network helpers need of Beast, compiled once: the blocking
// WebSocket client, one-shot HTTP requests, and the webhook receiver.

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "http_receiver.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

namespace elgrande::test {

// --- WsClient ---

struct WsClient::Impl {
  using Plain = websocket::stream<boost::beast::tcp_stream, false>;  // no permessage-deflate
  using Secure = websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>, false>;

  boost::asio::io_context io;
  std::optional<boost::asio::ssl::context> context;
  std::unique_ptr<Plain> plain;
  std::unique_ptr<Secure> secure;
  std::chrono::milliseconds timeout;

  // Calls `f` with the WebSocket stream, whichever it is.
  template <typename F>
  decltype(auto) with(F f) {
    if (secure) return f(*secure);
    return f(*plain);
  }
  boost::beast::tcp_stream& lowest() {
    return with([](auto& ws) -> boost::beast::tcp_stream& { return boost::beast::get_lowest_layer(ws); });
  }

  // Starts one operation and runs it to completion or to the deadline.
  template <typename Start>
  boost::beast::error_code run(Start start) {
    boost::beast::error_code result;
    bool finished = false;
    lowest().expires_after(timeout);
    start([&](boost::beast::error_code ec, auto&&...) {
      result = ec;
      finished = true;
    });
    io.restart();
    io.run();
    if (!finished) throw std::logic_error("WebSocket operation did not complete");
    return result;
  }

  static void check(boost::beast::error_code ec, const char* step) {
    if (ec) throw std::runtime_error(std::string("WebSocket ") + step + ": " + ec.message());
  }
};

WsClient::WsClient(const std::string& address, std::uint16_t port, std::string_view target,
                   std::chrono::milliseconds timeout, std::optional<WsTls> tls)
    : impl_(std::make_unique<Impl>()) {
  impl_->timeout = timeout;
  if (tls) {
    impl_->context.emplace(boost::asio::ssl::context::tls_client);
    impl_->context->load_verify_file(tls->ca_file);
    impl_->context->set_verify_mode(boost::asio::ssl::verify_peer);
    impl_->secure = std::make_unique<Impl::Secure>(impl_->io, *impl_->context);
    auto& stream = impl_->secure->next_layer();
    SSL_set_tlsext_host_name(stream.native_handle(), tls->server_name.c_str());
    stream.set_verify_callback(boost::asio::ssl::host_name_verification(tls->server_name));
  } else {
    impl_->plain = std::make_unique<Impl::Plain>(impl_->io);
  }
  const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address(address), port);
  Impl::check(impl_->run([&](auto done) { impl_->lowest().async_connect(endpoint, done); }), "connect");
  boost::beast::error_code ignored;
  impl_->lowest().socket().set_option(boost::asio::ip::tcp::no_delay(true), ignored);
  if (impl_->secure) {
    Impl::check(impl_->run([&](auto done) {
                  impl_->secure->next_layer().async_handshake(boost::asio::ssl::stream_base::client, done);
                }),
                "TLS handshake");
  }
  const std::string host = tls ? tls->server_name + ":" + std::to_string(port) : address + ":" + std::to_string(port);
  Impl::check(impl_->run([&](auto done) {
                impl_->with([&](auto& ws) { ws.async_handshake(host, std::string(target), done); });
              }),
              "handshake");
}

WsClient::~WsClient() = default;

void WsClient::send(std::string_view text) { Impl::check(try_send(text), "write"); }

boost::system::error_code WsClient::try_send(std::string_view text) {
  return impl_->run([&](auto done) {
    impl_->with([&](auto& ws) {
      ws.text(true);
      ws.async_write(boost::asio::buffer(text), done);
    });
  });
}

void WsClient::send_binary(std::string_view bytes) {
  Impl::check(impl_->run([&](auto done) {
                impl_->with([&](auto& ws) {
                  ws.binary(true);
                  ws.async_write(boost::asio::buffer(bytes), done);
                });
              }),
              "write");
}

WsReceived WsClient::read_any() {
  boost::beast::flat_buffer buffer;
  WsReceived received;
  received.error = impl_->run([&](auto done) { impl_->with([&](auto& ws) { ws.async_read(buffer, done); }); });
  received.text = boost::beast::buffers_to_string(buffer.data());
  received.binary = !impl_->with([](auto& ws) { return ws.got_text(); });
  return received;
}

Json WsClient::read() {
  WsReceived received = read_any();
  Impl::check(received.error, "read");
  return Json::parse(received.text);
}

std::uint16_t WsClient::close_code() const {
  return impl_->with([](auto& ws) { return static_cast<std::uint16_t>(ws.reason().code); });
}

void WsClient::close() {
  Impl::check(
      impl_->run([&](auto done) { impl_->with([&](auto& ws) { ws.async_close(websocket::close_code::normal, done); }); }),
      "close");
}

// --- One-shot HTTP ---

// Asynchronous operations are used only because tcp_stream's timeout applies to them.
HttpResponse send_http(const std::string& address, std::uint16_t port, http::request<http::string_body> request,
                       std::chrono::milliseconds timeout) {
  boost::asio::io_context io;
  boost::beast::tcp_stream stream(io);
  boost::beast::flat_buffer buffer;
  HttpResponse response;
  boost::beast::error_code failure;
  const char* failed_step = "";
  const auto failed = [&](boost::beast::error_code ec, const char* step) {
    failure = ec;
    failed_step = step;
  };

  request.set(http::field::host, address + ":" + std::to_string(port));
  request.prepare_payload();
  const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address(address), port);

  stream.expires_after(timeout);  // one budget for connect, write and read together
  stream.async_connect(endpoint, [&](boost::beast::error_code ec) {
    if (ec) return failed(ec, "connect");
    http::async_write(stream, request, [&](boost::beast::error_code ec, std::size_t) {
      if (ec) return failed(ec, "write");
      http::async_read(stream, buffer, response, [&](boost::beast::error_code ec, std::size_t) {
        if (ec) failed(ec, "read");
      });
    });
  });
  io.run();

  if (failure)
    throw std::runtime_error(std::string("HTTP ") + failed_step + ": " + failure.message());
  return response;
}

// --- HttpReceiver ---

struct HttpReceiver::Impl {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor{io, {boost::asio::ip::make_address("127.0.0.1"), 0}};
  std::optional<boost::asio::ssl::context> tls;
  std::thread thread;
  std::mutex mutex;
  std::condition_variable arrived;
  std::deque<unsigned> statuses;
  std::vector<Received> received;

  void accept() {
    acceptor.async_accept([this](boost::beast::error_code ec, boost::asio::ip::tcp::socket socket) {
      if (ec) return;
      serve(std::move(socket));
      accept();
    });
  }

  // One request per connection is all the webhook sends; served synchronously, since
  // nothing else runs on this thread.
  void serve(boost::asio::ip::tcp::socket socket) {
    if (!tls) return exchange(socket);
    boost::beast::ssl_stream<boost::asio::ip::tcp::socket> stream(std::move(socket), *tls);
    boost::beast::error_code ec;
    stream.handshake(boost::asio::ssl::stream_base::server, ec);
    if (!ec) exchange(stream);
  }

  template <class Stream>
  void exchange(Stream& stream) {
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> request;
    boost::beast::error_code ec;
    http::read(stream, buffer, request, ec);
    if (ec) return;
    unsigned status = 200;
    {
      const std::lock_guard lock(mutex);
      if (!statuses.empty()) {
        status = statuses.front();
        statuses.pop_front();
      }
      received.push_back({std::string(request.method_string()), std::string(request.target()),
                          std::string(request[http::field::content_type]), request.body()});
    }
    arrived.notify_all();
    http::response<http::string_body> response{static_cast<http::status>(status), 11};
    response.body() = "ok";
    response.prepare_payload();
    http::write(stream, response, ec);
  }
};

HttpReceiver::HttpReceiver(std::deque<unsigned> statuses, std::optional<Tls> tls) : impl_(std::make_unique<Impl>()) {
  impl_->statuses = std::move(statuses);
  if (tls) {
    impl_->tls.emplace(boost::asio::ssl::context::tls_server);
    impl_->tls->use_certificate_chain_file(tls->certificate);
    impl_->tls->use_private_key_file(tls->key, boost::asio::ssl::context::pem);
  }
  impl_->accept();
  impl_->thread = std::thread([this] { impl_->io.run(); });
}

HttpReceiver::~HttpReceiver() {
  impl_->io.stop();
  impl_->thread.join();
}

std::string HttpReceiver::url(const std::string& path, const std::string& host) const {
  return std::string(impl_->tls ? "https://" : "http://") + host + ":" +
         std::to_string(impl_->acceptor.local_endpoint().port()) + path;
}

std::vector<HttpReceiver::Received> HttpReceiver::wait_for(std::size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  impl_->arrived.wait_for(lock, timeout, [&] { return impl_->received.size() >= count; });
  return impl_->received;
}

}  // namespace elgrande::test
