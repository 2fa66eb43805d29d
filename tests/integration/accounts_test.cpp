// Accounts against the real binary: a guest signs up and keeps its games, the account
// signs in from another connection to the same games, wrong passwords are throttled,
// ending a session or changing the password closes the connections it concerns, the first
// admin comes from the command line, and a database made by the release before accounts
// upgrades with everything in it.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "elgrande/notices/catalogs.hpp"
#include "game_helpers.hpp"

using namespace elgrande::test;
namespace fs = std::filesystem;

namespace {


Json sign_up(WsClient& client, const std::string& username, const std::string& password) {
  return request(client, "account.sign_up", {{"username", username}, {"password", password}, {"device", "laptop"}});
}

SpawnOptions reading(std::string input) {
  SpawnOptions options;
  options.standard_input = std::move(input);
  return options;
}

// A table of Ana's with two server bots, started: the game waits for one of its seats.
std::int64_t start_game(WsClient& ana) {
  const std::int64_t table = create_table(ana, kThreePlayers)["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(ana, "table.start", {{"table", table}})["type"] == "table.start.ok");
  return table;
}

}  // namespace

TEST_CASE("a guest signs up keeping its id and games, and the account signs in elsewhere to the same games",
          "[accounts]") {
  TempDir dir;
  auto running = std::make_unique<ServerProcess>(server_args(dir));
  ServerProcess& server = *running;
  WsClient laptop(server.address(), server.port());
  const Json guest = hello(laptop, "Ana");
  const std::int64_t table = start_game(laptop);

  const Json signed_up = sign_up(laptop, "Ana_P", "correct horse battery");
  REQUIRE(signed_up["type"] == "account.sign_up.ok");
  CHECK(signed_up["payload"]["player"] == guest["player"]);  // same id, same name
  CHECK(signed_up["payload"]["account"]["username"] == "Ana_P");
  CHECK(signed_up["payload"]["account"]["role"] == "player");
  CHECK(signed_up["payload"]["token"] != guest["token"]);
  CHECK(code_of(sign_up(laptop, "Ana_Q", "correct horse battery")) == "wrong_state");  // one account per player

  // The guest token no longer opens the identity; the session token does.
  WsClient old_token(server.address(), server.port());
  CHECK(code_of(request(old_token, "hello", {{"protocol", 1}, {"token", guest["token"]}})) == "unknown_token");
  WsClient resumed(server.address(), server.port());
  const Json again = request(resumed, "hello", {{"protocol", 1}, {"token", signed_up["payload"]["token"]}});
  REQUIRE(again["type"] == "hello.ok");
  CHECK(again["payload"]["player"]["id"] == guest["player"]["id"]);
  CHECK(again["payload"]["account"]["username"] == "Ana_P");

  // Another device signs in with the password, ignoring the username's case, and is
  // greeted with the game in progress.
  WsClient phone(server.address(), server.port());
  const Json phone_in = sign_in(phone, "ana_p", "correct horse battery");
  REQUIRE(phone_in["type"] == "account.sign_in.ok");
  CHECK(phone_in["payload"]["player"]["id"] == guest["player"]["id"]);
  const Json greeting = push(phone, "game.update");
  CHECK(greeting["table"] == table);
  const Json games = request(phone, "player.games", Json::object());
  REQUIRE(games["payload"]["games"].size() == 1);
  CHECK(games["payload"]["games"][0]["table"]["id"] == table);

  // Signing in on a connection that spoke for a guest switches it to the account.
  WsClient switching(server.address(), server.port());
  const Json other_guest = hello(switching, "Somebody");
  REQUIRE(sign_in(switching, "Ana_P", "correct horse battery")["type"] == "account.sign_in.ok");
  CHECK(request(switching, "player.games", Json::object())["payload"]["games"].size() == 1);

  // Everything holds across a restart.
  running.reset();
  ServerProcess restarted(server_args(dir));
  WsClient later(restarted.address(), restarted.port());
  const Json back = request(later, "hello", {{"protocol", 1}, {"token", phone_in["payload"]["token"]}});
  REQUIRE(back["type"] == "hello.ok");
  CHECK(back["payload"]["player"]["id"] == guest["player"]["id"]);
  CHECK(push(later, "game.update")["table"] == table);
}

TEST_CASE("a tab that spoke for the guest is closed with 4001 when the guest signs up elsewhere", "[accounts]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient laptop(server.address(), server.port());
  const Json guest = hello(laptop, "Ana");
  const std::int64_t table = start_game(laptop);
  WsClient other_tab(server.address(), server.port());
  REQUIRE(request(other_tab, "hello", {{"protocol", 1}, {"token", guest["token"]}})["type"] == "hello.ok");
  CHECK(push(other_tab, "game.update")["table"] == table);

  REQUIRE(sign_up(laptop, "Ana_P", "correct horse battery")["type"] == "account.sign_up.ok");
  // Had it stayed, it would speak for the account with no session: unseen in
  // account.sessions, untouched by ending them or by a new password.
  CHECK(closed_with(other_tab) == 4001);
  const Json sessions = request(laptop, "account.sessions", Json::object());
  REQUIRE(sessions["payload"]["sessions"].size() == 1);
  CHECK(sessions["payload"]["sessions"][0]["current"] == true);
  WsClient reopened(server.address(), server.port());
  CHECK(code_of(request(reopened, "hello", {{"protocol", 1}, {"token", guest["token"]}})) == "unknown_token");
  // The account's own connection plays on.
  CHECK(request(laptop, "player.games", Json::object())["payload"]["games"].size() == 1);
}

TEST_CASE("sign-up refuses hostile and taken usernames, and sign-in answers an unknown name as a wrong password",
          "[accounts]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  for (const std::string& username : std::vector<std::string>{"an", "ana p", "ana\xE2\x80\xAE", "admin\n", "ana.p",
                                                               std::string(21, 'a')}) {
    INFO(username);
    CHECK(code_of(bad_request(ana, "account.sign_up", {{"username", username}, {"password", "long enough"}})) ==
          "bad_payload");
  }
  CHECK(code_of(sign_up(ana, "ana", "short")) == "bad_payload");
  CHECK(code_of(bad_request(ana, "account.sign_up", {{"username", "ana"}, {"password", std::string(257, 'p')}})) ==
        "bad_payload");
  REQUIRE(sign_up(ana, "ana", "long enough")["type"] == "account.sign_up.ok");
  WsClient bea(server.address(), server.port());
  hello(bea, "Bea");
  CHECK(code_of(sign_up(bea, "ANA", "long enough")) == "name_taken");

  WsClient stranger(server.address(), server.port());
  const Json unknown = sign_in(stranger, "nobody", "long enough");
  const Json wrong = sign_in(stranger, "ana", "not the one");
  CHECK(code_of(unknown) == "bad_credentials");
  CHECK(unknown["payload"]["message"] == wrong["payload"]["message"]);
  CHECK(code_of(request(stranger, "account.sessions", Json::object())) == "not_identified");
  WsClient guest(server.address(), server.port());
  hello(guest, "Guest");
  CHECK(code_of(request(guest, "account.sessions", Json::object())) == "wrong_state");
}

