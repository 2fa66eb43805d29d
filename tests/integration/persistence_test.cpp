// Persistence against the real binary and a real SQLite file: games that survive kill -9
// at random moments, identities and tables across restarts, turn clocks and the timeout
// policy, the turn webhook, history and record export, backups, and the refusal to start
// on a database that cannot be trusted.

#include <signal.h>
#include <sqlite3.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "elgrande/engine/record.hpp"
#include "game_helpers.hpp"
#include "http_receiver.hpp"

using namespace elgrande::test;

namespace {

std::vector<std::string> server_args_on(const TempDir& dir, std::uint16_t port,
                                        std::vector<std::string> extra = {}) {
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--port", std::to_string(port)});  // the last --port counts
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}



}  // namespace

TEST_CASE("games survive kill -9 at random moments: every acknowledged command is kept and every game ends",
          "[integration][persistence]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args_on(dir, 0, {"--bot-delay-ms", "10"}));
  const std::uint16_t port = server->port();

  bot::SwarmSettings settings = swarm_settings(*server, 23);
  settings.reconnect = true;
  settings.think = std::chrono::milliseconds(10);  // games long enough to be cut short
  Acknowledgements log;
  log.watch(settings);
  std::atomic<int>& started = log.started;
  std::atomic<int>& finished = log.finished;
  bot::Swarm swarm(settings);
  for (int t = 0; t < 4; ++t) swarm.add_table(table(options(3), 1));
  for (int t = 0; t < 2; ++t) swarm.add_table(table(options(2, false, true)));  // the automa
  for (int t = 0; t < 2; ++t) swarm.add_table(table(options(4), 2));
  swarm.add_table(table(options(5, true)));
  const int tables = 9;

  // Meanwhile another thread kills the server at random moments and starts it again on
  // the same port and the same database.
  int kills = 0;
  int kills_mid_game = 0;
  std::thread killer([&] {
    std::mt19937 random(99);
    while (started < tables) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (int round = 0; round < 5 && finished < tables; ++round) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution(150, 700)(random)));
      kills_mid_game += finished < tables;
      server->signal(SIGKILL);
      REQUIRE(server->wait_for_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
      ++kills;
      server = std::make_unique<ServerProcess>(server_args_on(dir, port, {"--bot-delay-ms", "10"}));
    }
  });
  const bot::Report report = swarm.run(std::chrono::seconds(120));
  killer.join();

  INFO("kills: " << kills << ", in mid-game: " << kills_mid_game);
  CHECK(kills_mid_game >= 3);
  check_clean(report);  // also: no client ever saw a version go back
  check_results_agree(swarm);
  std::size_t reconnections = 0;
  for (const auto& client : swarm.clients()) reconnections += client->reconnections();
  CHECK(reconnections > 0);

  // The log of each game holds every command a client saw acknowledged, at its place,
  // and replays to the result every seat saw.
  const std::map<std::int64_t, Json> records = replayed_records(swarm, *server);
  REQUIRE(records.size() == tables);
  CHECK(log.acknowledged.size() == report.commands);
  for (const Acknowledgements::Acknowledged& ack : log.acknowledged) {
    const Json& commands = records.at(ack.table)["commands"];
    REQUIRE(ack.version >= 1);
    REQUIRE(static_cast<std::size_t>(ack.version) <= commands.size());
    const Json& logged = commands[static_cast<std::size_t>(ack.version - 1)];
    CHECK(logged["seat"] == ack.seat);
    CHECK(logged["command"] == ack.command);
    CHECK(logged["source"] == "player");
  }
}

