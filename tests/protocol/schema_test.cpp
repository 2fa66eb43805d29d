// The JSON Schemas in protocol/schema/ against what the codecs write: every command, view
// and event of random games of every variant, every other message of the catalogue by
// hand, and for each family messages the schemas must refuse.

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/undo.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "elgrande/protocol/updates.hpp"
#include "support/schema_validator.hpp"

namespace {

using namespace elgrande;
using protocol::Json;

constexpr std::int64_t kTableId = 7;

const elgrande::testing::SchemaValidator& schemas() {
  static const elgrande::testing::SchemaValidator validator(ELGRANDE_SCHEMA_DIR);
  return validator;
}

// Fails with the schema's reasons and the message when `message` does not fit.
void require_valid(const Json& message, std::string_view direction) {
  if (const auto problem = schemas().check(message, direction)) {
    INFO(direction << " message: " << message.dump());
    FAIL(*problem);
  }
}

void require_invalid(const Json& message, std::string_view direction) {
  INFO(direction << " message that must be refused: " << message.dump());
  CHECK(schemas().check(message, direction).has_value());
}

Json request(const std::string& type, Json payload, std::optional<Json> id = std::nullopt) {
  Json message = {{"type", type}, {"payload", std::move(payload)}};
  if (id) message["id"] = *id;
  return message;
}

Json reply(const std::string& request_type, Json payload, std::optional<protocol::RequestId> id = 1) {
  return Json::parse(protocol::reply_message(request_type, id, std::move(payload)));
}

Json push(const std::string& type, Json payload) {
  return {{"type", type}, {"payload", std::move(payload)}};
}

Json error(const std::string& code, std::optional<Json> id = 1) {
  Json message = {{"type", "error"}, {"payload", {{"code", code}, {"message", "for humans"}}}};
  if (id) message["id"] = *id;
  return message;
}

// --- The shared shapes, as the catalogue describes them. ---

Json player(std::int64_t id, const std::string& name) {
  return {{"id", id}, {"name", name}};
}

Json human_seat(int seat, std::int64_t player_id, bool connected = true) {
  return {{"seat", seat}, {"kind", "human"}, {"player", player(player_id, "Player " + std::to_string(player_id))},
          {"connected", connected}};
}

// A table with the host at seat 0, a bot at seat 1 and the other seats empty (or bots
// once the game has started).
Json table(const std::string& status, int players = 3, bool automa = false) {
  Json seats = Json::array();
  seats.push_back(human_seat(0, 11));
  for (int s = 1; s < players; ++s) {
    if (s == 1 || status != "open") {
      seats.push_back({{"seat", s}, {"kind", "bot"}});
    } else {
      seats.push_back({{"seat", s}, {"kind", "empty"}});
    }
  }
  Json t = {{"id", kTableId},
            {"name", "Ana's table"},
            {"host", 11},
            {"status", status},
            {"options", protocol::to_json(Options{players, false, automa, false})},
            {"turn_seconds", 0},
            {"on_timeout", "bot_answers"},
            {"rated", true},
            {"seats", seats},
            {"spectators", 0}};
  if (status == "finished") {
    Json scores = Json::array();
    for (int s = 0; s < players; ++s) scores.push_back(40 + s);
    t["result"] = {{"scores", scores}, {"winners", {players - 1}}};
  }
  return t;
}

// --- Random games: every command, view and event the codecs write. ---

std::vector<Options> every_variant() {
  std::vector<Options> variants;
  for (int players = 2; players <= kMaxPlayers; ++players)
    for (bool short_game : {false, true})
      for (bool automa : {false, true})
        for (bool four_stacks : {false, true}) {
          const Options options{players, short_game, automa, four_stacks};
          if (!check(options)) variants.push_back(options);
        }
  // The 1995 edition's decisions: a take owed in full (at_least), fewer disk regions.
  variants.push_back(Options{4, false, false, false, -1, Edition::y1995});
  variants.push_back(Options{3, true, false, false, -1, Edition::y1995});
  return variants;
}

struct Seen {
  std::set<std::string> commands, decisions, events, phases, use_limits;
};

// Under the sanitizers, which look for memory errors in the codecs, every receiver's update is
// still encoded, but the schemas (a test driver's work, most of the run's time there) check
// one receiver's per change, in turn.
bool sanitized() { return std::getenv("ELGRANDE_SANITIZED") != nullptr; }

// Every receiver's game.update after a change, as the server writes it: each seat and a
// spectator get their own view and the events filtered for them, whole (protocol 1) and as
// the patch from the view they held (`held`, protocol 2; the patched update of one
// receiver per change, in turn, is checked).
void check_updates(const GameState& state, const UndoHistory& history, const Events& events, bool with_deadline,
                   std::vector<View>& held, Seen& seen) {
  const int receivers = state.options.players + 1;
  const int validated = static_cast<int>(state.version % static_cast<std::uint64_t>(receivers)) + kSpectator;
  const protocol::EventTexts texts(events, state.options);
  held.resize(static_cast<std::size_t>(receivers));
  for (Seat viewer = kSpectator; viewer < state.options.players; ++viewer) {
    const View now = elgrande::view(state, viewer);
    protocol::UpdateHeader header;
    header.table = kTableId;
    header.version = state.version;
    header.can_undo = viewer != kSpectator && history.can_undo(viewer);
    if (with_deadline && now.decision) header.deadline = 1795328460000;
    const Json update = Json::parse(protocol::update_with_view(header, texts, now));
    const Json& view = update["payload"]["view"];
    seen.phases.insert(view["phase"].get<std::string>());
    if (view.contains("decision")) {
      const Json& decision = view["decision"];
      seen.decisions.insert(decision["kind"].get<std::string>());
      if (decision["kind"] == "use_action_card")
        for (const auto& [key, value] : decision.items()) seen.use_limits.insert(key);
    }
    for (const Json& event : update["payload"]["events"]) seen.events.insert(event["type"].get<std::string>());
    if (!sanitized() || viewer == validated) require_valid(update, "server");
    View& before = held[static_cast<std::size_t>(viewer + 1)];
    if (viewer == validated && before.version < now.version) {
      require_valid(Json::parse(protocol::update_with_patch(header, texts, before, now)), "server");
    }
    before = now;
  }
}

// Games per variant: ELGRANDE_SCHEMA_GAMES, or five, over twice what meets every shape and
// every special action's limits (two do); two under the sanitizers, which look for memory
// errors in the codecs, not for more shapes, yet must still meet every event (one game per
// variant never lets a veto expire).
std::uint64_t games_per_variant() {
  if (const char* wanted = std::getenv("ELGRANDE_SCHEMA_GAMES")) return std::strtoull(wanted, nullptr, 10);
  return sanitized() ? 1 : 5;
}

TEST_CASE("every command, view and event of random games of every variant fits the schemas") {
  const std::uint64_t games_per_variant = ::games_per_variant();
  Seen seen;
  for (const Options& options : every_variant()) {
    for (std::uint64_t seed = 1; seed <= games_per_variant; ++seed) {
      INFO("players " << options.players << ", short " << options.short_game << ", automa "
                      << options.automa << ", four stacks " << options.four_stacks << ", seed " << seed);
      const bool with_deadline = seed % 2 == 0;
      Events events;
      GameState state = new_game(options, seed, &events);
      UndoHistory history;
      std::vector<View> held;
      check_updates(state, history, events, with_deadline, held, seen);
      Rng rng{seed};
      while (!is_over(state)) {
        const Seat seat = pending(state)[0].seat;
        // Now and then the seat takes back what it may (docs/rules-notes.md#undo).
        const Command command = history.can_undo(seat) && rng.below(4) == 0 ? Command{Undo{}}
                                                                              : random_command(state, seat, rng);
        Json json = protocol::to_json(command);
        seen.commands.insert(json["type"].get<std::string>());
        require_valid(request("game.command",
                              {{"table", kTableId}, {"command", std::move(json)}, {"version", state.version}},
                              Json(state.version)),
                      "client");

        events.clear();
        REQUIRE_FALSE(apply(state, history, seat, command, events));
        require_valid(reply("game.command", {{"version", state.version}}), "server");
        check_updates(state, history, events, with_deadline, held, seen);
      }
      const Json summary = protocol::summary_json(state);
      require_valid(push("game.over", {{"table", kTableId},
                                       {"result", {{"scores", summary["scores"]}, {"winners", summary["winners"]}}}}),
                    "server");
    }
  }
  // The games reached every shape, so the schemas were tested against each.
  CHECK(seen.commands.size() == std::variant_size_v<Command>);
  CHECK(seen.events.size() == std::variant_size_v<EventBody>);
  CHECK(seen.decisions.size() == std::variant_size_v<DecisionDetail>);
  CHECK(seen.phases.size() == 8);
  if (!sanitized()) {  // every special action's limits, met in the full run
    for (const char* limit : {"moves", "move_to", "extra_up_to", "take_up_to", "targets", "move_from",
                              "take_province", "take_regions", "remove_from", "scoreboard_to", "take_back"}) {
      INFO(limit);
      CHECK(seen.use_limits.count(limit) == 1);
    }
  }
}

// --- Every other message of the catalogue, by hand. ---

TEST_CASE("every client message of the catalogue fits the client schema") {
  const std::vector<Json> messages = {
      request("hello", {{"protocol", 1}}),
      request("hello", {{"protocol", 1}, {"name", "Ana"}}, Json(1)),
      request("hello", {{"protocol", 1}, {"token", std::string(64, 'a')}}, Json("h1")),
      request("hello", {{"protocol", 1}, {"name", "Ana María"}, {"token", std::string(64, '0')}}),
      {{"type", "ping"}},
      request("ping", Json::object(), Json("p1")),
      {{"type", "lobby.list"}, {"id", 3}},
      {{"type", "lobby.subscribe"}},
      {{"type", "lobby.list"}, {"payload", {{"status", "open"}, {"before", 40}, {"limit", 20}}}},
      request("lobby.unsubscribe", Json::object()),
      {{"type", "player.games"}, {"id", 4}},
      {{"type", "history.list"}},
      request("history.list", {{"everyone", true}, {"before", 120}, {"limit", 50}}),
      request("table.create", {{"options", protocol::to_json(Options{4, false, false, false})}}),
      request("table.create", {{"options", protocol::to_json(Options{2, false, false, false})},
                               {"turn_seconds", 172800},
                               {"on_timeout", "replace_seat"},
                               {"replace_after", 2}}),
      request("table.create", {{"options", protocol::to_json(Options{3, false, false, false})},
                               {"on_timeout", "bot_answers"}}),
      request("table.create", {{"name", "Friday"},
                               {"options", protocol::to_json(Options{2, true, true, true})},
                               {"turn_seconds", 86400}},
              Json(9)),
      request("table.create", {{"options", protocol::to_json(Options{3, false, false, true})}, {"turn_seconds", 0}}),
      request("table.create", {{"options", protocol::to_json(Options{5, false, false, false})}, {"turn_seconds", 10}}),
      request("table.join", {{"table", kTableId}}),
      request("table.join", {{"table", kTableId}, {"seat", 2}}),
      request("table.seat", {{"table", kTableId}, {"seat", 4}}),
      request("table.leave", {{"table", kTableId}}),
      request("table.add_bot", {{"table", kTableId}}),
      request("table.add_bot", {{"table", kTableId}, {"seat", 1}}),
      request("table.remove_bot", {{"table", kTableId}, {"seat", 1}}),
      request("table.start", {{"table", kTableId}}),
      request("table.spectate", {{"table", kTableId}}),
      request("table.chat", {{"table", kTableId}, {"text", "¡Hola!"}}),
      request("table.chat", {{"table", kTableId}, {"text", std::string(500, 'x')}}),
      request("game.command", {{"table", kTableId}, {"command", {{"type", "play_power_card"}, {"value", 13}}}}),
      request("game.command",
              {{"table", kTableId},
               {"command", {{"type", "move_caballeros"},
                            {"moves", {{{"colour", 1}, {"from", "galicia"}, {"to", "castillo"}, {"count", 2}}}}}}}),
      request("game.command", {{"table", kTableId}, {"command", {{"type", "skip_special_action"}}}}),
      // With the version of the game.update answered (0: the first decision of the game).
      request("game.command",
              {{"table", kTableId}, {"command", {{"type", "play_power_card"}, {"value", 9}}}, {"version", 0}}),
      request("game.command",
              {{"table", kTableId}, {"command", {{"type", "answer_veto"}, {"veto", false}}}, {"version", 12}},
              Json(13)),
      request("game.resign", {{"table", kTableId}}),
      request("game.view", {{"table", kTableId}}),
      request("table.create", {{"options", protocol::to_json(Options{4, true, false, false})}, {"rated", false}}),
      request("rating.leaderboard", {{"ladder", "4p"}}),
      request("rating.leaderboard", {{"ladder", "2p-automa-short"}, {"offset", 100}, {"limit", 50}}),
      request("rating.profile", {{"player", 11}}),
      request("play.join", {{"players", 4}}),
      request("play.join", {{"players", 2}, {"automa", true}, {"short_game", true}, {"clock", "daily"},
                            {"bots_after_seconds", 60}}),
      request("play.join", {{"players", 3}, {"bots_after_seconds", nullptr}}),
      request("play.leave", Json::object()),
      // The largest request id.
      request("ping", Json::object(), Json(std::int64_t{9223372036854775807})),
      request("ping", Json::object(), Json(std::string(128, 'i'))),
  };
  for (const Json& message : messages) require_valid(message, "client");
}

TEST_CASE("every server message of the catalogue fits the server schema") {
  Json resigned = table("playing", 4);
  resigned["seats"][2] = {{"seat", 2}, {"kind", "bot"}, {"player", player(12, "Bea")}, {"resigned", true}};
  resigned["seats"][3] = human_seat(3, 13, false);
  resigned["spectators"] = 2;
  resigned["turn_seconds"] = 1209600;
  Json replaced = table("playing", 3);
  replaced["on_timeout"] = "replace_seat";
  replaced["replace_after"] = 2;
  replaced["seats"][0]["timeouts"] = 1;
  replaced["seats"][2] = {{"seat", 2}, {"kind", "bot"}, {"player", player(12, "Bea")}, {"replaced", true}, {"timeouts", 2}};
  const Json finished_game = {{"id", 41},
                              {"name", "Friday"},
                              {"options", protocol::to_json(Options{3, false, false, false})},
                              {"turn_seconds", 86400},
                              {"on_timeout", "bot_answers"},
                              {"seats", {{{"seat", 0}, {"kind", "human"}, {"player", player(11, "Ana")}},
                                         {{"seat", 1}, {"kind", "bot"}},
                                         {{"seat", 2}, {"kind", "bot"}, {"player", player(12, "Bea")}, {"resigned", true}}}},
                              {"result", {{"scores", {50, 61, 61}}, {"winners", {1, 2}}}},
                              {"started_at", 1795328400000},
                              {"finished_at", 1795928400000}};
  Json finished_replaced = finished_game;
  finished_replaced["on_timeout"] = "replace_seat";
  finished_replaced["replace_after"] = 3;
  finished_replaced["seats"][2] = {{"seat", 2}, {"kind", "bot"}, {"player", player(12, "Bea")}, {"replaced", true},
                                   {"timeouts", 3}};
  const Json chat_line = {
      {"id", 501}, {"from", player(11, "Ana")}, {"seat", 0}, {"text", "¡Hola!"}, {"time", 1795328400000}};
  const Json spectator_line = {{"id", 502}, {"from", player(12, "Bea")}, {"text", "watching"}, {"time", 1795328400001}};
  const Json removed_line = {{"id", 503}, {"from", player(12, "Bea")}, {"removed", true}, {"time", 1795328400002}};

  const std::vector<Json> messages = {
      reply("hello", {{"protocol", 1},
                      {"server", "elgrande-server/0.1.0"},
                      {"player", player(11, "Guest 11")},
                      {"token", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}}),
      reply("ping", {{"time", 1795328400000}}, std::nullopt),
      reply("ping", {{"time", 1795328400000}}, "p1"),
      reply("lobby.list", {{"tables", Json::array()}, {"more", false}}),
      reply("lobby.list", {{"tables", {table("open"), table("playing", 5), resigned}}, {"more", true}}),
      reply("lobby.subscribe", {{"tables", {table("open", 2, true)}}, {"more", false}}),
      reply("lobby.unsubscribe", Json::object()),
      reply("player.games", {{"games", Json::array()}}),
      reply("player.games", {{"games", {{{"table", replaced}, {"seat", 0}, {"my_turn", true}, {"waiting_for", {0, 1}},
                                         {"deadline", 1795328460000}},
                                        {{"table", table("open")}, {"seat", 0}, {"my_turn", false}, {"waiting_for", Json::array()}},
                                        {{"table", table("finished", 3)}, {"seat", 0}, {"my_turn", false},
                                         {"waiting_for", Json::array()}}}}}),
      reply("history.list", {{"games", Json::array()}}),
      reply("history.list", {{"games", {finished_game, finished_replaced}}}),
      push("table.update", {{"table", replaced}}),
      reply("table.create", {{"table", table("open", 2)}}),
      reply("table.join", {{"table", table("open", 4)}, {"seat", 2}}),
      reply("table.seat", {{"table", table("open")}, {"seat", 1}}),
      reply("table.leave", Json::object()),
      reply("table.add_bot", {{"table", table("open", 5)}, {"seat", 1}}),
      reply("table.remove_bot", {{"table", table("open")}}),
      reply("table.start", Json::object()),
      reply("table.spectate", {{"table", table("finished", 4)}}),
      reply("table.chat", Json::object()),
      reply("game.command", {{"version", 12}}),
      reply("game.resign", Json::object()),
      reply("game.view", Json::object()),
      error("bad_envelope"),
      error("bad_json", std::nullopt),
      error("rate_limited", std::nullopt),
      error("rate_limited", Json(7)),  // a table.chat said too fast
      error("unknown_type", Json("req-9")),
      Json::parse(protocol::error_message(protocol::ErrorCode::not_found, "no table 9", protocol::RequestId{4})),
      {{"type", "error"},
       {"id", 5},
       {"payload", {{"code", "illegal_command"}, {"message", "not that many caballeros"}, {"reason", "illegal_command"}}}},
      {{"type", "error"},
       {"payload", {{"code", "not_your_turn"}, {"message", "seat 1 owes no decision"}, {"reason", "not_your_turn"}}}},
      Json::parse(protocol::error_message(protocol::ErrorCode::stale_version, "the game is at version 5",
                                          protocol::RequestId{13})),
      push("table.update", {{"table", resigned}}),
      push("table.update", {{"table", table("finished", 2, true)}}),
      push("game.over", {{"table", kTableId}, {"result", {{"scores", {50, 61, 61}}, {"winners", {1, 2}}}}}),
      push("table.chat", {{"table", kTableId}, {"id", 501}, {"from", player(11, "Ana")}, {"seat", 0},
                          {"text", "¡Hola!"}, {"time", 1795328400000}}),
      push("table.chat", {{"table", kTableId}, {"id", 502}, {"from", player(12, "Bea")}, {"text", "watching"},
                          {"time", 1795328400000}}),
      push("table.chat_history", {{"table", kTableId}, {"lines", {chat_line}}}),
      push("table.chat_history", {{"table", kTableId}, {"lines", {chat_line, spectator_line, removed_line}}}),
      push("table.chat_removed", {{"table", kTableId}, {"line", 503}}),
      push("player.renamed", {{"table", kTableId}, {"player", player(11, "Anita")}}),
      push("moderation.notice", {{"action", "mute"}, {"reason", "shouting"}, {"until", 1795328400000}}),
      push("moderation.notice", {{"action", "kick"}, {"table", kTableId}, {"reason", "seat squatting"}}),
      push("lobby.table", {{"table", table("open")}}),
      push("lobby.table", {{"table", table("finished", 3)}}),
      push("lobby.table_removed", {{"table", kTableId}}),
      push("table.rated", {{"table", kTableId}, {"ladder", "3p"},
                           {"changes", {{{"player", 11}, {"rank", 1}, {"before", 1000}, {"after", 1088}, {"provisional", true}},
                                        {{"player", 12}, {"rank", 3}, {"before", 1210}, {"after", 1190}, {"provisional", false}}}}}),
      reply("rating.leaderboard", {{"ladder", "4p"}, {"players", 1}, {"offset", 0},
                                   {"entries", {{{"rank", 1}, {"player", player(11, "Ana")}, {"ladder", "4p"},
                                                 {"rating", 1188}, {"provisional", false}, {"games", 12},
                                                 {"mu", 28.5}, {"sigma", 6.9}}}}}),
      reply("play.join", {{"queue", "2p-automa-short/daily"}, {"waiting", 3}}),
      reply("play.leave", {{"was_waiting", true}}),
      push("play.matched", {{"table", kTableId}, {"seat", 2}, {"queue", "4p/live"}, {"spread", 80}}),
      push("play.waiting", {{"queue", "3p-short/live"}, {"waiting", 2}}),
      reply("rating.profile", {{"player", player(11, "Ana")},
                               {"ratings", {{{"ladder", "4p"}, {"rating", 1188}, {"provisional", false}, {"games", 12},
                                             {"mu", 28.5}, {"sigma", 6.9}, {"rank", 1}, {"players", 40}}}},
                               {"games", {{{"table", kTableId}, {"ladder", "4p"}, {"rated_at", 1795328400000},
                                           {"rank", 2}, {"before", 1170}, {"after", 1188}}}}}),
  };
  for (const Json& message : messages) require_valid(message, "server");

  for (const std::string code :
       {"bad_json", "bad_envelope", "unknown_type", "bad_payload", "too_large", "rate_limited", "not_identified",
        "unknown_token", "forbidden", "wrong_state", "seat_taken", "table_full", "not_found", "not_your_turn",
        "illegal_command", "stale_version", "limit_reached", "internal", "unavailable"})
    require_valid(error(code, std::nullopt), "server");
}

// --- Messages the schemas must refuse, family by family. ---

// A message with one change at `pointer`: replaced, or removed when `value` is nothing.
Json with(Json message, const std::string& pointer, std::optional<Json> value) {
  const Json::json_pointer at(pointer);
  if (value) {
    message[at] = *value;
  } else if (Json& parent = message[at.parent_pointer()]; parent.is_array()) {
    parent.erase(std::stoul(at.back()));
  } else {
    parent.erase(at.back());
  }
  return message;
}

TEST_CASE("the schemas refuse broken envelopes") {
  require_invalid(Json::array(), "client");
  require_invalid({{"payload", Json::object()}}, "client");
  require_invalid({{"type", 3}}, "client");
  require_invalid({{"type", "fly"}}, "client");
  require_invalid({{"type", "ping.ok"}, {"payload", {{"time", 1}}}}, "client");  // a server message
  require_invalid({{"type", "lobby.list"}, {"payload", {{"status", "finished"}}}}, "client");  // history.list has those
  require_invalid({{"type", "lobby.list"}, {"payload", {{"limit", 500}}}}, "client");
  require_invalid({{"type", "ping"}, {"payload", Json::array()}}, "client");
  require_invalid({{"type", "ping"}, {"id", {{"n", 1}}}}, "client");
  require_invalid({{"type", "ping"}, {"id", 1.5}}, "client");
  require_invalid({{"type", "ping"}, {"id", std::string(129, 'i')}}, "client");
  require_invalid({{"type", "ping"}, {"extra", true}}, "client");
  require_invalid({{"type", "ping"}, {"payload", {{"extra", true}}}}, "client");

  require_invalid({{"type", "hello"}, {"payload", {{"protocol", 1}}}}, "server");  // a client message
  require_invalid({{"type", "fly.ok"}, {"payload", Json::object()}}, "server");
  require_invalid({{"type", "table.leave.ok"}}, "server");  // the server always writes a payload
  require_invalid(with(reply("table.leave", Json::object()), "/extra", Json(1)), "server");
  require_invalid(with(push("lobby.table_removed", {{"table", kTableId}}), "/id", Json(1)), "server");  // pushes have no id
}

TEST_CASE("the client schema refuses broken requests") {
  const Json create =
      request("table.create", {{"name", "Friday"}, {"options", protocol::to_json(Options{4, false, false, false})}});
  require_valid(create, "client");
  require_invalid(with(create, "/payload/options", std::nullopt), "client");
  require_invalid(with(create, "/payload/colour", Json("red")), "client");
  require_invalid(with(create, "/payload/name", Json("")), "client");
  require_invalid(with(create, "/payload/name", Json(std::string(65, 'n'))), "client");
  require_invalid(with(create, "/payload/turn_seconds", Json(-5)), "client");
  require_invalid(with(create, "/payload/turn_seconds", Json(1209601)), "client");
  require_invalid(with(create, "/payload/on_timeout", Json("forfeit")), "client");
  require_invalid(with(create, "/payload/replace_after", Json(0)), "client");
  require_invalid(request("history.list", {{"limit", 51}}), "client");
  require_invalid(request("history.list", {{"player", 3}}), "client");
  require_invalid(request("player.games", {{"everyone", true}}), "client");
  require_invalid(with(create, "/payload/options/players", Json(6)), "client");
  require_invalid(with(create, "/payload/options/players", Json(1)), "client");
  require_invalid(with(create, "/payload/options/automa", Json(true)), "client");       // only with 2 players
  require_invalid(with(create, "/payload/options/four_stacks", Json(true)), "client");  // 3 players or automa
  require_invalid(with(create, "/payload/options/short_game", Json("yes")), "client");
  require_invalid(with(create, "/payload/options/speed", Json(2)), "client");

  const Json hello = request("hello", {{"protocol", 1}, {"name", "Ana"}});
  require_valid(hello, "client");
  require_valid(with(hello, "/payload/protocol", Json(2)), "client");
  require_invalid(with(hello, "/payload/protocol", Json(3)), "client");

  // A game update carries the whole view, or a patch of the view of version `base`: not both.
  GameState game = new_game(Options{}, 5);
  const View first = elgrande::view(game, 0);
  Events events;
  Rng rng{5};
  const Seat first_seat = pending(game)[0].seat;
  REQUIRE_FALSE(apply(game, first_seat, random_command(game, first_seat, rng), events));
  protocol::UpdateHeader header;
  header.table = kTableId;
  header.version = game.version;
  const Json patched = Json::parse(protocol::update_with_patch(header, protocol::EventTexts(events, game.options), first,
                                                               elgrande::view(game, 0)));
  require_valid(patched, "server");
  require_invalid(with(patched, "/payload/base", std::nullopt), "server");
  require_invalid(with(patched, "/payload/view", protocol::to_json(first)), "server");
  require_invalid(with(patched, "/payload/patch", std::nullopt), "server");
  require_invalid(with(hello, "/payload/protocol", std::nullopt), "client");
  require_invalid(with(hello, "/payload/name", Json("")), "client");
  require_invalid(with(hello, "/payload/name", Json(std::string(33, 'a'))), "client");
  require_invalid(with(hello, "/payload/token", Json(64)), "client");

  const Json join = request("table.join", {{"table", kTableId}, {"seat", 1}});
  require_valid(join, "client");
  require_invalid(with(join, "/payload/table", std::nullopt), "client");
  require_invalid(with(join, "/payload/table", Json("7")), "client");
  require_invalid(with(join, "/payload/table", Json(0)), "client");
  require_invalid(with(join, "/payload/seat", Json(5)), "client");
  require_invalid(with(join, "/payload/seat", Json(-1)), "client");
  require_invalid(request("table.seat", {{"table", kTableId}}), "client");
  require_invalid(request("table.remove_bot", {{"table", kTableId}}), "client");
  require_invalid({{"type", "table.start"}}, "client");
  require_invalid(request("table.chat", {{"table", kTableId}, {"text", ""}}), "client");
  require_invalid(request("table.chat", {{"table", kTableId}, {"text", std::string(501, 'x')}}), "client");
  require_invalid(request("game.resign", {{"table", kTableId}, {"seat", 0}}), "client");
}

TEST_CASE("the client schema refuses broken commands") {
  auto command = [](Json c) { return request("game.command", {{"table", kTableId}, {"command", std::move(c)}}); };
  const Json take = command({{"type", "take_caballeros"}, {"from_province", 2}, {"from_regions", {{"aragon", 1}}}});
  require_valid(take, "client");
  require_invalid(with(take, "/payload/command", std::nullopt), "client");
  require_invalid(with(take, "/payload/command/type", Json("take_everything")), "client");
  require_invalid(with(take, "/payload/command/type", std::nullopt), "client");
  require_invalid(with(take, "/payload/command/from_province", std::nullopt), "client");
  require_invalid(with(take, "/payload/command/from_province", Json(256)), "client");
  require_invalid(with(take, "/payload/command/from_regions/madrid", Json(1)), "client");
  require_invalid(with(take, "/payload/command/from_regions/aragon", Json(0)), "client");  // counts are non-zero
  require_invalid(with(take, "/payload/command/from_regions/aragon", Json(1.0)), "client");
  require_invalid(with(take, "/payload/command/extra", Json(1)), "client");

  // The version answered: optional, a non-negative integer.
  require_valid(with(take, "/payload/version", Json(0)), "client");
  require_valid(with(take, "/payload/version", Json(57)), "client");
  require_invalid(with(take, "/payload/version", Json(-1)), "client");
  require_invalid(with(take, "/payload/version", Json(2.5)), "client");
  require_invalid(with(take, "/payload/version", Json("57")), "client");
  require_invalid(with(take, "/payload/version", Json(nullptr)), "client");
  require_invalid(with(take, "/payload/view_version", Json(57)), "client");

  require_invalid(command({{"type", "play_power_card"}, {"value", 0}}), "client");
  require_invalid(command({{"type", "play_power_card"}, {"value", 14}}), "client");
  require_invalid(command({{"type", "take_action_card"}, {"card", 45}}), "client");
  require_invalid(command({{"type", "answer_veto"}, {"veto", 1}}), "client");
  require_invalid(command({{"type", "place_scoreboard"}, {"board", "eight_eight_eight"}, {"to", "aragon"}}), "client");
  require_invalid(command({{"type", "skip_special_action"}, {"value", 1}}), "client");
  require_invalid(command({{"type", "remove_caballeros"}, {"picks", {{{"colour", 5}, {"region", "aragon"}}}}}), "client");
  Json moves = Json::array();
  for (int i = 0; i < 11; ++i) moves.push_back({{"colour", 0}, {"from", "aragon"}, {"to", "valencia"}, {"count", 1}});
  require_invalid(command({{"type", "move_caballeros"}, {"moves", moves}}), "client");
  moves.erase(moves.begin());
  require_valid(command({{"type", "move_caballeros"}, {"moves", moves}}), "client");
  require_invalid(with(command({{"type", "move_caballeros"}, {"moves", moves}}), "/payload/command/moves/0/count",
                       Json(0)),
                  "client");
}

TEST_CASE("the server schema refuses broken tables and replies") {
  const Json update = push("table.update", {{"table", table("open", 4)}});
  require_valid(update, "server");
  require_invalid(with(update, "/payload/table/seats/3", std::nullopt), "server");  // one seat per player
  require_invalid(with(update, "/payload/table/seats/4", Json{{"seat", 4}, {"kind", "empty"}}), "server");
  require_invalid(with(update, "/payload/table/seats/2/seat", Json(3)), "server");  // seat i at index i
  require_invalid(with(update, "/payload/table/seats/2/kind", Json("ghost")), "server");
  require_invalid(with(update, "/payload/table/seats/2/player", player(12, "Bea")), "server");  // empty
  require_invalid(with(update, "/payload/table/seats/0/connected", std::nullopt), "server");
  require_invalid(with(update, "/payload/table/seats/0/player", std::nullopt), "server");
  require_invalid(with(update, "/payload/table/seats/1/resigned", Json(true)), "server");  // no player
  require_invalid(with(update, "/payload/table/seats/1/replaced", Json(true)), "server");  // no player
  require_invalid(with(update, "/payload/table/seats/0/timeouts", Json(0)), "server");
  require_invalid(with(update, "/payload/table/on_timeout", std::nullopt), "server");
  require_invalid(with(update, "/payload/table/on_timeout", Json("shrug")), "server");
  require_invalid(with(update, "/payload/table/replace_after", Json(3)), "server");  // only with replace_seat
  require_invalid(with(with(update, "/payload/table/on_timeout", Json("replace_seat")), "/payload/table/replace_after",
                       Json(11)),
                  "server");
  require_valid(with(with(update, "/payload/table/on_timeout", Json("replace_seat")), "/payload/table/replace_after",
                     Json(10)),
                "server");
  require_invalid(reply("player.games", {{"games", {{{"table", table("open")}, {"seat", 0}}}}}), "server");
  require_invalid(reply("history.list", {{"games", {{{"id", 3}}}}}), "server");
  require_invalid(with(update, "/payload/table/status", Json("closed")), "server");
  require_invalid(with(update, "/payload/table/status", Json("finished")), "server");  // no result
  require_invalid(with(update, "/payload/table/result", Json{{"scores", {1, 2, 3, 4}}, {"winners", {3}}}), "server");
  require_invalid(with(update, "/payload/table/id", Json(0)), "server");
  require_invalid(with(update, "/payload/table/spectators", std::nullopt), "server");
  require_invalid(with(update, "/payload/table/turn_seconds", Json(2.5)), "server");
  require_invalid(with(update, "/payload/table/secret", Json("x")), "server");
  require_invalid(with(update, "/payload/table/rated", std::nullopt), "server");
  require_invalid(with(update, "/payload/table/seats/0/rating", Json{{"ladder", "6p"}, {"rating", 1000},
                                                                     {"provisional", true}, {"games", 0}}),
                  "server");
  require_invalid(with(update, "/payload/table/options/players", Json(3)), "server");  // 4 seats

  const Json finished = push("table.update", {{"table", table("finished", 3)}});
  require_valid(finished, "server");
  require_invalid(with(finished, "/payload/table/result/scores/3", Json(1)), "server");
  require_invalid(with(finished, "/payload/table/result/winners", Json::array()), "server");
  require_invalid(with(finished, "/payload/table/result/winners/1", Json(2)), "server");  // twice

  require_invalid(reply("lobby.list", {{"tables", {table("finished")}}, {"more", false}}), "server");  // open and playing only
  require_invalid(reply("lobby.list", {{"tables", Json::array()}}), "server");  // says whether there are more

  const Json hello = reply("hello", {{"protocol", 1},
                                     {"server", "elgrande-server/0.1.0"},
                                     {"player", player(11, "Ana")},
                                     {"token", std::string(64, 'f')}});
  require_valid(hello, "server");
  require_invalid(with(hello, "/payload/token", Json(std::string(64, 'F'))), "server");
  require_invalid(with(hello, "/payload/token", Json(std::string(63, 'f'))), "server");
  require_invalid(with(hello, "/payload/server", Json("nginx")), "server");
  require_invalid(with(hello, "/payload/player/id", Json(-3)), "server");
  require_invalid(with(hello, "/payload/player/name", Json("")), "server");
  require_invalid(with(hello, "/payload/player", std::nullopt), "server");

  require_invalid(error("too_slow"), "server");
  require_invalid(with(error("bad_payload"), "/payload/message", std::nullopt), "server");
  require_invalid(with(error("bad_payload"), "/payload/reason", Json("illegal_command")), "server");
  require_invalid(with(error("illegal_command"), "/payload/reason", Json("illegal")), "server");
  require_invalid(with(error("stale_version"), "/payload/reason", Json("not_your_turn")), "server");  // not the engine's
  require_invalid(error("bad_json", Json(1)), "server");  // sent without reading the id
  require_invalid(reply("game.command", {{"version", 0}}), "server");
  require_invalid(reply("table.join", {{"table", table("open")}}), "server");
  require_invalid(reply("table.start", {{"table", table("playing")}}), "server");

  const Json chat =
      push("table.chat", {{"table", kTableId}, {"id", 9}, {"from", player(11, "Ana")}, {"text", "hi"}, {"time", 1}});
  require_valid(chat, "server");
  require_invalid(with(chat, "/payload/id", std::nullopt), "server");
  require_invalid(with(chat, "/payload/removed", Json(true)), "server");  // a removed line has no text
  require_valid(with(with(chat, "/payload/removed", Json(true)), "/payload/text", std::nullopt), "server");
  require_invalid(with(chat, "/payload/from", std::nullopt), "server");
  require_invalid(with(chat, "/payload/text", Json("")), "server");
  require_invalid(with(chat, "/payload/time", Json(-1)), "server");
  require_invalid(with(chat, "/payload/table", std::nullopt), "server");

  const Json line = {{"id", 9}, {"from", player(11, "Ana")}, {"text", "hi"}, {"time", 1}};
  const Json history = push("table.chat_history", {{"table", kTableId}, {"lines", {line}}});
  require_valid(history, "server");
  require_invalid(with(history, "/payload/lines", Json::array()), "server");  // sent only when there is chat
  require_invalid(with(history, "/payload/lines", Json(std::vector<Json>(51, line))), "server");
  require_invalid(with(history, "/payload/lines/0/table", Json(kTableId)), "server");
  require_invalid(with(history, "/payload/lines/0/text", std::nullopt), "server");
  require_invalid(with(history, "/payload/table", std::nullopt), "server");

  const Json replaced_game = {{"id", 41},
                         {"name", "Friday"},
                         {"options", protocol::to_json(Options{2, false, false, false})},
                         {"turn_seconds", 60},
                         {"on_timeout", "replace_seat"},
                         {"replace_after", 2},
                         {"seats", {{{"seat", 0}, {"kind", "bot"}, {"player", player(11, "Ana")}, {"replaced", true},
                                     {"timeouts", 2}},
                                    {{"seat", 1}, {"kind", "bot"}}}},
                         {"result", {{"scores", {50, 61}}, {"winners", {1}}}},
                         {"started_at", 1},
                         {"finished_at", 2}};
  const Json listed = reply("history.list", {{"games", {replaced_game}}});
  require_valid(listed, "server");
  require_invalid(with(listed, "/payload/games/0/on_timeout", std::nullopt), "server");
  require_invalid(with(listed, "/payload/games/0/replace_after", std::nullopt), "server");
  require_invalid(with(with(listed, "/payload/games/0/on_timeout", Json("bot_answers")), "/payload/games/0/replace_after",
                       Json(2)),
                  "server");
  require_invalid(with(listed, "/payload/games/0/seats/0/timeouts", Json(0)), "server");
}

// A mid-game update for seat `viewer` of a 3-player game (kSpectator: a spectator's),
// after `steps` random commands: a real view and real events to break.
Json real_update(Seat viewer, int steps, Options options = Options{3, false, false, false}) {
  Events events;
  GameState state = new_game(options, 42, &events);
  Rng rng{42};
  for (int i = 0; i < steps; ++i) {
    events.clear();
    const Seat seat = pending(state)[0].seat;
    REQUIRE_FALSE(apply(state, seat, random_command(state, seat, rng), events));
  }
  Json list = Json::array();
  for (const Event& event : visible_to(events, viewer)) list.push_back(protocol::to_json(event, options));
  return push("game.update", {{"table", kTableId},
                              {"version", state.version},
                              {"view", protocol::to_json(elgrande::view(state, viewer))},
                              {"events", list}});
}

TEST_CASE("the server schema refuses broken views") {
  const Json seat0 = real_update(0, 0);  // seat 0 owes its power card
  require_valid(seat0, "server");
  REQUIRE(seat0["payload"]["view"].contains("decision"));
  require_invalid(with(seat0, "/payload/view/phase", Json("siesta")), "server");
  require_invalid(with(seat0, "/payload/view/phase", std::nullopt), "server");
  require_invalid(with(seat0, "/payload/view/king", Json("castillo")), "server");  // the king stays in regions
  require_invalid(with(seat0, "/payload/view/king", Json("madrid")), "server");
  require_invalid(with(seat0, "/payload/view/round", Json(10)), "server");
  require_invalid(with(seat0, "/payload/view/weather", Json("sunny")), "server");
  require_invalid(with(seat0, "/payload/view/regions/castillo", Json{0, 0, 0}), "server");
  require_invalid(with(seat0, "/payload/view/regions/galicia", std::nullopt), "server");
  require_invalid(with(seat0, "/payload/view/regions/galicia", Json{0, 0, 0, 0}), "server");  // one per colour
  require_invalid(with(seat0, "/payload/view/regions/galicia/0", Json(31)), "server");
  require_invalid(with(seat0, "/payload/view/players/2", std::nullopt), "server");  // one per seat
  require_invalid(with(seat0, "/payload/view/players/0/hand", std::nullopt), "server");  // the viewer's own
  require_invalid(with(seat0, "/payload/view/players/1/hand", Json{1, 2}), "server");  // another seat's
  require_invalid(with(seat0, "/payload/view/players/1/castillo", Json(0)), "server");
  require_invalid(with(seat0, "/payload/view/players/0/hand/0", Json(14)), "server");
  require_invalid(with(seat0, "/payload/view/players/0/hand_count", Json(14)), "server");
  require_invalid(with(seat0, "/payload/view/players/0/mood", Json("calm")), "server");
  require_invalid(with(seat0, "/payload/view/viewer", Json(3)), "server");  // 3 players: seats 0..2
  require_invalid(with(seat0, "/payload/view/automa", Json{{"supply", 1}, {"played", 0}, {"power_cards_left", 13}}),
                  "server");
  require_invalid(with(seat0, "/payload/view/stack_sizes", Json{11, 11, 11}), "server");
  require_invalid(with(seat0, "/payload/view/offered/0", Json(45)), "server");
  require_invalid(with(seat0, "/payload/view/decision/kind", Json("nap")), "server");
  require_invalid(with(seat0, "/payload/view/decision/seat", Json(1)), "server");  // the viewer's own
  require_invalid(with(seat0, "/payload/view/decision/playable", Json::array()), "server");
  require_invalid(with(seat0, "/payload/view/decision/extra", Json(1)), "server");
  require_invalid(with(seat0, "/payload/view/decision", std::nullopt), "server");  // waiting_for has seat 0
  require_invalid(with(seat0, "/payload/view/waiting_for", Json::array()), "server");
  require_invalid(with(seat0, "/payload/version", Json(-1)), "server");
  require_invalid(with(seat0, "/payload/events", std::nullopt), "server");
  require_invalid(with(seat0, "/payload/view", std::nullopt), "server");

  const Json spectator = real_update(kSpectator, 0);
  require_valid(spectator, "server");
  require_invalid(with(spectator, "/payload/view/decision", seat0["payload"]["view"]["decision"]), "server");
  require_invalid(with(spectator, "/payload/view/players/0/hand", Json{1, 2}), "server");
  require_invalid(with(spectator, "/payload/view/players/0/disk", Json("aragon")), "server");

  const Json automa = real_update(1, 0, Options{2, false, true, false});
  require_valid(automa, "server");
  require_invalid(with(automa, "/payload/view/automa", std::nullopt), "server");
  require_invalid(with(automa, "/payload/view/regions/aragon", Json{0, 0}), "server");  // the automa's colour too

  // Later in the game: a seat choosing its action card, and one waiting.
  for (int steps = 4; steps < 40; ++steps) {
    const Json later = real_update(0, steps);
    require_valid(later, "server");
    if (!later["payload"]["view"].contains("decision")) continue;
    if (later["payload"]["view"]["decision"]["kind"] != "use_action_card") continue;
    require_invalid(with(later, "/payload/view/decision/special", Json("fly")), "server");
    require_invalid(with(later, "/payload/view/decision/place_into/0", Json("lisboa")), "server");
    require_invalid(with(later, "/payload/view/decision/card", std::nullopt), "server");
    {
      // The special-action limits: shapes, and only while the action is still to do.
      REQUIRE(later["payload"]["view"]["decision"]["may_act"] == true);  // a card just taken
      const char* const decision = "/payload/view/decision/";
      auto at = [decision](const char* field) { return std::string(decision) + field; };
      require_valid(with(later, at("move_from"), Json::parse(R"([{"colour":1,"regions":{"aragon":2}}])")), "server");
      require_invalid(with(later, at("move_from"), Json::array()), "server");
      require_invalid(with(later, at("move_from"), Json::parse(R"([{"colour":1,"regions":{"castillo":2}}])")), "server");
      require_invalid(with(later, at("move_from"), Json::parse(R"([{"colour":1,"regions":{}}])")), "server");
      require_invalid(with(later, at("move_from"), Json::parse(R"([{"colour":5,"regions":{"aragon":2}}])")), "server");
      require_valid(with(later, at("take_province"), Json(3)), "server");
      require_invalid(with(later, at("take_province"), Json(0)), "server");
      require_valid(with(later, at("take_regions"), Json::parse(R"({"sevilla":1})")), "server");
      require_invalid(with(later, at("take_regions"), Json::parse(R"({"sevilla":0})")), "server");
      require_valid(with(later, at("remove_from"), Json::parse(R"([{"colour":2,"regions":{"sevilla":1}}])")), "server");
      require_invalid(with(later, at("remove_from"), Json::parse(R"([{"colour":2}])")), "server");
      require_valid(with(later, at("scoreboard_to"), Json::parse(R"({"four_zero_zero":["castillo"]})")), "server");
      require_invalid(with(later, at("scoreboard_to"), Json::parse(R"({"four_zero_zero":[]})")), "server");
      require_invalid(with(later, at("scoreboard_to"), Json::parse(R"({"ten":["aragon"]})")), "server");
      require_invalid(with(later, at("scoreboard_to"), Json::object()), "server");
      require_valid(with(later, at("take_back"), Json::parse("[1,13]")), "server");
      require_invalid(with(later, at("take_back"), Json::array()), "server");
      require_invalid(with(later, at("take_back"), Json::parse("[14]")), "server");
      Json done = with(later, at("may_act"), Json(false));
      for (const char* field : {"moves", "move_to", "extra_up_to", "take_up_to", "targets", "move_from",
                                "take_province", "take_regions", "remove_from", "scoreboard_to", "take_back"})
        done["payload"]["view"]["decision"].erase(field);
      require_valid(done, "server");
      require_invalid(with(done, at("take_back"), Json::parse("[4]")), "server");  // once the action is done
      require_invalid(with(done, at("move_from"), Json::parse(R"([{"colour":1,"regions":{"aragon":2}}])")), "server");
    }
    break;
  }
}

TEST_CASE("the server schema refuses broken events") {
  // The first update of a game: game_started and round_started, to everyone.
  const Json start = [] {
    Events events;
    const GameState state = new_game(Options{3, false, false, false}, 42, &events);
    Json list = Json::array();
    for (const Event& event : visible_to(events, 0)) list.push_back(protocol::to_json(event, state.options));
    return push("game.update", {{"table", kTableId},
                                {"version", state.version},
                                {"view", protocol::to_json(elgrande::view(state, 0))},
                                {"events", list}});
  }();
  require_valid(start, "server");
  REQUIRE(start["payload"]["events"][0]["type"] == "game_started");
  require_invalid(with(start, "/payload/events/0/type", Json("game_began")), "server");
  require_invalid(with(start, "/payload/events/0/type", std::nullopt), "server");
  require_invalid(with(start, "/payload/events/0/king", Json("castillo")), "server");
  require_invalid(with(start, "/payload/events/0/first_player", std::nullopt), "server");
  require_invalid(with(start, "/payload/events/0/homes/3", Json("aragon")), "server");
  require_invalid(with(start, "/payload/events/0/audience", Json("everyone")), "server");
  require_invalid(with(start, "/payload/events/1", Json("round_started")), "server");

  auto event = [&start](Json e) { return with(start, "/payload/events/0", std::move(e)); };
  require_valid(event({{"type", "power_card_played"}, {"seat", 1}, {"value", 13}}), "server");
  require_invalid(event({{"type", "power_card_played"}, {"seat", 1}, {"value", 0}}), "server");
  require_valid(event({{"type", "power_card_taken_back"}, {"seat", 1}}), "server");  // someone else's card
  require_invalid(event({{"type", "power_card_taken_back"}, {"seat", 1}, {"value", 0}}), "server");
  require_valid(event({{"type", "disk_set"}, {"seat", 2}}), "server");
  require_invalid(event({{"type", "disk_set"}, {"seat", 2}, {"region", "castillo"}}), "server");
  require_valid(event({{"type", "special_action_announced"},
                       {"seat", 2},
                       {"card", 38},
                       {"action", {{"type", "take_back_power_card"}, {"value", 0}}}}),
                "server");
  require_invalid(event({{"type", "special_action_announced"},
                         {"seat", 2},
                         {"card", 38},
                         {"action", {{"type", "answer_veto"}, {"veto", true}}}}),  // not a special action
                  "server");
  require_invalid(event({{"type", "caballeros_placed"}, {"seat", 0}, {"to", {{"aragon", 31}}}}), "server");
  require_valid(event({{"type", "disks_revealed"}, {"purpose", "eviction"}, {"disks", {"aragon", nullptr, "sevilla"}}}),
                "server");
  require_invalid(event({{"type", "disks_revealed"}, {"purpose", "lottery"}, {"disks", {"aragon", nullptr, "sevilla"}}}),
                  "server");
  require_invalid(event({{"type", "disks_revealed"}, {"purpose", "eviction"}, {"disks", {"castillo", nullptr, "sevilla"}}}),
                  "server");
  require_invalid(event({{"type", "general_scoring_started"}, {"number", 4}}), "server");
  require_invalid(event({{"type", "game_ended"}, {"scores", {1, 2, 3}}, {"winners", Json::array()}}), "server");
  require_invalid(event({{"type", "round_ended"}, {"round", 3}}), "server");
}

}  // namespace

