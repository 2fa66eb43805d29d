#include "ops/webhook.hpp"

#include <openssl/ssl.h>
#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <stdexcept>

namespace elgrande::server {
namespace {

using net::use_awaitable;

// Sends the request and reads the answer on a connected (and, for https, handshaken)
// stream.
template <class Stream>
net::awaitable<unsigned> send_and_read(Stream& stream, const http::request<http::string_body>& request) {
  co_await http::async_write(stream, request, use_awaitable);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024);  // the answer is not read; a receiver may not flood us
  co_await http::async_read(stream, buffer, parser, use_awaitable);
  co_return parser.get().result_int();
}

bool worth_retrying(unsigned status) { return status >= 500 || status == 429 || status == 408; }

}  // namespace

std::optional<Webhook::Url> Webhook::parse_url(std::string_view text) {
  Url url;
  if (text.starts_with("http://")) {
    text.remove_prefix(7);
    url.port = "80";
  } else if (text.starts_with("https://")) {
    text.remove_prefix(8);
    url.tls = true;
    url.port = "443";
  } else {
    return std::nullopt;
  }
  const std::size_t slash = text.find('/');
  std::string_view authority = text.substr(0, slash);
  url.target = slash == std::string_view::npos ? "/" : std::string(text.substr(slash));
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
  if (authority.front() == '[') {  // an IPv6 literal
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    url.host = std::string(authority.substr(1, close - 1));
    authority.remove_prefix(close + 1);
    if (!authority.empty() && authority.front() != ':') return std::nullopt;
    if (!authority.empty()) url.port = std::string(authority.substr(1));
  } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    url.host = std::string(authority.substr(0, colon));
    url.port = std::string(authority.substr(colon + 1));
  } else {
    url.host = std::string(authority);
  }
  if (url.host.empty() || url.port.empty() ||
      url.port.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return url;
}

Webhook::Webhook(net::any_io_executor executor, WebhookSettings settings, std::shared_ptr<Metrics> metrics)
    : executor_(std::move(executor)), settings_(std::move(settings)), metrics_(std::move(metrics)) {
  const auto url = parse_url(settings_.url);
  if (!url) throw std::invalid_argument("webhook_url must be http://HOST[:PORT]/PATH or https://...");
  url_ = *url;
  if (url_.tls) {
    tls_.set_default_verify_paths();
    if (!settings_.ca_file.empty()) tls_.load_verify_file(settings_.ca_file);
    tls_.set_verify_mode(net::ssl::verify_peer);
  }
}

void Webhook::notify(std::shared_ptr<const std::string> body) {
  if (pending_.fetch_add(1, std::memory_order_relaxed) >= settings_.max_pending) {
    pending_.fetch_sub(1, std::memory_order_relaxed);
    metrics_->webhooks_failed.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("webhook: {} notifications pending; one dropped", settings_.max_pending);
    return;
  }
  net::co_spawn(net::make_strand(executor_), deliver(std::move(body)), net::detached);
}

net::awaitable<void> Webhook::deliver(std::shared_ptr<const std::string> body) {
  // Keeps the webhook alive (its TLS context, its settings) while a delivery runs.
  const auto self = shared_from_this();
  auto wait = std::chrono::seconds(1);
  std::string failure;
  for (int attempt = 1; attempt <= settings_.attempts; ++attempt) {
    bool retry = true;
    try {
      const unsigned status = co_await post(*body);
      if (status >= 200 && status < 300) {
        metrics_->webhooks_sent.fetch_add(1, std::memory_order_relaxed);
        pending_.fetch_sub(1, std::memory_order_relaxed);
        co_return;
      }
      failure = "HTTP status " + std::to_string(status);
      retry = worth_retrying(status);
    } catch (const boost::system::system_error& error) {
      failure = error.what();
      // A certificate that does not check out will not check out a second later.
      retry = error.code().category() != net::error::get_ssl_category();
    } catch (const std::exception& error) {
      failure = error.what();
    }
    if (!retry || attempt == settings_.attempts) break;
    net::steady_timer pause(co_await net::this_coro::executor, wait);
    co_await pause.async_wait(use_awaitable);
    wait *= 4;
  }
  spdlog::warn("webhook: a notification to {} failed: {}", settings_.url, failure);
  metrics_->webhooks_failed.fetch_add(1, std::memory_order_relaxed);
  pending_.fetch_sub(1, std::memory_order_relaxed);
}

net::awaitable<unsigned> Webhook::post(const std::string& body) {
  const auto executor = co_await net::this_coro::executor;
  tcp::resolver resolver(executor);
  const auto endpoints = co_await resolver.async_resolve(url_.host, url_.port, use_awaitable);

  http::request<http::string_body> request{http::verb::post, url_.target, 11};
  request.set(http::field::host, url_.host);
  request.set(http::field::user_agent, kServerName);
  request.set(http::field::content_type, "application/json");
  request.keep_alive(false);
  request.body() = body;
  request.prepare_payload();

  if (!url_.tls) {
    beast::tcp_stream stream(executor);
    stream.expires_after(settings_.timeout);
    co_await stream.async_connect(endpoints, use_awaitable);
    co_return co_await send_and_read(stream, request);
  }
  beast::ssl_stream<beast::tcp_stream> stream(executor, tls_);
  // Server Name Indication, and the certificate must name the host we asked for.
  if (!SSL_set_tlsext_host_name(stream.native_handle(), url_.host.c_str())) {
    throw beast::system_error(static_cast<int>(::ERR_get_error()), net::error::get_ssl_category());
  }
  stream.set_verify_callback(net::ssl::host_name_verification(url_.host));
  beast::get_lowest_layer(stream).expires_after(settings_.timeout);
  co_await beast::get_lowest_layer(stream).async_connect(endpoints, use_awaitable);
  co_await stream.async_handshake(net::ssl::stream_base::client, use_awaitable);
  co_return co_await send_and_read(stream, request);
}

}  // namespace elgrande::server
