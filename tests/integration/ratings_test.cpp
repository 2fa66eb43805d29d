// Ratings against the real binary: rated games among accounts move their players'
// ratings by the Weng-Lin update (competition/, checked against the openskill package's
// vectors), a player who resigns ranks last, guests and bots are never rated, the
// leaderboard and profiles show it all, and --recompute-ratings reproduces what is stored.

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "elgrande/competition/rating.hpp"
#include "game_helpers.hpp"

namespace elgrande::test {
namespace {

using namespace std::chrono_literals;
using competition::Rating;

struct Player {
  std::string name;
  std::int64_t id = 0;
  std::unique_ptr<WsClient> ws;
};

Player account(const ServerProcess& server, const std::string& name) {
  Player player{name, 0, std::make_unique<WsClient>(server.address(), server.port())};
  player.id = hello(*player.ws, name)["player"]["id"];
  const Json reply = request(*player.ws, "account.sign_up",
                             {{"username", name}, {"password", "rating password"}, {"device", "test"}});
  REQUIRE(reply["type"] == "account.sign_up.ok");
  return player;
}

// mu and sigma of the player on the ladder, as the profile says (none if not rated there).
std::optional<Rating> rating_of(const ServerProcess& server, std::int64_t player, const std::string& ladder) {
  const Json profile = get_json(server, "/api/players/" + std::to_string(player) + "/ratings");
  for (const Json& r : profile["ratings"]) {
    if (r["ladder"] == ladder) return Rating{r["mu"].get<double>(), r["sigma"].get<double>()};
  }
  return std::nullopt;
}

// Both play their seats to the end, each on its own connection and thread; the scores.
Json play_out(Player& a, Player& b, std::int64_t table, const std::vector<Json>& a_earlier) {
  Json result;
  std::thread other([&] { play_to_end(*b.ws, table, 2); });
  result = play_to_end(*a.ws, table, 1, a_earlier)["result"];
  other.join();
  return result;
}

}  // namespace

TEST_CASE("rated games move account holders' ratings by the Weng-Lin update, a resigning player ranks last, "
          "and --recompute-ratings reproduces the stored ratings exactly",
          "[integration][ratings]") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(server_args(dir));
  Player ana = account(*server, "Ana");
  Player bo = account(*server, "Bruno");
  Player cy = account(*server, "Clara");

  // Game 1: three accounts; Cy resigns after a few decisions of her own (at once, the game
  // would be aborted: see the farming test) and a bot plays the seat out.
  const Json created = create_table(*ana.ws, kThreePlayers);
  const std::int64_t first = created["id"];
  CHECK(created["rated"] == true);  // the default for an account's table
  CHECK(created["seats"][0]["rating"] == Json({{"ladder", "3p-short"}, {"rating", 1000}, {"provisional", true}, {"games", 0}}));
  REQUIRE(request(*bo.ws, "table.join", {{"table", first}})["type"] == "table.join.ok");
  REQUIRE(request(*cy.ws, "table.join", {{"table", first}})["type"] == "table.join.ok");
  std::vector<Json> ana_pushes;
  REQUIRE(request(*ana.ws, "table.start", {{"table", first}}, &ana_pushes)["type"] == "table.start.ok");
  std::thread cy_plays([&] {
    play_to_end(*cy.ws, first, 3, {}, 30);  // two rounds: a power card and an action card each, at least
    CHECK(request(*cy.ws, "game.resign", {{"table", first}})["type"] == "game.resign.ok");
  });
  const Json scores = play_out(ana, bo, first, ana_pushes)["scores"];
  cy_plays.join();
  const Json rated = push(*ana.ws, "table.rated");
  CHECK(rated["table"] == first);
  CHECK(rated["ladder"] == "3p-short");
  // Ranks: Ana and Bo by score, Cy last whatever the bot scored for the seat.
  const int ana_score = scores[0];
  const int bo_score = scores[1];
  const std::vector<int> ranks{1 + (bo_score > ana_score), 1 + (ana_score > bo_score), 3};
  std::map<std::int64_t, int> rank_of;
  for (const Json& change : rated["changes"]) rank_of[change["player"]] = change["rank"];
  CHECK(rank_of == std::map<std::int64_t, int>{{ana.id, ranks[0]}, {bo.id, ranks[1]}, {cy.id, ranks[2]}});
  const std::vector<Rating> newcomers(3, competition::RatingModel{}.newcomer());
  const std::vector<Rating> after_first = competition::rate(newcomers, ranks);
  CHECK(rating_of(*server, ana.id, "3p-short") == after_first[0]);
  CHECK(rating_of(*server, bo.id, "3p-short") == after_first[1]);
  CHECK(rating_of(*server, cy.id, "3p-short") == after_first[2]);
  CHECK(rating_of(*server, cy.id, "3p-short")->mu < 25.0);

