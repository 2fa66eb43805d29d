// Tournaments against the real binary: accounts register, the director starts the event,
// every round's tables are made by the server and announced to their players, a kill -9
// right after the start loses nothing, results close rounds, a director's correction
// counts, and the CSV exports agree with each other.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "game_helpers.hpp"
#include "tournament_helpers.hpp"

namespace elgrande::test {
namespace {

std::vector<std::string> args_on(const TempDir& dir, std::uint16_t port) {
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--port", std::to_string(port)});  // the last --port counts
  return args;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cells;
    std::istringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(std::move(cells));
  }
  return rows;
}

// Under the sanitizers the events are smaller: the same paths, a fraction of the games.
bool sanitized() { return std::getenv("ELGRANDE_SANITIZED") != nullptr; }

// The standings recomputed from the results export alone, by the formulas of
// docs/tournaments.md, and compared column by column with the standings export.
void check_standings_recompute(const ServerProcess& server, std::int64_t id) {
  const std::string base = "/api/tournaments/" + std::to_string(id);
  const auto results = csv_rows(http_request(server, http::verb::get, base + "/results.csv").body());
  const auto standings = csv_rows(http_request(server, http::verb::get, base + "/standings.csv").body());
  REQUIRE(results.size() > 1);
  REQUIRE(standings.size() > 1);
  struct Column {
    double points = 0, sonneborn_berger = 0, percent = 0;
    long game_points = 0;
    int wins = 0, played = 0, byes = 0;
  };
  std::map<std::string, Column> rows;
  // (round, board) -> seats as (player, place)
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::string, int>>> boards;
  for (std::size_t r = 1; r < results.size(); ++r) {
    const auto& row = results[r];
    Column& c = rows[row[5]];
    c.points += std::stod(row[10]);
    if (row[2].empty()) {  // a bye
      ++c.byes;
      continue;
    }
    ++c.played;
    c.game_points += std::stol(row[7]);
    c.percent += std::stod(row[11]);
    if (row[9] == "1") ++c.wins;
    boards[{row[0], row[2]}].push_back({row[5], std::stoi(row[9])});
  }
  for (const auto& [key, seats] : boards) {
    for (const auto& [player, place] : seats) {
      for (const auto& [other, other_place] : seats) {
        if (other == player) continue;
        const int factor = place < other_place ? 2 : place == other_place ? 1 : 0;
        rows[player].sonneborn_berger += factor * rows[other].points;
      }
    }
  }
  REQUIRE(standings[0][3] == "points");
  for (std::size_t r = 1; r < standings.size(); ++r) {
    const auto& row = standings[r];
    INFO("standings row " << r << ": player " << row[1]);
    CHECK(row[0] == std::to_string(r));
    const Column& c = rows[row[1]];
    CHECK(std::stod(row[3]) == c.points);
    CHECK(std::stod(row[4]) == c.sonneborn_berger);
    CHECK(std::abs(std::stod(row[5]) - (c.played ? c.percent / c.played : 0)) < 0.01);
    CHECK(std::stol(row[6]) == c.game_points);
    CHECK(std::stoi(row[7]) == c.wins);
    CHECK(std::stoi(row[8]) == c.played);
    CHECK(std::stoi(row[9]) == c.byes);
  }
}

}  // namespace