TEST_CASE("elgrande-bot --reconnect plays on across kill -9 of the server, from its command line",
          "[integration][persistence]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args_on(dir, 0, {"--bot-delay-ms", "10"}));
  const std::string url = "ws://127.0.0.1:" + std::to_string(server->port()) + "/ws";
  Completed bots{-1, {}, {}};
  std::thread playing([&] {
    bots = run_program(ELGRANDE_BOT_BINARY,
                       {"--url", url, "--reconnect", "--reconnect-pause-ms", "100", "--tables", "3", "--players", "3",
                        "--server-bots", "1", "--think-ms", "15", "--time-limit", "90"},
                       std::chrono::seconds(120));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  server->signal(SIGKILL);
  REQUIRE(server->wait_for_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
  server = std::make_unique<ServerProcess>(server_args_on(dir, server->port(), {"--bot-delay-ms", "10"}));
  playing.join();
  INFO(bots.err);
  CHECK(bots.exit_code == 0);  // every game ended without a failure
  const Json report = Json::parse(bots.out);
  CHECK(report["games_finished"] == 3);
}

TEST_CASE("identities, tables, seats and chat survive a restart, and a finished game is exported and replays",
          "[integration][persistence]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args(dir));
  const std::uint16_t port = server->port();
  std::string token;
  std::int64_t ana_id = 0;
  std::int64_t table_id = 0;
  {
    WsClient ana(server->address(), port);
    const Json hello_ok = hello(ana, "Ana");
    token = hello_ok["token"];
    ana_id = hello_ok["player"]["id"];
    table_id = create_table(ana, kThreePlayers, 3600)["id"];
    REQUIRE(request(ana, "table.add_bot", {{"table", table_id}, {"seat", 2}})["type"] == "table.add_bot.ok");
    REQUIRE(request(ana, "table.chat", {{"table", table_id}, {"text", "back tomorrow"}})["type"] == "table.chat.ok");
  }
  server->signal(SIGTERM);
  REQUIRE(server->wait_for_exit(std::chrono::seconds(10)) == 0);
  server = std::make_unique<ServerProcess>(server_args_on(dir, port));

  WsClient ana(server->address(), port);
  const Json again = ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}});
  REQUIRE(again["type"] == "hello.ok");
  CHECK(again["payload"]["player"] == Json{{"id", ana_id}, {"name", "Ana"}});
  const Json restored = push(ana, "table.update")["table"];
  CHECK(restored["id"] == table_id);
  CHECK(restored["status"] == "open");
  CHECK(restored["turn_seconds"] == 3600);
  CHECK(restored["seats"][0]["player"]["id"] == ana_id);
  CHECK(restored["seats"][1]["kind"] == "empty");
  CHECK(restored["seats"][2]["kind"] == "bot");
  // What was said before the restart is there for her, and for whoever joins later.
  const Json history = push(ana, "table.chat_history");
  CHECK(history["table"] == table_id);
  REQUIRE(history["lines"].size() == 1);
  CHECK(history["lines"][0]["text"] == "back tomorrow");
  CHECK(history["lines"][0]["from"] == Json{{"id", ana_id}, {"name", "Ana"}});
  CHECK(history["lines"][0]["seat"] == 0);
  const Json games = request(ana, "player.games", Json::object())["payload"]["games"];
  REQUIRE(games.size() == 1);
  CHECK(games[0]["table"]["id"] == table_id);
  CHECK(games[0]["my_turn"] == false);

  // New ids never reuse old ones.
  WsClient ben(server->address(), port);
  const std::int64_t ben_id = hello(ben, "Ben")["player"]["id"];
  CHECK(ben_id > ana_id);
  REQUIRE(request(ben, "table.join", {{"table", table_id}})["type"] == "table.join.ok");
  CHECK(push(ben, "table.chat_history")["lines"] == history["lines"]);
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", table_id}}, &pushes)["type"] == "table.start.ok");
  std::thread ben_plays([&] { play_to_end(ben, table_id, 3); });
  const Json over = play_to_end(ana, table_id, 4, pushes);
  ben_plays.join();

  // The finished game is in the history, and its record replays to the same scores.
  const Json finished = request(ana, "history.list", Json::object())["payload"]["games"];
  REQUIRE(finished.size() == 1);
  CHECK(finished[0]["id"] == table_id);
  CHECK(finished[0]["result"] == over["result"]);
  CHECK(finished[0]["seats"][1]["player"]["name"] == "Ben");
  const Json record = get_json(*server, "/api/games/" + std::to_string(table_id) + "/record");
  CHECK(record["format"] == "elgrande-record");
  CHECK(record["table"]["result"] == over["result"]);
  const std::filesystem::path file = dir.path() / "record.json";
  std::ofstream(file) << record.dump();
  const Completed replay = run_program(ELGRANDE_REPLAY_TOOL, {file.string()});
  REQUIRE(replay.exit_code == 0);
  CHECK(Json::parse(replay.out)["final"]["scores"] == over["result"]["scores"]);
  // A game in progress would reveal its seed: not exported.
  get_json(*server, "/api/games/999/record", http::status::not_found);
}

