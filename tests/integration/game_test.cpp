// Whole games over real sockets against the real binary: every player count and variant,
// tables mixing remote clients with the server's bots, spectators, what each frame may
// reveal, reconnection, resignation and turn clocks. The clients are the reference bot
// client (clients/bot), which answers each decision its view shows with a random legal
// command.

#include <set>

#include "game_helpers.hpp"

using namespace elgrande::test;

TEST_CASE("every player count and variant plays to the end over real sockets", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  bot::Swarm swarm(swarm_settings(server, 7));
  swarm.add_table(table(options(2)));
  swarm.add_table(table(options(2, false, true)));  // the automa
  swarm.add_table(table(options(3)));
  swarm.add_table(table(options(3, false, false, true)));  // four stacks
  swarm.add_table(table(options(4)));
  swarm.add_table(table(options(5)));
  swarm.add_table(table(options(4, true)));  // the short game
  swarm.add_table(table(options(5, true), 0, 1));

  const bot::Report report = swarm.run(std::chrono::seconds(90));
  check_clean(report);
  check_results_agree(swarm);
}

TEST_CASE("tables mixing remote clients and server bots play to the end", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  bot::Swarm swarm(swarm_settings(server, 11));
  swarm.add_table(table(options(4), 2));
  swarm.add_table(table(options(5), 3, 1));
  swarm.add_table(table(options(3, false, false, true), 2));
  swarm.add_table(table(options(2, true, true), 1));  // one client, one server bot, the automa

  const bot::Report report = swarm.run(std::chrono::seconds(90));
  check_clean(report);
  check_results_agree(swarm);
}


