// Moderation against the real binary: an admin made from the command line names a
// moderator; the moderator mutes and bans players, each told why and until when; a ban
// closes the player's connections and refuses their sign-ins; nobody acts above their
// role; and the audit log records every action for admins.

#include <string>

#include "game_helpers.hpp"

using namespace elgrande::test;

namespace {


struct Community {
  TempDir dir;
  std::unique_ptr<ServerProcess> server;

  Community() {
    SpawnOptions admin_password;
    admin_password.standard_input = "the admin's password\n";
    std::vector<std::string> args = database_args(dir);
    args.insert(args.end(), {"--password-memory-kib", "64", "--password-passes", "1", "--create-admin", "root"});
    const Completed made = run_to_exit(args, 10s, admin_password);
    REQUIRE(made.exit_code == 0);
    server = std::make_unique<ServerProcess>(server_args(dir));
  }
  std::unique_ptr<WsClient> connect() { return std::make_unique<WsClient>(server->address(), server->port()); }
};

}  // namespace

TEST_CASE("a moderator mutes and bans with reasons, a ban closes connections and refuses sign-in, all audited",
          "[moderation]") {
  Community c;
  auto admin = c.connect();
  const Json admin_in = sign_in(*admin, "root", "the admin's password");
  REQUIRE(admin_in["type"] == "account.sign_in.ok");
  const std::int64_t root = admin_in["payload"]["player"]["id"];

  auto ana = c.connect();
  const std::int64_t ana_id = hello(*ana, "Ana")["player"]["id"];
  REQUIRE(request(*ana, "account.sign_up", {{"username", "ana"}, {"password", "ana's password"}})["type"] ==
          "account.sign_up.ok");
  auto bea = c.connect();
  const Json bea_hello = hello(*bea, "Bea");
  const std::int64_t bea_id = bea_hello["player"]["id"];
  const std::int64_t table = create_table(*bea, kTwoPlayers)["id"];

  // Only admins name moderators; a player cannot moderate.
  CHECK(code_of(request(*bea, "mod.mute", {{"player", ana_id}, {"minutes", 5}, {"reason", "no"}})) == "forbidden");
  CHECK(code_of(request(*admin, "admin.set_role", {{"player", bea_id}, {"role", "moderator"}, {"reason", "x"}})) ==
        "wrong_state");  // a guest has no role
  REQUIRE(request(*admin, "admin.set_role", {{"player", ana_id}, {"role", "moderator"}, {"reason", "helps out"}})
              ["type"] == "admin.set_role.ok");
  CHECK(push(*ana, "moderation.notice")["role"] == "moderator");
  CHECK(code_of(request(*ana, "admin.set_role", {{"player", bea_id}, {"role", "admin"}, {"reason", "x"}})) ==
        "forbidden");
  CHECK(code_of(request(*ana, "mod.ban", {{"player", root}, {"duration", "1h"}, {"reason", "coup"}})) == "forbidden");
  CHECK(code_of(request(*ana, "mod.mute", {{"player", ana_id}, {"minutes", 5}, {"reason", "me"}})) == "forbidden");
  CHECK(code_of(request(*ana, "mod.mute", {{"player", 999}, {"minutes", 5}, {"reason", "who"}})) == "not_found");
  CHECK(code_of(bad_request(*ana, "mod.mute", {{"player", bea_id}, {"minutes", 5}, {"reason", "a\nb"}})) ==
        "bad_payload");

  // A mute: Bea is told why and until when, and her chat is refused with the reason.
  REQUIRE(request(*ana, "mod.mute", {{"player", bea_id}, {"minutes", 10}, {"reason", "shouting"}})["type"] ==
          "mod.mute.ok");
  const Json muted = push(*bea, "moderation.notice");
  CHECK(muted["action"] == "mute");
  CHECK(muted["reason"] == "shouting");
  CHECK(muted["until"].get<std::int64_t>() > 0);
  const Json refused = request(*bea, "table.chat", {{"table", table}, {"text", "HELLO"}});
  CHECK(code_of(refused) == "forbidden");
  CHECK(refused["payload"]["message"].get<std::string>().find("shouting") != std::string::npos);
  CHECK(refused["payload"]["moderator_reason"] == "shouting");  // the facts, for the client's own words
  CHECK(refused["payload"]["until"] == muted["until"]);
  REQUIRE(request(*ana, "mod.mute", {{"player", bea_id}, {"minutes", 0}, {"reason", "calmer now"}})["type"] ==
          "mod.mute.ok");
  REQUIRE(request(*bea, "table.chat", {{"table", table}, {"text", "you are all idiots"}})["type"] == "table.chat.ok");
  const std::int64_t line = push(*bea, "table.chat")["id"];

  // A line removed: everyone at the table is told, whoever comes later sees it removed,
  // and Bea is told why.
  REQUIRE(request(*ana, "mod.delete_chat", {{"table", table}, {"line", line}, {"reason", "insults"}})["type"] ==
          "mod.delete_chat.ok");
  const Json removed = push(*bea, "table.chat_removed");
  CHECK(removed == Json{{"table", table}, {"line", line}});
  const Json told = push(*bea, "moderation.notice");
  CHECK(told["action"] == "delete_chat");
  CHECK(told["reason"] == "insults");
  CHECK(code_of(request(*ana, "mod.delete_chat", {{"table", table}, {"line", line}, {"reason", "again"}})) ==
        "not_found");
  auto watcher = c.connect();
  hello(*watcher, "Watcher");
  std::vector<Json> pushes;
  REQUIRE(request(*watcher, "table.spectate", {{"table", table}}, &pushes)["type"] == "table.spectate.ok");
  Json history;
  for (const Json& message : pushes) {
    if (message["type"] == "table.chat_history") history = message["payload"];
  }
  if (history.is_null()) history = push(*watcher, "table.chat_history");
  REQUIRE(history["lines"].size() == 1);
  CHECK(history["lines"][0]["removed"] == true);
  CHECK_FALSE(history["lines"][0].contains("text"));

  // A kick: Bea loses her seat at Cid's table before the start, and is told why.
  auto cid = c.connect();
  hello(*cid, "Cid");
  const std::int64_t cids = create_table(*cid, kTwoPlayers)["id"];
  REQUIRE(request(*bea, "table.join", {{"table", cids}})["type"] == "table.join.ok");
  CHECK(code_of(request(*ana, "mod.kick", {{"table", cids}, {"player", ana_id}, {"reason", "x"}})) == "forbidden");
  REQUIRE(request(*ana, "mod.kick", {{"table", cids}, {"player", bea_id}, {"reason", "seat squatting"}})["type"] ==
          "mod.kick.ok");
  const Json kicked = push(*bea, "moderation.notice");
  CHECK(kicked["action"] == "kick");
  CHECK(kicked["table"] == cids);
  CHECK(kicked["reason"] == "seat squatting");
  CHECK(code_of(request(*ana, "mod.kick", {{"table", cids}, {"player", bea_id}, {"reason", "again"}})) == "not_found");
  CHECK(request(*bea, "table.join", {{"table", cids}})["type"] == "table.join.ok");  // a kick is not a ban

  // A ban: Bea's open connection is told and closed with 4003; her token is refused with
  // the reason until the ban is lifted.
  REQUIRE(request(*ana, "mod.ban", {{"player", bea_id}, {"duration", "24h"}, {"reason", "threats"}})["type"] ==
          "mod.ban.ok");
  const Json ban_notice = push(*bea, "moderation.notice");  // the facts come just before the close
  CHECK(ban_notice["action"] == "ban");
  CHECK(ban_notice["reason"] == "threats");
  CHECK(ban_notice["until"].get<std::int64_t>() > 0);
  CHECK(closed_with(*bea) == 4003);
  CHECK(bea->close_reason() == "banned");
  auto bea_again = c.connect();
  const Json banned = request(*bea_again, "hello", {{"protocol", 1}, {"token", bea_hello["token"]}});
  CHECK(code_of(banned) == "banned");
  CHECK(banned["payload"]["message"].get<std::string>().find("threats") != std::string::npos);
  CHECK(banned["payload"]["moderator_reason"] == "threats");
  CHECK(banned["payload"]["until"] == ban_notice["until"]);
  REQUIRE(request(*admin, "mod.ban", {{"player", bea_id}, {"duration", "lift"}, {"reason", "appeal"}})["type"] ==
          "mod.ban.ok");
  CHECK(request(*bea_again, "hello", {{"protocol", 1}, {"token", bea_hello["token"]}})["type"] == "hello.ok");

  // An account's ban is said only to whoever gives its password; it outlives a restart.
  REQUIRE(request(*admin, "mod.ban", {{"player", ana_id}, {"duration", "permanent"}, {"reason", "abuse of power"}})
              ["type"] == "mod.ban.ok");
  CHECK(closed_with(*ana) == 4003);
  c.server.reset();
  c.server = std::make_unique<ServerProcess>(server_args(c.dir));
  auto someone = c.connect();
  CHECK(code_of(sign_in(*someone, "ana", "a guess")) == "bad_credentials");
  const Json ana_banned = sign_in(*someone, "ana", "ana's password");
  CHECK(code_of(ana_banned) == "banned");
  CHECK(ana_banned["payload"]["message"].get<std::string>().find("until a moderator lifts it") != std::string::npos);
  CHECK(ana_banned["payload"]["moderator_reason"] == "abuse of power");
  CHECK_FALSE(ana_banned["payload"].contains("until"));  // permanent

  // The audit log: every action, newest first, with who, whom, what and why; admins only.
  auto admin_again = c.connect();
  REQUIRE(sign_in(*admin_again, "root", "the admin's password")["type"] == "account.sign_in.ok");
  const Json log = request(*admin_again, "admin.audit", Json::object())["payload"];
  CHECK(log["more"] == false);
  std::vector<std::string> actions;
  for (const Json& entry : log["entries"]) actions.push_back(entry["action"]);
  CHECK(actions ==
        std::vector<std::string>{"ban", "unban", "ban", "kick", "delete_chat", "unmute", "mute", "set_role"});
  CHECK(log["entries"][4]["detail"] == "table " + std::to_string(table) + ": you are all idiots");
  CHECK(log["entries"][3]["detail"] == "table " + std::to_string(cids));
  const Json& first_ban = log["entries"][2];
  CHECK(first_ban["moderator"]["name"] == "Ana");
  CHECK(first_ban["player"]["name"] == "Bea");
  CHECK(first_ban["reason"] == "threats");
  CHECK(first_ban["detail"].get<std::string>().starts_with("until "));
  CHECK(log["entries"][7]["detail"] == "moderator");
  auto bea_last = c.connect();
  hello(*bea_last, "Bea again");
  CHECK(code_of(request(*bea_last, "admin.audit", Json::object())) == "forbidden");
}