TEST_CASE("the account's language and the facts an error gives for the player fit the schemas") {
  const Json account{{"username", "Ana_P"}, {"role", "player"}, {"language", "pl"}, {"session", 3}};
  require_valid(request("account.set_language", {{"language", "hu"}}), "client");
  require_valid(request("hello", {{"protocol", 2}, {"language", "de"}}), "client");
  require_valid(request("account.sign_up", {{"username", "Ana_P"}, {"password", "correct horse"}, {"language", "pl"}}),
                "client");
  require_invalid(request("account.set_language", Json::object()), "client");
  require_invalid(request("account.set_language", {{"language", "Polish"}}), "client");
  require_valid(reply("account.set_language", {{"account", account}}), "server");
  Json unchosen = account;
  unchosen["language"] = nullptr;
  unchosen.erase("session");
  require_valid(push("account.updated", {{"account", unchosen}}), "server");
  require_invalid(push("account.updated", {{"account", with(account, "/language", std::nullopt)}}), "server");

  const auto refused = [](protocol::ErrorCode code, const Json& facts) {
    return Json::parse(protocol::error_message_with(code, "words for logs", protocol::RequestId{4}, facts));
  };
  require_valid(refused(protocol::ErrorCode::banned, {{"until", 1795328400000}, {"moderator_reason", "insults"}}), "server");
  require_valid(refused(protocol::ErrorCode::banned, {{"moderator_reason", "insults"}}), "server");
  require_valid(refused(protocol::ErrorCode::forbidden, {{"until", 1795328400000}, {"moderator_reason", "spam"}}), "server");
  require_valid(refused(protocol::ErrorCode::limit_reached, {{"limit", "open_tables_per_player"}, {"max", 3}}), "server");
  require_invalid(refused(protocol::ErrorCode::not_found, {{"limit", "open_tables_per_player"}, {"max", 3}}), "server");
  require_invalid(refused(protocol::ErrorCode::limit_reached, {{"limit", "tables"}, {"max", 3}}), "server");
  require_invalid(refused(protocol::ErrorCode::banned, {{"until", 1795328400000}}), "server");
  require_valid(refused(protocol::ErrorCode::rate_limited, {{"why", "too_fast"}, {"max", 5}}), "server");
  require_valid(refused(protocol::ErrorCode::rate_limited, {{"why", "repeated"}}), "server");
  require_invalid(refused(protocol::ErrorCode::forbidden, {{"why", "repeated"}}), "server");
  require_invalid(refused(protocol::ErrorCode::rate_limited, {{"max", 5}}), "server");
}
