// Backups against the real binary (docs/persistence.md#backups): the server's scheduled,
// verified and pruned SQLite backups, a restore from the newest one on which every
// unfinished game resumes, --verify-backup on a damaged copy, and PostgreSQL's pg_dump and
// pg_restore into a new database that a server then plays on.

#include <signal.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

#include "game_helpers.hpp"

using namespace elgrande::test;

namespace {

// One player at a table of their own with two server bots, on a connection of their own
// (play_to_end follows one table's updates).
struct BackupTestSeat {
  std::unique_ptr<WsClient> client;
  std::string token;
  std::int64_t table = 0;
  Json latest;  // the last game.update this seat answered, to go on from
};

BackupTestSeat backup_test_sit_down(const ServerProcess& server, const std::string& name) {
  BackupTestSeat seat;
  seat.client = std::make_unique<WsClient>(server.address(), server.port());
  seat.token = hello(*seat.client, name)["token"];
  seat.table = create_table(*seat.client, kThreePlayers)["id"];
  for (int bot = 1; bot <= 2; ++bot) {
    REQUIRE(request(*seat.client, "table.add_bot", {{"table", seat.table}, {"seat", bot}})["type"] ==
            "table.add_bot.ok");
  }
  std::vector<Json> pushes;
  REQUIRE(request(*seat.client, "table.start", {{"table", seat.table}}, &pushes)["type"] == "table.start.ok");
  for (const Json& message : pushes) {
    if (message["type"] == "game.update") seat.latest = message;
  }
  return seat;
}

// Plays the seat on until the game has reached `version` and waits for it.
void backup_test_play_until(BackupTestSeat& seat, std::int64_t version, std::uint64_t seed) {
  std::vector<Json> earlier;
  if (!seat.latest.is_null()) earlier.push_back(seat.latest);
  const Json update = play_to_end(*seat.client, seat.table, seed, earlier, version);
  REQUIRE(update.contains("view"));  // not over yet
  seat.latest = Json{{"type", "game.update"}, {"payload", update}};
}

// A new connection for the seat's player, as after a restart: hello with the token; the
// server then pushes the table and its game.
std::unique_ptr<WsClient> backup_test_come_back(const ServerProcess& server, const std::string& token) {
  auto client = std::make_unique<WsClient>(server.address(), server.port());
  const Json reply = client->request(
      {{"type", "hello"}, {"id", "hello"}, {"payload", {{"protocol", 1}, {"token", token}}}});
  REQUIRE(reply["type"] == "hello.ok");
  return client;
}

// One figure of /metrics.
std::uint64_t backup_test_metric(const ServerProcess& server, const std::string& name) {
  const HttpResponse response = http_request(server, http::verb::get, "/metrics");
  std::istringstream lines(response.body());
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(name + " ")) return std::stoull(line.substr(name.size() + 1));
  }
  FAIL("no " << name << " in /metrics");
  return 0;
}

std::vector<std::filesystem::path> backup_test_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code missing;
  for (const auto& entry : std::filesystem::directory_iterator(folder, missing)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}


Completed backup_test_verify(const std::filesystem::path& file) {
  return run_to_exit({"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--verify-backup", file.string()});
}

}  // namespace

