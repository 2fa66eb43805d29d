#include "sign_in_load.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace elgrande::bot {
namespace {

namespace asio = boost::asio;
namespace websocket = boost::beast::websocket;
using Clock = std::chrono::steady_clock;

// One blocking WebSocket connection: the load is a few dozen connections at most.
class Connection {
 public:
  explicit Connection(const Url& url) : socket_(io_) {
    asio::ip::tcp::resolver resolver(io_);
    asio::connect(socket_.next_layer(), resolver.resolve(url.host, url.port));
    socket_.handshake(url.host + ":" + url.port, url.path);
  }
  ~Connection() {
    boost::system::error_code ignored;
    socket_.close(websocket::close_code::normal, ignored);
  }
  Json request(const std::string& type, Json payload) {
    socket_.write(asio::buffer(Json{{"type", type}, {"id", 1}, {"payload", std::move(payload)}}.dump()));
    for (;;) {
      boost::beast::flat_buffer buffer;
      socket_.read(buffer);
      Json message = Json::parse(boost::beast::buffers_to_string(buffer.data()));
      if (message.value("id", Json()) == 1) return message;
    }
  }

 private:
  asio::io_context io_;
  websocket::stream<asio::ip::tcp::socket> socket_;
};

}  // namespace

SignInReport run_sign_ins(const SignInSettings& settings) {
  const std::string username = "load_" + std::to_string(settings.seed % 1'000'000'000);
  const std::string password = "load password " + std::to_string(settings.seed);
  {
    Connection setup(settings.url);
    if (setup.request("hello", {{"protocol", 1}, {"name", username}})["type"] != "hello.ok") {
      throw std::runtime_error("hello refused");
    }
    const Json made = setup.request("account.sign_up", {{"username", username}, {"password", password}});
    if (made["type"] != "account.sign_up.ok") throw std::runtime_error("sign-up refused: " + made.dump());
  }

  SignInReport report;
  std::mutex mutex;
  const auto start = Clock::now();
  const auto end = start + settings.duration;
  // Each connection starts its sign-ins on its own schedule, so that together they offer
  // `per_second`; one that falls behind does not catch up in a burst.
  const auto interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(settings.connections / settings.per_second));
  std::vector<std::thread> threads;
  for (int c = 0; c < settings.connections; ++c) {
    threads.emplace_back([&, c] {
      auto next = start + interval * c / settings.connections;
      while (next < end) {
        std::this_thread::sleep_until(next);
        next = std::max(next + interval, Clock::now());
        std::string outcome;
        double milliseconds = 0;
        try {
          Connection connection(settings.url);
          const auto sent = Clock::now();
          const Json answer = connection.request(
              "account.sign_in", {{"protocol", 1}, {"username", username}, {"password", password}, {"device", "load"}});
          milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - sent).count();
          outcome = answer["type"] == "account.sign_in.ok" ? "" : answer["payload"].value("code", "?");
        } catch (const std::exception&) {
          outcome = "connection";
        }
        const std::lock_guard lock(mutex);
        if (outcome.empty()) {
          ++report.signed_in;
          report.latencies_ms.push_back(milliseconds);
        } else {
          ++report.errors[outcome];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

}  // namespace elgrande::bot
