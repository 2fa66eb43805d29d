#pragma once

// A tiny HTTP(S) server on a loopback port, on a thread of its own, that records every
// request it gets: the other end of the server's webhook. Its answers are scripted.
// Compiled once, in net_support.cpp.

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elgrande::test {

class HttpReceiver {
 public:
  struct Received {
    std::string method;
    std::string target;
    std::string content_type;
    std::string body;
  };
  // Where a TLS receiver finds its certificate chain and private key (PEM files).
  struct Tls {
    std::string certificate;
    std::string key;
  };

  // `statuses` answer the first requests in order; every later one gets 200.
  explicit HttpReceiver(std::deque<unsigned> statuses = {}, std::optional<Tls> tls = std::nullopt);
  ~HttpReceiver();
  HttpReceiver(const HttpReceiver&) = delete;
  HttpReceiver& operator=(const HttpReceiver&) = delete;

  std::string url(const std::string& path = "/hook", const std::string& host = "127.0.0.1") const;

  // Waits until `count` requests have arrived (or the timeout passed); all of them.
  std::vector<Received> wait_for(std::size_t count, std::chrono::milliseconds timeout);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace elgrande::test