TEST_CASE("a blocked player's chat is not shown to the blocker, and they may not sit at the blocker's tables",
          "[moderation]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  const Json ana_hello = hello(ana, "Ana");
  WsClient bea(server.address(), server.port());
  const std::int64_t bea_id = hello(bea, "Bea")["player"]["id"];
  WsClient cid(server.address(), server.port());
  hello(cid, "Cid");
  const std::int64_t cids = create_table(cid, kThreePlayers)["id"];
  REQUIRE(request(ana, "table.join", {{"table", cids}})["type"] == "table.join.ok");
  REQUIRE(request(bea, "table.join", {{"table", cids}})["type"] == "table.join.ok");

  REQUIRE(request(ana, "player.block", {{"player", bea_id}})["type"] == "player.block.ok");
  CHECK(request(ana, "player.blocks", Json::object())["payload"]["players"] ==
        Json::array({{{"id", bea_id}, {"name", "Bea"}}}));
  REQUIRE(request(bea, "table.chat", {{"table", cids}, {"text", "from Bea"}})["type"] == "table.chat.ok");
  std::vector<Json> cid_heard;
  REQUIRE(request(cid, "table.chat", {{"table", cids}, {"text", "from Cid"}}, &cid_heard)["type"] == "table.chat.ok");
  bool heard_bea = false;  // others hear her
  for (const Json& message : cid_heard) {
    heard_bea |= message["type"] == "table.chat" && message["payload"]["text"] == "from Bea";
  }
  CHECK(heard_bea);
  CHECK(push(ana, "table.chat")["text"] == "from Cid");  // Ana does not: Cid's line comes first
  // Nor in the history a new connection of Ana's gets.
  WsClient ana_phone(server.address(), server.port());
  REQUIRE(request(ana_phone, "hello", {{"protocol", 1}, {"token", ana_hello["token"]}})["type"] == "hello.ok");
  const Json history = push(ana_phone, "table.chat_history");
  REQUIRE(history["lines"].size() == 1);
  CHECK(history["lines"][0]["text"] == "from Cid");

  // Bea may not sit at Ana's tables, until Ana lets her.
  const std::int64_t anas = create_table(ana, kThreePlayers)["id"];
  CHECK(code_of(request(bea, "table.join", {{"table", anas}})) == "forbidden");
  REQUIRE(request(ana, "player.unblock", {{"player", bea_id}})["type"] == "player.unblock.ok");
  CHECK(request(bea, "table.join", {{"table", anas}})["type"] == "table.join.ok");
  CHECK(code_of(request(ana, "player.block", {{"player", ana_hello["player"]["id"]}})) == "wrong_state");
  CHECK(code_of(request(ana, "player.block", {{"player", 4242}})) == "not_found");
}
