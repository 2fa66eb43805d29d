#pragma once

// What the end-to-end tests share: the server's arguments, schema checks on every
// message, bot swarms, and a raw client's requests, pushes and random play.

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bot_client.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/protocol/codec.hpp"
#include "server_process.hpp"
#include "support/schema_validator.hpp"
#include "support/test_database.hpp"
#include "ws_client.hpp"

namespace elgrande::test {

namespace bot = elgrande::bot;
using elgrande::Options;

// The server's database file under server_args' data directory.
inline std::filesystem::path database_of(const TempDir& dir) { return dir.path() / "data" / "elgrande.sqlite"; }

// A whole file (a server's log), as text.
inline std::string text_of(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A JSON answer over HTTP, with the status expected (anything else fails the test).
inline Json get_json(const ServerProcess& server, const std::string& target,
                     http::status expected = http::status::ok) {
  const HttpResponse response = http_request(server, http::verb::get, target);
  INFO(target << ": " << response.body());
  REQUIRE(response.result() == expected);
  return expected == http::status::ok ? Json::parse(response.body()) : Json();
}

inline std::vector<std::string> server_args(const TempDir& dir) {
  std::vector<std::string> args = database_args(dir);
  args.insert(args.end(), {"--config",       ELGRANDE_SOURCE_DIR "/config/server.json",
          "--port",         "0",
          "--web-root",     (dir.path() / "no-web").string(),
          "--threads",      "2",
          "--bot-delay-ms", "0",
          // Server bots answer at random, at once: the tests of searching bots ask for them.
          "--bot-level", "random", "--replacement-bot-level", "random",
          // The bot clients answer at machine speed, and are many guests from one address.
          "--messages-per-second", "100000", "--message-burst", "100000",
          "--new-identities-per-address-per-hour", "0",
          // Password hashes at libsodium's cheapest: the default cost is for real passwords.
          "--password-memory-kib", "64", "--password-passes", "1"});
  return args;
}

// The arguments, and more after them (a later flag overrides an earlier one).
inline std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Runs SQL on a database file directly, as an operator (or an attacker) would.
inline void run_sql(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &handle) == SQLITE_OK);
  char* error = nullptr;
  const int code = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &error);
  INFO((error ? error : ""));
  sqlite3_free(error);
  sqlite3_close(handle);
  REQUIRE(code == SQLITE_OK);
}