TEST_CASE("usernames found taken at sign-up count against the address like failed sign-ins", "[no-storage][accounts]") {
  TempDir dir;
  auto args = server_args(dir);
  args.insert(args.end(), {"--sign-in-failures-per-address", "3"});
  ServerProcess server(args);
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  REQUIRE(sign_up(ana, "ana", "the right one")["type"] == "account.sign_up.ok");

  WsClient prober(server.address(), server.port());
  hello(prober, "Prober");
  for (const char* taken : {"ana", "ANA", "Ana"}) CHECK(code_of(sign_up(prober, taken, "long enough")) == "name_taken");
  // A fourth try is not even looked up, free name or not.
  const Json refused = sign_up(prober, "free_name", "long enough");
  REQUIRE(code_of(refused) == "rate_limited");
  CHECK(refused["payload"]["retry_after_ms"] > 9 * 60 * 1000);
  // The owner of a name tried stays signed in (a sign-in from the prober's address now
  // waits, as after failed sign-ins).
  CHECK(request(ana, "account.sessions", Json::object())["payload"]["sessions"].size() == 1);
}

TEST_CASE("wrong passwords past the cap are refused with when to retry, even with the right one", "[no-storage][accounts]") {
  TempDir dir;
  auto args = server_args(dir);
  args.insert(args.end(), {"--sign-in-failures-per-username", "3"});
  ServerProcess server(args);
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  REQUIRE(sign_up(ana, "ana", "the right one")["type"] == "account.sign_up.ok");

  WsClient guesser(server.address(), server.port());
  for (int i = 0; i < 3; ++i) CHECK(code_of(sign_in(guesser, "ana", "guess " + std::to_string(i))) == "bad_credentials");
  const Json refused = sign_in(guesser, "ANA", "the right one");
  REQUIRE(code_of(refused) == "rate_limited");
  const std::int64_t retry = refused["payload"]["retry_after_ms"];
  CHECK(retry > 9 * 60 * 1000);
  CHECK(retry <= 10 * 60 * 1000);
  // Another account is not held back by Ana's failures.
  WsClient bea(server.address(), server.port());
  hello(bea, "Bea");
  REQUIRE(sign_up(bea, "bea", "bea's password")["type"] == "account.sign_up.ok");
  CHECK(sign_in(guesser, "bea", "bea's password")["type"] == "account.sign_in.ok");
}