  // Game 2: Ana and Bo beside a server bot: the two humans are rated between themselves.
  const std::int64_t second = create_table(*ana.ws, kThreePlayers)["id"];
  REQUIRE(request(*bo.ws, "table.join", {{"table", second}})["type"] == "table.join.ok");
  REQUIRE(request(*ana.ws, "table.add_bot", {{"table", second}})["type"] == "table.add_bot.ok");
  ana_pushes.clear();
  REQUIRE(request(*ana.ws, "table.start", {{"table", second}}, &ana_pushes)["type"] == "table.start.ok");
  const Json second_scores = play_out(ana, bo, second, ana_pushes)["scores"];
  const Json second_rated = push(*ana.ws, "table.rated");
  REQUIRE(second_rated["changes"].size() == 2);
  const std::vector<int> second_ranks{1 + (second_scores[1] > second_scores[0]), 1 + (second_scores[0] > second_scores[1])};
  const std::vector<Rating> after_second =
      competition::rate(std::vector<Rating>{after_first[0], after_first[1]}, second_ranks);
  CHECK(rating_of(*server, ana.id, "3p-short") == after_second[0]);
  CHECK(rating_of(*server, bo.id, "3p-short") == after_second[1]);

  // A guest's table is not rated, and a guest may not ask for one.
  WsClient guest(server->address(), server->port());
  hello(guest, "Gus");
  const Json guest_table = create_table(guest, kTwoPlayers);
  CHECK(guest_table["rated"] == false);
  CHECK_FALSE(guest_table["seats"][0].contains("rating"));  // guests are never rated
  CHECK(code_of(request(guest, "table.create", {{"options", kTwoPlayers}, {"rated", true}})) == "forbidden");

  // The leaderboard, by HTTP and WebSocket alike, ranks by mu - 3 sigma.
  const Json board = get_json(*server, "/api/ratings/3p-short");
  CHECK(board["players"] == 3);
  REQUIRE(board["entries"].size() == 3);
  double previous = 1e9;
  for (const Json& entry : board["entries"]) {
    const double ordinal = entry["mu"].get<double>() - 3 * entry["sigma"].get<double>();
    CHECK(ordinal <= previous);
    previous = ordinal;
    CHECK(entry["rating"] == competition::displayed({entry["mu"], entry["sigma"]}));
  }
  const Json ws_board = request(*ana.ws, "rating.leaderboard", {{"ladder", "3p-short"}});
  REQUIRE(ws_board["type"] == "rating.leaderboard.ok");
  CHECK(ws_board["payload"] == board);
  CHECK(code_of(request(*ana.ws, "rating.leaderboard", {{"ladder", "6p"}}, nullptr, Shape::off_schema)) == "bad_payload");
  CHECK(http_request(*server, http::verb::get, "/api/ratings/4p?limit=500").result() == http::status::bad_request);
  const Json profile = get_json(*server, "/api/players/" + std::to_string(ana.id) + "/ratings");
  CHECK(profile["games"].size() == 2);
  CHECK(profile["ratings"][0]["games"] == 2);
  CHECK(request(*ana.ws, "rating.profile", {{"player", ana.id}})["payload"] == profile);
  CHECK(http_request(*server, http::verb::get, "/api/players/999999/ratings").result() == http::status::not_found);

