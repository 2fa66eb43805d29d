// Several server processes on one PostgreSQL database (docs/scaling.md): one leads, the
// others forward their clients to it, and one of them takes over when it is gone. These
// run against PostgreSQL only ([postgresql]).

#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <thread>

#include "elgrande/db/postgres.hpp"
#include "elgrande/db/processes.hpp"
#include "elgrande/db/store.hpp"
#include "cluster_support.hpp"
#include "game_helpers.hpp"
#include "tournament_helpers.hpp"

namespace elgrande::test {
namespace {

using namespace std::chrono_literals;

// Each game's log holds every acknowledged command, at its place, once.
void check_every_acknowledged_kept_once(const Acknowledgements& log, const bot::Report& report,
                                        const std::map<std::int64_t, Json>& records) {
  CHECK(log.acknowledged.size() == report.commands);
  std::size_t lost = 0;
  std::size_t duplicated = 0;
  std::set<std::pair<std::int64_t, std::int64_t>> versions;
  for (const Acknowledgements::Acknowledged& ack : log.acknowledged) {
    if (!versions.insert({ack.table, ack.version}).second) ++duplicated;
    const Json& commands = records.at(ack.table)["commands"];
    const bool kept = ack.version >= 1 && static_cast<std::size_t>(ack.version) <= commands.size() &&
                      commands[static_cast<std::size_t>(ack.version - 1)]["seat"] == ack.seat &&
                      commands[static_cast<std::size_t>(ack.version - 1)]["command"] == ack.command;
    lost += !kept;
  }
  CHECK(lost == 0);
  CHECK(duplicated == 0);
}

// Every command of every game was written by its table's owner of the moment: each carries
// the epoch its writer held the table in, and along a log the epochs never go back (a
// process that lost a table wrote nothing after the one that took it), nor past the
// table's epoch now. How many times the logs changed hands.
std::size_t check_epochs_in_logs(const TempDir& dir) {
  const auto database = db::open(database_args(dir)[3]);
  db::Statement rows = database->prepare(
      "SELECT c.table_id, c.seq, c.epoch, o.epoch FROM commands c JOIN table_owners o ON o.table_id = c.table_id "
      "ORDER BY c.table_id, c.seq");
  std::int64_t table = 0;
  std::int64_t epoch = 0;
  std::size_t changes = 0;
  std::size_t commands = 0;
  while (rows.step()) {
    ++commands;
    INFO("table " << rows.integer(0) << ", command " << rows.integer(1));
    CHECK(rows.integer(2) >= 1);
    CHECK(rows.integer(2) <= rows.integer(3));
    if (rows.integer(0) == table) {
      CHECK(rows.integer(2) >= epoch);
      changes += rows.integer(2) > epoch;
    }
    table = rows.integer(0);
    epoch = rows.integer(2);
  }
  CHECK(commands > 0);
  return changes;
}

// Every game finished cleanly (no refusal but the races and `also_allowed`, no client
// ever saw a version go back), every seat saw the same result, each log holds every
// acknowledged command once and replays to it, and the epochs along every log hold. How
// many times the logs changed hands.
std::size_t check_nothing_lost(const bot::Swarm& swarm, const bot::Report& report, const Acknowledgements& log,
                               ServerProcess& leader, const TempDir& dir, std::size_t tables,
                               const std::set<std::string>& also_allowed = {}) {
  check_clean(report, also_allowed);
  check_results_agree(swarm);
  const std::map<std::int64_t, Json> records = replayed_records(swarm, leader);
  REQUIRE(records.size() == tables);
  check_every_acknowledged_kept_once(log, report, records);
  return check_epochs_in_logs(dir);
}

}  // namespace

TEST_CASE("seats at one table play from two processes, and either answers for the whole community",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 2);
  bot::SwarmSettings settings = cluster.swarm_settings(41);
  bot::Swarm swarm(settings);
  for (int t = 0; t < 3; ++t) swarm.add_table(table(options(4)));
  swarm.add_table(table(options(3, true), 1));
  const bot::Report report = swarm.run(60s);
  check_clean(report);
  check_results_agree(swarm);

