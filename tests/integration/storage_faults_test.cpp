// The server against a database that misbehaves, with the real binary and a real SQLite
// file: a write lock held elsewhere (nothing can be committed for a while), a write that
// fails for good, and reads that fail. Nobody loses a turn to the server's own trouble,
// no game's log commits past a lost write, and every read is answered.

#include <signal.h>
#include <sqlite3.h>

#include <chrono>
#include <thread>

#include "game_helpers.hpp"

using namespace elgrande::test;
using namespace std::chrono_literals;

namespace {


// A connection of the test's own to the server's database file, as an operator's tool or
// a backup program would open it.
class Connection {
 public:
  explicit Connection(const std::filesystem::path& file) {
    REQUIRE(sqlite3_open(file.c_str(), &handle_) == SQLITE_OK);
    sqlite3_busy_timeout(handle_, 5000);
  }
  ~Connection() { sqlite3_close(handle_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void run(const std::string& sql) {
    char* error = nullptr;
    const int code = sqlite3_exec(handle_, sql.c_str(), nullptr, nullptr, &error);
    INFO(sql << ": " << (error ? error : ""));
    sqlite3_free(error);
    REQUIRE(code == SQLITE_OK);
  }
  std::int64_t number(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(handle_, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
    const std::int64_t value = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    return value;
  }

 private:
  sqlite3* handle_ = nullptr;
};

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The next game.update that asks this client for a decision (from `earlier` first).
Json my_decision(WsClient& client, const std::vector<Json>& earlier = {}) {
  for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
    if ((*it)["type"] == "game.update" && (*it)["payload"]["view"].contains("decision")) return (*it)["payload"];
  }
  for (;;) {
    Json update = push(client, "game.update");
    if (update["view"].contains("decision")) return update;
  }
}

// A table whose other seats are server bots, started; returns its id.
std::int64_t start_with_bots(WsClient& client, const Json& options, int turn_seconds, std::vector<Json>* pushes) {
  const std::int64_t id = create_table(client, options, turn_seconds)["id"];
  for (int s = 1; s < options["players"].get<int>(); ++s) {
    REQUIRE(request(client, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  }
  REQUIRE(request(client, "table.start", {{"table", id}}, pushes)["type"] == "table.start.ok");
  return id;
}

}  // namespace

TEST_CASE("while nothing can be saved no turn clock runs out against a player, and clocks resume after",
          "[sqlite][integration][storage]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  std::vector<Json> pushes;
  const std::int64_t id = start_with_bots(ana, kTwoPlayers, 4, &pushes);
  const Json decision = my_decision(ana, pushes);
  const std::int64_t deadline = decision["deadline"];
  Connection operator_tool(database_of(dir));
  const std::int64_t logged =
      operator_tool.number("SELECT count(*) FROM command_log WHERE table_id = " + std::to_string(id));

  // Another program holds the database's write lock past Ana's deadline; her chat line
  // is the change the server cannot commit meanwhile.
  operator_tool.run("BEGIN IMMEDIATE");
  ana.send(Json{{"type", "table.chat"}, {"id", "said"}, {"payload", {{"table", id}, {"text", "anyone there?"}}}});
  std::this_thread::sleep_until(std::chrono::system_clock::time_point(std::chrono::milliseconds(deadline)) + 1500ms);
  operator_tool.run("ROLLBACK");
  const std::int64_t released = unix_ms();

  std::vector<Json> after;
  const Json said = answer(ana, "said", &after);
  CHECK(said["type"] == "table.chat.ok");
  // An answer waits for every save of the table before it: once it is here, everything
  // the table did during the outage is in the database. And a request sent on hearing
  // it is taken (Storage reports a commit once it is no longer under way).
  ana.send(Json{{"type", "table.chat"}, {"id", "again"}, {"payload", {{"table", id}, {"text", "good"}}}});
  const Json again = answer(ana, "again", &after);
  INFO(said.dump() << "\n" << again.dump());
  CHECK(again["type"] == "table.chat.ok");
  // Nothing was played for her (or anyone) while the lock was held.
  CHECK(operator_tool.number("SELECT count(*) FROM command_log WHERE table_id = " + std::to_string(id) +
                             " AND time < " + std::to_string(released)) == logged);
  // Her deadline moved past the outage, and she was told.
  std::int64_t moved = deadline;
  for (const Json& message : after) {
    if (message["type"] == "game.update" && message["payload"].contains("deadline")) moved = message["payload"]["deadline"];
  }
  while (moved <= deadline) {
    const Json update = push(ana, "game.update");
    if (update.contains("deadline")) moved = update["deadline"];
  }
  CHECK(moved >= released);

  // The clocks run again: her time runs out after the grace, and the server's bot answers.
  for (int tries = 0; tries < 100; ++tries) {
    if (operator_tool.number("SELECT count(*) FROM command_log WHERE table_id = " + std::to_string(id) +
                             " AND source = 'timeout'") > 0) {
      break;
    }
    std::this_thread::sleep_for(100ms);
  }
  CHECK(operator_tool.number("SELECT count(*) FROM command_log WHERE table_id = " + std::to_string(id) +
                             " AND source = 'timeout' AND time >= " + std::to_string(released)) >= 1);
}

TEST_CASE("a table whose write is lost for good stops at its last commit, and a restart resumes it from there",
          "[sqlite][integration][storage]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args(dir));
  const std::uint16_t port = server->port();
  WsClient ana(server->address(), port);
  const std::string token = hello(ana, "Ana")["token"];
  {
    // The disk refuses one write of the first table, for good.
    Connection operator_tool(database_of(dir));
    operator_tool.run(
        "CREATE TRIGGER lose_a_write BEFORE INSERT ON command_ring WHEN NEW.table_id = 1 AND NEW.seq = 30 "
        "BEGIN SELECT RAISE(ABORT, 'injected: this write is lost'); END");
  }
  const Json three = {{"players", 3}, {"short_game", true}, {"automa", false}, {"four_stacks", false}};
  const std::int64_t id = start_with_bots(ana, three, 0, nullptr);
  REQUIRE(id == 1);
  // Bots play every seat from now on, as fast as they can.
  REQUIRE(request(ana, "game.resign", {{"table", id}})["type"] == "game.resign.ok");

  // The table stops and says so ...
  std::string code;
  for (int tries = 0; tries < 200 && code != "internal"; ++tries) {
    code = code_of(request(ana, "table.chat", {{"table", id}, {"text", "still there?"}}));
    if (code != "internal") std::this_thread::sleep_for(50ms);
  }
  REQUIRE(code == "internal");
  // ... and the rest of the server goes on: another table plays to its end.
  const std::int64_t other = start_with_bots(ana, three, 0, nullptr);
  REQUIRE(request(ana, "game.resign", {{"table", other}})["type"] == "game.resign.ok");
  Json over = push(ana, "game.over");
  CHECK(over["table"] == other);

  ana.close();
  server->signal(SIGTERM);
  REQUIRE(server->wait_for_exit(10s) == 0);
  {
    // Nothing after the lost write was committed: the log ends just before it.
    Connection operator_tool(database_of(dir));
    CHECK(operator_tool.number("SELECT count(*) FROM commands WHERE table_id = 1") == 29);
    CHECK(operator_tool.number("SELECT max(seq) FROM commands WHERE table_id = 1") == 29);
    operator_tool.run("DROP TRIGGER lose_a_write");
  }

  // Restarted, the game comes back as last committed and its bots finish it.
  server = std::make_unique<ServerProcess>(server_args(dir));
  WsClient back(server->address(), server->port());
  REQUIRE(back.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  do {
    over = push(back, "game.over");
  } while (over["table"] != id);
  CHECK(over["result"]["scores"].size() == 3);
}

TEST_CASE("history and game records are read while writes wait, and a read that fails is answered",
          "[sqlite][integration][storage]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  const std::int64_t id = start_with_bots(ana, kTwoPlayers, 0, nullptr);
  REQUIRE(request(ana, "game.resign", {{"table", id}})["type"] == "game.resign.ok");
  REQUIRE(push(ana, "game.over")["table"] == id);

  Connection operator_tool(database_of(dir));
  const std::string record = "/api/games/" + std::to_string(id) + "/record";
  {
    // While another program holds the write lock, a new table cannot be saved ...
    operator_tool.run("BEGIN IMMEDIATE");
    ana.send(Json{{"type", "table.create"}, {"id", "waits"}, {"payload", {{"options", kTwoPlayers}}}});
    std::this_thread::sleep_for(300ms);
    // ... but reads do not wait for it.
    const HttpResponse exported = send_http(server.address(), server.port(),
                                            http::request<http::string_body>{http::verb::get, record, 11}, 4s);
    CHECK(exported.result() == http::status::ok);
    CHECK(Json::parse(exported.body())["table"]["id"] == id);
    const Json history = request(ana, "history.list", Json::object());
    CHECK(history["payload"]["games"].size() == 1);
    operator_tool.run("ROLLBACK");
    CHECK(answer(ana, "waits")["type"] == "table.create.ok");
  }

  // Damaged rows make reads fail: each is still answered, with the reason.
  // (The row is in the table's log, or still in the command ring with the newest.)
  for (const char* rows : {"commands", "command_ring"}) {
    operator_tool.run(std::string("UPDATE ") + rows + " SET command = 'not json' WHERE table_id = " +
                      std::to_string(id) + " AND seq = 2");
  }
  const HttpResponse broken = http_request(server, http::verb::get, record);
  CHECK(broken.result() == http::status::internal_server_error);
  CHECK_THAT(broken.body(), Catch::Contains("command 2"));
  operator_tool.run("UPDATE tables SET options = 'not json' WHERE id = " + std::to_string(id));
  CHECK(code_of(request(ana, "history.list", Json::object())) == "internal");
  // And the server goes on answering.
  CHECK(request(ana, "ping", Json::object())["type"] == "ping.ok");
}

TEST_CASE("a snapshot of random bytes is passed over for the log, and a log cut short keeps only its table out",
          "[sqlite][integration][storage]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args(dir));
  std::string token;
  std::int64_t snapshotted = 0;
  std::int64_t cut = 0;
  std::int64_t recorded = 0;
  Json reached;
  {
    WsClient ana(server->address(), server->port());
    token = hello(ana, "Ana")["token"];
    std::vector<Json> pushes;
    snapshotted = start_with_bots(ana, kTwoPlayers, 0, &pushes);
    reached = play_to_end(ana, snapshotted, 1, pushes, 45);  // a snapshot is taken every 32 commands
    // A decision both seats answer (the disks) may still wait for the bot: it answers at
    // once, and the game then rests where only Ana must act.
    while (reached["view"]["waiting_for"] != Json::array({0})) reached = push(ana, "game.update");
    pushes.clear();
    cut = start_with_bots(ana, kTwoPlayers, 0, &pushes);
    play_to_end(ana, cut, 2, pushes, 20);
  }
  server->signal(SIGTERM);
  REQUIRE(server->wait_for_exit(10s) == 0);
  {
    Connection operator_tool(database_of(dir));
    REQUIRE(operator_tool.number("SELECT count(*) FROM snapshots WHERE table_id = " + std::to_string(snapshotted)) == 1);
    operator_tool.run("UPDATE snapshots SET state = randomblob(length(state)) WHERE table_id = " +
                      std::to_string(snapshotted));
    // The page with the end of the other game's log is lost.
    recorded = operator_tool.number("SELECT length FROM log_heads WHERE table_id = " + std::to_string(cut));
    operator_tool.run("DELETE FROM commands WHERE table_id = " + std::to_string(cut) + " AND seq > 10");
  }

  server = std::make_unique<ServerProcess>(server_args(dir));
  WsClient ana(server->address(), server->port());
  REQUIRE(ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  // The first game is back where it was, rebuilt from its log ...
  const Json update = push(ana, "game.update");
  CHECK(update["table"] == snapshotted);
  CHECK(update["version"] == reached["version"]);
  CHECK(update["view"] == reached["view"]);
  // ... the second is refused, counted, and the operator can see why.
  CHECK(code_of(request(ana, "table.chat", {{"table", cut}, {"text", "hello?"}})) == "not_found");
  const HttpResponse metrics = http_request(*server, http::verb::get, "/metrics");
  CHECK_THAT(metrics.body(), Catch::Contains("elgrande_tables_unrestorable 1"));
  const Completed report = run_to_exit({"--data-dir", (dir.path() / "data").string(), "--check-table", std::to_string(cut)});
  CHECK(report.exit_code == 1);
  CHECK_THAT(report.out, Catch::Contains("commands stored: 10"));
  CHECK_THAT(report.out, Catch::Contains("commands recorded with the table: " + std::to_string(recorded)));
  CHECK_THAT(report.out, Catch::Contains("damaged"));
  const Completed sound =
      run_to_exit({"--data-dir", (dir.path() / "data").string(), "--check-table", std::to_string(snapshotted)});
  CHECK(sound.exit_code == 0);
  CHECK_THAT(sound.out, Catch::Contains("sound"));
}

TEST_CASE("a damaged row before a game's snapshot, or in a finished game's log, is found at start and reported",
          "[sqlite][integration][storage]") {
  TempDir dir;
  std::string token;
  std::int64_t playing = 0;
  std::int64_t finished = 0;
  {
    ServerProcess server(server_args(dir));
    WsClient ana(server.address(), server.port());
    token = hello(ana, "Ana")["token"];
    std::vector<Json> pushes;
    playing = start_with_bots(ana, kTwoPlayers, 0, &pushes);
    Json reached = play_to_end(ana, playing, 1, pushes, 45);  // a snapshot is taken every 32 commands
    while (reached["view"]["waiting_for"] != Json::array({0})) reached = push(ana, "game.update");
    pushes.clear();
    finished = start_with_bots(ana, kTwoPlayers, 0, &pushes);
    REQUIRE(play_to_end(ana, finished, 2, pushes).contains("result"));
    CHECK(http_request(server, http::verb::get, "/api/games/" + std::to_string(finished) + "/record").result() ==
          http::status::ok);
    server.signal(SIGTERM);
    REQUIRE(server.wait_for_exit(10s) == 0);
  }
  {
    // A bit flipped on the disk in rows the restore does not read: before the snapshot the
    // game resumes from, and in the log of a game finished over an hour ago.
    Connection operator_tool(database_of(dir));
    operator_tool.run("UPDATE tables SET finished_at = finished_at - 7200000 WHERE id = " + std::to_string(finished));
    REQUIRE(operator_tool.number("SELECT seq FROM snapshots WHERE table_id = " + std::to_string(playing)) >= 32);
    const auto flip = [&operator_tool](std::int64_t table, int seq) {
      operator_tool.run("UPDATE commands SET time = time + 1 WHERE table_id = " + std::to_string(table) +
                        " AND seq = " + std::to_string(seq));
    };
    flip(playing, 3);
    flip(finished, 5);
  }

  SpawnOptions options;
  options.log_file = dir.path() / "server.log";
  ServerProcess server(server_args(dir), options);
  const std::string log = text_of(options.log_file);
  INFO(log);
  CHECK_THAT(log, Catch::Contains("the command log of table " + std::to_string(playing) +
                                  " (playing) is damaged: command 3 does not match the log's hash chain"));
  CHECK_THAT(log, Catch::Contains("the command log of table " + std::to_string(finished) +
                                  " (finished) is damaged: command 5 does not match the log's hash chain"));
  const HttpResponse metrics = http_request(server, http::verb::get, "/metrics");
  CHECK_THAT(metrics.body(), Catch::Contains("elgrande_logs_damaged 2"));
  CHECK_THAT(metrics.body(), Catch::Contains("elgrande_tables_unrestorable 1"));
  // Ready for every other table, and saying which logs are damaged.
  const HttpResponse ready = http_request(server, http::verb::get, "/readyz");
  CHECK(ready.result() == http::status::ok);
  CHECK(Json::parse(ready.body()) == Json{{"status", "ready"}, {"damaged_logs", {playing, finished}}});
  // The game stays out of play, and the finished game's record is not exported.
  WsClient ana(server.address(), server.port());
  REQUIRE(ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  CHECK(code_of(request(ana, "table.chat", {{"table", playing}, {"text", "hello?"}})) == "not_found");
  const HttpResponse record =
      http_request(server, http::verb::get, "/api/games/" + std::to_string(finished) + "/record");
  CHECK(record.result() == http::status::internal_server_error);
  CHECK_THAT(record.body(), Catch::Contains("command 5 breaks its hash chain"));
  CHECK_THAT(record.body(), Catch::Contains("--check-table " + std::to_string(finished)));
}
