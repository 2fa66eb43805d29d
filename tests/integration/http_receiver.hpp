#pragma once

// A tiny HTTP server on a loopback port, on a thread of its own, that records every
// request it gets: the other end of the server's webhook. Its answers are scripted.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
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

  // `statuses` answer the first requests in order; every later one gets 200.
  explicit HttpReceiver(std::deque<unsigned> statuses = {})
      : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}), statuses_(std::move(statuses)) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~HttpReceiver() {
    io_.stop();
    thread_.join();
  }
  HttpReceiver(const HttpReceiver&) = delete;
  HttpReceiver& operator=(const HttpReceiver&) = delete;

  std::string url(const std::string& path = "/hook") const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
  }

  // Waits until `count` requests have arrived (or the timeout passed); all of them.
  std::vector<Received> wait_for(std::size_t count, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, timeout, [&] { return received_.size() >= count; });
    return received_;
  }

 private:
  void accept() {
    acceptor_.async_accept([this](boost::beast::error_code ec, boost::asio::ip::tcp::socket socket) {
      if (ec) return;
      serve(std::move(socket));
      accept();
    });
  }

  // One request per connection is all the webhook sends; served synchronously, since
  // nothing else runs on this thread.
  void serve(boost::asio::ip::tcp::socket socket) {
    namespace http = boost::beast::http;
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> request;
    boost::beast::error_code ec;
    http::read(socket, buffer, request, ec);
    if (ec) return;
    unsigned status = 200;
    {
      const std::lock_guard lock(mutex_);
      if (!statuses_.empty()) {
        status = statuses_.front();
        statuses_.pop_front();
      }
      received_.push_back({std::string(request.method_string()), std::string(request.target()),
                           std::string(request[http::field::content_type]), request.body()});
    }
    arrived_.notify_all();
    http::response<http::string_body> response{static_cast<http::status>(status), 11};
    response.body() = "ok";
    response.prepare_payload();
    http::write(socket, response, ec);
  }

  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<unsigned> statuses_;
  std::vector<Received> received_;
};

}  // namespace elgrande::test