  // Each table had seats on both processes.
  std::map<std::int64_t, std::set<std::string>> ports;
  for (const auto& client : swarm.clients()) ports[*client->table()].insert(client->url().port);
  for (const auto& [id, seen] : ports) CHECK(seen.size() == 2);
  // Whichever process is asked, the finished games and the lobby are the same.
  for (const auto& [id, seen] : ports) {
    const std::string record = "/api/games/" + std::to_string(id) + "/record";
    CHECK(get_json(cluster[0], record) == get_json(cluster[1], record));
  }
  WsClient first(cluster[0].address(), cluster[0].port());
  WsClient second(cluster[1].address(), cluster[1].port());
  hello(first, "Ana");
  hello(second, "Bea");
  const Json lobby = request(first, "lobby.list", Json::object());
  CHECK(lobby["type"] == "lobby.list.ok");
  CHECK(request(second, "lobby.list", Json::object())["payload"] == lobby["payload"]);
}

TEST_CASE("killing any of three processes under load loses no acknowledged command and applies none twice",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 3, {"--bot-delay-ms", "10"});
  Acknowledgements log;
  bot::SwarmSettings settings = cluster.watched_swarm_settings(29, 10ms, log);  // games long enough to be cut short
  std::atomic<int>& started = log.started;
  std::atomic<int>& finished = log.finished;
  bot::Swarm swarm(settings);
  for (int t = 0; t < 4; ++t) swarm.add_table(table(options(3), 1));
  for (int t = 0; t < 2; ++t) swarm.add_table(table(options(4), 2));
  swarm.add_table(table(options(5, true)));
  const int tables = 7;

  // Meanwhile another thread kills a process at random moments, mostly the leader, and
  // starts it again on its port: it comes back forwarding to whichever process took over.
  int kills = 0;
  int leaders_killed = 0;
  int kills_mid_game = 0;
  std::vector<double> takeover_ms;
  std::thread killer([&] {
    std::mt19937 random(7);
    while (started < tables) std::this_thread::sleep_for(10ms);
    // Fewer under the sanitizers, where each restart takes longer.
    const int rounds = std::getenv("ELGRANDE_SANITIZED") != nullptr ? 4 : 6;
    for (int round = 0; round < rounds && finished < tables; ++round) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution(200, 700)(random)));
      const std::size_t leader = cluster.leader();
      const bool kill_leader = round % 3 != 2;
      const std::size_t victim = kill_leader ? leader : (leader + 1 + random() % 2) % 3;
      kills_mid_game += finished < tables;
      const auto killed_at = Clock::now();
      cluster.kill(victim);
      ++kills;
      if (kill_leader) {
        ++leaders_killed;
        REQUIRE(cluster.wait_for_leader() != 0);
        takeover_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - killed_at).count());
      }
      cluster.start(victim);
    }
  });
  const bot::Report report = swarm.run(150s);
  killer.join();

  INFO("kills: " << kills << " (leaders " << leaders_killed << "), in mid-game: " << kills_mid_game);
  CHECK(kills_mid_game >= 3);
  CHECK(leaders_killed >= 3);
  for (const double ms : takeover_ms) CHECK(ms < 10'000);  // a leader's lock goes with its process
  // Leaders killed in mid-game took the tables on.
  CHECK(check_nothing_lost(swarm, report, log, cluster[cluster.leader()], dir, tables) >= 1);
}

