// The peer link (docs/scaling.md): a process that does not lead holds its clients' sockets
// and relays their messages and HTTP requests to the leader over one WebSocket, which only
// the processes on the database can open. Against PostgreSQL only ([postgresql]).

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cluster_support.hpp"
#include "elgrande/db/postgres.hpp"
#include "game_helpers.hpp"
#include "tls_support.hpp"

namespace elgrande::test {
namespace {

using namespace std::chrono_literals;

Completed run_curl(const std::vector<std::string>& args) { return run_program("/usr/bin/curl", args, 10s); }

// The status line a WebSocket upgrade to `target` gets, with `key` as the peer key.
std::string upgrade_status(std::uint16_t port, const std::string& target, const std::string& key) {
  std::vector<std::string> args = {"-sS", "-i", "--max-time", "2", "-H", "Connection: Upgrade", "-H", "Upgrade: websocket",
                                   "-H", "Sec-WebSocket-Version: 13", "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="};
  if (!key.empty()) args.insert(args.end(), {"-H", "Authorization: Bearer " + key});
  args.push_back("http://127.0.0.1:" + std::to_string(port) + target);
  const Completed answer = run_curl(args);  // a link that opens is cut by the timeout
  return answer.out.substr(0, answer.out.find("\r\n"));
}

std::string leaders_peer_key(const TempDir& dir) {
  db::PostgresDatabase database(database_args(dir)[3]);
  db::Statement row = database.prepare("SELECT peer_key FROM leader");
  REQUIRE(row.step());
  return row.text(0);
}

}  // namespace

TEST_CASE("a process that does not lead serves wss itself and relays its clients and their HTTP requests to the leader",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  const std::filesystem::path tls = tls_files_in(dir);
  Cluster cluster(dir, 2, {"--tls-certificate", (tls / "server.pem").string(), "--tls-private-key",
                           (tls / "server.key").string()});
  // Ana reaches the follower, which holds her TLS; Ben the leader.
  WsClient ana(cluster[1].address(), cluster[1].port(), "/ws", 10s, trusting(tls));
  WsClient ben(cluster[0].address(), cluster[0].port(), "/ws", 10s, trusting(tls));
  hello(ana, "Ana");
  hello(ben, "Ben");
  const std::int64_t table = create_table(ana, kTwoPlayers)["id"];
  REQUIRE(request(ben, "table.join", {{"table", table}})["type"] == "table.join.ok");
  // Ana hears Ben's line, pushed from the leader over the link.
  REQUIRE(request(ben, "table.chat", {{"table", table}, {"text", "¡Hola!"}})["type"] == "table.chat.ok");
  CHECK(push(ana, "table.chat")["text"] == "¡Hola!");
  CHECK(request(ana, "lobby.list", Json::object())["payload"] == request(ben, "lobby.list", Json::object())["payload"]);

  // Plain HTTP requests go the same way, answered over TLS by the process the client reached.
  const std::string https = "https://localhost:" + std::to_string(cluster[1].port());
  const Completed health = run_curl({"-sS", "-D", "-", "--cacert", (tls / "ca.pem").string(), https + "/healthz"});
  INFO(health.err);
  CHECK(health.out.starts_with("HTTP/1.1 200"));
  const auto lobby_page = [&](std::size_t i) {
    return run_curl({"-sS", "--cacert", (tls / "ca.pem").string(),
                 "https://localhost:" + std::to_string(cluster.port(i)) + "/api/tournaments"}).out;
  };
  CHECK(lobby_page(1) == lobby_page(0));
  CHECK_FALSE(lobby_page(1).empty());
}

TEST_CASE("only the processes on the database open a peer link, and only to the leader",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 2);
  const std::string key = leaders_peer_key(dir);
  REQUIRE(key.size() == 64);
  CHECK(upgrade_status(cluster.port(0), "/peer", "") == "HTTP/1.1 403 Forbidden");
  CHECK(upgrade_status(cluster.port(0), "/peer", std::string(64, '0')) == "HTTP/1.1 403 Forbidden");
  CHECK(upgrade_status(cluster.port(1), "/peer", key) == "HTTP/1.1 403 Forbidden");  // a follower takes none
  CHECK(upgrade_status(cluster.port(0), "/peer", key) == "HTTP/1.1 101 Switching Protocols");
  // The refusals left the leader serving.
  WsClient ana(cluster[1].address(), cluster[1].port());
  hello(ana, "Ana");
}

}  // namespace elgrande::test

namespace elgrande::test {

TEST_CASE("when the leader dies, a follower's clients are told it is going away, and are served again on reconnecting",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 2);
  WsClient ana(cluster[1].address(), cluster[1].port());
  const Json who = hello(ana, "Ana");
  cluster.kill(0);
  CHECK(closed_with(ana) == 1001);  // going away: the client reconnects at once
  // The follower took over; Ana's token brings her back as herself.
  REQUIRE(cluster.wait_for_leader() == cluster.port(1));
  WsClient again(cluster[1].address(), cluster[1].port());
  const Json back = request(again, "hello", {{"protocol", 2}, {"token", who["token"]}});
  CHECK(back["type"] == "hello.ok");
  CHECK(back["payload"]["player"]["id"] == who["player"]["id"]);
}

TEST_CASE("while no process says where it leads, a follower turns clients away to try again, and serves them once one does",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 2);
  db::PostgresDatabase database(database_args(dir)[3]);
  db::Statement address = database.prepare("SELECT address FROM leader");
  REQUIRE(address.step());
  const std::string leader = address.text(0);
  address.reset();
  // As between a leader's end and its successor's announcement: no address to relay to.
  database.execute("UPDATE leader SET address = ''");
  const auto status = [&](const std::string& path) {
    return run_curl({"-sS", "-o", "/dev/null", "-w", "%{http_code}",
                     "http://127.0.0.1:" + std::to_string(cluster.port(1)) + path}).out;
  };
  const auto until = Clock::now() + 5s;
  while (status("/readyz") != "503" && Clock::now() < until) std::this_thread::sleep_for(50ms);
  CHECK(status("/readyz") == "503");          // the follower's own: it knows no leader
  CHECK(status("/healthz") == "200");         // and it is alive: restarting it would cure nothing
  CHECK(status("/metrics") == "200");         // its own connections' figures
  CHECK(status("/api/tournaments") == "503");  // the leader's, which it cannot reach
  WsClient early(cluster[1].address(), cluster[1].port());
  CHECK(closed_with(early) == 1013);  // try again later

  database.prepare("UPDATE leader SET address = ?1").bind(1, leader).run();
  while (status("/readyz") != "200" && Clock::now() < until + 5s) std::this_thread::sleep_for(50ms);
  CHECK(status("/readyz") == "200");
  CHECK(status("/api/tournaments") == "200");
  WsClient later(cluster[1].address(), cluster[1].port());
  hello(later, "Ana");
}

}  // namespace elgrande::test
