// The server against the faults of its files and its process, with the real binary and
// real SQLite files: a write-ahead log left without its database, a database it may not
// write, one from a newer server, a file-size limit, and the readiness answer that tells
// a load balancer whether changes are taken. A start that cannot be safe is refused with
// the reason and the files left as they were; a write that cannot be made is retried and
// reported, never fatal.

#include <pwd.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>

#include "game_helpers.hpp"

using namespace elgrande::test;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

fs::path log_of(const TempDir& dir) { return dir.path() / "data" / "elgrande.sqlite-wal"; }

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// SQL on the database file from the test's own connection, as an operator's tool would
// run it; the first column of the first row, if any.
std::string sql(const fs::path& file, const std::string& statements) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &handle) == SQLITE_OK);
  sqlite3_busy_timeout(handle, 5000);
  std::string first;
  char* error = nullptr;
  const int code = sqlite3_exec(
      handle, statements.c_str(),
      [](void* out, int columns, char** values, char**) {
        auto& into = *static_cast<std::string*>(out);
        if (into.empty() && columns > 0 && values[0] != nullptr) into = values[0];
        return 0;
      },
      &first, &error);
  INFO(statements << ": " << (error ? error : ""));
  sqlite3_free(error);
  sqlite3_close(handle);
  REQUIRE(code == SQLITE_OK);
  return first;
}

// Runs a server on the directory, makes a player (a committed change), and returns her
// token once the server is gone, killed (leaving its write-ahead log) or stopped cleanly.
std::string run_once(const TempDir& dir, int ending_signal) {
  ServerProcess server(server_args(dir));
  std::string token;
  {
    WsClient ana(server.address(), server.port());
    token = hello(ana, "Ana")["token"];
  }
  server.signal(ending_signal);
  const std::optional<int> ended = server.wait_for_exit(10s);
  REQUIRE(ended == (ending_signal == SIGKILL ? 128 + SIGKILL : 0));
  return token;
}

HttpResponse get(const ServerProcess& server, std::string_view target) {
  return send_http(server.address(), server.port(), http::request<http::string_body>{http::verb::get, target, 11}, 4s);
}

// Asks /readyz until `wanted` says yes, for at most `patience`; returns the last answer.
template <class Wanted>
HttpResponse readiness_until(const ServerProcess& server, Wanted wanted, std::chrono::milliseconds patience) {
  const auto deadline = Clock::now() + patience;
  HttpResponse answer = get(server, "/readyz");
  while (!wanted(answer) && Clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
    answer = get(server, "/readyz");
  }
  return answer;
}

bool ready(const HttpResponse& answer) { return answer.result() == http::status::ok; }

std::string reason_of(const HttpResponse& answer) {
  const Json body = Json::parse(answer.body(), nullptr, false);
  return body.is_object() ? body.value("reason", "") : "";
}

void check_alive(const ServerProcess& server) {
  const HttpResponse health = get(server, "/healthz");
  CHECK(health.result() == http::status::ok);
  CHECK(health.body() == R"({"status":"ok"})");
}

}  // namespace

TEST_CASE("a write-ahead log without its database, or beside an empty one, stops the start and is left as it was",
          "[sqlite][integration][startup]") {
  TempDir dir;
  run_once(dir, SIGKILL);
  const std::string log = bytes_of(log_of(dir));
  REQUIRE(!log.empty());  // the player is in the log: nothing was checkpointed

  // The database file is gone, its log left beside it.
  const fs::path moved = dir.path() / "moved.sqlite";
  fs::rename(database_of(dir), moved);
  const Completed missing = run_to_exit(server_args(dir), 5s);
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("is missing but its write-ahead log " + log_of(dir).string()));
  CHECK_THAT(missing.err, Catch::Contains("put the database file back"));
  CHECK(bytes_of(log_of(dir)) == log);
  CHECK(!fs::exists(database_of(dir)));

  // An empty database file stands in its place.
  std::ofstream(database_of(dir), std::ios::binary).close();
  const Completed empty = run_to_exit(server_args(dir), 5s);
  CHECK(empty.exit_code == 1);
  CHECK_THAT(empty.err, Catch::Contains("database " + database_of(dir).string() + " is empty but its write-ahead log"));
  CHECK(bytes_of(log_of(dir)) == log);
  CHECK(fs::file_size(database_of(dir)) == 0);
}