TEST_CASE("a leader stopped for longer than its lease is replaced, and once resumed it commits nothing and exits",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 3, {"--bot-delay-ms", "10"});
  Acknowledgements log;
  bot::SwarmSettings settings = cluster.watched_swarm_settings(31, 10ms, log);
  bot::Swarm swarm(settings);
  for (int t = 0; t < 3; ++t) swarm.add_table(table(options(3), 1));
  const int tables = 3;

  std::optional<int> old_leader_status;
  double takeover_s = 0;
  std::thread stopper([&] {
    while (log.started < tables) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(300ms);
    REQUIRE(cluster.leader() == 0);
    const auto stopped_at = Clock::now();
    cluster[0].signal(SIGSTOP);  // its connections stay open: PostgreSQL ends them for silence
    for (;;) {
      const std::uint16_t port = cluster.wait_for_leader(30s);
      REQUIRE(port != 0);
      if (port != cluster.port(0)) break;
      std::this_thread::sleep_for(100ms);
    }
    takeover_s = std::chrono::duration<double>(Clock::now() - stopped_at).count();
    cluster[0].signal(SIGCONT);
    old_leader_status = cluster[0].wait_for_exit(10s);
    cluster.start(0);  // its clients come back through it
  });
  const bot::Report report = swarm.run(150s);
  stopper.join();

  INFO("taken over " << takeover_s << " s after the leader stopped");
  CHECK(takeover_s > 5);  // not while it lived: its lock is held until PostgreSQL ends the silent connection
  CHECK(takeover_s < 25);
  CHECK(old_leader_status == 75);
  CHECK(log.finished == tables);
  // Resumed, the old leader finds its commit under way stalled for seconds, and may refuse
  // a request as `unavailable` (nothing changed) before its fence stops it. The games went
  // on under the new leader.
  const std::size_t handovers =
      check_nothing_lost(swarm, report, log, cluster[cluster.leader()], dir, tables, {"unavailable"});
  CHECK(handovers >= 1);
}

TEST_CASE("a leader whose epoch has passed to another process acknowledges nothing more and stops",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 1);
  WsClient ana(cluster[0].address(), cluster[0].port());
  hello(ana, "Ana");
  create_table(ana, kTwoPlayers);
  // What a take-over by a process that found the lock free does to the row (a leader that
  // lost its lock's connection without noticing): its next commit is refused.
  const auto database = db::open(database_args(dir)[3]);
  database->execute("UPDATE leader SET epoch = epoch + 1");
  ana.send({{"type", "table.create"}, {"id", "late"}, {"payload", {{"options", kTwoPlayers}}}});
  CHECK(cluster[0].wait_for_exit(10s) == 75);
  for (int i = 0; i < 100; ++i) {
    const auto message = ana.read_any();
    if (message.error) break;
    CHECK(message.text.find("\"late\"") == std::string::npos);  // no answer, right or wrong
  }
  db::Statement tables = database->prepare("SELECT count(*) FROM tables");
  REQUIRE(tables.step());
  CHECK(tables.integer(0) == 1);
}

TEST_CASE("a table another process takes stops at its old owner, whose other tables play on",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 1);
  WsClient ana(cluster[0].address(), cluster[0].port());
  hello(ana, "Ana");
  const std::int64_t taken = create_table(ana, kTwoPlayers)["id"];
  const std::int64_t kept = create_table(ana, kTwoPlayers)["id"];
  const auto database = db::open(database_args(dir)[3]);
  const auto number = [&](const std::string& sql) {
    db::Statement row = database->prepare(sql);
    REQUIRE(row.step());
    return row.integer(0);
  };
  const auto epoch = [&](std::int64_t table) {
    return number("SELECT epoch FROM table_owners WHERE table_id = " + std::to_string(table));
  };
  const auto bots = [&](std::int64_t table) {
    return number("SELECT count(*) FROM seats WHERE kind = 'bot' AND table_id = " + std::to_string(table));
  };
  // Each table is the leader's from its first transaction.
  CHECK(epoch(taken) == 1);
  CHECK(epoch(kept) == 1);

  // What another process does when it takes a table (issue 47's plan): the epoch moves on.
  database->execute("UPDATE table_owners SET epoch = epoch + 1, process = 'elsewhere' WHERE table_id = " +
                    std::to_string(taken));
  CHECK(code_of(request(ana, "table.add_bot", {{"table", taken}})) == "internal");
  CHECK(request(ana, "table.add_bot", {{"table", kept}})["type"] == "table.add_bot.ok");
  CHECK(bots(taken) == 0);
  CHECK(bots(kept) == 1);
  CHECK(request(ana, "table.add_bot", {{"table", taken}})["type"] == "error");  // it stays stopped here
  CHECK(bots(taken) == 0);
  create_table(ana, kTwoPlayers);  // the process leads on: it lost a table, not the lead

  // A process that starts takes every table it restores, once each.
  cluster.kill(0);
  cluster.start(0);
  REQUIRE(cluster.wait_for_leader() == cluster.port(0));
  CHECK(epoch(kept) == 2);
  CHECK(epoch(taken) == 3);
}