TEST_CASE("ending a session closes its connections with 4001, and a new password ends the other sessions",
          "[accounts]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient laptop(server.address(), server.port());
  hello(laptop, "Ana");
  REQUIRE(sign_up(laptop, "ana", "first password")["type"] == "account.sign_up.ok");
  WsClient phone(server.address(), server.port());
  const Json phone_in = sign_in(phone, "ana", "first password", "phone");
  WsClient tablet(server.address(), server.port());
  const Json tablet_in = sign_in(tablet, "ana", "first password", "tablet");

  const Json sessions = request(laptop, "account.sessions", Json::object())["payload"]["sessions"];
  REQUIRE(sessions.size() == 3);
  CHECK(sessions[0]["device"] == "laptop");
  CHECK(sessions[0]["current"] == true);
  CHECK(sessions[1]["device"] == "phone");
  CHECK(sessions[1]["current"] == false);

  const std::int64_t phone_session = phone_in["payload"]["account"]["session"];
  REQUIRE(request(laptop, "account.end_sessions", {{"session", phone_session}})["type"] == "account.end_sessions.ok");
  CHECK(closed_with(phone) == 4001);
  WsClient phone_again(server.address(), server.port());
  CHECK(code_of(request(phone_again, "hello", {{"protocol", 1}, {"token", phone_in["payload"]["token"]}})) ==
        "unknown_token");
  CHECK(code_of(request(laptop, "account.end_sessions", {{"session", phone_session}})) == "not_found");

  CHECK(code_of(request(laptop, "account.change_password", {{"password", "wrong"}, {"new_password", "second password"}})) ==
        "bad_credentials");
  REQUIRE(request(laptop, "account.change_password", {{"password", "first password"}, {"new_password", "second password"}})
              ["type"] == "account.change_password.ok");
  CHECK(closed_with(tablet) == 4001);
  CHECK(request(laptop, "account.sessions", Json::object())["payload"]["sessions"].size() == 1);
  WsClient later(server.address(), server.port());
  CHECK(code_of(sign_in(later, "ana", "first password")) == "bad_credentials");
  CHECK(sign_in(later, "ana", "second password")["type"] == "account.sign_in.ok");

  // All of them, this one too: the answer comes before the close.
  REQUIRE(request(laptop, "account.end_sessions", {{"which", "all"}})["type"] == "account.end_sessions.ok");
  CHECK(closed_with(laptop) == 4001);
  CHECK(closed_with(later) == 4001);
}

