#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "ops/metrics.hpp"
#include "common/net.hpp"

namespace elgrande::server {

struct WebhookSettings {
  std::string url;  // http://HOST[:PORT]/PATH or https://...
  std::chrono::milliseconds timeout{10'000};  // per attempt: connect, send, answer
  int attempts = 4;                           // waits 1 s, 4 s, 16 s between them
  std::size_t max_pending = 10'000;           // notifications queued or in flight
  std::string ca_file;  // for https: a CA bundle trusted besides the system's
};

// Posts a JSON body to the configured URL whenever it becomes a player's turn (see
// docs/persistence.md), so that a deployment can send mail or push notifications. A
// notification that fails (no answer, a 5xx or 429) is tried again a few times; one the
// receiver refuses (another 4xx) is dropped. Deliveries run on the I/O threads and never
// hold up a table; past `max_pending`, new notifications are dropped and counted.
class Webhook : public std::enable_shared_from_this<Webhook> {
 public:
  // Throws std::invalid_argument for a URL it cannot use.
  Webhook(net::any_io_executor executor, WebhookSettings settings, std::shared_ptr<Metrics> metrics);

  // Callable from any thread.
  void notify(std::shared_ptr<const std::string> body);

  // The parts of an http(s) URL; nothing for anything else.
  struct Url {
    bool tls = false;
    std::string host;
    std::string port;
    std::string target;
  };
  static std::optional<Url> parse_url(std::string_view url);

 private:
  net::awaitable<void> deliver(std::shared_ptr<const std::string> body);
  // One POST: the status the receiver answered. Throws on a network failure.
  net::awaitable<unsigned> post(const std::string& body);

  net::any_io_executor executor_;
  WebhookSettings settings_;
  Url url_;
  std::shared_ptr<Metrics> metrics_;
  net::ssl::context tls_{net::ssl::context::tls_client};
  std::atomic<std::size_t> pending_{0};
};

}  // namespace elgrande::server
