// The server against a client that takes more than its share, with the real binary: one
// address making identities by the hundred, one player opening tables by the hundred, a
// lobby grown long, a page on another site opening WebSockets for its visitors, and more
// connections than the process has file descriptors for. Each is capped or refused with a
// clear answer, and everyone else goes on playing.

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "game_helpers.hpp"

using namespace elgrande::test;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

Json hello_as_new(WsClient& client, const std::string& name) {
  return request(client, "hello", {{"protocol", 1}, {"name", name}});
}

// A WebSocket upgrade as a browser sends it, with the page's origin (none: not a browser).
HttpResponse upgrade_from(const ServerProcess& server, const std::string& origin, const std::string& host) {
  http::request<http::string_body> upgrade{http::verb::get, "/ws", 11};
  upgrade.set(http::field::host, host);
  upgrade.set(http::field::upgrade, "websocket");
  upgrade.set(http::field::connection, "Upgrade");
  upgrade.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  upgrade.set(http::field::sec_websocket_version, "13");
  if (!origin.empty()) upgrade.set(http::field::origin, origin);
  return send_http(server.address(), server.port(), std::move(upgrade));
}

// A TCP connection that says nothing, as a slow-loris client or a port scanner holds one.
class IdleConnection {
 public:
  explicit IdleConnection(const ServerProcess& server) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    REQUIRE(fd_ >= 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(server.port());
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0);
  }
  ~IdleConnection() { ::close(fd_); }
  IdleConnection(const IdleConnection&) = delete;
  IdleConnection& operator=(const IdleConnection&) = delete;

  // Whether the server has closed it (end of stream or reset) by now.
  bool closed_by_server() const {
    pollfd ready{fd_, POLLIN, 0};
    if (::poll(&ready, 1, 0) <= 0) return false;
    char byte;
    return ::recv(fd_, &byte, 1, MSG_DONTWAIT) <= 0;
  }

 private:
  int fd_;
};

}  // namespace

TEST_CASE("One client address makes only so many new identities an hour, and known players still sign in",
          "[no-storage][integration][limits]") {
  TempDir dir;
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--new-identities-per-address-per-hour", "3"});
  ServerProcess server(args);

  std::string token;
  for (int i = 0; i < 3; ++i) {
    WsClient guest(server.address(), server.port());
    token = hello(guest, "Guest " + std::to_string(i))["token"];
  }
  WsClient fourth(server.address(), server.port());
  const Json refused = hello_as_new(fourth, "Guest 3");
  CHECK(code_of(refused) == "limit_reached");
  CHECK(refused["payload"]["message"].get<std::string>().find("3 new identities within the hour") != std::string::npos);

  // The refusal changes nothing: the connection works, and a known player signs in on it.
  const Json back = request(fourth, "hello", {{"protocol", 1}, {"token", token}});
  CHECK(back["type"] == "hello.ok");
  CHECK(request(fourth, "lobby.list", Json::object())["type"] == "lobby.list.ok");
  CHECK(http_request(server, http::verb::get, "/metrics").body().find("elgrande_errors_total{code=\"limit_reached\"} 1") !=
        std::string::npos);
}

TEST_CASE("A player hosts only so many unfinished tables, and others still create theirs", "[no-storage][integration][limits]") {
  TempDir dir;
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--open-tables-per-player", "2"});
  ServerProcess server(args);
  WsClient ana(server.address(), server.port());
  WsClient ben(server.address(), server.port());
  hello(ana, "Ana");
  hello(ben, "Ben");

  create_table(ana, kTwoPlayers);
  create_table(ana, kTwoPlayers);
  const Json third = request(ana, "table.create", {{"options", kTwoPlayers}});
  CHECK(code_of(third) == "limit_reached");
  CHECK(third["payload"]["message"].get<std::string>().find("2 tables that have not finished") != std::string::npos);

  create_table(ben, kTwoPlayers);
  const Json listed = request(ben, "lobby.list", Json::object())["payload"];
  CHECK(listed["tables"].size() == 3);  // Ana's refused table was never made
}