TEST_CASE("the first admin is made from the command line, with the password on standard input", "[accounts]") {
  TempDir dir;
  auto with = [&dir](const std::string& username) {
    auto args = database_args(dir);
    args.insert(args.end(), {"--password-memory-kib", "64", "--password-passes", "1", "--create-admin", username});
    return args;
  };
  const Completed weak = run_to_exit(with("root"), 10s, reading("short\n"));
  CHECK(weak.exit_code != 0);
  CHECK(weak.err.find("8 to 256 bytes") != std::string::npos);
  CHECK(run_to_exit(with("no good"), 10s, reading("long enough\n")).exit_code != 0);
  const Completed made = run_to_exit(with("Root"), 10s, reading("admin password\n"));
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  CHECK(made.err.find("admin password") == std::string::npos);  // never logged

  {
    ServerProcess server(server_args(dir));
    WsClient admin(server.address(), server.port());
    const Json in = sign_in(admin, "root", "admin password");
    REQUIRE(in["type"] == "account.sign_in.ok");
    CHECK(in["payload"]["account"]["role"] == "admin");
    CHECK(in["payload"]["player"]["name"] == "Root");
    // A player account made an admin keeps its id and takes the new password.
    WsClient bea(server.address(), server.port());
    hello(bea, "Bea");
    REQUIRE(sign_up(bea, "bea", "bea's password")["type"] == "account.sign_up.ok");
  }
  REQUIRE(run_to_exit(with("BEA"), 10s, reading("new admin password")).exit_code == 0);
  ServerProcess server(server_args(dir));
  WsClient bea(server.address(), server.port());
  CHECK(code_of(sign_in(bea, "bea", "bea's password")) == "bad_credentials");
  const Json in = sign_in(bea, "bea", "new admin password");
  REQUIRE(in["type"] == "account.sign_in.ok");
  CHECK(in["payload"]["account"]["role"] == "admin");
  CHECK(in["payload"]["player"]["name"] == "Bea");
}

TEST_CASE("a database made by the release before accounts upgrades with its guests, games and chat",
          "[sqlite][accounts]") {
  // tests/fixtures/schema4-release.sqlite: made by tests/fixtures/make-schema4-release.mjs
  // on the schema-4 release (1cb7d8c): Ana, a guest with this token, hosts table 1 with two
  // bots, started, with one chat line; table 2 is a finished short game of two bots' clients.
  const std::string ana_token = "1c3c556118c937722d993832a8f472be5fcca3df095a49e3b4ad51afa89bf33b";
  TempDir dir;
  fs::create_directories(dir.path() / "data");
  fs::copy_file(ELGRANDE_SOURCE_DIR "/tests/fixtures/schema4-release.sqlite", dir.path() / "data" / "elgrande.sqlite");
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  std::vector<Json> pushes;
  const Json in = request(ana, "hello", {{"protocol", 1}, {"token", ana_token}}, &pushes);
  REQUIRE(in["type"] == "hello.ok");
  CHECK(in["payload"]["player"] == Json{{"id", 1}, {"name", "Ana"}});
  CHECK_FALSE(in["payload"].contains("account"));
  const Json chat = push(ana, "table.chat_history");  // the greeting: chat, then the game
  CHECK(push(ana, "game.update")["table"] == 1);
  REQUIRE(chat["lines"].size() == 1);
  CHECK(chat["lines"][0]["text"] == "hola from schema 4");
  const Json history = request(ana, "history.list", {{"everyone", true}});
  REQUIRE(history["payload"]["games"].size() == 1);
  CHECK(history["payload"]["games"][0]["id"] == 2);

  // The old guest becomes an account like any other.
  REQUIRE(sign_up(ana, "ana", "correct horse battery")["type"] == "account.sign_up.ok");
  WsClient phone(server.address(), server.port());
  REQUIRE(sign_in(phone, "ana", "correct horse battery")["type"] == "account.sign_in.ok");
  CHECK(push(phone, "game.update")["table"] == 1);
}