TEST_CASE("a table from creation to the end: seats, bots, chat, spectators, resignation",
          "[integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  WsClient ben(server.address(), server.port());
  WsClient cy(server.address(), server.port());

  CHECK(code_of(request(ana, "table.create", {{"options", kThreePlayers}})) == "not_identified");
  const Json ana_hello = hello(ana, "Ana");
  const std::int64_t ana_id = ana_hello["player"]["id"];
  CHECK(ana_hello["player"]["name"] == "Ana");
  CHECK(ana_hello["token"].get<std::string>().size() == 64);
  const std::int64_t ben_id = hello(ben, "Ben")["player"]["id"];
  hello(cy, "Cy");
  CHECK(ben_id != ana_id);

  const Json subscribed = request(cy, "lobby.subscribe", Json::object());
  CHECK(subscribed["payload"]["tables"] == Json::array());

  const Json created = create_table(ana, kThreePlayers);
  const std::int64_t id = created["id"];
  CHECK(created["status"] == "open");
  CHECK(created["host"] == ana_id);
  CHECK(created["seats"][0]["player"]["id"] == ana_id);
  CHECK(created["seats"][1]["kind"] == "empty");
  CHECK(push(cy, "lobby.table")["table"]["id"] == id);

  const Json listed = request(ben, "lobby.list", Json::object());
  REQUIRE(listed["payload"]["tables"].size() == 1);
  CHECK(listed["payload"]["tables"][0]["id"] == id);

  CHECK(code_of(request(ben, "table.join", {{"table", id}, {"seat", 0}})) == "seat_taken");
  CHECK(code_of(bad_request(ben, "table.join", {{"table", id}, {"seat", 7}})) == "not_found");
  CHECK(code_of(request(ben, "table.join", {{"table", 999}})) == "not_found");
  CHECK(code_of(bad_request(ben, "table.join", {{"table", "one"}})) == "bad_payload");
  const Json joined = request(ben, "table.join", {{"table", id}});
  REQUIRE(joined["type"] == "table.join.ok");
  CHECK(joined["payload"]["seat"] == 1);
  CHECK(request(ben, "table.seat", {{"table", id}, {"seat", 2}})["payload"]["seat"] == 2);

  CHECK(code_of(request(ben, "table.start", {{"table", id}})) == "forbidden");
  CHECK(code_of(request(ben, "table.add_bot", {{"table", id}})) == "forbidden");
  CHECK(code_of(request(ana, "table.start", {{"table", id}})) == "wrong_state");
  CHECK(request(ana, "table.add_bot", {{"table", id}})["payload"]["seat"] == 1);
  CHECK(code_of(request(ana, "table.remove_bot", {{"table", id}, {"seat", 0}})) == "wrong_state");
  CHECK(request(ana, "table.remove_bot", {{"table", id}, {"seat", 1}})["type"] == "table.remove_bot.ok");
  CHECK(request(ana, "table.add_bot", {{"table", id}, {"seat", 1}})["type"] == "table.add_bot.ok");

  CHECK(code_of(request(cy, "table.join", {{"table", id}})) == "table_full");
  CHECK(code_of(request(cy, "table.chat", {{"table", id}, {"text", "hi"}})) == "wrong_state");
  const Json watching = request(cy, "table.spectate", {{"table", id}});
  REQUIRE(watching["type"] == "table.spectate.ok");

  CHECK(code_of(bad_request(ana, "table.chat", {{"table", id}, {"text", ""}})) == "bad_payload");
  CHECK(request(ana, "table.chat", {{"table", id}, {"text", "¡Hola!"}})["type"] == "table.chat.ok");
  for (WsClient* member : {&ben, &cy}) {
    const Json chat = push(*member, "table.chat");
    CHECK(chat["text"] == "¡Hola!");
    CHECK(chat["from"]["name"] == "Ana");
    CHECK(chat["seat"] == 0);
  }
  // Cy's line has no seat: a spectator's. Whoever comes later reads both.
  CHECK(request(cy, "table.chat", {{"table", id}, {"text", "¡Suerte!"}})["type"] == "table.chat.ok");
  CHECK(push(ana, "table.chat")["text"] == "¡Hola!");  // her own line came back to her too
  const Json from_spectator = push(ana, "table.chat");
  CHECK(from_spectator["text"] == "¡Suerte!");
  CHECK_FALSE(from_spectator.contains("seat"));
  WsClient di(server.address(), server.port());
  hello(di, "Di");
  REQUIRE(request(di, "table.spectate", {{"table", id}})["type"] == "table.spectate.ok");
  const Json said = push(di, "table.chat_history");
  CHECK(said["table"] == id);
  REQUIRE(said["lines"].size() == 2);
  CHECK(said["lines"][0]["text"] == "¡Hola!");
  CHECK(said["lines"][0]["seat"] == 0);
  CHECK(said["lines"][1]["from"]["name"] == "Cy");
  CHECK_FALSE(said["lines"][1].contains("seat"));

  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  CHECK(code_of(request(ana, "table.start", {{"table", id}}, &pushes)) == "wrong_state");
  const Json ben_update = push(ben, "game.update");
  CHECK(ben_update["view"]["viewer"] == 2);
  const Json cy_update = push(cy, "game.update");
  CHECK_FALSE(cy_update["view"].contains("decision"));
  for (const Json& player : cy_update["view"]["players"]) CHECK_FALSE(player.contains("hand"));

  CHECK(code_of(request(ben, "table.leave", {{"table", id}})) == "wrong_state");
  CHECK(request(ben, "game.resign", {{"table", id}})["type"] == "game.resign.ok");
  CHECK(code_of(request(ben, "game.command", {{"table", id}, {"command", {{"type", "skip_special_action"}}}})) ==
        "forbidden");

  const Json over = play_to_end(ana, id, 5, pushes);
  CHECK(over["table"] == id);
  CHECK(over["result"]["scores"].size() == 3);
  const Json final_table = push(cy, "game.over");
  CHECK(final_table == over);
}

