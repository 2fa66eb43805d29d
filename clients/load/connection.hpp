#pragma once

// elgrande-load's parts that every table and idle connection shares: what the run
// measures (Tally), and one WebSocket connection, plain or over TLS. Included by load.cpp
// after its namespace aliases (net, beast, websocket, tcp, Json).

#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// --- What the run measures, shared by the threads. ---

struct Tally {
  std::mutex lock;
  std::vector<double> latency_us;
  std::map<std::string, std::size_t> errors;
  std::vector<std::string> failures;
  std::atomic<std::size_t> commands{0};  // accepted, within the measured window
  std::atomic<std::size_t> games{0};
  std::atomic<std::size_t> open{0};       // connections open now
  std::atomic<std::size_t> ready{0};      // connections that said hello
  std::atomic<bool> measuring{false};
  std::atomic<bool> stopping{false};
  // Frames within the measured window, for the relay to send alike: commands sent, their
  // acknowledgements, and everything else the tables' connections received.
  std::atomic<std::size_t> command_bytes{0}, ack_frames{0}, ack_bytes{0}, other_frames{0}, other_bytes{0};
  // wss:// (--url wss://..., --ca-file): the context every connection's TLS is made with,
  // and the name the server's certificate must carry.
  std::shared_ptr<net::ssl::context> tls;
  std::string server_name;

  void error(const std::string& code) {
    const std::lock_guard guard(lock);
    ++errors[code];
  }
  void failure(std::string what) {
    const std::lock_guard guard(lock);
    if (failures.size() < 20) failures.push_back(std::move(what));
  }
};

// --- One WebSocket connection. ---

// One WebSocket connection, over TLS when the tally has a context. The stream is one of
// two types, so each operation is written once against whichever it is (`with`).
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using OnMessage = std::function<void(const std::string&)>;

  Connection(net::io_context& io, Tally& tally) : tally_(tally) {
    if (tally.tls) {
      secure_ = std::make_unique<Secure>(io, *tally.tls);
      SSL_set_tlsext_host_name(secure_->next_layer().native_handle(), tally.server_name.c_str());
      secure_->next_layer().set_verify_callback(net::ssl::host_name_verification(tally.server_name));
    } else {
      plain_ = std::make_unique<Plain>(io);
    }
  }

  void start(const tcp::endpoint& server, const net::ip::address& source, std::string host, OnMessage on_message,
             std::function<void()> on_open) {
    on_message_ = std::move(on_message);
    on_open_ = std::move(on_open);
    host_ = secure_ ? tally_.server_name + ":" + std::to_string(server.port()) : std::move(host);
    auto& socket = lowest().socket();
    beast::error_code ec;
    socket.open(tcp::v4(), ec);
    // The port is chosen at connect time, for the whole address pair: 127.0.0.1 alone has
    // too few ports for tens of thousands of connections to one server port only if bound.
    const int yes = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &yes, sizeof yes);
    socket.set_option(tcp::no_delay(true), ec);
    socket.bind(tcp::endpoint(source, 0), ec);
    if (ec) return fail("bind", ec);
    lowest().expires_after(std::chrono::seconds(30));
    lowest().async_connect(server, [self = shared_from_this()](beast::error_code connect_ec) {
      if (connect_ec) return self->fail("connect", connect_ec);
      if (!self->secure_) return self->upgrade();
      self->secure_->next_layer().async_handshake(net::ssl::stream_base::client, [self](beast::error_code tls_ec) {
        if (tls_ec) return self->fail("tls handshake", tls_ec);
        self->upgrade();
      });
    });
  }

  void send(const Json& message) { send(message.dump()); }
  void send(std::string text) {
    if (!open_) return;
    outbox_.push_back(std::move(text));
    if (outbox_.size() == 1) write();
  }
  void close() {
    if (!open_) return;
    beast::error_code ignored;
    lowest().socket().close(ignored);
  }

 private:
  using Plain = websocket::stream<beast::tcp_stream>;
  using Secure = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

  template <typename F>
  decltype(auto) with(F f) {
    if (secure_) return f(*secure_);
    return f(*plain_);
  }
  beast::tcp_stream& lowest() {
    return with([](auto& ws) -> beast::tcp_stream& { return beast::get_lowest_layer(ws); });
  }

  void upgrade() {
    lowest().expires_never();
    with([&](auto& ws) {
      ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
      ws.async_handshake(host_, "/ws", [self = shared_from_this()](beast::error_code handshake_ec) {
        if (handshake_ec) return self->fail("handshake", handshake_ec);
        self->open_ = true;
        ++self->tally_.open;
        self->read();
        self->on_open_();
      });
    });
  }
  void read() {
    with([&](auto& ws) {
      ws.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (ec) return self->fail("read", ec);
        const std::string text = beast::buffers_to_string(self->buffer_.data());
        self->buffer_.consume(self->buffer_.size());
        self->on_message_(text);
        self->read();
      });
    });
  }
  void write() {
    with([&](auto& ws) {
      ws.async_write(net::buffer(outbox_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (ec) return self->fail("write", ec);
        self->outbox_.pop_front();
        if (!self->outbox_.empty()) self->write();
      });
    });
  }
  void fail(const char* what, beast::error_code ec) {
    if (open_) --tally_.open;
    const bool was_open = std::exchange(open_, false);
    if (!tally_.stopping && (was_open || std::string_view(what) != "read")) {
      tally_.failure(std::string(what) + ": " + ec.message());
    }
  }

  std::unique_ptr<Plain> plain_;
  std::unique_ptr<Secure> secure_;
  Tally& tally_;
  beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;
  OnMessage on_message_;
  std::function<void()> on_open_;
  std::string host_;
  bool open_ = false;
};