TEST_CASE("a new name shows at once on the seat and on old chat lines, without a restart", "[accounts]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  const Json ana_hello = hello(ana, "Ana");
  const std::int64_t table = create_table(ana, kThreePlayers)["id"];
  WsClient bea(server.address(), server.port());
  hello(bea, "Bea");
  REQUIRE(request(bea, "table.join", {{"table", table}})["type"] == "table.join.ok");
  REQUIRE(request(ana, "table.chat", {{"table", table}, {"text", "hola"}})["type"] == "table.chat.ok");

  REQUIRE(request(ana, "hello", {{"protocol", 1}, {"token", ana_hello["token"]}, {"name", "Anita"}})["type"] ==
          "hello.ok");
  // Bea sees the seat renamed, then is told of the new name for the lines she has.
  Json update;
  Json renamed = read(bea);
  for (; renamed["type"] != "player.renamed"; renamed = read(bea)) {
    if (renamed["type"] == "table.update") update = renamed["payload"];
  }
  CHECK(renamed["payload"]["table"] == table);
  CHECK(renamed["payload"]["player"] == Json{{"id", ana_hello["player"]["id"]}, {"name", "Anita"}});
  CHECK(update["table"]["seats"][0]["player"]["name"] == "Anita");

  // Whoever comes later reads the old line under the new name.
  WsClient cid(server.address(), server.port());
  const Json cid_hello = hello(cid, "Cid");
  std::vector<Json> pushes;
  REQUIRE(request(cid, "table.spectate", {{"table", table}}, &pushes)["type"] == "table.spectate.ok");
  Json history;
  for (const Json& message : pushes) {
    if (message["type"] == "table.chat_history") history = message["payload"];
  }
  if (history.is_null()) history = push(cid, "table.chat_history");
  REQUIRE(history["lines"].size() == 1);
  CHECK(history["lines"][0]["from"]["name"] == "Anita");

  // A spectator's line too, renamed from another connection that watches nothing.
  REQUIRE(request(cid, "table.chat", {{"table", table}, {"text", "just watching"}})["type"] == "table.chat.ok");
  WsClient cid_phone(server.address(), server.port());
  REQUIRE(request(cid_phone, "hello", {{"protocol", 1}, {"token", cid_hello["token"]}, {"name", "Cidinho"}})["type"] ==
          "hello.ok");
  CHECK(push(bea, "player.renamed")["player"]["name"] == "Cidinho");
}

TEST_CASE("a sign-in refused because too many wait leaves its connection reading each message once",
          "[no-storage][accounts]") {
  TempDir dir;
  auto args = server_args(dir);
  // One thread and slow hashes (the later flags win), so that the queue of 64 fills.
  args.insert(args.end(), {"--password-threads", "1", "--password-memory-kib", "65536", "--password-passes", "3",
                           "--sign-in-failures-per-address", "1000000"});
  ServerProcess server(args);
  std::vector<std::unique_ptr<WsClient>> clients;
  for (int i = 0; i < 72; ++i) clients.push_back(std::make_unique<WsClient>(server.address(), server.port()));
  for (auto& client : clients) {
    client->send(Json{{"type", "account.sign_in"},
                      {"id", 1},
                      {"payload", {{"protocol", 1}, {"username", "nobody"}, {"password", "guess"}, {"device", "d"}}}});
  }
  // The last to ask are the likeliest to be refused at once.
  WsClient* refused = nullptr;
  for (auto it = clients.rbegin(); it != clients.rend() && !refused; ++it) {
    if (code_of((*it)->read()) == "unavailable") refused = it->get();
  }
  REQUIRE(refused != nullptr);
  // The connection paused its reading for the hash and resumed it at once: it reads on,
  // each message once, two sent together included.
  refused->send(Json{{"type", "ping"}, {"id", 2}});
  refused->send(Json{{"type", "ping"}, {"id", 3}});
  for (int id : {2, 3}) {
    const Json pong = refused->read();
    CHECK(pong["type"] == "ping.ok");
    CHECK(pong["id"] == id);
  }
}