TEST_CASE("bad input during a game is refused with its code and changes nothing",
          "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  WsClient ben(server.address(), server.port());
  hello(ana, "Ana");
  hello(ben, "Ben");
  const std::int64_t id = create_table(ana, kTwoPlayers)["id"];
  REQUIRE(request(ben, "table.join", {{"table", id}})["type"] == "table.join.ok");
  REQUIRE(request(ana, "table.start", {{"table", id}})["type"] == "table.start.ok");
  const Json first = push(ana, "game.update");
  push(ben, "game.update");
  const std::int64_t version = first["version"];

  // Exactly one of them owes the first power card.
  const int waiting = first["view"]["waiting_for"][0];
  WsClient& mover = waiting == 0 ? ana : ben;
  WsClient& other = waiting == 0 ? ben : ana;
  const Json play_one = {{"type", "play_power_card"}, {"value", 13}};

  const Json out_of_turn = request(other, "game.command", {{"table", id}, {"command", play_one}});
  CHECK(code_of(out_of_turn) == "not_your_turn");
  CHECK(out_of_turn["payload"]["reason"] == "not_your_turn");
  const Json wrong = request(mover, "game.command",
                             {{"table", id}, {"command", {{"type", "set_disk"}, {"region", "aragon"}}}});
  CHECK(code_of(wrong) == "illegal_command");
  CHECK(wrong["payload"]["reason"] == "wrong_command");
  CHECK_FALSE(wrong["payload"]["message"].get<std::string>().empty());
  CHECK(code_of(bad_request(mover, "game.command", {{"table", id}, {"command", {{"type", "fly"}}}})) ==
        "bad_payload");
  CHECK(code_of(bad_request(mover, "game.command",
                            {{"table", id}, {"command", {{"type", "play_power_card"}, {"value", 99}}}})) ==
        "bad_payload");
  CHECK(code_of(bad_request(mover, "game.command", {{"table", id}})) == "bad_payload");
  CHECK(code_of(request(mover, "game.command", {{"table", 4242}, {"command", play_one}})) ==
        "not_found");
  CHECK(code_of(bad_request(mover, "game.fly", {{"table", id}})) == "unknown_type");
  mover.send(std::string_view("{not json"));
  CHECK(code_of(read(mover)) == "bad_json");
  CHECK(code_of(request(mover, "table.add_bot", {{"table", id}})) == "wrong_state");

  // A third connection sends an oversized frame and is closed with 1009; the table
  // does not notice.
  WsClient cy(server.address(), server.port());
  hello(cy, "Cy");
  const std::string oversized(70 * 1024, ' ');
  // Beast tears the connection down with the frame unread, so the write itself, or the
  // read after it, may meet a reset before the close frame arrives (see websocket_test).
  const auto written = cy.try_send(std::string_view(oversized));
  const auto received = cy.read_any();
  INFO("write: " << written.message() << ", read: " << received.error.message());
  CHECK(received.error);
  if (cy.close_code() != 0) CHECK(cy.close_code() == 1009);

  // Nothing changed: the legal command, answering the version it saw, is the next version.
  const Json accepted =
      request(mover, "game.command", {{"table", id}, {"command", play_one}, {"version", version}});
  REQUIRE(accepted["type"] == "game.command.ok");
  CHECK(accepted["payload"]["version"] == version + 1);
  // The same answer again (a double click) answers a decision that has moved on, and one
  // from a version the game has not reached answers nothing: both refused.
  const Json again = request(mover, "game.command", {{"table", id}, {"command", play_one}, {"version", version}});
  CHECK(code_of(again) == "stale_version");
  CHECK_FALSE(again["payload"].contains("reason"));
  const Json from_the_future =
      request(other, "game.command", {{"table", id}, {"command", play_one}, {"version", version + 50}});
  CHECK(code_of(from_the_future) == "stale_version");

  // And the game goes on to its end, here with a bot for the other seat.
  REQUIRE(request(other, "game.resign", {{"table", id}})["type"] == "game.resign.ok");
  const Json over = play_to_end(mover, id, 3);
  CHECK(over["result"]["scores"].size() == 2);
}

TEST_CASE("a client that drops mid-game comes back with its token and finishes",
          "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  bot::SwarmSettings settings = swarm_settings(server, 23);
  bot::Swarm* swarm = nullptr;

  // Client 1 drops after its 15th update and reconnects 200 ms later.
  int updates = 0;
  bool dropped = false;
  bool reconnected = false;
  std::string token_before;
  std::int64_t version_before = -1;
  std::vector<std::string> after;  // what client 1 receives after reconnecting, to the first update
  Json first_update;
  boost::asio::steady_timer* timer = nullptr;
  settings.on_message = [&](bot::Client& client, const Json& message) {
    check_schema(message, "server");
    if (client.index() != 1) return;
    if (reconnected && first_update.is_null()) {
      after.push_back(message["type"]);
      if (message["type"] == "hello.ok") CHECK(message["payload"]["token"] == token_before);
      if (message["type"] == "game.update") first_update = message["payload"];
    }
    if (message["type"] != "game.update" || dropped || ++updates < 15) return;
    dropped = true;
    token_before = client.token();
    version_before = message["payload"]["version"];
    client.drop();
    timer = new boost::asio::steady_timer(swarm->io(), std::chrono::milliseconds(200));
    timer->async_wait([&, target = swarm->clients()[1]](boost::system::error_code) {
      reconnected = true;
      target->connect();
    });
  };
  bot::Swarm run(settings);
  swarm = &run;
  run.add_table(table(options(3, true)));
  const bot::Report report = run.run(std::chrono::seconds(60));
  delete timer;

  check_clean(report);
  REQUIRE(dropped);
  REQUIRE(reconnected);
  // While away the others played on (the seat's decision waited for it, or they had their own).
  REQUIRE(!first_update.is_null());
  CHECK(first_update["version"].get<std::int64_t>() >= version_before);
  CHECK(first_update["events"] == Json::array());
  CHECK(first_update["view"]["viewer"] == *run.clients()[1]->seat());
  CHECK(std::find(after.begin(), after.end(), "table.update") != after.end());
  CHECK(after.front() == "hello.ok");
  check_results_agree(run);
}