TEST_CASE("a write-ahead log found at start is copied before the database is opened",
          "[sqlite][integration][startup]") {
  TempDir dir;
  const std::string token = run_once(dir, SIGKILL);
  const std::string log = bytes_of(log_of(dir));
  REQUIRE(!log.empty());

  SpawnOptions options;
  options.log_file = dir.path() / "server.log";
  ServerProcess server(server_args(dir), options);
  WsClient ana(server.address(), server.port());
  const Json back = ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}});
  CHECK(back["type"] == "hello.ok");

  std::optional<fs::path> copy;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path() / "data")) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("elgrande.sqlite-wal.") && name.ends_with(".bak")) copy = entry.path();
  }
  REQUIRE(copy);
  // The bytes as the crash left them, whatever SQLite has done with the log since.
  CHECK(bytes_of(*copy) == log);
  const std::string server_log = text_of(options.log_file);
  INFO(server_log);
  CHECK_THAT(server_log, Catch::Contains("write-ahead log " + log_of(dir).string()));
  CHECK_THAT(server_log, Catch::Contains("copied to " + copy->string()));
}

TEST_CASE("readiness reports a database that cannot commit, with the reason, while liveness stays up",
          "[sqlite][integration][startup][storage]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  const std::int64_t id = create_table(ana, kTwoPlayers)["id"];
  const HttpResponse before = get(server, "/readyz");
  CHECK(before.result() == http::status::ok);
  CHECK(before[http::field::content_type] == "application/json");
  CHECK(before[http::field::cache_control] == "no-store");
  CHECK(before.body() == R"({"status":"ready"})");

  // Another program holds the database's write lock; Ana's chat line is the change the
  // server cannot commit meanwhile.
  sqlite3* holder = nullptr;
  REQUIRE(sqlite3_open(database_of(dir).c_str(), &holder) == SQLITE_OK);
  REQUIRE(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
  ana.send(Json{{"type", "table.chat"}, {"id", "said"}, {"payload", {{"table", id}, {"text", "anyone there?"}}}});

  // First the commit is stuck, ...
  const HttpResponse stuck = readiness_until(server, [](const HttpResponse& r) { return !ready(r); }, 3s);
  CHECK(stuck.result() == http::status::service_unavailable);
  CHECK(Json::parse(stuck.body())["status"] == "unavailable");
  CHECK_THAT(reason_of(stuck), Catch::Contains("commit has been under way"));
  check_alive(server);
  // ... then, past SQLite's busy timeout (5 s), commits fail and are retried.
  const HttpResponse failing = readiness_until(
      server, [](const HttpResponse& r) { return reason_of(r).find("failing since") != std::string::npos; }, 6s);
  CHECK(failing.result() == http::status::service_unavailable);
  CHECK_THAT(reason_of(failing), Catch::Contains("database commits failing since"));
  CHECK_THAT(reason_of(failing), Catch::Contains("database is locked"));
  check_alive(server);

  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  const HttpResponse after = readiness_until(server, ready, 5s);
  CHECK(after.result() == http::status::ok);
  CHECK(after.body() == R"({"status":"ready"})");
  CHECK(answer(ana, "said")["type"] == "table.chat.ok");
}

TEST_CASE("past the file-size limit writes fail and are retried, and the server lives on",
          "[sqlite][integration][startup][storage]") {
  TempDir dir;
  const std::string token = run_once(dir, SIGTERM);  // a clean stop: no write-ahead log is left
  REQUIRE(!fs::exists(log_of(dir)));

  SpawnOptions options;
  options.log_file = dir.path() / "server.log";
  // Ana reads the rest of the game only at the end, as fast as the bots play it: her
  // outgoing queue may be long then, which is not what this test is about.
  ServerProcess server(with(server_args(dir), {"--max-queued-messages", "65536"}), options);
  WsClient ana(server.address(), server.port());
  REQUIRE(ana.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  const Json five = {{"players", 5}, {"short_game", false}, {"automa", false}, {"four_stacks", false}};
  const std::int64_t id = create_table(ana, five)["id"];
  for (int seat = 1; seat < 5; ++seat) {
    REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  }
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  // The game waits for Ana once an update gives her a decision. (Watching the log's size
  // alone did not do: on a busy machine the bots' first commits came after it had settled.)
  const auto owes_ana = [](const Json& message) {
    return message["type"] == "game.update" && message["payload"]["view"].contains("decision");
  };
  while (std::none_of(pushes.begin(), pushes.end(), owes_ana)) pushes.push_back(read(ana));

  // Once the bots have played their first power cards and the game waits for Ana, the
  // write-ahead log may grow by 48 KiB more (ulimit -f): room for her resignation's commit
  // (a few pages of 4 KiB), not for the game's hundreds of commands, however many of them
  // each commit carries under the commit delay. (A fixed limit did not hold: with enough
  // commands to a commit, a whole game once fit in 70 KiB.)
  auto written = fs::file_size(log_of(dir));
  for (const auto deadline = Clock::now() + 5s; Clock::now() < deadline;) {
    std::this_thread::sleep_for(200ms);
    const auto now = fs::file_size(log_of(dir));
    if (now == written) break;
    written = now;
  }
  rlimit limit{};
  REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, nullptr, &limit) == 0);
  limit.rlim_cur = written + 48 * 1024;
  REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, &limit, nullptr) == 0);

  // Bots play every seat from now on, as fast as they can, until the log cannot grow. The
  // resignation's reply waits for its commit, which may also carry the bots' first
  // commands and so not fit: it is read at the end.
  const Json resign = {{"type", "game.resign"}, {"id", "resign"}, {"payload", {{"table", id}}}};
  check_schema(resign, "client");
  ana.send(resign);

  // The server lives on, and says why it takes no changes.
  HttpResponse full;
  for (const auto deadline = Clock::now() + 8s; Clock::now() < deadline; std::this_thread::sleep_for(50ms)) {
    if (const std::optional<int> ended = server.wait_for_exit(0ms)) {
      FAIL("the server ended with " << *ended << " (128 + " << SIGXFSZ << " is SIGXFSZ)");
    }
    full = get(server, "/readyz");
    if (reason_of(full).find("failing since") != std::string::npos) break;
  }
  CHECK(full.result() == http::status::service_unavailable);
  CHECK_THAT(reason_of(full), Catch::Contains("database commits failing since"));
  check_alive(server);
  {
    const std::string server_log = text_of(options.log_file);
    INFO(server_log);
    CHECK_THAT(server_log, Catch::Contains("database write failed, retrying"));
  }

  // Once the limit is lifted the waiting commits go through, as after a full disk.
  rlimit current{};
  REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, nullptr, &current) == 0);
  const rlimit lifted{current.rlim_max, current.rlim_max};  // the hard limit was left as it was
  REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, &lifted, nullptr) == 0);
  CHECK(readiness_until(server, ready, 5s).result() == http::status::ok);
  // The resignation is acknowledged, and the game plays on to its end (however many
  // updates come first).
  bool acknowledged = false;
  Json over;
  while (!acknowledged || over.is_null()) {
    Json message;
    try {
      message = read(ana);
    } catch (const std::exception& error) {
      FAIL(error.what() << "; the server's log:\n" << text_of(options.log_file));
    }
    if (message.value("id", Json()) == "resign") {
      CHECK(message["type"] == "game.resign.ok");
      acknowledged = true;
    } else if (message["type"] == "game.over") {
      over = message["payload"];
    }
  }
  CHECK(over["table"] == id);
}