TEST_CASE("scheduled backups are verified and pruned, and a restore from the newest resumes every game",
          "[sqlite][integration][backup]") {
  TempDir dir;
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--backup-every", "1", "--backup-keep", "2"});
  auto server = std::make_unique<ServerProcess>(args);
  const std::filesystem::path folder = database_of(dir).parent_path() / "backups";  // the default

  std::vector<BackupTestSeat> seats;
  for (int i = 0; i < 3; ++i) seats.push_back(backup_test_sit_down(*server, "Player" + std::to_string(i)));
  // Moves go on while backups are taken: about four seconds of play, a few moves at a time.
  for (int round = 1; round <= 6; ++round) {
    for (std::size_t i = 0; i < seats.size(); ++i) backup_test_play_until(seats[i], 4 * round, 100 + i);
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
  }
  const auto until = Clock::now() + std::chrono::seconds(10);
  while (backup_test_metric(*server, "elgrande_backups_taken_total") < 4 && Clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(backup_test_metric(*server, "elgrande_backups_taken_total") >= 4);
  CHECK(backup_test_metric(*server, "elgrande_backups_failed_total") == 0);
  CHECK(backup_test_metric(*server, "elgrande_last_backup_timestamp_seconds") > 0);
  std::vector<std::pair<std::string, std::int64_t>> kept;  // each player's token and table
  for (const BackupTestSeat& seat : seats) kept.emplace_back(seat.token, seat.table);
  seats.clear();
  server->signal(SIGTERM);
  REQUIRE(server->wait_for_exit(std::chrono::seconds(15)) == 0);

  // Two verified backups are left, named by time, and nothing half-written or refused.
  const std::vector<std::filesystem::path> backups = backup_test_files(folder);
  REQUIRE(backups.size() == 2);
  for (const std::filesystem::path& backup : backups) {
    INFO(backup.string());
    const std::string name = backup.filename().string();
    CHECK(name.starts_with("elgrande-"));
    CHECK(name.ends_with("Z.sqlite"));
    const Completed verified = backup_test_verify(backup);
    INFO(verified.out << verified.err);
    CHECK(verified.exit_code == 0);
    CHECK(verified.out.find("sound") != std::string::npos);
  }

  // The restore, as documented: the newest backup over the database, without the old
  // database's write-ahead log, shared memory and commit sequence.
  const std::filesystem::path database = database_of(dir);
  std::filesystem::copy_file(backups.back(), database, std::filesystem::copy_options::overwrite_existing);
  for (const char* beside : {"-wal", "-shm", ".commits"}) std::filesystem::remove(database.string() + beside);
  server = std::make_unique<ServerProcess>(args);

  // Every game was unfinished in the backup: each player comes back and plays it to the end,
  // and each table's log is sound (--check-table, beside the running server).
  for (std::size_t i = 0; i < kept.size(); ++i) {
    INFO("table " << kept[i].second);
    std::unique_ptr<WsClient> client = backup_test_come_back(*server, kept[i].first);
    CHECK(play_to_end(*client, kept[i].second, 200 + i).contains("result"));
    const Completed check =
        run_to_exit({"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--data-dir", (dir.path() / "data").string(),
                     "--check-table", std::to_string(kept[i].second)});
    INFO(check.out << check.err);
    CHECK(check.exit_code == 0);
  }
}

TEST_CASE("a scheduled backup that fails verification is kept aside as .bad, counted, and removes no good one",
          "[sqlite][integration][backup]") {
  TempDir dir;
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--backup-every", "1", "--backup-keep", "2"});
  ServerProcess server(args);
  const std::filesystem::path folder = database_of(dir).parent_path() / "backups";
  BackupTestSeat seat = backup_test_sit_down(server, "Ana");
  backup_test_play_until(seat, 10, 11);
  auto until = Clock::now() + std::chrono::seconds(10);
  while (backup_test_metric(server, "elgrande_backups_taken_total") < 2 && Clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(backup_test_metric(server, "elgrande_backups_taken_total") >= 2);
  // Another program changes a logged command under the running server: every backup from
  // now on holds a log that breaks its hash chain.
  run_sql(database_of(dir),
                      "PRAGMA busy_timeout=5000;"
                      "UPDATE commands SET command = command || ' ' WHERE seq = 3;"
                      "UPDATE command_ring SET command = command || ' ' WHERE seq = 3;");
  const std::uint64_t good = backup_test_metric(server, "elgrande_backups_taken_total");
  until = Clock::now() + std::chrono::seconds(10);
  while (backup_test_metric(server, "elgrande_backups_failed_total") < 2 && Clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(backup_test_metric(server, "elgrande_backups_failed_total") >= 2);
  CHECK(backup_test_metric(server, "elgrande_backups_taken_total") <= good + 1);  // one may have been under way

  std::vector<std::filesystem::path> kept;
  std::vector<std::filesystem::path> bad;
  for (const std::filesystem::path& file : backup_test_files(folder)) {
    const std::string name = file.filename().string();
    CHECK_FALSE(name.ends_with(".partial"));
    (name.ends_with(".bad") ? bad : kept).push_back(file);
  }
  CHECK(kept.size() == 2);  // the good ones stay
  REQUIRE(!bad.empty());
  CHECK(kept.back().filename().string() < bad.front().filename().string());
  for (const std::filesystem::path& file : kept) CHECK(backup_test_verify(file).exit_code == 0);
  const Completed refused = backup_test_verify(bad.back());
  INFO(refused.out);
  CHECK(refused.exit_code == 1);
  CHECK(refused.out.find("does not match the log's hash chain") != std::string::npos);
}

TEST_CASE("a damaged backup is found by --verify-backup, which says why and exits 1", "[sqlite][integration][backup]") {
  TempDir dir;
  TempDir copies;
  {
    ServerProcess server(server_args(dir));
    BackupTestSeat seat = backup_test_sit_down(server, "Ana");
    backup_test_play_until(seat, 12, 7);
    const Completed backup =
        run_to_exit({"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--data-dir",
                     (dir.path() / "data").string(), "--backup-to", (copies.path() / "good.sqlite").string()});
    INFO(backup.err);
    REQUIRE(backup.exit_code == 0);
  }
  const std::filesystem::path good = copies.path() / "good.sqlite";
  const Completed sound = backup_test_verify(good);
  INFO(sound.out << sound.err);
  REQUIRE(sound.exit_code == 0);

  SECTION("a command changed in the log: its pages are sound, its hash chain is not") {
    const std::filesystem::path changed = copies.path() / "changed.sqlite";
    std::filesystem::copy_file(good, changed);
    // The row is in the log proper or still in the command ring: changed in both.
    run_sql(changed,
                        "UPDATE commands SET command = command || ' ' WHERE seq = 3;"
                        "UPDATE command_ring SET command = command || ' ' WHERE seq = 3;");
    const Completed damaged = backup_test_verify(changed);
    INFO(damaged.out << damaged.err);
    CHECK(damaged.exit_code == 1);
    CHECK(damaged.out.find("damaged: the command log of table") != std::string::npos);
    CHECK(damaged.out.find("command 3 does not match the log's hash chain") != std::string::npos);
  }
  SECTION("a file cut short") {
    const std::filesystem::path cut = copies.path() / "cut.sqlite";
    std::filesystem::copy_file(good, cut);
    std::filesystem::resize_file(cut, std::filesystem::file_size(cut) / 2);
    const Completed damaged = backup_test_verify(cut);
    INFO(damaged.out << damaged.err);
    CHECK(damaged.exit_code == 1);
    CHECK(damaged.out.find("damaged: ") != std::string::npos);
  }
  SECTION("no such file") {
    const Completed missing = backup_test_verify(copies.path() / "missing.sqlite");
    CHECK(missing.exit_code == 1);
    CHECK(missing.out.find("damaged: no such file") != std::string::npos);
  }
}

TEST_CASE("backup_every is refused with PostgreSQL, pointing at pg_dump", "[no-storage][integration][backup]") {
  const Completed refused = run_to_exit({"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--database",
                                         "postgresql://nobody@127.0.0.1:1/none", "--backup-every", "60"});
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("pg_dump") != std::string::npos);
}

namespace {

// The newest PostgreSQL programs Debian installed, as scripts/postgres.sh finds them.
std::filesystem::path backup_test_postgres_bin() {
  std::vector<std::filesystem::path> found;
  std::error_code missing;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", missing)) {
    if (std::filesystem::exists(entry.path() / "bin" / "pg_dump")) found.push_back(entry.path() / "bin");
  }
  REQUIRE(!found.empty());
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return std::stoi(a.parent_path().filename().string()) < std::stoi(b.parent_path().filename().string());
  });
  return found.back();
}