TEST_CASE("an account's language follows it to a second device, and only the catalogs' languages are taken",
          "[accounts]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  const std::vector<std::string> languages = elgrande::notices::Catalogs::embedded().languages();
  REQUIRE(languages.size() >= 1);  // English at least; clients/web/lang/ says which others
  const std::string chosen = languages.back();

  // A guest has no account to keep it on.
  WsClient guest(server.address(), server.port());
  hello(guest, "Guest");
  CHECK(code_of(request(guest, "account.set_language", {{"language", chosen}})) == "wrong_state");

  // Not chosen at sign-up: null, then chosen on the laptop; the phone signed in meanwhile is
  // told at once.
  WsClient laptop(server.address(), server.port());
  hello(laptop, "Ana");
  const Json signed_up = sign_up(laptop, "Ana_P", "correct horse battery");
  REQUIRE(signed_up["type"] == "account.sign_up.ok");
  CHECK(signed_up["payload"]["account"]["language"].is_null());
  WsClient phone(server.address(), server.port());
  REQUIRE(sign_in(phone, "Ana_P", "correct horse battery")["type"] == "account.sign_in.ok");
  CHECK(code_of(bad_request(laptop, "account.set_language", {{"language", "xx"}})) == "bad_payload");
  CHECK(code_of(bad_request(laptop, "account.set_language", {{"language", 7}})) == "bad_payload");
  const Json set = request(laptop, "account.set_language", {{"language", chosen}});
  REQUIRE(set["type"] == "account.set_language.ok");
  CHECK(set["payload"]["account"]["language"] == chosen);
  CHECK(set["payload"]["account"]["session"] == signed_up["payload"]["account"]["session"]);
  const Json updated = push(phone, "account.updated");
  CHECK(updated["account"]["language"] == chosen);
  CHECK_FALSE(updated["account"].contains("session"));

  // Signed out everywhere, then in again on a new device: the account kept it, whatever
  // language that device says.
  REQUIRE(request(laptop, "account.end_sessions", {{"which", "all"}})["type"] == "account.end_sessions.ok");
  WsClient tablet(server.address(), server.port());
  const Json back = request(tablet, "account.sign_in",
                            {{"protocol", 1}, {"username", "Ana_P"}, {"password", "correct horse battery"},
                             {"language", languages.front()}});
  REQUIRE(back["type"] == "account.sign_in.ok");
  CHECK(back["payload"]["account"]["language"] == chosen);
  const Json resumed = request(tablet, "hello", {{"protocol", 1}, {"token", back["payload"]["token"]}});
  CHECK(resumed["payload"]["account"]["language"] == chosen);

  // A new account takes the language its device says at sign-up; an unknown one is left out.
  WsClient other(server.address(), server.port());
  hello(other, "Bea");
  const Json bea = request(other, "account.sign_up",
                           {{"username", "Bea_B"}, {"password", "battery staple horse"}, {"language", chosen}});
  REQUIRE(bea["type"] == "account.sign_up.ok");
  CHECK(bea["payload"]["account"]["language"] == chosen);
  WsClient third(server.address(), server.port());
  hello(third, "Cid");
  const Json cid = request(third, "account.sign_up",
                           {{"username", "Cid_C"}, {"password", "battery staple horse"}, {"language", "xx"}});
  REQUIRE(cid["type"] == "account.sign_up.ok");
  CHECK(cid["payload"]["account"]["language"].is_null());
  // An account that has not chosen takes the first language a signing-in device says.
  WsClient cids_phone(server.address(), server.port());
  const Json cid_in = request(cids_phone, "account.sign_in",
                              {{"protocol", 1}, {"username", "Cid_C"}, {"password", "battery staple horse"},
                               {"language", chosen}});
  REQUIRE(cid_in["type"] == "account.sign_in.ok");
  CHECK(cid_in["payload"]["account"]["language"] == chosen);
}