TEST_CASE("a seat that keeps timing out is taken over by a bot, and its player watches the end",
          "[integration][persistence]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  const Json created = request(ana, "table.create",
                               {{"options", kTwoPlayers}, {"turn_seconds", 1}, {"on_timeout", "replace_seat"},
                                {"replace_after", 2}})["payload"]["table"];
  CHECK(created["on_timeout"] == "replace_seat");
  CHECK(created["replace_after"] == 2);
  const std::int64_t id = created["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.start", {{"table", id}})["type"] == "table.start.ok");

  // Ana never answers: after her second timeout in a row the bot keeps her seat.
  Json seat;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    const Json table = push(ana, "table.update")["table"];
    seat = table["seats"][0];
    if (seat["kind"] == "bot") break;
  }
  CHECK(seat["kind"] == "bot");
  CHECK(seat["replaced"] == true);
  CHECK(seat["timeouts"] == 2);
  CHECK(seat["player"]["name"] == "Ana");
  CHECK(push(ana, "game.over")["table"] == id);

  // The history keeps the table's policy and how the seat was lost.
  const Json finished = request(ana, "history.list", Json::object())["payload"]["games"];
  REQUIRE(finished.size() == 1);
  CHECK(finished[0]["on_timeout"] == "replace_seat");
  CHECK(finished[0]["replace_after"] == 2);
  CHECK(finished[0]["seats"][0]["replaced"] == true);
  CHECK(finished[0]["seats"][0]["timeouts"] == 2);
  CHECK_FALSE(finished[0]["seats"][1].contains("timeouts"));
}