TEST_CASE("The lobby comes in pages, newest tables first", "[no-storage][integration][limits]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 7; ++i) ids.push_back(create_table(ana, kTwoPlayers)["id"].get<std::int64_t>());

  const auto ids_of = [](const Json& page) {
    std::vector<std::int64_t> listed;
    for (const Json& table : page["tables"]) listed.push_back(table["id"].get<std::int64_t>());
    return listed;
  };
  const Json first = request(ana, "lobby.subscribe", {{"limit", 3}})["payload"];
  CHECK(ids_of(first) == std::vector<std::int64_t>{ids[6], ids[5], ids[4]});
  CHECK(first["more"] == true);
  const Json second = request(ana, "lobby.list", {{"limit", 3}, {"before", ids[4]}})["payload"];
  CHECK(ids_of(second) == std::vector<std::int64_t>{ids[3], ids[2], ids[1]});
  CHECK(second["more"] == true);
  const Json last = request(ana, "lobby.list", {{"limit", 3}, {"before", ids[1]}, {"status", "open"}})["payload"];
  CHECK(ids_of(last) == std::vector<std::int64_t>{ids[0]});
  CHECK(last["more"] == false);
  CHECK(request(ana, "lobby.list", {{"status", "playing"}})["payload"]["tables"].empty());
  // Without a limit, a page is 50 tables: the whole lobby here.
  CHECK(ids_of(request(ana, "lobby.list", Json::object())["payload"]).size() == 7);

  CHECK(code_of(bad_request(ana, "lobby.list", {{"limit", 0}})) == "bad_payload");
  CHECK(code_of(bad_request(ana, "lobby.list", {{"limit", 201}})) == "bad_payload");
  CHECK(code_of(bad_request(ana, "lobby.list", {{"status", "finished"}})) == "bad_payload");
  CHECK(code_of(bad_request(ana, "lobby.list", {{"before", "7"}})) == "bad_payload");
}

TEST_CASE("WebSockets open from the server's own pages and allowed origins only", "[no-storage][integration][limits]") {
  TempDir dir;
  const fs::path log = dir.path() / "server.log";
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--allowed-origins", "https://play.example.org"});
  SpawnOptions options;
  options.log_file = log;
  ServerProcess server(args, options);
  const std::string host = "127.0.0.1:" + std::to_string(server.port());

  CHECK(upgrade_from(server, "http://" + host, host).result() == http::status::switching_protocols);
  CHECK(upgrade_from(server, "https://play.example.org", host).result() == http::status::switching_protocols);
  CHECK(upgrade_from(server, "", host).result() == http::status::switching_protocols);  // not a browser
  for (const std::string origin : {"https://evil.example", "http://127.0.0.1:1", "null", "https://play.example.org.evil.example"}) {
    INFO(origin);
    CHECK(upgrade_from(server, origin, host).result() == http::status::forbidden);
  }
  CHECK(http_request(server, http::verb::get, "/metrics").body().find("elgrande_origins_refused_total 4") !=
        std::string::npos);
  // One line for the four within the throttle's ten seconds, naming an origin to allow.
  const std::string logged = text_of(log);
  CHECK(occurrences(logged, "refused 1 WebSocket upgrade(s) from pages on other sites") == 1);
  CHECK(logged.find("origin 'https://evil.example'") != std::string::npos);
}

TEST_CASE("Everything served carries headers that keep it out of other sites' frames", "[no-storage][integration][limits]") {
  TempDir dir;
  const fs::path web = dir.path() / "web";
  fs::create_directories(web);
  std::ofstream(web / "index.html") << "<!doctype html><title>El Grande</title>";
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--web-root", web.string()});
  ServerProcess server(args);

  for (const std::string target : {"/", "/healthz", "/metrics", "/missing.js"}) {
    INFO(target);
    const HttpResponse answer = http_request(server, http::verb::get, target);
    const std::string policy(answer["Content-Security-Policy"]);
    CHECK(policy.find("frame-ancestors 'none'") != std::string::npos);
    CHECK(policy.find("default-src 'self'") != std::string::npos);
    CHECK(answer["X-Content-Type-Options"] == "nosniff");
    CHECK(answer["Referrer-Policy"] == "same-origin");
    CHECK(answer["X-Frame-Options"] == "DENY");
  }
}