// The test server's URL for another database on it.
std::string backup_test_database_url(const std::string& name) {
  const std::string server = postgres_server_url();
  return server.substr(0, server.rfind('/') + 1) + name;
}

}  // namespace

TEST_CASE("PostgreSQL: pg_dump, pg_restore into a new database, and every unfinished game resumes there",
          "[postgresql][integration][backup]") {
  std::random_device random;
  const std::string suffix = std::to_string(random() % 1000000000);
  const std::string from = "backup_from_" + suffix;
  const std::string to = "backup_to_" + suffix;
  elgrande::db::PostgresDatabase(postgres_server_url()).execute("CREATE DATABASE " + from);
  const std::filesystem::path bin = backup_test_postgres_bin();
  TempDir dir;
  const std::filesystem::path dump = dir.path() / "elgrande.dump";

  std::vector<std::pair<std::string, std::int64_t>> unfinished;  // each player's token and table
  std::int64_t finished = 0;
  {
    std::vector<std::string> args = server_args(dir);
    args.insert(args.end(), {"--database", backup_test_database_url(from)});
    ServerProcess server(args);
    for (int i = 0; i < 3; ++i) {
      BackupTestSeat seat = backup_test_sit_down(server, "Player" + std::to_string(i));
      backup_test_play_until(seat, 6 + 5 * i, 300 + i);
      unfinished.emplace_back(seat.token, seat.table);
    }
    BackupTestSeat done = backup_test_sit_down(server, "Done");
    std::vector<Json> earlier;
    if (!done.latest.is_null()) earlier.push_back(done.latest);
    REQUIRE(play_to_end(*done.client, done.table, 9, earlier).contains("result"));
    finished = done.table;
    // pg_dump reads one snapshot of the database while the server keeps serving.
    const Completed dumped = run_program((bin / "pg_dump").string(),
                                         {"-Fc", "-f", dump.string(), "-d", backup_test_database_url(from)}, 60s);
    INFO(dumped.err);
    REQUIRE(dumped.exit_code == 0);
  }
  elgrande::db::PostgresDatabase(postgres_server_url()).execute("CREATE DATABASE " + to);
  const Completed restored = run_program((bin / "pg_restore").string(),
                                         {"--no-owner", "-d", backup_test_database_url(to), dump.string()}, 60s);
  INFO(restored.err);
  REQUIRE(restored.exit_code == 0);

  {
    std::vector<std::string> args = server_args(dir);
    args.insert(args.end(), {"--database", backup_test_database_url(to)});
    ServerProcess server(args);
    for (std::size_t i = 0; i < unfinished.size(); ++i) {
      INFO("table " << unfinished[i].second);
      std::unique_ptr<WsClient> client = backup_test_come_back(server, unfinished[i].first);
      CHECK(play_to_end(*client, unfinished[i].second, 400 + i).contains("result"));
    }
    WsClient watcher(server.address(), server.port());
    hello(watcher, "Watcher");
    const Json history = request(watcher, "history.list", {{"everyone", true}})["payload"]["games"];
    CHECK(history.size() == unfinished.size() + 1);
    bool found = false;
    for (const Json& game : history) found = found || game["id"] == finished;
    CHECK(found);
  }
  for (const std::string& name : {from, to}) {
    elgrande::db::PostgresDatabase(postgres_server_url()).execute("DROP DATABASE " + name + " WITH (FORCE)");
  }
}
