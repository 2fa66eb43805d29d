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
#include <optional>
#include <type_traits>
#include <stdexcept>
#include <thread>

#include "http_receiver.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

namespace elgrande::test {

namespace {

namespace ssl = boost::asio::ssl;
using boost::asio::ip::tcp;
using SecureStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

// The socket opened and bound to the client's own address first, when one is given (any
// of 127/8 on Linux), so that the peer sees the connection come from there.
void bind_local(boost::beast::tcp_stream& stream, const std::string& local_address) {
  if (local_address.empty()) return;
  const boost::asio::ip::address local = boost::asio::ip::make_address(local_address);
  stream.socket().open(local.is_v4() ? tcp::v4() : tcp::v6());
  stream.socket().bind({local, 0});
}

void make_tls_context(std::optional<ssl::context>& context, const TlsOptions& tls) {
  context.emplace(ssl::context::tls_client);
  context->load_verify_file(tls.ca_file);
  context->set_verify_mode(ssl::verify_peer);
}

// SNI, and the name the peer's certificate must carry.
void expect_name(SecureStream& stream, const TlsOptions& tls) {
  if (SSL_set_tlsext_host_name(stream.native_handle(), tls.server_name.c_str()) != 1) {
    throw std::runtime_error("cannot set SNI " + tls.server_name);
  }
  stream.set_verify_callback(ssl::host_name_verification(tls.server_name));
}

std::string host_of(const std::string& address, std::uint16_t port, const ConnectOptions& options) {
  return options.host.empty() ? address + ":" + std::to_string(port) : options.host;
}

}  // namespace

// --- WsClient ---

struct WsClient::Impl {
  boost::asio::io_context io;
  std::optional<ssl::context> tls;
  std::optional<websocket::stream<boost::beast::tcp_stream, false>> plain;  // no permessage-deflate
  std::optional<websocket::stream<SecureStream, false>> secure;
  std::chrono::milliseconds timeout;