TEST_CASE("a deadline that passed while the server was down leaves time to come back",
          "[integration][persistence]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args(dir));
  const std::uint16_t port = server->port();
  std::string token;
  std::int64_t id = 0;
  {
    WsClient ana(server->address(), port);
    token = hello(ana, "Ana")["token"];
    id = create_table(ana, kTwoPlayers, 3)["id"];
    REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
    std::vector<Json> pushes;
    REQUIRE(request(ana, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  }
  server->signal(SIGKILL);
  server->wait_for_exit(std::chrono::seconds(5));
  std::this_thread::sleep_for(std::chrono::seconds(4));  // Ana's 3 s have run out meanwhile
  const auto restarted = std::chrono::system_clock::now();
  server = std::make_unique<ServerProcess>(server_args_on(dir, port));
  const auto listening = std::chrono::system_clock::now();

  WsClient ana(server->address(), port);
  REQUIRE(ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  const Json update = push(ana, "game.update");
  REQUIRE(update["view"].contains("decision"));
  const auto ms = [](std::chrono::system_clock::time_point at) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  };
  // min(restart grace 60 s, the table's 3 s): the whole turn time again, counted from some
  // moment of the restart (a loaded machine may take a second or two to get there).
  const auto deadline = update["deadline"].get<std::int64_t>();
  CHECK(deadline - ms(restarted) >= 2500);
  CHECK(deadline - ms(listening) <= 3500);
}

TEST_CASE("the webhook is told when it becomes a player's turn, and tried again after a failure",
          "[no-storage][integration][persistence]") {
  TempDir dir;
  HttpReceiver receiver({503});
  ServerProcess server(server_args_on(dir, 0, {"--webhook-url", receiver.url("/turns?key=1")}));
  WsClient ana(server.address(), server.port());
  WsClient ben(server.address(), server.port());
  const std::int64_t ana_id = hello(ana, "Ana")["player"]["id"];
  const std::int64_t ben_id = hello(ben, "Ben")["player"]["id"];
  const std::int64_t id = create_table(ana, kTwoPlayers, 600)["id"];
  REQUIRE(request(ben, "table.join", {{"table", id}})["type"] == "table.join.ok");
  REQUIRE(request(ana, "table.start", {{"table", id}})["type"] == "table.start.ok");

  // The first player is told (the receiver answers 503 once: told again), plays a power
  // card, and then the other is told.
  const auto first_two = receiver.wait_for(2, std::chrono::seconds(15));
  REQUIRE(first_two.size() == 2);
  CHECK(first_two[0].body == first_two[1].body);
  const std::int64_t first = Json::parse(first_two[0].body)["player"]["id"];
  WsClient& mover = first == ana_id ? ana : ben;
  const Json update = push(mover, "game.update");
  REQUIRE(update["view"]["decision"]["kind"] == "power_card");
  const int card = update["view"]["decision"]["playable"][0];
  REQUIRE(request(mover, "game.command", {{"table", id}, {"command", {{"type", "play_power_card"}, {"value", card}}}})
              ["type"] == "game.command.ok");
  const auto received = receiver.wait_for(3, std::chrono::seconds(15));
  REQUIRE(received.size() == 3);
  std::set<std::int64_t> notified;
  for (const auto& request : received) {
    CHECK(request.method == "POST");
    CHECK(request.target == "/turns?key=1");
    CHECK(request.content_type == "application/json");
    const Json body = Json::parse(request.body);
    CHECK(body["event"] == "your_turn");
    CHECK(body["table"]["id"] == id);
    CHECK(body["deadline"].get<std::int64_t>() > body["time"].get<std::int64_t>());
    CHECK(body["connected"] == true);
    notified.insert(body["player"]["id"].get<std::int64_t>());
  }
  CHECK(notified == std::set<std::int64_t>{ana_id, ben_id});
  // The counter moves once the server has read the receiver's answer, just after.
  std::string metrics;
  for (int i = 0; i < 100 && metrics.find("elgrande_webhooks_sent_total 2") == std::string::npos; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    metrics = http_request(server, http::verb::get, "/metrics").body();
  }
  CHECK(metrics.find("elgrande_webhooks_sent_total 2") != std::string::npos);
}

TEST_CASE("an https webhook is verified against its CA and its host name", "[no-storage][integration][persistence]") {
  TempDir dir;
  const auto certificate = (dir.path() / "cert.pem").string();
  const auto key = (dir.path() / "key.pem").string();
  const Completed made = run_program("/usr/bin/openssl",
                                     {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                                      "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-keyout", key,
                                      "-out", certificate});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  HttpReceiver receiver({}, HttpReceiver::Tls{certificate, key});

  const auto first_turn = [&](ServerProcess& server) {
    WsClient ana(server.address(), server.port());
    hello(ana, "Ana");
    const std::int64_t id = create_table(ana, kTwoPlayers)["id"];
    REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
    REQUIRE(request(ana, "table.start", {{"table", id}})["type"] == "table.start.ok");
  };
  SECTION("trusted: delivered") {
    ServerProcess server(server_args_on(dir, 0, {"--webhook-url", receiver.url("/hook", "localhost"),
                                                 "--webhook-ca-file", certificate}));
    first_turn(server);
    const auto received = receiver.wait_for(1, std::chrono::seconds(15));
    REQUIRE(received.size() == 1);
    CHECK(Json::parse(received[0].body)["event"] == "your_turn");
  }
  SECTION("a certificate nobody vouches for: refused at once, never tried again") {
    ServerProcess server(server_args_on(dir, 0, {"--webhook-url", receiver.url("/hook", "localhost")}));
    first_turn(server);
    std::string metrics;
    for (int i = 0; i < 100 && metrics.find("elgrande_webhooks_failed_total 1") == std::string::npos; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      metrics = http_request(server, http::verb::get, "/metrics").body();
    }
    CHECK(metrics.find("elgrande_webhooks_failed_total 1") != std::string::npos);
    CHECK(receiver.wait_for(1, std::chrono::milliseconds(100)).empty());
  }
}

TEST_CASE("a backup taken while the server runs holds every game", "[sqlite][integration][persistence]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  bot::Swarm swarm(swarm_settings(server, 5));
  swarm.add_table(table(options(3), 2));
  swarm.add_table(table(options(2, false, true)));
  check_clean(swarm.run(std::chrono::seconds(60)));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  const std::int64_t open_table = create_table(ana, kThreePlayers)["id"];

  TempDir copy;
  std::filesystem::create_directories(copy.path() / "data");
  const Completed backup = run_to_exit({"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--data-dir",
                                        (dir.path() / "data").string(), "--backup-to",
                                        database_of(copy).string()});
  INFO(backup.err);
  REQUIRE(backup.exit_code == 0);

  // A server started on the copy has the finished games and the open table.
  ServerProcess restored(server_args(copy));
  WsClient bea(restored.address(), restored.port());
  hello(bea, "Bea");
  const Json history = request(bea, "history.list", {{"everyone", true}})["payload"]["games"];
  CHECK(history.size() == 2);
  const Json listed = request(bea, "lobby.list", Json::object())["payload"]["tables"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["id"] == open_table);
}

TEST_CASE("the server refuses to start on a database it cannot trust, and says why", "[sqlite][integration][persistence]") {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "data");
  const auto start = [&] { return run_to_exit(server_args(dir)); };

  SECTION("not a database") {
    std::ofstream(database_of(dir)) << std::string(8192, 'x');
    const Completed run = start();
    CHECK(run.exit_code == 1);
    CHECK(run.err.find("not a database") != std::string::npos);
  }
  SECTION("from a newer server") {
    run_sql(database_of(dir), "PRAGMA user_version = 99");
    const Completed run = start();
    CHECK(run.exit_code == 1);
    CHECK(run.err.find("schema version 99, newer than this server's") != std::string::npos);
  }
  SECTION("damaged") {
    {
      ServerProcess first(server_args(dir));
      {
        WsClient ana(first.address(), first.port());
        hello(ana, "Ana");
      }
      first.signal(SIGTERM);
      REQUIRE(first.wait_for_exit(std::chrono::seconds(10)) == 0);
    }
    // Break the players table's B-tree page: an index entry then points nowhere.
    run_sql(database_of(dir), "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET rootpage = 1 "
                              "WHERE name = 'players'; PRAGMA writable_schema = OFF;");
    const Completed run = start();
    CHECK(run.exit_code == 1);
    CHECK((run.err.find("damaged") != std::string::npos || run.err.find("malformed") != std::string::npos));
  }
  SECTION("in use by another server") {
    ServerProcess first(server_args(dir));
    const Completed run = start();
    CHECK(run.exit_code == 1);
    CHECK(run.err.find("in use by another elgrande-server") != std::string::npos);
  }
}

namespace {

// Reads pushes until a game.update that poses the client a decision at a version past `after`.
Json decision_after(WsClient& client, std::int64_t after) {
  for (int i = 0; i < 10'000; ++i) {
    Json update = push(client, "game.update");
    if (update["view"].contains("decision") && update["version"].get<std::int64_t>() > after) return update;
  }
  FAIL("no decision came");
  return {};
}

}  // namespace

TEST_CASE("a player takes back a step of their turn: everyone hears of it, and it survives a restart",
          "[integration][persistence]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args(dir));
  const std::uint16_t port = server->port();
  std::string token;
  std::int64_t table_id = 0;
  elgrande::Rng rng{11};
  // Ana plays at random from `update` on until a command of hers leaves her turn going:
  // then she may take it back, and her update says so.
  const auto play_until_undoable = [&](WsClient& ana, Json update) {
    for (int commands = 0; !update.contains("can_undo"); ++commands) {
      REQUIRE(commands < 500);
      const auto view = elgrande::protocol::view_from_json(update["view"]);
      REQUIRE(view);
      const std::int64_t acted = update["version"];
      const Json command = elgrande::protocol::to_json(elgrande::random_command(view.value(), rng));
      const Json ok = request(ana, "game.command", {{"table", table_id}, {"command", command}, {"version", acted}});
      REQUIRE(ok["type"] == "game.command.ok");
      update = decision_after(ana, acted);
    }
    CHECK(update["view"]["waiting_for"] == Json::array({0}));
    return update;
  };
  const auto undo = [&](WsClient& ana, const Json& update) {
    const std::int64_t version = update["version"];
    const Json undone =
        request(ana, "game.command", {{"table", table_id}, {"command", {{"type", "undo"}}}, {"version", version}});
    REQUIRE(undone["type"] == "game.command.ok");
    CHECK(undone["payload"]["version"] == version + 1);
    Json after = decision_after(ana, version);
    CHECK(after["version"] == version + 1);
    CHECK(after["events"] == Json::parse(R"([{"type":"command_undone","seat":0}])"));
    return after;
  };

  Json held;  // Ana's decision at the restart, with something she may take back
  {
    WsClient ana(server->address(), port);
    WsClient sam(server->address(), port);
    token = hello(ana, "Ana")["token"];
    hello(sam, "Sam");
    table_id = create_table(ana, kTwoPlayers)["id"];
    REQUIRE(request(ana, "table.add_bot", {{"table", table_id}})["type"] == "table.add_bot.ok");
    REQUIRE(request(ana, "table.start", {{"table", table_id}})["type"] == "table.start.ok");
    REQUIRE(request(sam, "table.spectate", {{"table", table_id}})["type"] == "table.spectate.ok");

    const Json undoable = play_until_undoable(ana, decision_after(ana, -1));
    const Json after = undo(ana, undoable);
    // The spectator hears of it too, and is never offered an undo.
    Json seen;
    do seen = push(sam, "game.update");
    while (seen["version"] != after["version"]);
    CHECK(seen["events"] == after["events"]);
    CHECK_FALSE(seen.contains("can_undo"));
    held = play_until_undoable(ana, after);
  }
  server->signal(SIGKILL);
  server->wait_for_exit(std::chrono::seconds(10));
  server = std::make_unique<ServerProcess>(server_args_on(dir, port));

  // Back after the restart, the game stands where she left it, and what she may take back
  // was rebuilt from the log (undo included): she takes it back now.
  WsClient ana(server->address(), port);
  REQUIRE(ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  const Json restored = decision_after(ana, -1);
  CHECK(restored["version"] == held["version"]);
  CHECK(restored["view"] == held["view"]);
  REQUIRE(restored.contains("can_undo"));
  const Json after = undo(ana, restored);

  // The game goes on to its end, and its record, undos and all, replays to the same scores.
  const Json over = play_to_end(ana, table_id, 12, {{{"type", "game.update"}, {"payload", after}}});
  const Json record = get_json(*server, "/api/games/" + std::to_string(table_id) + "/record");
  const Json commands = record["commands"];
  CHECK(std::count_if(commands.begin(), commands.end(), [](const Json& c) { return c["command"]["type"] == "undo"; }) ==
        2);
  const std::filesystem::path file = dir.path() / "record.json";
  std::ofstream(file) << record.dump();
  const Completed replay = run_program(ELGRANDE_REPLAY_TOOL, {file.string()});
  REQUIRE(replay.exit_code == 0);
  CHECK(Json::parse(replay.out)["final"]["scores"] == over["result"]["scores"]);
}
