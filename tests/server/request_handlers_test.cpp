// The request handlers as a connection calls them, without sockets: each refuses the wrong
// role (forbidden), a bad payload (bad_payload), and any change while storage takes none
// (unavailable), before changing anything; and does what it says when all is well.
#include <catch2/catch.hpp>

#include <type_traits>

#include "app/dispatcher.hpp"
#include "common/unix_time.hpp"
#include "moderation/moderation_requests.hpp"
#include "server/server_world.hpp"
#include "tables/lobby_requests.hpp"
#include "tournaments/tournament_requests.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
using nlohmann::json;

// Named, not anonymous: the tests are built in unity batches with other files.
namespace elgrande::test::handler_tests {

// The server's, not the engine's (elgrande::Player is a seat's holdings).
using server::Player;
using server::PlayerId;

const Player mod{5, "Mod"};
const Player root{6, "Root"};
const Player guest{7, "Guest"};
const json kThree = {{"players", 3}, {"short_game", true}, {"automa", false}, {"four_stacks", false}};

std::vector<Member> members() {
  return {{ana, Role::player}, {ben, Role::player}, {mod, Role::moderator}, {root, Role::admin}, {guest, std::nullopt}};
}

// The environment the dispatcher hands to a capability's handler.
template <class Env>
const Env& env_of(const World& world) {
  if constexpr (std::is_same_v<Env, ModerationRequestsEnv>) return world.services.moderation_requests;
  if constexpr (std::is_same_v<Env, LobbyRequestsEnv>) return world.services.lobby_requests;
  if constexpr (std::is_same_v<Env, TournamentRequestsEnv>) return world.services.tournament_requests;
}

// Calls `handler` as `who`'s connection would, and waits for the answer.
template <class Env>
json call(World& world, void (*handler)(const Env&, Client&, Request&), const std::shared_ptr<RecordingClient>& who,
          std::string type, json payload, std::int64_t id) {
  Request request = request_of(std::move(type), id, std::move(payload));
  handler(env_of<Env>(world), *who, request);
  REQUIRE(world.run_until([&] { return who->answer(id).has_value(); }));
  return *who->answer(id);
}

bool muted(World& world, const Player& p) {
  return world.sanctions.in_force(p.id, SanctionKind::mute, unix_milliseconds()).has_value();
}


TEST_CASE("mod.mute: moderators only, a target and a reason, and the target hears of it") {
  World world(members());
  const auto a = world.connect(ana);
  const auto b = world.connect(ben);
  const auto m = world.connect(mod);
  const json good = {{"player", ben.id}, {"reason", "insults"}, {"minutes", 10}};

  CHECK(code_of(call(world, &mute, a, "mod.mute", good, 1)) == "forbidden");
  CHECK(code_of(call(world, &mute, m, "mod.mute", {{"player", ben.id}, {"minutes", 10}}, 2)) == "bad_payload");
  CHECK(code_of(call(world, &mute, m, "mod.mute", {{"player", "Ben"}, {"reason", "x"}, {"minutes", 10}}, 3)) ==
        "bad_payload");
  CHECK(code_of(call(world, &mute, m, "mod.mute", {{"player", ben.id}, {"reason", "x"}, {"minutes", -1}}, 4)) ==
        "bad_payload");
  CHECK(code_of(call(world, &mute, m, "mod.mute", {{"player", 999}, {"reason", "x"}, {"minutes", 10}}, 5)) ==
        "not_found");
  CHECK(code_of(call(world, &mute, m, "mod.mute", {{"player", mod.id}, {"reason", "x"}, {"minutes", 10}}, 6)) ==
        "forbidden");
  CHECK(code_of(call(world, &mute, m, "mod.mute", {{"player", root.id}, {"reason", "x"}, {"minutes", 10}}, 7)) ==
        "forbidden");
  CHECK_FALSE(muted(world, ben));
  CHECK(b->of_type("moderation.notice").empty());

  const json done = call(world, &mute, m, "mod.mute", good, 8);
  CHECK(done["type"] == "mod.mute.ok");
  CHECK(muted(world, ben));
  REQUIRE(world.run_until([&] { return !b->of_type("moderation.notice").empty(); }));
  const json notice = b->of_type("moderation.notice").front()["payload"];
  CHECK(notice["action"] == "mute");
  CHECK(notice["reason"] == "insults");
  CHECK(notice["until"].is_number());

  // Minutes 0 lifts it.
  CHECK(call(world, &mute, m, "mod.mute", {{"player", ben.id}, {"reason", "served"}, {"minutes", 0}}, 9)["type"] ==
        "mod.mute.ok");
  CHECK_FALSE(muted(world, ben));
}

TEST_CASE("mod.ban and admin.set_role refuse those below the role they need") {
  World world(members());
  const auto m = world.connect(mod);
  const auto r = world.connect(root);
  CHECK(code_of(call(world, &ban, world.connect(ana), "mod.ban", {{"player", ben.id}, {"reason", "x"}, {"duration", "1h"}},
                     1)) == "forbidden");
  CHECK(code_of(call(world, &ban, m, "mod.ban", {{"player", ben.id}, {"reason", "x"}, {"duration", "1 week"}}, 2)) ==
        "bad_payload");
  CHECK(code_of(call(world, &set_role, m, "admin.set_role", {{"player", ben.id}, {"role", "moderator"}, {"reason", "x"}},
                     3)) == "forbidden");
  CHECK(world.accounts.of(ben.id)->role == Role::player);
  const auto b = world.connect(ben);
  const json banned = call(world, &ban, r, "mod.ban", {{"player", ben.id}, {"reason", "spam"}, {"duration", "24h"}}, 4);
  CHECK(banned["type"] == "mod.ban.ok");
  CHECK(world.sanctions.in_force(ben.id, SanctionKind::ban, unix_milliseconds()).has_value());
  REQUIRE(world.run_until([&] { return b->closed(); }));
}

TEST_CASE("Moderation while storage takes no changes: unavailable, and nothing changes") {
  World world(members(), 0);
  const auto m = world.connect(mod);
  CHECK(code_of(call(world, &mute, m, "mod.mute", {{"player", ben.id}, {"reason", "x"}, {"minutes", 10}}, 1)) ==
        "unavailable");
  CHECK_FALSE(muted(world, ben));
}

TEST_CASE("table.create: a bad configuration, a rated table for a guest, and storage refusing are refused") {
  SECTION("while storage takes changes") {
    World world(members());
    const auto a = world.connect(ana);
    const auto g = world.connect(guest);
    CHECK(code_of(call(world, &create_table, a, "table.create", {{"options", {{"players", 7}, {"short_game", true}, {"automa", false}, {"four_stacks", false}}}}, 1)) == "bad_payload");
    CHECK(code_of(call(world, &create_table, a, "table.create", {{"options", kThree}, {"colour", "red"}}, 2)) ==
          "bad_payload");
    CHECK(code_of(call(world, &create_table, g, "table.create", {{"options", kThree}, {"rated", true}}, 3)) ==
          "forbidden");
    CHECK(world.directory.tables_of(guest.id).empty());

    const json made = call(world, &create_table, a, "table.create", {{"options", kThree}}, 4);
    CHECK(made["type"] == "table.create.ok");
    CHECK(made["payload"]["table"]["rated"] == true);  // an account's table is rated by default
    CHECK(world.directory.tables_of(ana.id).size() == 1);
    const json unrated = call(world, &create_table, g, "table.create", {{"options", kThree}}, 5);
    CHECK(unrated["type"] == "table.create.ok");
    CHECK(unrated["payload"]["table"]["rated"] == false);

    world.services.lobby_requests.open_tables_per_player = 1;
    CHECK(code_of(call(world, &create_table, a, "table.create", {{"options", kThree}}, 6)) == "limit_reached");
  }
  SECTION("while storage takes none") {
    World world(members(), 0);
    const auto a = world.connect(ana);
    CHECK(code_of(call(world, &create_table, a, "table.create", {{"options", kThree}}, 1)) == "unavailable");
    CHECK(world.directory.tables_of(ana.id).empty());
  }
}

TEST_CASE("tournament.create: accounts of the configured role, a name and settings, and tournament requests name one") {
  const json settings = {
      {"stages", {{{"format", "swiss"}, {"rounds", 1}, {"table_sizes", {{"preferred", 3}, {"minimum", 3}}}}}}};
  SECTION("while storage takes changes") {
    World world(members());
    const auto a = world.connect(ana);
    const auto g = world.connect(guest);
    CHECK(code_of(call(world, &create_tournament, g, "tournament.create", {{"name", "Cup"}, {"settings", settings}}, 1)) ==
          "forbidden");
    CHECK(code_of(call(world, &create_tournament, a, "tournament.create", {{"settings", settings}}, 2)) == "bad_payload");
    CHECK(code_of(call(world, &create_tournament, a, "tournament.create", {{"name", ""}, {"settings", settings}}, 3)) ==
          "bad_payload");
    const json unknown_key =
        call(world, &create_tournament, a, "tournament.create", {{"name", "Cup"}, {"settings", {{"rounds", 2}}}}, 4);
    CHECK(code_of(unknown_key) == "bad_payload");
    CHECK(unknown_key["payload"]["message"].get<std::string>().starts_with("settings."));
    world.services.tournament_requests.creators = Role::moderator;
    CHECK(code_of(call(world, &create_tournament, a, "tournament.create", {{"name", "Cup"}, {"settings", settings}}, 5)) ==
          "forbidden");
    const auto m = world.connect(mod);
    const json made = call(world, &create_tournament, m, "tournament.create", {{"name", "Cup"}, {"settings", settings}}, 6);
    REQUIRE(made["type"] == "tournament.create.ok");
    const std::int64_t id = made["payload"]["tournament"]["id"];
    CHECK(made["payload"]["tournament"]["director"]["id"] == mod.id);

    CHECK(code_of(call(world, &get_tournament, a, "tournament.get", {{"tournament", "Cup"}}, 7)) == "bad_payload");
    CHECK(code_of(call(world, &get_tournament, a, "tournament.get", {{"tournament", id + 1}}, 8)) == "not_found");
    CHECK(call(world, &get_tournament, a, "tournament.get", {{"tournament", id}}, 9)["payload"]["tournament"]["name"] ==
          "Cup");
    CHECK(code_of(call(world, &forward_to_tournament, a, "tournament.register", {{"tournament", id + 1}}, 10)) ==
          "not_found");
    CHECK(code_of(call(world, &forward_to_tournament, g, "tournament.register", {{"tournament", id}}, 11)) == "forbidden");
    CHECK(call(world, &forward_to_tournament, a, "tournament.register", {{"tournament", id}}, 12)["type"] ==
          "tournament.register.ok");
    CHECK(code_of(call(world, &list_tournaments, a, "tournament.list", {{"status", "open"}}, 13)) == "bad_payload");
    CHECK(call(world, &list_tournaments, a, "tournament.list", json::object(), 14)["payload"]["tournaments"].size() == 1);
  }
  SECTION("while storage takes none") {
    World world(members(), 0);
    const auto a = world.connect(ana);
    CHECK(code_of(call(world, &create_tournament, a, "tournament.create", {{"name", "Cup"}, {"settings", settings}}, 1)) ==
          "unavailable");
    CHECK(call(world, &list_tournaments, a, "tournament.list", json::object(), 2)["payload"]["tournaments"].empty());
  }
}

}  // namespace elgrande::test::handler_tests