// Polls until `holds` is true (true) or the time is up (false).
template <typename Condition>
bool wait_for(Condition holds, std::chrono::milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (!holds()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// Every message either way must fit protocol/schema/.
inline void check_schema(const Json& message, const char* direction) {
  static const elgrande::testing::SchemaValidator schemas(ELGRANDE_SCHEMA_DIR);
  if (const auto problem = schemas.check(message, direction)) {
    FAIL_CHECK(direction << " message off schema: " << *problem << "\n" << message.dump().substr(0, 600));
  }
}

inline bot::SwarmSettings swarm_settings(const ServerProcess& server, std::uint64_t seed) {
  bot::SwarmSettings settings;
  settings.on_message = [](bot::Client&, const Json& message) { check_schema(message, "server"); };
  settings.on_send = [](bot::Client&, const Json& message) { check_schema(message, "client"); };
  settings.url = *bot::parse_url("ws://" + server.address() + ":" + std::to_string(server.port()) + "/ws");
  settings.seed = seed;
  return settings;
}

inline Options options(int players, bool short_game = false, bool automa = false, bool four_stacks = false) {
  Options o;
  o.players = players;
  o.short_game = short_game;
  o.automa = automa;
  o.four_stacks = four_stacks;
  return o;
}

inline bot::TableSpec table(Options o, int server_bots = 0, int spectators = 0) {
  bot::TableSpec spec;
  spec.options = o;
  spec.server_bots = server_bots;
  spec.spectators = spectators;
  return spec;
}

// Every game ended, nothing went wrong, and the only refusals are the races of
// simultaneous decisions (another seat's answer closed a veto window first, or moved the
// game past the version answered), and those a test names.
inline void check_clean(const bot::Report& report, const std::set<std::string>& also_allowed = {}) {
  INFO("failures: " << nlohmann::json(report.failures).dump());
  CHECK(report.failures.empty());
  CHECK(report.games_finished == report.tables);
  CHECK(report.commands > 0);
  for (const auto& [code, count] : report.errors) {
    INFO("error " << code << " x" << count << ", first: " << report.error_examples.at(code));
    CHECK((code == "not_your_turn/not_your_turn" || code == "illegal_command/wrong_command" ||
           code == "stale_version" || also_allowed.contains(code)));
  }
}

// The final result is the same for every seat and spectator of a table.
inline void check_results_agree(const bot::Swarm& swarm) {
  std::map<std::int64_t, Json> results;
  for (const auto& client : swarm.clients()) {
    REQUIRE(client->game_over());
    REQUIRE(client->table());
    const auto [it, first] = results.emplace(*client->table(), client->result());
    if (!first) CHECK(it->second == client->result());
  }
}


// What a swarm's clients saw acknowledged, for tests that kill servers under load: each
// command with the game version it made, and how many tables have started and finished.
struct Acknowledgements {
  struct Acknowledged {
    std::int64_t table;
    std::int64_t version;
    int seat;
    Json command;
  };
  std::map<std::pair<std::size_t, std::int64_t>, Json> sent;  // (client, request id) -> command
  std::vector<Acknowledged> acknowledged;
  std::atomic<int> started{0};
  std::atomic<int> finished{0};

  // Records through `settings`' hooks, which also check every message against the schemas.
  void watch(bot::SwarmSettings& settings) {
    settings.on_send = [this](bot::Client& client, const Json& message) {
      check_schema(message, "client");
      if (message["type"] == "game.command") sent[{client.index(), message["id"]}] = message["payload"]["command"];
    };
    settings.on_message = [this](bot::Client& client, const Json& message) {
      check_schema(message, "server");
      const std::string& type = message["type"].get_ref<const std::string&>();
      if (type == "table.start.ok") ++started;
      if (type == "game.over" && client.seat() == 0) ++finished;
      if (type != "game.command.ok") return;
      const auto command = sent.find({client.index(), message["id"]});
      REQUIRE(command != sent.end());
      acknowledged.push_back({*client.table(), message["payload"]["version"], *client.seat(), command->second});
    };
  }
};

// Every table's game record as `server` exports it, each replayed to the scores its seats saw.
inline std::map<std::int64_t, Json> replayed_records(const bot::Swarm& swarm, const ServerProcess& server) {
  std::map<std::int64_t, Json> records;
  for (const auto& client : swarm.clients()) {
    const std::int64_t id = *client->table();
    if (records.contains(id)) continue;
    records[id] = get_json(server, "/api/games/" + std::to_string(id) + "/record");
    const auto record = elgrande::protocol::record_from_json(records[id]);
    REQUIRE(record);
    const elgrande::ReplayResult replayed = elgrande::replay(record.value());
    REQUIRE_FALSE(replayed.rejected_at);
    CHECK(elgrande::protocol::summary_json(replayed.state)["scores"] == client->result()["scores"]);
  }
  return records;
}

// --- Raw clients, for the lobby and for inputs the bot client never sends. ---

inline Json hello(WsClient& client, const std::string& name) {
  const Json reply = client.request(
      {{"type", "hello"}, {"id", "hello"}, {"payload", {{"protocol", 1}, {"name", name}}}});
  check_schema(reply, "server");
  REQUIRE(reply["type"] == "hello.ok");
  return reply["payload"];
}

inline Json read(WsClient& client) {
  Json message = client.read();
  check_schema(message, "server");
  return message;
}

// Reads until the answer to request `id` (a reply or an error), keeping pushes aside.
inline Json answer(WsClient& client, const Json& id, std::vector<Json>* pushes = nullptr) {
  for (int i = 0; i < 1000; ++i) {
    Json message = read(client);
    if (message.contains("id") && message["id"] == id) return message;
    if (pushes) pushes->push_back(std::move(message));
  }
  FAIL("no answer to request " << id.dump());
  return {};
}

enum class Shape { valid, off_schema };  // off_schema: a deliberately bad message

inline Json request(WsClient& client, const std::string& type, Json payload,
             std::vector<Json>* pushes = nullptr, Shape shape = Shape::valid) {
  static std::int64_t next_id = 1;
  const Json id = next_id++;
  const Json message = {{"type", type}, {"id", id}, {"payload", std::move(payload)}};
  if (shape == Shape::valid) check_schema(message, "client");
  client.send(message);
  return answer(client, id, pushes);
}

inline Json bad_request(WsClient& client, const std::string& type, Json payload) {
  return request(client, type, std::move(payload), nullptr, Shape::off_schema);
}

// The next push of this type.
inline Json push(WsClient& client, const std::string& type) {
  for (int i = 0; i < 1000; ++i) {
    Json message = read(client);
    if (message["type"] == type) return message["payload"];
  }
  FAIL("no " << type << " push");
  return {};
}

inline Json sign_in(WsClient& client, const std::string& username, const std::string& password,
                    const std::string& device = "phone") {
  return request(client, "account.sign_in",
                 {{"protocol", 1}, {"username", username}, {"password", password}, {"device", device}});
}

// Reads until the server closes the connection; the close frame's code.
inline std::uint16_t closed_with(WsClient& client) {
  for (int i = 0; i < 1000; ++i) {
    if (client.read_any().error) return client.close_code();
  }
  FAIL("the connection stayed open");
  return 0;
}

inline std::string code_of(const Json& message) {
  if (message.value("type", "") != "error") return "not an error: " + message.dump();
  return message["payload"].value("code", "");
}

inline Json create_table(WsClient& client, const Json& options, int turn_seconds = 0) {
  Json payload = {{"options", options}};
  if (turn_seconds) payload["turn_seconds"] = turn_seconds;
  const Json reply = request(client, "table.create", payload);
  REQUIRE(reply["type"] == "table.create.ok");
  return reply["payload"]["table"];
}

// Plays the client's seat with random legal commands until the game is over (returns
// the game.over payload) or, with `until`, until the game has reached that version and
// waits for this seat (returns that game.update's payload). Like the bot client: one command in flight, never answering a
// state older than the one its last command made. `earlier` holds pushes already read.
inline Json play_to_end(WsClient& client, std::int64_t table, std::uint64_t seed,
                        const std::vector<Json>& earlier = {}, std::optional<std::int64_t> until = std::nullopt) {
  elgrande::Rng rng{seed};
  Json latest;
  for (const Json& message : earlier) {
    if (message["type"] == "game.update") latest = message["payload"];
  }
  std::int64_t acted = -1;
  std::int64_t in_flight = 0;  // the id of the command awaiting its reply, 0 for none
  for (std::int64_t id = 1'000'000; id < 1'020'000;) {
    if (in_flight == 0 && !latest.is_null() && latest["view"].contains("decision") &&
        latest["version"].get<std::int64_t>() > acted) {
      if (until && latest["version"].get<std::int64_t>() >= *until) return latest;
      auto view = elgrande::protocol::view_from_json(latest["view"]);
      REQUIRE(view);
      acted = latest["version"].get<std::int64_t>();
      in_flight = ++id;
      const auto command = elgrande::random_command(view.value(), rng);
      const Json message = {{"type", "game.command"},
                            {"id", in_flight},
                            {"payload", {{"table", table},
                                         {"command", elgrande::protocol::to_json(command)},
                                         {"version", acted}}}};  // the update answered
      check_schema(message, "client");
      client.send(message);
    }
    const Json message = read(client);
    // Another table's game (one of the player's that ended before) is not this one.
    const bool game_here = (message["type"] == "game.over" || message["type"] == "game.update") &&
                           message["payload"]["table"] == table;
    if (game_here && message["type"] == "game.over") return message["payload"];
    if (game_here) latest = message["payload"];
    if (in_flight != 0 && message.value("id", Json()) == in_flight) {
      in_flight = 0;
      if (message["type"] == "game.command.ok") {
        acted = std::max(acted, message["payload"]["version"].get<std::int64_t>() - 1);
      } else {
        // Only a race with a simultaneous answer of another seat may refuse it.
        CHECK((code_of(message) == "not_your_turn" || code_of(message) == "stale_version" ||
               message["payload"].value("reason", "") == "wrong_command"));
      }
    }
  }
  FAIL("the game did not end");
  return {};
}

inline const Json kTwoPlayers = {{"players", 2}, {"short_game", true}, {"automa", false}, {"four_stacks", false}};
inline const Json kThreePlayers = {{"players", 3}, {"short_game", true}, {"automa", false}, {"four_stacks", false}};

}  // namespace elgrande::test
