// Server bots that search (docs/ai.md): the host's choice of level, the server's level for
// seats it takes over, kept across a restart, and thinking that holds up no other table.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "game_helpers.hpp"

using namespace elgrande::test;
using Json = nlohmann::json;

namespace {

std::vector<std::string> on_port(std::vector<std::string> args, std::uint16_t port) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--port") args[i + 1] = std::to_string(port);
  return args;
}

}  // namespace

TEST_CASE("bots play at the level the host chose, and a late seat's at the server's", "[integration][bots]") {
  TempDir dir;
  // Few playouts: this is about which bot plays where, not how well. Bots a host adds
  // without a level play at random here.
  const auto args = with(server_args(dir), {"--bot-level", "random", "--replacement-bot-level", "medium",
                                            "--bot-iterations", "30"});
  auto server = std::make_unique<ServerProcess>(args);
  const std::uint16_t port = server->port();
  std::string token;
  std::int64_t id = 0;
  {
    WsClient ana(server->address(), port);
    token = hello(ana, "Ana")["token"];
    const Json created = request(ana, "table.create",
                                 {{"options", kThreePlayers}, {"turn_seconds", 1}, {"on_timeout", "replace_seat"},
                                  {"replace_after", 1}})["payload"]["table"];
    id = created["id"];
    CHECK(code_of(bad_request(ana, "table.add_bot", {{"table", id}, {"level", "genius"}})) == "bad_payload");
    const Json strong = request(ana, "table.add_bot", {{"table", id}, {"level", "strong"}});
    REQUIRE(strong["type"] == "table.add_bot.ok");
    CHECK(strong["payload"]["table"]["seats"][1]["level"] == "strong");
    const Json plain = request(ana, "table.add_bot", {{"table", id}});
    REQUIRE(plain["type"] == "table.add_bot.ok");
    CHECK(plain["payload"]["table"]["seats"][2]["level"] == "random");  // the server's default
  }

  // The levels are stored with the seats.
  server->signal(SIGKILL);
  server->wait_for_exit(std::chrono::seconds(5));
  server = std::make_unique<ServerProcess>(on_port(args, port));
  WsClient ana(server->address(), port);
  REQUIRE(ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  const Json seats = push(ana, "table.update")["table"]["seats"];
  CHECK(seats[1]["level"] == "strong");
  CHECK(seats[2]["level"] == "random");
  CHECK_FALSE(seats[0].contains("level"));  // Ana's own

  // Ana never answers: her first timeout costs her the seat, and the server's bot plays it
  // to the end, searching like the others.
  REQUIRE(request(ana, "table.start", {{"table", id}})["type"] == "table.start.ok");
  CHECK(push(ana, "game.over")["table"] == id);
  const Json finished = request(ana, "history.list", Json::object())["payload"]["games"];
  REQUIRE(finished.size() == 1);
  CHECK(finished[0]["seats"][0]["replaced"] == true);
  CHECK(finished[0]["seats"][0]["level"] == "medium");
  CHECK(finished[0]["seats"][1]["level"] == "strong");
  CHECK(finished[0]["seats"][2]["level"] == "random");

  // More decisions were searched than the strong bot made: the replacement searched too
  // (the random bot never does).
  const Json record = get_json(*server, "/api/games/" + std::to_string(id) + "/record");
  const auto strong_decisions = std::count_if(record["commands"].begin(), record["commands"].end(),
                                              [](const Json& c) { return c["seat"] == 1; });
  const std::string metrics = http_request(*server, http::verb::get, "/metrics").body();
  const std::string counted = "elgrande_bot_think_seconds_count ";
  const auto at = metrics.find(counted);
  REQUIRE(at != std::string::npos);
  CHECK(std::stol(metrics.substr(at + counted.size())) > strong_decisions);
  CHECK(metrics.find("elgrande_bot_decisions_refused_total 0\n") != std::string::npos);
}

TEST_CASE("a bot thinking at one table holds up no other table", "[no-storage][integration][bots]") {
  TempDir dir;
  // One I/O thread, one search thread, and searches that run to the time limit: while table
  // A's bot thinks, table B plays a whole game. (A search on the I/O thread would stop B.)
  const std::string think_ms = std::getenv("ELGRANDE_SANITIZED") ? "10000" : "5000";
  ServerProcess server(with(server_args(dir), {"--threads", "1", "--bot-threads", "1", "--bot-think-ms", think_ms,
                                               "--bot-iterations", "100000000", "--replacement-bot-level", "strong"}));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  const std::int64_t thinking_table = create_table(ana, kTwoPlayers)["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", thinking_table}, {"level", "strong"}})["type"] ==
          "table.add_bot.ok");
  REQUIRE(request(ana, "table.start", {{"table", thinking_table}})["type"] == "table.start.ok");
  REQUIRE(request(ana, "game.resign", {{"table", thinking_table}})["type"] == "game.resign.ok");
  const auto resigned = std::chrono::steady_clock::now();

  WsClient sam(server.address(), server.port(), "/ws", std::chrono::seconds(40));  // waits out the search
  hello(sam, "Sam");
  REQUIRE(request(sam, "table.spectate", {{"table", thinking_table}})["type"] == "table.spectate.ok");
  const std::int64_t version = push(sam, "game.update")["version"];

  bot::Swarm swarm(swarm_settings(server, 5));
  swarm.add_table(table(options(2, true)));
  const bot::Report report = swarm.run(std::chrono::seconds(120));
  check_clean(report);
  const auto elapsed = std::chrono::steady_clock::now() - resigned;
  INFO("the other game took " << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() << " ms");
  REQUIRE(elapsed < std::chrono::milliseconds(std::stoi(think_ms)));

  // Table A has not moved: its bot still thinks. Then it answers, once its time is up.
  REQUIRE(request(sam, "table.spectate", {{"table", thinking_table}})["type"] == "table.spectate.ok");
  CHECK(push(sam, "game.update")["version"] == version);
  CHECK(push(sam, "game.update")["version"] == version + 1);
}