TEST_CASE("a database the server may not write stops the start with the reason", "[sqlite][integration][startup]") {
  TempDir dir;
  run_once(dir, SIGTERM);
  const fs::path data = dir.path() / "data";
  const fs::path database = database_of(dir);

  if (::geteuid() != 0) {
    // A file of the server's own user made read-only, then a directory it may not write in.
    fs::permissions(database, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const Completed file = run_to_exit(server_args(dir), 5s);
    fs::permissions(database, fs::perms::owner_write, fs::perm_options::add);
    CHECK(file.exit_code == 1);
    CHECK_THAT(file.err, Catch::Contains("database " + database.string() + " cannot be written by this server"));
    fs::permissions(data, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
    const Completed directory = run_to_exit(server_args(dir), 5s);
    fs::permissions(data, fs::perms::owner_write, fs::perm_options::add);
    CHECK(directory.exit_code == 1);
    CHECK_THAT(directory.err, Catch::Contains("directory " + data.string()));
    return;
  }

  // Permission bits do not stop root, so the server runs as another user, as it would in
  // production, against files that user may not write.
  const passwd* nobody = ::getpwnam("nobody");
  if (nobody == nullptr) {
    WARN("skipped: the test runs as root and there is no user 'nobody' to run the server as");
    return;
  }
  SpawnOptions as_nobody;
  as_nobody.user = SpawnOptions::User{nobody->pw_uid, nobody->pw_gid};
  fs::permissions(dir.path(), fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
  if (run_to_exit({"--help"}, 5s, as_nobody).exit_code != 0) {
    WARN("skipped: user 'nobody' cannot run " ELGRANDE_SERVER_BINARY " (a directory on its path is closed to it)");
    return;
  }

  // The database belongs to root (0644) in a directory the server's user may write.
  REQUIRE(::chown(data.c_str(), nobody->pw_uid, nobody->pw_gid) == 0);
  fs::remove(database.string() + ".lock");
  const std::string before = bytes_of(database);
  const Completed file = run_to_exit(server_args(dir), 5s, as_nobody);
  CHECK(file.exit_code == 1);
  CHECK_THAT(file.err, Catch::Contains("database " + database.string() + " cannot be written by this server (uid " +
                                       std::to_string(nobody->pw_uid) + "): " + database.string() +
                                       ": Permission denied"));
  CHECK(bytes_of(database) == before);

  // The database is the server's user's, in a directory of root's where SQLite cannot
  // make its -wal and -shm files.
  REQUIRE(::chown(data.c_str(), 0, 0) == 0);
  REQUIRE(::chown(database.c_str(), nobody->pw_uid, nobody->pw_gid) == 0);
  std::ofstream(database.string() + ".lock").close();
  REQUIRE(::chown((database.string() + ".lock").c_str(), nobody->pw_uid, nobody->pw_gid) == 0);
  const Completed directory = run_to_exit(server_args(dir), 5s, as_nobody);
  CHECK(directory.exit_code == 1);
  CHECK_THAT(directory.err, Catch::Contains("cannot be written by this server (uid " + std::to_string(nobody->pw_uid) +
                                            "): directory " + data.string() + ": Permission denied"));
  CHECK(bytes_of(database) == before);
}

TEST_CASE("a start refused for a newer schema changes nothing in the file", "[sqlite][integration][startup]") {
  TempDir dir;
  const fs::path database = database_of(dir);
  fs::create_directories(database.parent_path());
  // A database in rollback-journal mode from a server far in the future.
  sql(database,
      "PRAGMA journal_mode=DELETE; CREATE TABLE from_the_future(x); INSERT INTO from_the_future VALUES (1);"
      "PRAGMA user_version=1000");
  const std::string before = bytes_of(database);

  const Completed refused = run_to_exit(server_args(dir), 5s);
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("database " + database.string() +
                                          " has schema version 1000, newer than this server's"));
  CHECK(bytes_of(database) == before);
  CHECK(!fs::exists(database.string() + "-wal"));
  CHECK(!fs::exists(database.string() + "-shm"));
  CHECK(!fs::exists(database.string() + "-journal"));
  CHECK(sql(database, "PRAGMA journal_mode") == "delete");
}

TEST_CASE("a damaged frame of the write-ahead log loses commits, and the start is refused until the loss is accepted",
          "[sqlite][integration][startup]") {
  TempDir dir;
  std::vector<std::string> tokens;
  {
    ServerProcess server(server_args(dir));
    for (int i = 0; i < 51; ++i) {
      WsClient player(server.address(), server.port());
      tokens.push_back(hello(player, "Player " + std::to_string(i))["token"]);  // each one a commit
    }
    server.signal(SIGKILL);  // the write-ahead log stays, with every commit in it
    REQUIRE(server.wait_for_exit(10s) == 128 + SIGKILL);
  }
  const fs::path database = database_of(dir);
  REQUIRE(fs::exists(fs::path(database.string() + ".commits")));
  {
    // One byte of a frame in the middle of the log changes on the disk: SQLite replays the
    // log up to that frame and drops it and every later one, without a word.
    std::fstream log(log_of(dir), std::ios::in | std::ios::out | std::ios::binary);
    REQUIRE(log);
    unsigned char header[32];
    log.read(reinterpret_cast<char*>(header), sizeof header);
    const std::size_t page = (std::size_t{header[8]} << 24) | (std::size_t{header[9]} << 16) |
                             (std::size_t{header[10]} << 8) | header[11];
    const std::size_t frames = (fs::file_size(log_of(dir)) - 32) / (24 + page);
    REQUIRE(frames > 20);
    const auto at = static_cast<std::streamoff>(32 + (frames / 2) * (24 + page) + 24 + page / 2);
    log.seekg(at);
    char byte = 0;
    log.read(&byte, 1);
    log.seekp(at);
    byte = static_cast<char>(byte ^ 0x5a);
    log.write(&byte, 1);
  }
  const std::string damaged = bytes_of(log_of(dir));

  const Completed refused = run_to_exit(server_args(dir), 20s);
  INFO(refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.out.empty());  // never listened
  CHECK_THAT(refused.err, Catch::Contains("has lost committed data"));
  CHECK_THAT(refused.err, Catch::Contains("committed transactions, but " + database.string() + ".commits recorded"));
  CHECK_THAT(refused.err, Catch::Contains("--accept-lost-commits"));
  // The log is left as it was, damaged frame and the frames after it, and the start is
  // refused again.
  CHECK(bytes_of(log_of(dir)) == damaged);
  CHECK(run_to_exit(server_args(dir), 20s).exit_code == 1);
  CHECK(bytes_of(log_of(dir)) == damaged);

  std::vector<std::string> accepting = server_args(dir);
  accepting.push_back("--accept-lost-commits");
  SpawnOptions options;
  options.log_file = dir.path() / "accepted.log";
  {
    ServerProcess server(accepting, options);
    // The first players are there, the last are gone.
    WsClient first(server.address(), server.port());
    CHECK(first.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", tokens.front()}}}})
              ["type"] == "hello.ok");
    server.signal(SIGTERM);
    REQUIRE(server.wait_for_exit(10s) == 0);
  }
  CHECK_THAT(text_of(options.log_file), Catch::Contains("are lost, as --accept-lost-commits accepts"));
  // From then on the sequence goes on from what the database holds.
  ServerProcess again(server_args(dir));
  check_alive(again);
}

TEST_CASE("a start while another program holds the write lock waits for it, then stops with the reason",
          "[sqlite][integration][startup]") {
  TempDir dir;
  run_once(dir, SIGTERM);
  sqlite3* holder = nullptr;
  REQUIRE(sqlite3_open(database_of(dir).c_str(), &holder) == SQLITE_OK);
  REQUIRE(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
  const auto started = Clock::now();
  const Completed refused = run_to_exit(server_args(dir), 30s);
  const auto waited = Clock::now() - started;
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  INFO(refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(waited >= 4500ms);  // SQLite's busy timeout, waited out
  CHECK_THAT(refused.err, Catch::Contains("is locked by another program that holds its write lock"));
  CHECK_THAT(refused.err, Catch::Contains("end that program's transaction, then start again"));
  // Once it is let go, the server starts.
  ServerProcess server(server_args(dir));
  check_alive(server);
}