TEST_CASE("a turn clock and a bot are driven by the leader, and by the next one after it is killed",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 2);
  // Ana plays through the process that does not lead; she never answers, so her clock
  // runs out each time and the leader's bot answers for her, against the server's bot.
  auto ana = std::make_unique<WsClient>(cluster[1].address(), cluster[1].port());
  const std::string token = hello(*ana, "Ana")["token"];
  const std::int64_t id = create_table(*ana, kTwoPlayers, 1)["id"];
  CHECK(request(*ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(*ana, "table.start", {{"table", id}})["type"] == "table.start.ok");

  // Two of Ana's decisions answered when her time ran out; the versions she is shown.
  const auto timeouts = [&ana](int wanted) {
    int answered = 0;
    std::int64_t owed_at = -1;
    std::int64_t last = -1;
    const auto until = Clock::now() + 15s;
    while (answered < wanted && Clock::now() < until) {
      const Json update = push(*ana, "game.update");
      const std::int64_t version = update["version"];
      CHECK(version > last);  // never a step back, never one applied twice
      last = version;
      if (owed_at >= 0 && version > owed_at) {
        ++answered;
        owed_at = -1;
      }
      if (update["view"].contains("decision")) owed_at = version;
    }
    return answered;
  };
  CHECK(timeouts(2) == 2);

  cluster.kill(0);  // the leader
  REQUIRE(cluster.wait_for_leader() == cluster.port(1));
  // Ana's connection went with the leader; she comes back with her token, to the new leader.
  ana = std::make_unique<WsClient>(cluster[1].address(), cluster[1].port());
  const Json again =
      ana->request({{"type", "hello"}, {"id", "hello"}, {"payload", {{"protocol", 1}, {"name", "Ana"}, {"token", token}}}});
  REQUIRE(again["type"] == "hello.ok");
  CHECK(timeouts(2) == 2);

  // The old leader comes back forwarding: the clock and the bot stay with the new one, and
  // the game's log holds every step once, its hash chain whole.
  cluster.start(0);
  CHECK(timeouts(1) == 1);
  CHECK(cluster.leader() == 1);
  const auto database = db::open(database_args(dir)[3]);
  db::Store store(*database);
  const db::Store::LogCheck log = store.check_log(id);
  CHECK(log.rows > 0);
  CHECK_FALSE(log.first_gap);
  CHECK(log.head_matches);
  const auto metrics = http_request(cluster[1], http::verb::get, "/metrics");
  CHECK(metrics.body().find("elgrande_timeouts_total 0\n") == std::string::npos);
}