TEST_CASE("a Swiss tournament runs from registration to its exports, across a kill -9 after the start",
          "[integration][tournaments]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(args_on(dir, 0));
  const std::uint16_t port = server->port();

  Account director;
  director.username = "Director";
  connect(director, *server, true);
  std::vector<Account> players(9);
  for (std::size_t i = 0; i < players.size(); ++i) {
    players[i].username = "Player_" + std::to_string(i + 1);
    connect(players[i], *server, true);
  }

  const Json settings = {
      {"stages", {{{"format", "swiss"}, {"rounds", 2}, {"table_sizes", {{"preferred", 4}, {"minimum", 4}}}}}},
      {"game", {{"short_game", true}}}};
  CHECK(code_of(bad_request(*director.ws, "tournament.create", {{"name", ""}, {"settings", settings}})) ==
        "bad_payload");
  CHECK(code_of(tournament_request(director, "create", {{"name", "Cup"}, {"settings", {{"stages", Json::array()}}}})) ==
        "bad_payload");
  const Json created = tournament_request(director, "create", {{"name", "Autumn Cup"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];
  CHECK(created["payload"]["tournament"]["status"] == "registering");

  // A guest may not register; accounts may, once.
  WsClient guest(server->address(), server->port());
  hello(guest, "Guest");
  CHECK(code_of(request(guest, "tournament.register", {{"tournament", id}})) == "forbidden");
  for (Account& p : players) REQUIRE(tournament_request(p, "register", {{"tournament", id}})["type"] == "tournament.register.ok");
  CHECK(code_of(tournament_request(players[0], "register", {{"tournament", id}})) == "wrong_state");
  CHECK(code_of(tournament_request(players[0], "start", {{"tournament", id}})) == "forbidden");
  CHECK(code_of(tournament_request(players[0], "register", {{"tournament", id + 100}})) == "not_found");
  REQUIRE(tournament_of(director, id)["players"] == 9);

  const Json listed = request(guest, "tournament.list", Json::object());
  REQUIRE(listed["payload"]["tournaments"].size() == 1);

  // Nine players at tables of exactly 4: two tables and a bye, from the server's own lot.
  REQUIRE(tournament_request(director, "start", {{"tournament", id}})["type"] == "tournament.start.ok");
  {
    const Json round = push(*players[0].ws, "tournament.round");
    CHECK(round["tournament"] == id);
    CHECK(round["round"] == 1);
  }

  // kill -9 at once: whatever the server had not saved of round 1 it makes again.
  server->signal(SIGKILL);
  REQUIRE(server->wait_for_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
  server = std::make_unique<ServerProcess>(args_on(dir, port));
  connect(director, *server, false);
  for (Account& p : players) connect(p, *server, false);

  Json now = wait_for(director, id, [](const Json& t) {
    return t["rounds"].size() == 1 && t["rounds"][0]["boards"][0]["table"].is_number() &&
           t["rounds"][0]["boards"][1]["table"].is_number();
  });
  CHECK(now["status"] == "running");
  REQUIRE(now["rounds"][0]["boards"].size() == 2);
  CHECK(now["rounds"][0]["byes"].size() == 1);
  for (const Json& board : now["rounds"][0]["boards"]) CHECK(board["seats"].size() == 4);

  // Withdrawing is for players of the event; nobody withdraws here.
  CHECK(code_of(tournament_request(director, "withdraw", {{"tournament", id}})) == "wrong_state");

  for (Account& p : players) resign_games(p);
  now = wait_for(director, id, [](const Json& t) { return t["rounds"].size() == 2; });
  CHECK(now["rounds"][0]["finished_at"].is_number());
  // The player with round 1's bye sits at a table in round 2.
  const std::int64_t had_bye = now["rounds"][0]["byes"][0]["id"];
  CHECK(std::none_of(now["rounds"][1]["byes"].begin(), now["rounds"][1]["byes"].end(),
                     [&](const Json& p) { return p["id"] == had_bye; }));

  // The director corrects board 1 of round 2 before its game ends: the correction stands.
  const Json board = now["rounds"][1]["boards"][0];
  const Json corrected = tournament_request(director, "override",
                                            {{"tournament", id}, {"round", 2}, {"board", 1}, {"scores", {90, 80, 80, 10}},
                                             {"forfeited", {false, false, false, true}}, {"reason", "scored by hand"}});
  REQUIRE(corrected["type"] == "tournament.override.ok");
  CHECK(code_of(tournament_request(players[0], "override",
                                   {{"tournament", id}, {"round", 2}, {"board", 1}, {"scores", {1, 2, 3, 4}},
                                    {"reason", "mine"}})) == "forbidden");
  for (Account& p : players) resign_games(p);
  now = wait_for(director, id, [](const Json& t) { return t["status"] == "finished"; });
  const Json& result = now["rounds"][1]["boards"][0]["result"];
  CHECK(result["scores"] == Json({90, 80, 80, 10}));
  CHECK(result["places"] == Json({1, 2, 2, 4}));
  CHECK(result["points"] == Json({6, 3, 3, 0}));
  CHECK(result["override"]["reason"] == "scored by hand");
  CHECK(now["standings"].size() == 9);

  // The exports: every player's points in the standings are the sum of their points in
  // the results, byes included; ranks run 1..9 in order of points.
  const auto results = csv_rows(http_request(*server, http::verb::get, "/api/tournaments/" + std::to_string(id) +
                                                                           "/results.csv").body());
  const auto standings = csv_rows(http_request(*server, http::verb::get, "/api/tournaments/" + std::to_string(id) +
                                                                             "/standings.csv").body());
  REQUIRE(results.size() == 1 + 2 * (8 + 1));
  REQUIRE(standings.size() == 1 + 9);
  CHECK(results[0][5] == "player");
  CHECK(results[0][10] == "points");
  std::map<std::string, double> points;
  for (std::size_t row = 1; row < results.size(); ++row) points[results[row][5]] += std::stod(results[row][10]);
  double previous = 1e9;
  for (std::size_t row = 1; row < standings.size(); ++row) {
    CHECK(standings[row][0] == std::to_string(row));
    const double total = std::stod(standings[row][3]);
    CHECK(total == points[standings[row][1]]);
    CHECK(total <= previous);
    previous = total;
  }
  const auto json = http_request(*server, http::verb::get, "/api/tournaments/" + std::to_string(id));
  CHECK(json.result() == http::status::ok);
  CHECK(Json::parse(json.body())["standings"] == now["standings"]);
  CHECK(http_request(*server, http::verb::get, "/api/tournaments/999").result() == http::status::not_found);
}

TEST_CASE("where the configuration lets everyone enter, guests register and are seated, but still create nothing",
          "[integration][tournaments]") {
  TempDir dir;
  std::vector<std::string> args = args_on(dir, 0);
  args.insert(args.end(), {"--tournament-entrants", "everyone"});
  ServerProcess server(args);
  Account director;
  director.username = "Director";
  connect(director, server, true);
  const Json settings = {{"stages", {{{"format", "swiss"}, {"rounds", 1}, {"table_sizes", {{"preferred", 3}, {"minimum", 3}}}}}}};
  const Json created = tournament_request(director, "create", {{"name", "Open Night"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];

  std::vector<std::unique_ptr<WsClient>> guests;
  std::set<std::int64_t> ids;
  for (const char* name : {"Ana", "Bea", "Cruz"}) {
    guests.push_back(std::make_unique<WsClient>(server.address(), server.port()));
    ids.insert(hello(*guests.back(), name)["player"]["id"].get<std::int64_t>());
    REQUIRE(request(*guests.back(), "tournament.register", {{"tournament", id}})["type"] == "tournament.register.ok");
  }
  CHECK(code_of(request(*guests[0], "tournament.create", {{"name", "Mine"}, {"settings", settings}})) == "forbidden");

  REQUIRE(tournament_request(director, "start", {{"tournament", id}})["type"] == "tournament.start.ok");
  const Json round = push(*guests[0], "tournament.round");
  CHECK(round["round"] == 1);
  const Json board = tournament_of(director, id)["rounds"][0]["boards"][0];
  std::set<std::int64_t> seated;
  for (const Json& p : board["seats"]) seated.insert(p["id"].get<std::int64_t>());
  CHECK(seated == ids);
}

TEST_CASE("at a round's time limit time is called: its games end as they stand, and the next round begins, "
          "after a restart too", "[integration][tournaments]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(args_on(dir, 0));
  const std::uint16_t port = server->port();
  Account director;
  director.username = "Director";
  connect(director, *server, true);
  std::vector<Account> players(3);
  for (std::size_t i = 0; i < players.size(); ++i) {
    players[i].username = "Timed_" + std::to_string(i + 1);
    connect(players[i], *server, true);
  }
  constexpr int kRoundSeconds = 2;
  const Json settings = {
      {"stages", {{{"format", "swiss"}, {"rounds", 2}, {"table_sizes", {{"preferred", 3}, {"minimum", 3}}}}}},
      {"round_time_seconds", kRoundSeconds}};
  CHECK(code_of(tournament_request(director, "create",
                                   {{"name", "Blitz"}, {"settings", {{"stages", settings["stages"]}, {"round_time_seconds", -1}}}})) ==
        "bad_payload");
  const Json created = tournament_request(director, "create", {{"name", "Blitz"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];
  for (Account& p : players) REQUIRE(tournament_request(p, "register", {{"tournament", id}})["type"] == "tournament.register.ok");
  REQUIRE(tournament_request(director, "start", {{"tournament", id}})["type"] == "tournament.start.ok");
  const std::int64_t table = push(*players[0].ws, "tournament.round")["table"];

  // Nobody moves and there is no turn clock: only the round's limit ends the game.
  const auto started = std::chrono::steady_clock::now();
  const Json over = push(*players[0].ws, "game.over");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(kRoundSeconds + 5));
  CHECK(over["table"] == table);
  CHECK(over["result"]["time_called"] == true);
  CHECK(over["result"]["scores"] == Json({0, 0, 0}));
  CHECK(over["result"]["winners"] == Json({0, 1, 2}));
  CHECK(code_of(request(*players[0].ws, "game.command", {{"table", table}, {"command", {{"type", "skip_special_action"}}}})) ==
        "wrong_state");

  // The board's result is the game's as it stood; round 2 begins with its own limit.
  Json now = wait_for(director, id, [](const Json& t) { return t["rounds"].size() == 2; });
  const Json& result = now["rounds"][0]["boards"][0]["result"];
  CHECK(result["scores"] == Json({0, 0, 0}));
  CHECK(result["places"] == Json({1, 1, 1}));
  CHECK_FALSE(result.contains("override"));
  CHECK(now["settings"]["round_time_seconds"] == kRoundSeconds);

  // kill -9 during round 2 (begun, as the detail above says), back after its limit passed:
  // time is called at the restart.
  server->signal(SIGKILL);
  REQUIRE(server->wait_for_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
  std::this_thread::sleep_for(std::chrono::seconds(kRoundSeconds));
  server = std::make_unique<ServerProcess>(args_on(dir, port));
  connect(director, *server, false);
  now = wait_for(director, id, [](const Json& t) { return t["status"] == "finished"; });
  CHECK(now["rounds"][1]["boards"][0]["result"]["scores"] == Json({0, 0, 0}));
  // The game is finished like any: its record is published, and stops where time was called.
  const Json record = get_json(*server, "/api/games/" + std::to_string(table) + "/record");
  CHECK(record["table"]["result"]["winners"] == Json({0, 1, 2}));
  CHECK(record["commands"].empty());
}

TEST_CASE("the director disqualifies a player: they rank last, finish their game and play no more rounds, "
          "and others are refused",
          "[integration][tournaments]") {
  TempDir dir;
  ServerProcess server(args_on(dir, 0));
  Account director;
  director.username = "Director";
  connect(director, server, true);
  std::vector<Account> players(6);
  for (std::size_t i = 0; i < players.size(); ++i) {
    players[i].username = "Entrant_" + std::to_string(i + 1);
    connect(players[i], server, true);
  }
  const Json settings = {
      {"stages", {{{"format", "swiss"}, {"rounds", 2}, {"table_sizes", {{"preferred", 3}, {"minimum", 3}}}}}},
      {"game", {{"short_game", true}}}};
  const Json created = tournament_request(director, "create", {{"name", "Fair Play Cup"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];
  for (Account& p : players) REQUIRE(tournament_request(p, "register", {{"tournament", id}})["type"] == "tournament.register.ok");

  // Before the start there is no one to disqualify yet: the director removes registrations.
  const Json early = tournament_request(director, "disqualify", {{"tournament", id}, {"player", players[0].id}, {"reason", "early"}});
  CHECK(code_of(early) == "wrong_state");
  CHECK(early["payload"]["message"].get<std::string>().find("registering") != std::string::npos);

  REQUIRE(tournament_request(director, "start", {{"tournament", id}})["type"] == "tournament.start.ok");
  Json now = wait_for(director, id, [](const Json& t) {
    return t["rounds"].size() == 1 && t["rounds"][0]["boards"].size() == 2 &&
           t["rounds"][0]["boards"][0]["table"].is_number() && t["rounds"][0]["boards"][1]["table"].is_number();
  });
  // The cheat sits at board 1; a co-player at that table would like to be rid of them.
  const Json board = now["rounds"][0]["boards"][0];
  const std::int64_t cheat_id = board["seats"][0]["id"];
  const std::int64_t rival_id = board["seats"][1]["id"];
  const std::int64_t table = board["table"];
  const auto account_of = [&](std::int64_t player) -> Account& {
    return *std::find_if(players.begin(), players.end(), [&](const Account& a) { return a.id == player; });
  };
  Account& cheat = account_of(cheat_id);
  Account& rival = account_of(rival_id);

  // Only the director (or an admin) may disqualify.
  const Json by_rival = tournament_request(rival, "disqualify", {{"tournament", id}, {"player", cheat_id}, {"reason", "cheating"}});
  CHECK(code_of(by_rival) == "forbidden");
  WsClient guest(server.address(), server.port());
  hello(guest, "Onlooker");
  CHECK(code_of(request(guest, "tournament.disqualify", {{"tournament", id}, {"player", cheat_id}, {"reason", "x"}})) ==
        "forbidden");
  // The payload must name the event, an entrant, and a reason.
  CHECK(code_of(tournament_request(director, "disqualify", {{"tournament", id + 100}, {"player", cheat_id}, {"reason", "x"}})) ==
        "not_found");
  CHECK(code_of(bad_request(*director.ws, "tournament.disqualify", {{"tournament", id}, {"player", cheat_id}})) ==
        "bad_payload");
  CHECK(code_of(bad_request(*director.ws, "tournament.disqualify", {{"tournament", id}, {"reason", "x"}})) ==
        "bad_payload");
  const Json stranger = tournament_request(director, "disqualify", {{"tournament", id}, {"player", 987654}, {"reason", "x"}});
  CHECK(code_of(stranger) == "not_found");
  CHECK(stranger["payload"]["message"].get<std::string>().find("987654") != std::string::npos);
  CHECK(code_of(tournament_request(director, "disqualify", {{"tournament", id}, {"player", director.id}, {"reason", "x"}})) ==
        "not_found");
  // Nothing changed for the refusals.
  const Json unchanged = tournament_of(director, id);
  for (const Json& e : unchanged["entrants"]) CHECK(e["status"] == "playing");

  const Json done = tournament_request(director, "disqualify", {{"tournament", id}, {"player", cheat_id}, {"reason", "cheating"}});
  REQUIRE(done["type"] == "tournament.disqualify.ok");
  CHECK(done["payload"] == Json::object());
  const Json again = tournament_request(director, "disqualify", {{"tournament", id}, {"player", cheat_id}, {"reason", "twice"}});
  CHECK(code_of(again) == "wrong_state");
  CHECK(again["payload"]["message"].get<std::string>().find("already") != std::string::npos);

  // The detail shows the entrant disqualified with the director's reason, ranked last.
  now = tournament_of(rival, id);
  for (const Json& e : now["entrants"]) {
    INFO("entrant " << e.dump());
    if (e["player"]["id"] == cheat_id) {
      CHECK(e["status"] == "disqualified");
      CHECK(e["reason"] == "cheating");
      CHECK(e["why"] == "disqualified");  // the code and the director's words, for the client to say
      CHECK(e["director_reason"] == "cheating");
    } else {
      CHECK(e["status"] == "playing");
    }
  }
  REQUIRE(now["standings"].size() == players.size());
  CHECK(now["standings"].back()["player"]["id"] == cheat_id);
  CHECK(now["standings"].back()["disqualified"] == true);
  CHECK(now["standings"].back()["rank"] == 6);
  // The game in play is not taken from them: it goes on, with them in their seat.
  CHECK_FALSE(now["rounds"][0]["boards"][0].contains("result"));
  {
    const Json games = request(*cheat.ws, "player.games", Json::object())["payload"]["games"];
    const auto at = std::find_if(games.begin(), games.end(), [&](const Json& g) { return g["table"]["id"] == table; });
    REQUIRE(at != games.end());
    CHECK((*at)["table"]["status"] != "finished");
    CHECK_FALSE((*at)["table"]["seats"][(*at)["seat"].get<int>()].value("resigned", false));
  }

  // A disqualified player cannot leave, re-enter or check in.
  CHECK(code_of(tournament_request(cheat, "withdraw", {{"tournament", id}})) == "wrong_state");
  CHECK(code_of(tournament_request(cheat, "register", {{"tournament", id}})) == "wrong_state");
  CHECK(code_of(tournament_request(cheat, "check_in", {{"tournament", id}})) == "wrong_state");

  // Round 2 is drawn without them: no board, no bye.
  for (Account& p : players) resign_games(p);
  now = wait_for(director, id, [](const Json& t) { return t["rounds"].size() == 2; });
  const auto seated_in_round_2 = [&](std::int64_t player) {
    for (const Json& b : now["rounds"][1]["boards"]) {
      for (const Json& seat : b["seats"]) {
        if (seat["id"] == player) return true;
      }
    }
    for (const Json& bye : now["rounds"][1]["byes"]) {
      if (bye["id"] == player) return true;
    }
    return false;
  };
  CHECK_FALSE(seated_in_round_2(cheat_id));
  for (const Account& p : players) {
    if (p.id != cheat_id) CHECK(seated_in_round_2(p.id));
  }
  // Their round 1 result stands for their co-players; the round closed with it.
  CHECK(now["rounds"][0]["boards"][0]["result"].is_object());

  for (Account& p : players) resign_games(p);
  now = wait_for(director, id, [](const Json& t) { return t["status"] == "finished"; });
  CHECK(now["standings"].back()["player"]["id"] == cheat_id);
  CHECK(now["standings"].back()["disqualified"] == true);
  for (std::size_t r = 0; r + 1 < now["standings"].size(); ++r) CHECK(now["standings"][r]["disqualified"] == false);
  const auto standings =
      csv_rows(http_request(server, http::verb::get, "/api/tournaments/" + std::to_string(id) + "/standings.csv").body());
  REQUIRE(standings.size() == 1 + players.size());
  CHECK(standings[0][12] == "disqualified");
  CHECK(standings.back()[1] == std::to_string(cheat_id));
  CHECK(standings.back()[12] == "true");

  // After the end the director may still disqualify (a cheat found out later), and the
  // results of the disqualified stay in their co-players' tie-breaks.
  const std::int64_t winner_id = now["standings"][0]["player"]["id"];
  REQUIRE(tournament_request(director, "disqualify", {{"tournament", id}, {"player", winner_id}, {"reason", "found out"}})["type"] ==
          "tournament.disqualify.ok");
  now = tournament_of(director, id);
  CHECK(now["status"] == "finished");
  const Json& last_two = now["standings"];
  CHECK(last_two[4]["disqualified"] == true);
  CHECK(last_two[5]["disqualified"] == true);
  CHECK((last_two[4]["player"]["id"] == winner_id || last_two[5]["player"]["id"] == winner_id));
  CHECK(last_two[0]["disqualified"] == false);
}

TEST_CASE("elgrande-bot clients play a Swiss event to the end: withdrawals, a kill -9 mid-round, standings that "
          "recompute from the results", "[swarm][integration][tournaments]") {
  // 36: tables of five and of four from the start, and after the withdrawals (33).
  const int entrants = sanitized() ? 16 : 36;
  const int rounds = sanitized() ? 2 : 4;
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(args_on(dir, 0));
  const std::uint16_t port = server->port();
  Account director;
  director.username = "Swiss_Director";
  connect(director, *server, true);
  const Json settings = {
      {"stages", {{{"format", "swiss"}, {"rounds", rounds}, {"table_sizes", {{"preferred", 5}, {"minimum", 4}}}}}},
      {"game", {{"short_game", true}}}};
  const Json created = tournament_request(director, "create", {{"name", "Bot Swiss"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];

  bot::SwarmSettings swarm_config = swarm_settings(*server, 64);
  swarm_config.reconnect = true;
  std::atomic<int> registered{0};
  std::atomic<int> last_round{0};
  std::set<std::int64_t> withdrew;
  std::map<std::int64_t, std::set<int>> seated_in;  // player -> rounds with a table or a bye
  swarm_config.on_message = [&](bot::Client& client, const Json& message) {
    check_schema(message, "server");
    if (message["type"] == "tournament.register.ok") ++registered;
    if (message["type"] != "tournament.round") return;
    const int round = message["payload"]["round"];
    last_round = std::max(last_round.load(), round);
    seated_in[*client.player_id()].insert(round);
    // Three players withdraw once they hear of round 1; they still play its game.
    if (round == 1 && client.index() < 3 && withdrew.insert(*client.player_id()).second) {
      client.send({{"type", "tournament.withdraw"}, {"payload", {{"tournament", id}}}});
    }
  };
  bot::Swarm swarm(swarm_config);
  swarm.add_entrants(static_cast<std::size_t>(entrants), id, "Swiss_");

  int kills = 0;
  std::thread director_thread([&] {
    while (registered < entrants) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    director.ws->send(Json{{"type", "tournament.start"}, {"id", "start"}, {"payload", {{"tournament", id}}}});
    // Mid-round: once the last round has begun and its games are under way.
    while (last_round < rounds) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(std::mt19937(7)() % 300 + 200));
    server->signal(SIGKILL);
    if (server->wait_for_exit(std::chrono::seconds(5)) == 128 + SIGKILL) ++kills;
    server = std::make_unique<ServerProcess>(args_on(dir, port));
  });
  const bot::Report report = swarm.run(std::chrono::seconds(sanitized() ? 400 : 300));
  director_thread.join();

  CHECK(kills == 1);
  INFO("failures: " << Json(report.failures).dump());
  CHECK(report.failures.empty());
  for (const auto& [code, count] : report.errors) {
    INFO("error " << code << " x" << count << ", first: " << report.error_examples.at(code));
    CHECK((code == "not_your_turn/not_your_turn" || code == "illegal_command/wrong_command" || code == "stale_version"));
  }
  CHECK(report.commands > 0);

  const Json event = get_json(*server, "/api/tournaments/" + std::to_string(id));
  CHECK(event["status"] == "finished");
  REQUIRE(event["rounds"].size() == static_cast<std::size_t>(rounds));
  std::set<std::int64_t> withdrawn;
  for (const Json& e : event["entrants"]) {
    if (e["status"] == "withdrawn") withdrawn.insert(e["player"]["id"].get<std::int64_t>());
  }
  CHECK(withdrawn == withdrew);
  // Every round seats every player still in exactly once, at tables of 4 or 5, or gives a bye.
  for (const Json& round : event["rounds"]) {
    std::multiset<std::int64_t> seen;
    for (const Json& board : round["boards"]) {
      CHECK(board["seats"].size() >= 4);
      CHECK(board["seats"].size() <= 5);
      CHECK(board.contains("result"));
      for (const Json& p : board["seats"]) seen.insert(p["id"].get<std::int64_t>());
    }
    for (const Json& p : round["byes"]) seen.insert(p["id"].get<std::int64_t>());
    const std::size_t expected = round["round"] == 1 ? static_cast<std::size_t>(entrants)
                                                     : static_cast<std::size_t>(entrants) - withdrew.size();
    CHECK(seen.size() == expected);
    CHECK(std::set<std::int64_t>(seen.begin(), seen.end()).size() == seen.size());
    if (round["round"] != 1) {
      for (const std::int64_t p : withdrew) CHECK_FALSE(seen.contains(p));
    }
  }
  CHECK(event["standings"].size() == static_cast<std::size_t>(entrants));
  check_standings_recompute(*server, id);
}

TEST_CASE("elgrande-bot clients play a multiplayer elimination down to a final table", "[swarm][integration][tournaments]") {
  const int entrants = sanitized() ? 13 : 25;
  TempDir dir;
  ServerProcess server(args_on(dir, 0));
  Account director;
  director.username = "Knockout_Director";
  connect(director, server, true);
  const Json settings = {{"stages",
                          {{{"format", "elimination"},
                            {"advance_per_table", 2},
                            {"table_sizes", {{"preferred", 5}, {"minimum", 4}}}}}},
                         {"game", {{"short_game", true}}}};
  const Json created = tournament_request(director, "create", {{"name", "Bot Knockout"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];

  bot::SwarmSettings swarm_config = swarm_settings(server, 25);
  std::atomic<int> registered{0};
  swarm_config.on_message = [&](bot::Client&, const Json& message) {
    check_schema(message, "server");
    if (message["type"] == "tournament.register.ok") ++registered;
  };
  bot::Swarm swarm(swarm_config);
  swarm.add_entrants(static_cast<std::size_t>(entrants), id, "Knockout_");
  std::thread director_thread([&] {
    while (registered < entrants) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    director.ws->send(Json{{"type", "tournament.start"}, {"id", "start"}, {"payload", {{"tournament", id}}}});
  });
  const bot::Report report = swarm.run(std::chrono::seconds(300));
  director_thread.join();
  INFO("failures: " << Json(report.failures).dump());
  CHECK(report.failures.empty());

  const Json event = get_json(server, "/api/tournaments/" + std::to_string(id));
  CHECK(event["status"] == "finished");
  std::vector<std::size_t> tables;
  for (const Json& round : event["rounds"]) tables.push_back(round["boards"].size());
  if (!sanitized()) CHECK(tables == std::vector<std::size_t>{5, 2, 1});
  REQUIRE(tables.back() == 1);
  // The final table's players rank above everyone who went out before it.
  std::set<std::int64_t> finalists;
  for (const Json& p : event["rounds"].back()["boards"][0]["seats"]) finalists.insert(p["id"].get<std::int64_t>());
  for (std::size_t i = 0; i < event["standings"].size(); ++i) {
    CHECK(finalists.contains(event["standings"][i]["player"]["id"].get<std::int64_t>()) == (i < finalists.size()));
  }
  check_standings_recompute(server, id);
}

}  // namespace elgrande::test
