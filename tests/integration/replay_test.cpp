// A finished game's replay against the real binary (docs/replays.md): every frame a
// spectator watching from the start was sent, each seat's secrets as that seat saw them,
// and nothing of a game still in play.

#include <map>
#include <optional>
#include <thread>

#include "elgrande/protocol/codec.hpp"
#include "game_helpers.hpp"

namespace {

// The view a replay viewer holds at each version: the first frame's, then patch after patch.
std::vector<Json> replay_views(const Json& replay) {
  std::vector<Json> views;
  for (const Json& frame : replay["frames"]) {
    const Json& update = frame["update"]["payload"];
    if (views.empty()) {
      views.push_back(update["view"]);
    } else {
      views.push_back(views.back());
      elgrande::protocol::apply_merge_patch(views.back(), update["patch"]);
    }
  }
  return views;
}

std::vector<std::string> event_types(const Json& events) {
  std::vector<std::string> types;
  for (const Json& event : events) types.push_back(event["type"]);
  return types;
}

}  // namespace

TEST_CASE("a finished game replays every frame a spectator watching from the start was sent, with each seat's secrets",
          "[integration][replay]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  WsClient cy(server.address(), server.port());
  hello(ana, "Ana");
  hello(cy, "Cy");
  const std::int64_t id = create_table(ana, kThreePlayers, 3600)["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(cy, "table.spectate", {{"table", id}})["type"] == "table.spectate.ok");
  const std::string replay_path = "/api/games/" + std::to_string(id) + "/replay";

  // Cy watches from the start: every update, whole (protocol 1).
  std::vector<Json> watched;
  std::thread watching([&] {
    for (int i = 0; i < 20000; ++i) {
      Json message = cy.read();
      if (message["type"] == "game.update") watched.push_back(message["payload"]);
      if (message["type"] == "game.over") return;
    }
  });
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  const Json midway = play_to_end(ana, id, 5, pushes, 25);
  // A game in play has no replay: its secrets are still secrets.
  get_json(server, replay_path, http::status::not_found);
  // Di comes late: the public log from the first move, a page at a time, newest first.
  WsClient di(server.address(), server.port());
  hello(di, "Di");
  std::map<std::int64_t, Json> told;  // version -> events
  std::optional<std::int64_t> before;
  int pages = 0;
  for (bool more = true; more; ++pages) {
    Json ask = {{"table", id}, {"limit", 10}};
    if (before) ask["before"] = *before;
    const Json page = request(di, "table.log", ask);
    REQUIRE(page["type"] == "table.log.ok");
    const Json& entries = page["payload"]["entries"];
    REQUIRE_FALSE(entries.empty());
    for (const Json& entry : entries) told[entry["version"]] = entry["events"];
    before = entries[0]["version"].get<std::int64_t>();
    more = page["payload"]["more"];
  }
  CHECK(pages >= 3);
  REQUIRE(told.begin()->first == 0);
  CHECK(told.rbegin()->first >= midway["version"].get<std::int64_t>());
  CHECK(request(di, "table.log", {{"table", 999}})["payload"]["code"] == "not_found");
  play_to_end(ana, id, 5, {Json{{"type", "game.update"}, {"payload", midway}}});
  watching.join();

  const Json replay = get_json(server, replay_path);
  CHECK(replay["format"] == "elgrande-replay");
  CHECK(replay["game"] == "el-grande");
  CHECK(replay["secrets"] == true);
  CHECK(replay["table"]["id"] == id);
  const std::vector<Json> views = replay_views(replay);
  REQUIRE(views.size() == replay["moves"].size() + 1);
  CHECK(replay["table"]["result"]["scores"].size() == 3);

  // Every update Cy was sent is the replay's at that version: the same board, the same
  // events (told as their owners read them: a disk's region, a hidden special action).
  REQUIRE(watched.size() >= 2);
  for (const Json& update : watched) {
    const std::size_t version = update["version"];
    INFO("version " << version);
    REQUIRE(version < views.size());
    CHECK(views[version] == update["view"]);
    CHECK(event_types(replay["frames"][version]["update"]["payload"]["events"]) == event_types(update["events"]));
  }
  CHECK(watched.back()["version"] == views.size() - 1);
  // The late spectator's log is what Cy was told, word for word, every version of it.
  for (const Json& update : watched) {
    if (const auto entry = told.find(update["version"].get<std::int64_t>()); entry != told.end()) {
      CHECK(entry->second == update["events"]);
      told.erase(entry);
    }
  }
  CHECK(told.empty());

  // What only Ana knew midway is what her own view showed her then.
  const std::size_t at = midway["version"];
  const Json& secrets = replay["frames"][at]["secrets"]["seats"][0];
  CHECK(secrets["hand"] == midway["view"]["players"][0]["hand"]);
  CHECK(secrets["castillo"] == midway["view"]["players"][0]["castillo"]);
  CHECK(replay["moves"][at - 1].contains("seat"));

  // The exported record carries the same replay, for the viewer offline.
  CHECK(get_json(server, "/api/games/" + std::to_string(id) + "/record")["replay"] == replay);

  // Nothing else answers to the path's neighbours.
  get_json(server, "/api/games/999/replay", http::status::not_found);
  get_json(server, "/api/games/" + std::to_string(id) + "/replays", http::status::not_found);
}

TEST_CASE("a table that keeps its secrets after the end: its replay and record show what spectators saw",
          "[integration][replay]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  const Json created = request(ana, "table.create", {{"options", kThreePlayers}, {"secrets_after_end", "closed"}});
  REQUIRE(created["type"] == "table.create.ok");
  CHECK(created["payload"]["table"]["secrets_after_end"] == "closed");
  const std::int64_t id = created["payload"]["table"]["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  play_to_end(ana, id, 7, pushes);

  const Json replay = get_json(server, "/api/games/" + std::to_string(id) + "/replay");
  CHECK(replay["secrets"] == false);
  CHECK(replay["table"]["secrets_after_end"] == "closed");
  REQUIRE(replay["frames"].size() == replay["moves"].size() + 1);
  for (const Json& frame : replay["frames"]) {
    CHECK_FALSE(frame.contains("secrets"));
    // What a spectator was shown: no seat's hand.
    if (frame["update"]["payload"].contains("view")) {
      for (const Json& player : frame["update"]["payload"]["view"]["players"]) CHECK_FALSE(player.contains("hand"));
    }
  }
  // The seed and the moves would replay every hand: the record is the public replay alone.
  const Json record = get_json(server, "/api/games/" + std::to_string(id) + "/record");
  CHECK_FALSE(record.contains("seed"));
  CHECK_FALSE(record.contains("commands"));
  CHECK(record["secrets_after_end"] == "closed");
  CHECK(record["replay"] == replay);
  const Json listed = request(ana, "history.list", Json::object());
  REQUIRE(listed["type"] == "history.list.ok");
  CHECK(listed["payload"]["games"][0]["secrets_after_end"] == "closed");
}

TEST_CASE("a player asks the strong bot about their own decisions in a finished game, a few a day, each kept",
          "[integration][replay][review]") {
  TempDir dir;
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--reviews-per-day", "2", "--bot-iterations", "300"});
  auto server = std::make_unique<ServerProcess>(args);
  WsClient ana(server->address(), server->port());
  WsClient cy(server->address(), server->port());
  const std::string token = hello(ana, "Ana")["token"];
  hello(cy, "Cy");
  const std::int64_t id = create_table(ana, kThreePlayers)["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  const Json midway = play_to_end(ana, id, 3, pushes, 10);
  const auto ask = [&](WsClient& who, std::int64_t version) {
    return request(who, "game.review", {{"table", id}, {"version", version}});
  };
  // In play, a second opinion would read the game's secrets to the table.
  CHECK(code_of(ask(ana, 0)) == "not_found");
  play_to_end(ana, id, 3, {Json{{"type", "game.update"}, {"payload", midway}}});

  const Json record = get_json(*server, "/api/games/" + std::to_string(id) + "/record");
  std::vector<std::int64_t> anas;
  std::optional<std::int64_t> bots;
  for (std::size_t v = 0; v < record["commands"].size(); ++v) {
    const Json& logged = record["commands"][v];
    if (logged["seat"] == 0 && logged["command"]["type"] != "undo") anas.push_back(static_cast<std::int64_t>(v));
    if (logged["seat"] == 1 && !bots) bots = static_cast<std::int64_t>(v);
  }
  REQUIRE(anas.size() >= 3);
  REQUIRE(bots);

  const Json first = ask(ana, anas[0]);
  REQUIRE(first["type"] == "game.review.ok");
  const Json& review = first["payload"];
  CHECK(review["seat"] == 0);
  CHECK(review["level"] == "strong");
  CHECK(review["played"]["command"] == record["commands"][anas[0]]["command"]);
  CHECK(review["same"] == (review["bot"]["command"] == review["played"]["command"]));
  for (const char* move : {"played", "bot"}) {
    CHECK(review[move]["win_share"].get<double>() >= 0.0);
    CHECK(review[move]["win_share"].get<double>() <= 1.0);
  }
  CHECK(review["iterations"].get<int>() > 0);
  // Asked again: the kept answer, which costs nothing of the day's two.
  CHECK(ask(ana, anas[0])["payload"] == review);
  // Only the seat's own player asks about its decisions.
  CHECK(code_of(ask(cy, anas[0])) == "forbidden");
  CHECK(code_of(ask(ana, *bots)) == "forbidden");
  CHECK(code_of(ask(ana, static_cast<std::int64_t>(record["commands"].size()))) == "bad_payload");
  REQUIRE(ask(ana, anas[1])["type"] == "game.review.ok");
  const Json third = ask(ana, anas[2]);
  CHECK(code_of(third) == "limit_reached");
  CHECK(third["payload"]["limit"] == "reviews_per_day");
  CHECK(third["payload"]["max"] == 2);

  // Kept with the game: in its record, and across a restart, where the day's count holds too.
  const Json exported = get_json(*server, "/api/games/" + std::to_string(id) + "/record");
  REQUIRE(exported["reviews"].size() == 2);
  CHECK(exported["reviews"][0] == review);
  server.reset();
  server = std::make_unique<ServerProcess>(args);
  WsClient again(server->address(), server->port());
  REQUIRE(again.request({{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"token", token}}}})["type"] ==
          "hello.ok");
  CHECK(ask(again, anas[0])["payload"] == review);
  CHECK(code_of(ask(again, anas[2])) == "limit_reached");
}