TEST_CASE("a tournament's rounds, its ratings and play-now go on when the leader is killed mid-round",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 2);
  // Everyone reaches the process that does not lead, which takes over once the leader is killed.
  Account director;
  director.username = "Director";
  connect(director, cluster[1], true);
  std::vector<Account> players(4);
  for (std::size_t i = 0; i < players.size(); ++i) {
    players[i].username = "Player_" + std::to_string(i + 1);
    connect(players[i], cluster[1], true);
  }
  const Json settings = {
      {"stages", {{{"format", "swiss"}, {"rounds", 2}, {"table_sizes", {{"preferred", 4}, {"minimum", 4}}}}}},
      {"game", {{"short_game", true}}}};
  const Json created = tournament_request(director, "create", {{"name", "Winter Cup"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];
  for (Account& p : players) REQUIRE(tournament_request(p, "register", {{"tournament", id}})["type"] == "tournament.register.ok");
  REQUIRE(tournament_request(director, "start", {{"tournament", id}})["type"] == "tournament.start.ok");
  wait_for(director, id, [](const Json& t) { return t["rounds"].size() == 1 && t["rounds"][0]["boards"][0]["table"].is_number(); });

  cluster.kill(0);  // round 1 is being played
  REQUIRE(cluster.wait_for_leader() == cluster.port(1));
  connect(director, cluster[1], false);
  for (Account& p : players) connect(p, cluster[1], false);

  // The new leader carries the event on: round 1's game ends (resigned at once, so not
  // rated), round 2 is paired and played out, rated.
  for (Account& p : players) resign_games(p);
  Json now = wait_for(director, id, [](const Json& t) {
    return t["rounds"].size() == 2 && t["rounds"][1]["boards"][0]["table"].is_number();
  });
  CHECK(now["rounds"][0]["finished_at"].is_number());
  const std::int64_t second = now["rounds"][1]["boards"][0]["table"];
  // Each one's first update may have come while resigning read its answers: asked again.
  std::vector<std::vector<Json>> earlier(players.size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    CHECK(request(*players[i].ws, "game.view", {{"table", second}}, &earlier[i])["type"] == "game.view.ok");
  }
  std::vector<std::thread> playing;
  for (std::size_t i = 0; i < players.size(); ++i) {
    playing.emplace_back([&, i] { play_to_end(*players[i].ws, second, 40 + i, earlier[i]); });
  }
  for (std::thread& plays : playing) plays.join();
  now = wait_for(director, id, [](const Json& t) { return t["status"] == "finished"; });
  CHECK(now["standings"].size() == 4);
  const Json profile = request(*players[0].ws, "rating.profile", {{"player", players[0].id}})["payload"];
  INFO(profile.dump());
  std::int64_t rated = 0;
  for (const Json& ladder : profile["ratings"]) rated += ladder.value("games", 0);
  CHECK(rated == 1);

  // Play-now pairs players on the new leader.
  const Json two = {{"players", 2}, {"short_game", true}};
  for (std::size_t i = 0; i < 2; ++i) REQUIRE(request(*players[i].ws, "play.join", two)["type"] == "play.join.ok");
  const Json matched = push(*players[0].ws, "play.matched");
  CHECK(push(*players[1].ws, "play.matched")["table"] == matched["table"]);
}

TEST_CASE("every process is listed while it lives: one killed is removed by the leader, one stopped leaves at once",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 3);
  const auto database = db::open(database_args(dir)[3]);
  const auto address = [&](std::size_t i) { return "127.0.0.1:" + std::to_string(cluster.port(i)); };
  const auto listed = [&] {
    std::set<std::string> addresses;
    for (const db::ProcessRow& row : db::processes(*database)) addresses.insert(row.address);
    return addresses;
  };
  const auto becomes = [&](const std::set<std::string>& expected) {
    for (int tries = 0; tries < 200; ++tries) {
      if (listed() == expected) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  };
  REQUIRE(becomes({address(0), address(1), address(2)}));
  for (const db::ProcessRow& row : db::processes(*database)) CHECK(row.live);

  cluster.kill(2);  // a process that forwards: the leader removes its row once its lock is free
  CHECK(becomes({address(0), address(1)}));
  cluster.stop(1);  // stopped cleanly: its row went before it exited
  CHECK(listed() == std::set<std::string>{address(0)});

  cluster.start(1);
  cluster.start(2);
  REQUIRE(becomes({address(0), address(1), address(2)}));
  cluster.kill(0);  // the leader: the one that takes over removes it
  CHECK(becomes({address(1), address(2)}));
  CHECK(cluster.leader() != 0);
}

TEST_CASE("a process drained during play stops cleanly, the leader first: the games go on and finish, nothing lost",
          "[integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 3, {"--bot-delay-ms", "10"});
  Acknowledgements log;
  bot::SwarmSettings settings = cluster.watched_swarm_settings(37, 10ms, log);
  bot::Swarm swarm(settings);
  const int tables = 4;
  for (int t = 0; t < tables; ++t) swarm.add_table(table(options(3), 1));

  std::vector<std::string> drain_args = database_args(dir);
  drain_args.push_back("--drain");
  std::vector<Completed> drains;
  std::vector<std::optional<int>> exits;
  std::thread operator_([&] {
    while (log.started < tables) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(200ms);
    for (const std::size_t drained : {std::size_t{0}, std::size_t{1}}) {  // the leader, then a follower
      std::vector<std::string> args = drain_args;
      args.push_back("127.0.0.1:" + std::to_string(cluster.port(drained)));
      drains.push_back(run_to_exit(args, 30s));
      exits.push_back(cluster[drained].wait_for_exit(10s));
      cluster.start(drained);  // the upgraded one comes back
    }
  });
  const bot::Report report = swarm.run(150s);
  operator_.join();

  for (const Completed& drain : drains) {
    INFO(drain.out << drain.err);
    CHECK(drain.exit_code == 0);
    CHECK_THAT(drain.out, Catch::Contains("drained and stopped"));
  }
  CHECK(exits == std::vector<std::optional<int>>{0, 0});
  CHECK(log.finished == tables);
  check_nothing_lost(swarm, report, log, cluster[cluster.leader()], dir, tables);

  // Nothing to drain by that name, and on SQLite nothing drains at all.
  drain_args.push_back("nowhere:1");
  const Completed none = run_to_exit(drain_args);
  CHECK(none.exit_code == 1);
  CHECK_THAT(none.out, Catch::Contains("no process nowhere:1"));
  const Completed lone = run_to_exit({"--data-dir", (dir.path() / "lone").string(), "--drain", "any"});
  CHECK(lone.exit_code == 2);
}


// Issue 47's soak (scripts/cluster-soak.sh; hidden, not in CI: a couple of minutes): three
// processes, thirty tables with bots on every process, each process killed in turn twice
// and one stopped for longer than its lease.
TEST_CASE("soak: thirty tables on three processes, each killed in turn and one stopped past its lease",
          "[.soak][integration][postgresql][cluster]") {
  TempDir dir;
  Cluster cluster(dir, 3, {"--bot-delay-ms", "20"});
  Acknowledgements log;
  bot::SwarmSettings settings = cluster.watched_swarm_settings(47, 40ms, log);  // games long enough to outlast the schedule
  bot::Swarm swarm(settings);
  const int tables = 30;
  for (int t = 0; t < tables; ++t) swarm.add_table(table(options(3 + t % 3, t % 2 == 0), t % 3));

  int kills_mid_game = 0;
  std::vector<int> exits_after_stop;
  std::thread faults([&] {
    while (log.started < tables) std::this_thread::sleep_for(10ms);
    for (int round = 0; round < 6; ++round) {
      std::this_thread::sleep_for(700ms);
      const std::size_t victim = static_cast<std::size_t>(round % 3);
      const bool leader = cluster.leader() == victim;
      kills_mid_game += log.finished < tables;
      cluster.kill(victim);
      if (leader) REQUIRE(cluster.wait_for_leader() != 0);
      cluster.start(victim);
    }
    // The leader stopped for longer than its lease: another takes over; resumed, it exits.
    const std::size_t stopped = cluster.leader();
    cluster[stopped].signal(SIGSTOP);
    while (cluster.wait_for_leader() == cluster.port(stopped)) std::this_thread::sleep_for(100ms);
    cluster[stopped].signal(SIGCONT);
    exits_after_stop.push_back(cluster[stopped].wait_for_exit(10s).value_or(-1));
    cluster.start(stopped);
  });
  const bot::Report report = swarm.run(600s);
  faults.join();

  INFO("kills in mid-game: " << kills_mid_game << " of 6, commands: " << report.commands);
  CHECK(kills_mid_game == 6);
  CHECK(exits_after_stop == std::vector<int>{75});
  CHECK(log.finished == tables);
  // `unavailable` from the stopped leader once resumed, as in its own test.
  const std::size_t handovers =
      check_nothing_lost(swarm, report, log, cluster[cluster.leader()], dir, tables, {"unavailable"});
  CHECK(handovers >= 7);
  WARN("soak: " << tables << " games finished, " << log.acknowledged.size() << " commands acknowledged, 0 lost or "
                << "applied twice, logs changed hands " << handovers << " times");
}

}  // namespace elgrande::test