  // A tournament seeded by rating, Ana's, Bo's and Cy's among three newcomers: each
  // entrant's rating on the 3p-short ladder is fixed at the start, and round 1 seats the
  // highest three together on board 1.
  std::vector<Player> unrated;
  for (const char* name : {"Dora", "Emil", "Fay"}) unrated.push_back(account(*server, name));
  const Json created_event = request(*ana.ws, "tournament.create",
                                     {{"name", "Seeded"},
                                      {"settings", {{"stages", {{{"format", "swiss"}, {"rounds", 1},
                                                                 {"table_sizes", {{"preferred", 3}, {"minimum", 3}}}}}},
                                                    {"game", {{"short_game", true}}}}}});
  REQUIRE(created_event["type"] == "tournament.create.ok");
  const std::int64_t event = created_event["payload"]["tournament"]["id"];
  std::vector<Player*> field{&ana, &bo, &cy};
  for (Player& p : unrated) field.push_back(&p);
  for (Player* p : field) {
    REQUIRE(request(*p->ws, "tournament.register", {{"tournament", event}})["type"] == "tournament.register.ok");
  }
  REQUIRE(request(*ana.ws, "tournament.start", {{"tournament", event}})["type"] == "tournament.start.ok");
  const Json detail = get_json(*server, "/api/tournaments/" + std::to_string(event));
  std::map<std::int64_t, int> seeding;
  for (const Json& entrant : detail["entrants"]) seeding[entrant["player"]["id"]] = entrant["seeding"];
  for (Player* p : field) {
    const auto rating = rating_of(*server, p->id, "3p-short");
    CHECK(seeding[p->id] == (rating ? competition::displayed(*rating) : 1000));
  }
  REQUIRE(detail["rounds"].size() == 1);
  const Json& boards = detail["rounds"][0]["boards"];
  REQUIRE(boards.size() == 2);
  int lowest_on_board_1 = 1'000'000, highest_on_board_2 = 0;
  for (const Json& seat : boards[0]["seats"]) lowest_on_board_1 = std::min(lowest_on_board_1, seeding[seat["id"]]);
  for (const Json& seat : boards[1]["seats"]) highest_on_board_2 = std::max(highest_on_board_2, seeding[seat["id"]]);
  CHECK(lowest_on_board_1 >= highest_on_board_2);
  REQUIRE(request(*ana.ws, "tournament.cancel", {{"tournament", event}})["type"] ==
          "tournament.cancel.ok");
  unrated.clear();

  // Stopped, the server recomputes every rating from the games and finds them all as stored.
  ana.ws.reset();
  bo.ws.reset();
  cy.ws.reset();
  server->signal(SIGTERM);
  REQUIRE(server->wait_for_exit(10s) == 0);
  server.reset();
  const Completed recomputed =
      run_to_exit([&dir] {
        auto args = database_args(dir);
        args.push_back("--recompute-ratings");
        return args;
      }(), 30s);
  INFO(recomputed.out << recomputed.err);
  REQUIRE(recomputed.exit_code == 0);
  CHECK(recomputed.out.find("replayed 2 rated games (5 rating changes)") != std::string::npos);
  CHECK(recomputed.out.find("the stored ratings were reproduced exactly") != std::string::npos);
  server = std::make_unique<ServerProcess>(server_args(dir));
  CHECK(get_json(*server, "/api/players/" + std::to_string(ana.id) + "/ratings") == profile);
  CHECK(get_json(*server, "/api/ratings/3p-short") == board);
}

TEST_CASE("rating farming: a game its second account resigns at once is aborted, and a pair's fourth game of the "
          "day is not rated", "[integration][ratings]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  Player ana = account(server, "Ana");
  Player bo = account(server, "Bruno");
  // Bo resigns before any decision of his own: the farmer's win counts for nothing.
  const std::int64_t aborted = create_table(*ana.ws, kTwoPlayers)["id"];
  REQUIRE(request(*bo.ws, "table.join", {{"table", aborted}})["type"] == "table.join.ok");
  std::vector<Json> ana_pushes;
  REQUIRE(request(*ana.ws, "table.start", {{"table", aborted}}, &ana_pushes)["type"] == "table.start.ok");
  REQUIRE(request(*bo.ws, "game.resign", {{"table", aborted}})["type"] == "game.resign.ok");
  play_to_end(*ana.ws, aborted, 1, ana_pushes);
  const Json not_rated = push(*ana.ws, "table.rated");
  CHECK(not_rated["table"] == aborted);
  CHECK(not_rated["unrated"] == "aborted");
  CHECK(not_rated["changes"].empty());
  CHECK(rating_of(server, ana.id, "2p-short") == std::nullopt);

  // Played out, three games a day between the same two accounts are rated; the fourth is not.
  for (int game = 1; game <= 4; ++game) {
    INFO("game " << game);
    const std::int64_t table = create_table(*ana.ws, kTwoPlayers)["id"];
    REQUIRE(request(*bo.ws, "table.join", {{"table", table}})["type"] == "table.join.ok");
    ana_pushes.clear();
    REQUIRE(request(*ana.ws, "table.start", {{"table", table}}, &ana_pushes)["type"] == "table.start.ok");
    play_out(ana, bo, table, ana_pushes);
    const Json rated = push(*ana.ws, "table.rated");
    CHECK(rated["table"] == table);
    CHECK(rated["changes"].size() == (game <= 3 ? 2u : 0u));
    CHECK(rated.value("unrated", "") == (game <= 3 ? "" : "repeated_pairing"));
  }
  const Json profile = get_json(server, "/api/players/" + std::to_string(ana.id) + "/ratings");
  CHECK(profile["games"].size() == 3);
}

}  // namespace elgrande::test