TEST_CASE("a seat whose time runs out is answered by the server's bot", "[integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  const std::int64_t id = create_table(ana, kTwoPlayers, 1)["id"];
  CHECK(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.start", {{"table", id}})["type"] == "table.start.ok");

  // Ana never answers. Each time she owes a decision her update carries its deadline,
  // and a second later the server answers for her and the game moves on.
  int answered_for_her = 0;
  std::int64_t owed_at = -1;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(8);
  while (answered_for_her < 3 && std::chrono::steady_clock::now() < until) {
    const Json update = push(ana, "game.update");
    const std::int64_t version = update["version"];
    if (owed_at >= 0 && version > owed_at) {
      ++answered_for_her;
      owed_at = -1;
    }
    if (update["view"].contains("decision")) {
      REQUIRE(update.contains("deadline"));
      const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch()).count();
      CHECK(update["deadline"].get<std::int64_t>() > now - 100);
      CHECK(update["deadline"].get<std::int64_t>() <= now + 1100);
      owed_at = version;
    } else {
      CHECK_FALSE(update.contains("deadline"));
    }
  }
  CHECK(answered_for_her == 3);
  const auto metrics = http_request(server, http::verb::get, "/metrics");
  CHECK(metrics.body().find("elgrande_timeouts_total ") != std::string::npos);
  CHECK(metrics.body().find("elgrande_timeouts_total 0\n") == std::string::npos);
}

TEST_CASE("GET /metrics reports connections, tables, games, messages and latency",
          "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  bot::Swarm swarm(swarm_settings(server, 31));
  swarm.add_table(table(options(2, true), 1));
  check_clean(swarm.run(std::chrono::seconds(60)));

  const auto response = http_request(server, http::verb::get, "/metrics");
  REQUIRE(response.result() == http::status::ok);
  CHECK(std::string(response[http::field::content_type]).starts_with("text/plain; version=0.0.4"));
  const std::string& body = response.body();
  for (const char* line : {"# TYPE elgrande_connections gauge", "elgrande_tables{status=\"finished\"} 1",
                           "elgrande_games_started_total 1", "elgrande_games_finished_total 1",
                           "elgrande_games{phase=\"power_cards\"} 0",
                           "elgrande_errors_total{code=\"bad_json\"} 0",
                           "# TYPE elgrande_command_latency_seconds histogram",
                           "elgrande_command_latency_seconds_bucket{le=\"+Inf\"} "}) {
    INFO(line);
    CHECK(body.find(line) != std::string::npos);
  }
  CHECK(body.find("elgrande_command_latency_seconds_count 0\n") == std::string::npos);
  CHECK(body.find("elgrande_messages_in_total 0\n") == std::string::npos);
}

namespace {

// What a frame to `viewer` (a seat, or -1 for a spectator) may not contain: another
// seat's hand, discards, castillo count or disk, a secret event's hidden part, the seed,
// anyone's token but in the own hello.ok. `view` is the view the client holds once the
// frame's view (whole, or a patch of the one held) is taken in: a patch only ever carries
// parts of the view it makes.
void check_frame_reveals_nothing(const Json& message, const Json& view, int viewer, std::string_view raw) {
  INFO("frame to " << viewer << ": " << raw.substr(0, 400));
  CHECK(raw.find("\"seed\"") == std::string_view::npos);
  if (message["type"] != "hello.ok") CHECK(raw.find("\"token\"") == std::string_view::npos);
  if (message["type"] != "game.update") return;
  if (viewer < 0) {
    CHECK_FALSE(view.contains("viewer"));
    CHECK_FALSE(view.contains("decision"));
  } else {
    CHECK(view["viewer"] == viewer);
  }
  for (std::size_t p = 0; p < view["players"].size(); ++p) {
    if (static_cast<int>(p) == viewer) continue;
    for (const char* secret : {"hand", "discards", "castillo", "disk"}) {
      INFO("player " << p << " " << secret);
      CHECK_FALSE(view["players"][p].contains(secret));
    }
  }
  if (view.contains("announced") && view["announced"]["type"] == "take_back_power_card" &&
      view.value("active", -1) != viewer) {
    CHECK(view["announced"].value("value", 0) == 0);
  }
  for (const Json& event : message["payload"]["events"]) {
    if (event.value("seat", -2) == viewer) continue;
    if (event["type"] == "disk_set") CHECK_FALSE(event.contains("region"));
    if (event["type"] == "power_card_taken_back") CHECK_FALSE(event.contains("value"));
  }
}

}  // namespace