TEST_CASE("More connections than descriptors: the excess is answered or closed, health and the database go on",
          "[no-storage][integration][limits]") {
  TempDir dir;
  const fs::path log = dir.path() / "server.log";
  // 160 descriptors leave 80 connections after the reserve (a thirty-second, at least 64,
  // and the overflow's 16).
  SpawnOptions options;
  options.open_files_limit = 160;
  options.log_file = log;
  ServerProcess server(server_args(dir), options);
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");

  std::vector<std::unique_ptr<IdleConnection>> flood;
  for (int i = 0; i < 200; ++i) flood.push_back(std::make_unique<IdleConnection>(server));
  std::this_thread::sleep_for(1s);

  // The probes and the database still answer, within a normal client's patience.
  const HttpResponse health = send_http(server.address(), server.port(), {http::verb::get, "/healthz", 11}, 3s);
  CHECK(health.result() == http::status::ok);
  const HttpResponse ready = send_http(server.address(), server.port(), {http::verb::get, "/readyz", 11}, 3s);
  CHECK(ready.result() == http::status::ok);
  const HttpResponse page = send_http(server.address(), server.port(), {http::verb::get, "/", 11}, 3s);
  CHECK(page.result() == http::status::service_unavailable);
  CHECK(page[http::field::retry_after] == "5");
  const Json table = create_table(ana, kTwoPlayers);  // saved before it is answered
  CHECK(table["host"].is_number_integer());

  // The excess beyond the limit and the overflow was closed, not left hanging.
  std::size_t closed = 0;
  for (const auto& connection : flood) closed += connection->closed_by_server() ? 1 : 0;
  CHECK(closed >= 100);
  CHECK(closed <= 200 - 70);
  const std::string metrics =
      send_http(server.address(), server.port(), {http::verb::get, "/metrics", 11}, 3s).body();
  CHECK(metrics.find("elgrande_connection_limit 80") != std::string::npos);

  // Said once, not once per connection.
  const std::string logged = text_of(log);
  CHECK(logged.find("serving up to 80 connections at once (file descriptor limit 160)") != std::string::npos);
  CHECK(occurrences(logged, "connection limit 80 reached") == 1);

  // Once the flood goes, new players are served as before.
  flood.clear();
  std::this_thread::sleep_for(500ms);
  WsClient ben(server.address(), server.port());
  hello(ben, "Ben");
  CHECK(request(ben, "table.join", {{"table", table["id"]}})["type"] == "table.join.ok");
}

TEST_CASE("Names that could fool other players are refused, and chat keeps a conversation's pace",
          "[no-storage][integration][limits]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  const Json spoof = bad_request(ana, "hello", {{"protocol", 1}, {"name", "Ana\u202Enimda"}});
  CHECK(code_of(spoof) == "bad_payload");
  CHECK(spoof["payload"]["message"] == "name: may not contain marks that change the direction of the text");
  CHECK(code_of(bad_request(ana, "hello", {{"protocol", 1}, {"name", "\u200B"}})) == "bad_payload");
  hello(ana, "Ana");
  CHECK(code_of(bad_request(ana, "table.create", {{"options", kTwoPlayers}, {"name", "   "}})) == "bad_payload");
  const Json table = create_table(ana, kTwoPlayers);

  const auto say = [&](const std::string& text) {
    return request(ana, "table.chat", {{"table", table["id"]}, {"text", text}});
  };
  CHECK(say("hola")["type"] == "table.chat.ok");
  const Json again = say("hola");
  CHECK(code_of(again) == "rate_limited");
  CHECK(again["payload"]["message"] == "you said that just now");
  for (int i = 1; i < 5; ++i) CHECK(say("line " + std::to_string(i))["type"] == "table.chat.ok");
  const Json sixth = say("line 5");
  CHECK(code_of(sixth) == "rate_limited");
  CHECK(sixth["payload"]["message"] == "at most 5 chat lines in 10 seconds; wait a moment");
}