namespace elgrande::test {

TEST_CASE("a table says it is rated only while two of its players with accounts may be rated, and otherwise why not",
          "[integration][ratings]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  Player ana = account(server, "Ana");
  // Open, with a seat another account may take: rated.
  const Json created = create_table(*ana.ws, kTwoPlayers);
  const std::int64_t id = created["id"];
  CHECK(created["rated"] == true);
  CHECK_FALSE(created.contains("unrated"));
  // A bot takes that seat: Ana is the only account, and one player alone is never rated.
  const Json with_bot = request(*ana.ws, "table.add_bot", {{"table", id}})["payload"]["table"];
  CHECK(with_bot["rated"] == false);
  CHECK(with_bot["unrated"] == "accounts");
  std::vector<Json> pushes;
  REQUIRE(request(*ana.ws, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  play_to_end(*ana.ws, id, 7, pushes);
  const Json games = request(*ana.ws, "player.games", Json::object())["payload"]["games"];
  REQUIRE(games.size() == 1);
  CHECK(games[0]["table"]["status"] == "finished");
  CHECK(games[0]["table"]["rated"] == false);
  CHECK(games[0]["table"]["unrated"] == "accounts");
  CHECK(get_json(server, "/api/players/" + std::to_string(ana.id) + "/ratings")["games"].empty());

  // A guest's table is made unrated.
  WsClient guest(server.address(), server.port());
  hello(guest, "Gus");
  const Json guest_table = create_table(guest, kTwoPlayers);
  CHECK(guest_table["rated"] == false);
  CHECK(guest_table["unrated"] == "table");
}

TEST_CASE("play now seats waiting players at a table that starts at once, fills with bots after the wait "
          "a player chose, and lets a player leave the queue",
          "[integration][ratings]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  std::vector<Player> players;
  for (const char* name : {"Nora", "Omar", "Pia", "Quim"}) players.push_back(account(server, name));

  const Json four = {{"players", 4}, {"short_game", true}, {"clock", "live"}};
  for (Player& p : players) {
    const Json joined = request(*p.ws, "play.join", four);
    REQUIRE(joined["type"] == "play.join.ok");
    CHECK(joined["payload"]["queue"] == "4p-short/live");
  }
  std::set<int> seats;
  std::optional<std::int64_t> table;
  for (Player& p : players) {
    const Json matched = push(*p.ws, "play.matched");
    if (!table) table = matched["table"].get<std::int64_t>();
    CHECK(matched["table"] == *table);
    seats.insert(matched["seat"].get<int>());
  }
  CHECK(seats == std::set<int>{0, 1, 2, 3});
  // The game has begun, rated, with the live clock.
  const Json games = request(*players[0].ws, "player.games", Json::object())["payload"]["games"];
  REQUIRE(games.size() == 1);
  CHECK(games[0]["table"]["id"] == *table);
  CHECK(games[0]["table"]["status"] == "playing");
  CHECK(games[0]["table"]["rated"] == true);
  CHECK(games[0]["table"]["turn_seconds"] == 120);
  CHECK(games[0]["table"]["on_timeout"] == "replace_seat");

  // A guest who lets bots fill after 5 seconds plays a 2-player game with one.
  WsClient guest(server.address(), server.port());
  hello(guest, "Rui");
  const auto asked = std::chrono::steady_clock::now();
  REQUIRE(request(guest, "play.join", {{"players", 2}, {"bots_after_seconds", 5}})["type"] == "play.join.ok");
  const Json with_bot = push(guest, "play.matched");
  CHECK(std::chrono::steady_clock::now() - asked >= 5s);
  CHECK(with_bot["queue"] == "2p/live");
  const Json guest_games = request(guest, "player.games", Json::object())["payload"]["games"];
  REQUIRE(guest_games.size() == 1);
  CHECK(guest_games[0]["table"]["seats"][1 - with_bot["seat"].get<int>()]["kind"] == "bot");

  // Those waiting hear how many wait with them; leaving: once waiting, then not.
  WsClient other(server.address(), server.port());
  hello(other, "Sol");
  REQUIRE(request(other, "play.join", {{"players", 5}, {"clock", "daily"}})["payload"]["queue"] == "5p/daily");
  WsClient third(server.address(), server.port());
  hello(third, "Tia");
  CHECK(request(third, "play.join", {{"players", 5}, {"clock", "daily"}})["payload"]["waiting"] == 2);
  CHECK(push(other, "play.waiting") == Json({{"queue", "5p/daily"}, {"waiting", 2}}));
  CHECK(request(third, "play.leave", Json::object())["payload"]["was_waiting"] == true);
  CHECK(push(other, "play.waiting") == Json({{"queue", "5p/daily"}, {"waiting", 1}}));
  CHECK(request(other, "play.leave", Json::object())["payload"]["was_waiting"] == true);
  CHECK(request(other, "play.leave", Json::object())["payload"]["was_waiting"] == false);

  // Wishes the server cannot grant are refused, naming the field.
  for (const Json& wrong : {Json{{"players", 6}}, Json{{"players", 4}, {"automa", true}},
                            Json{{"players", 3}, {"bots_after_seconds", 1}}, Json{{"players", 3}, {"clock", "blitz"}}}) {
    CHECK(code_of(request(other, "play.join", wrong, nullptr, Shape::off_schema)) == "bad_payload");
  }
}

}  // namespace elgrande::test

namespace elgrande::test {

TEST_CASE("a player who renames while waiting to play now sits down under the new name", "[integration][ratings]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient uma(server.address(), server.port());
  const std::string token = hello(uma, "Uma")["token"];
  REQUIRE(request(uma, "play.join", {{"players", 2}, {"clock", "daily"}})["type"] == "play.join.ok");
  // The same identity, a new name: saved, and heard by the queue (the bus's PlayerRenamed).
  const Json renamed = request(uma, "hello", {{"protocol", 1}, {"token", token}, {"name", "Ulla"}});
  REQUIRE(renamed["type"] == "hello.ok");
  CHECK(renamed["payload"]["player"]["name"] == "Ulla");

  WsClient vic(server.address(), server.port());
  hello(vic, "Vic");
  REQUIRE(request(vic, "play.join", {{"players", 2}, {"clock", "daily"}})["type"] == "play.join.ok");
  push(vic, "play.matched");
  const Json games = request(vic, "player.games", Json::object())["payload"]["games"];
  REQUIRE(games.size() == 1);
  std::vector<std::string> names;
  for (const Json& seat : games[0]["table"]["seats"]) names.push_back(seat["player"]["name"]);
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"Ulla", "Vic"});
}

TEST_CASE("200 elgrande-bot clients ask to play now in three queues and are all seated, and every game ends",
          "[swarm][integration][ratings]") {
  const bool sanitized = std::getenv("ELGRANDE_SANITIZED") != nullptr;
  TempDir dir;
  ServerProcess server(server_args(dir));
  bot::SwarmSettings settings = swarm_settings(server, 15);
  std::mutex mutex;
  std::map<std::int64_t, std::set<std::int64_t>> seated;  // table -> players
  std::map<std::int64_t, int> spread;                     // table -> the players' rating spread
  std::map<std::string, int> tables_per_queue;
  settings.on_message = [&](bot::Client& client, const Json& message) {
    check_schema(message, "server");
    if (message["type"] != "play.matched") return;
    const Json& payload = message["payload"];
    const std::lock_guard lock(mutex);
    if (seated[payload["table"]].empty()) ++tables_per_queue[payload["queue"]];
    seated[payload["table"]].insert(*client.player_id());
    spread[payload["table"]] = payload["spread"];
  };
  bot::Swarm swarm(settings);
  // Counts that do not divide into full tables: the last few are filled with bots.
  const std::size_t scale = sanitized ? 5 : 1;
  swarm.add_seekers(70 / scale, {{"players", 4}, {"short_game", true}, {"bots_after_seconds", 5}}, "Four_");
  swarm.add_seekers(65 / scale, {{"players", 3}, {"short_game", true}, {"bots_after_seconds", 5}}, "Three_");
  swarm.add_seekers(65 / scale, {{"players", 5}, {"short_game", true}, {"bots_after_seconds", 5}}, "Five_");
  const bot::Report report = swarm.run(std::chrono::seconds(300));
  check_clean(report);

  std::size_t players = 0;
  int widest = 0;
  for (const auto& [table, who] : seated) {
    players += who.size();
    widest = std::max(widest, spread[table]);
  }
  CHECK(players == swarm.clients().size());  // everyone seated, each once
  for (const auto& client : swarm.clients()) CHECK(client->game_over());
  CHECK(tables_per_queue.size() == 3);
  WARN(swarm.clients().size() << " players seated at " << seated.size() << " tables ("
                              << Json(tables_per_queue).dump() << "), widest rating spread " << widest
                              << ", in " << report.seconds << " s");
}

}  // namespace elgrande::test