TEST_CASE("no frame tells a seat or a spectator what is not theirs to know", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  bot::SwarmSettings settings = swarm_settings(server, 43);
  settings.record_frames = true;
  bot::Swarm swarm(settings);
  for (int round = 0; round < 2; ++round) {
    swarm.add_table(table(options(5), 0, 1));
    swarm.add_table(table(options(3, false, false, true), 0, 1));
    swarm.add_table(table(options(2, false, true), 0, 1));
    swarm.add_table(table(options(4, true), 1, 1));
  }
  check_clean(swarm.run(std::chrono::seconds(120)));

  std::size_t frames = 0, patches = 0;
  std::size_t secrets_seen = 0;  // own hands and disks: the check looks where secrets are
  for (const auto& client : swarm.clients()) {
    const int viewer = client->spectator() ? -1 : *client->seat();
    Json held;
    for (const std::string& raw : client->frames()) {
      const Json message = Json::parse(raw);
      if (message["type"] == "game.update") {
        const Json& update = message["payload"];
        if (update.contains("view")) {
          held = update["view"];
        } else {
          elgrande::protocol::apply_merge_patch(held, update["patch"]);
          ++patches;
        }
      }
      check_frame_reveals_nothing(message, held, viewer, raw);
      if (viewer >= 0 && message["type"] == "game.update" && held["players"][viewer].contains("hand")) ++secrets_seen;
      ++frames;
    }
  }
  CHECK(frames > 1000);
  CHECK(patches > 1000);  // the clients speak protocol 2
  CHECK(secrets_seen > 100);
}

TEST_CASE("a client of protocol 2 that applies the view patches holds every view a client of protocol 1 is sent whole",
          "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  const std::string token = hello(ana, "Ana")["token"];
  const std::int64_t id = create_table(ana, kThreePlayers)["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.add_bot", {{"table", id}})["type"] == "table.add_bot.ok");

  // Two more connections of Ana's and two spectators, one of each speaking each version.
  auto greet = [&](WsClient& client, int version, const Json& who) {
    Json payload = who;
    payload["protocol"] = version;
    const Json reply = client.request({{"type", "hello"}, {"id", "hello"}, {"payload", payload}});
    REQUIRE(reply["type"] == "hello.ok");
    CHECK(reply["payload"]["protocol"] == version);
  };
  WsClient ana_whole(server.address(), server.port()), ana_patched(server.address(), server.port());
  WsClient sam_whole(server.address(), server.port()), sam_patched(server.address(), server.port());
  greet(ana_whole, 1, {{"token", token}});
  greet(ana_patched, 2, {{"token", token}});
  greet(sam_whole, 1, {{"name", "Sam"}});
  greet(sam_patched, 2, {{"name", "Sam"}});
  for (WsClient* sam : {&sam_whole, &sam_patched})
    REQUIRE(request(*sam, "table.spectate", {{"table", id}})["type"] == "table.spectate.ok");
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", id}}, &pushes)["type"] == "table.start.ok");
  play_to_end(ana, id, 11, pushes);

  // Each connection's views, in order, until the game is over.
  auto views_of = [](WsClient& client, int& patches) {
    std::vector<Json> views;
    Json held;
    for (;;) {
      const Json message = read(client);
      if (message["type"] == "game.over") return views;
      if (message["type"] != "game.update") continue;
      const Json& update = message["payload"];
      if (update.contains("view")) {
        held = update["view"];
      } else {
        REQUIRE(held.is_object());
        REQUIRE(update["base"] == held["version"]);
        elgrande::protocol::apply_merge_patch(held, update["patch"]);
        ++patches;
      }
      views.push_back(held);
    }
  };
  int whole_patches = 0, patches = 0;
  const std::vector<Json> ana_views = views_of(ana_whole, whole_patches);
  const std::vector<Json> sam_views = views_of(sam_whole, whole_patches);
  CHECK(whole_patches == 0);
  CHECK(ana_views.size() > 50);
  CHECK(views_of(ana_patched, patches) == ana_views);
  CHECK(views_of(sam_patched, patches) == sam_views);
  CHECK(patches >= static_cast<int>(ana_views.size() + sam_views.size()) - 2);  // all but the first

  // A client that lost track asks for the whole view again.
  CHECK(request(ana_patched, "game.view", {{"table", id}})["type"] == "game.view.ok");
  const Json again = push(ana_patched, "game.update");
  CHECK(again["view"] == ana_views.back());
  CHECK(code_of(request(sam_patched, "game.view", {{"table", id + 1}})) == "not_found");
}