  boost::beast::tcp_stream& lowest() {
    return secure ? boost::beast::get_lowest_layer(*secure) : boost::beast::get_lowest_layer(*plain);
  }
  // Calls `use` with whichever WebSocket stream this client has.
  template <typename Use>
  void with(Use use) {
    if (secure) {
      use(*secure);
    } else {
      use(*plain);
    }
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
                   std::chrono::milliseconds timeout, const ConnectOptions& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->timeout = timeout;
  if (options.tls) {
    make_tls_context(impl_->tls, *options.tls);
    impl_->secure.emplace(impl_->io, *impl_->tls);
    expect_name(impl_->secure->next_layer(), *options.tls);
  } else {
    impl_->plain.emplace(impl_->io);
  }
  bind_local(impl_->lowest(), options.local_address);
  const tcp::endpoint endpoint(boost::asio::ip::make_address(address), port);
  Impl::check(impl_->run([&](auto done) { impl_->lowest().async_connect(endpoint, done); }), "connect");
  boost::beast::error_code ignored;
  impl_->lowest().socket().set_option(tcp::no_delay(true), ignored);
  if (impl_->secure) {
    Impl::check(impl_->run([&](auto done) { impl_->secure->next_layer().async_handshake(ssl::stream_base::client, done); }),
                "TLS handshake");
  }
  impl_->with([&](auto& ws) {
    if (!options.origin.empty()) {
      ws.set_option(websocket::stream_base::decorator(
          [origin = options.origin](websocket::request_type& request) { request.set(http::field::origin, origin); }));
    }
    Impl::check(impl_->run([&](auto done) {
                  ws.async_handshake(host_of(address, port, options), std::string(target), done);
                }),
                "handshake");
  });
}

WsClient::~WsClient() = default;

void WsClient::send(std::string_view text) { Impl::check(try_send(text), "write"); }

boost::system::error_code WsClient::try_send(std::string_view text) {
  boost::system::error_code result;
  impl_->with([&](auto& ws) {
    ws.text(true);
    result = impl_->run([&](auto done) { ws.async_write(boost::asio::buffer(text), done); });
  });
  return result;
}

void WsClient::send_binary(std::string_view bytes) {
  impl_->with([&](auto& ws) {
    ws.binary(true);
    Impl::check(impl_->run([&](auto done) { ws.async_write(boost::asio::buffer(bytes), done); }), "write");
  });
}

WsReceived WsClient::read_any() {
  boost::beast::flat_buffer buffer;
  WsReceived received;
  impl_->with([&](auto& ws) {
    received.error = impl_->run([&](auto done) { ws.async_read(buffer, done); });
    received.binary = !ws.got_text();
  });
  received.text = boost::beast::buffers_to_string(buffer.data());
  return received;
}

Json WsClient::read() {
  WsReceived received = read_any();
  Impl::check(received.error, "read");
  return Json::parse(received.text);
}

std::uint16_t WsClient::close_code() const {
  return impl_->secure ? impl_->secure->reason().code : impl_->plain->reason().code;
}

std::string WsClient::close_reason() const {
  const auto& reason = impl_->secure ? impl_->secure->reason().reason : impl_->plain->reason().reason;
  return std::string(reason.data(), reason.size());
}

void WsClient::close() {
  impl_->with([&](auto& ws) {
    Impl::check(impl_->run([&](auto done) { ws.async_close(websocket::close_code::normal, done); }), "close");
  });
}

// --- One-shot HTTP ---

namespace {

// Asynchronous operations are used only because tcp_stream's timeout applies to them.
template <typename Stream>
HttpResponse exchange_http(boost::asio::io_context& io, Stream& stream, const tcp::endpoint& endpoint,
                           const http::request<http::string_body>& request, std::chrono::milliseconds timeout) {
  boost::beast::flat_buffer buffer;
  HttpResponse response;
  boost::beast::error_code failure;
  const char* failed_step = "";
  const auto failed = [&](boost::beast::error_code ec, const char* step) {
    failure = ec;
    failed_step = step;
  };
  const auto write_and_read = [&] {
    http::async_write(stream, request, [&](boost::beast::error_code ec, std::size_t) {
      if (ec) return failed(ec, "write");
      http::async_read(stream, buffer, response, [&](boost::beast::error_code ec, std::size_t) {
        if (ec) failed(ec, "read");
      });
    });
  };

  boost::beast::get_lowest_layer(stream).expires_after(timeout);  // one budget for it all
  boost::beast::get_lowest_layer(stream).async_connect(endpoint, [&](boost::beast::error_code ec) {
    if (ec) return failed(ec, "connect");
    if constexpr (std::is_same_v<Stream, SecureStream>) {
      stream.async_handshake(ssl::stream_base::client, [&](boost::beast::error_code ec) {
        if (ec) return failed(ec, "TLS handshake");
        write_and_read();
      });
    } else {
      write_and_read();
    }
  });
  io.run();

  if (failure)
    throw std::runtime_error(std::string("HTTP ") + failed_step + ": " + failure.message());
  return response;
}

}  // namespace

HttpResponse send_http(const std::string& address, std::uint16_t port, http::request<http::string_body> request,
                       const ConnectOptions& options, std::chrono::milliseconds timeout) {
  boost::asio::io_context io;
  request.set(http::field::host, host_of(address, port, options));
  request.prepare_payload();
  const tcp::endpoint endpoint(boost::asio::ip::make_address(address), port);
  if (!options.tls) {
    boost::beast::tcp_stream stream(io);
    bind_local(stream, options.local_address);
    return exchange_http(io, stream, endpoint, request, timeout);
  }
  std::optional<ssl::context> context;
  make_tls_context(context, *options.tls);
  SecureStream stream(io, *context);
  expect_name(stream, *options.tls);
  bind_local(boost::beast::get_lowest_layer(stream), options.local_address);
  return exchange_http(io, stream, endpoint, request, timeout);
}

HttpResponse send_http(const std::string& address, std::uint16_t port, http::request<http::string_body> request,
                       std::chrono::milliseconds timeout) {
  return send_http(address, port, std::move(request), ConnectOptions{}, timeout);
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
