// Notices against the real binary and a real SMTP server (aiosmtpd, notice_peers.hpp):
// addresses verified by a mailed link, a password reset by one, "your turn" mailed to a
// player who is away with a one-click unsubscribe that works, and an unreachable relay
// that only makes the outbox wait. Every mail is read by Python's MIME parser.

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "elgrande/notices/catalogs.hpp"
#include "game_helpers.hpp"
#include "notice_peers.hpp"

using namespace elgrande::test;

namespace {

const std::string kAnasPassword = "correct horse battery";

// Signs up `username` on a new connection and gives it the verified `address`; the
// connection stays open. `mailed`: mails the relay had before.
std::unique_ptr<WsClient> account_with_address(const ServerProcess& server, const SmtpServer& smtp,
                                               const std::string& username, const std::string& address,
                                               std::size_t mailed = 0) {
  auto client = std::make_unique<WsClient>(server.address(), server.port());
  hello(*client, username);
  REQUIRE(request(*client, "account.sign_up", {{"username", username}, {"password", kAnasPassword}})["type"] ==
          "account.sign_up.ok");
  const Json set = request(*client, "account.set_email", {{"address", address}});
  REQUIRE(set["type"] == "account.set_email.ok");
  CHECK(set["payload"]["pending"] == address);
  const Json mails = smtp.wait_for(mailed + 1);
  REQUIRE(mails.size() == mailed + 1);
  const std::string token = token_in(mails.back(), "verify-email");
  REQUIRE_FALSE(token.empty());
  const Json verified = request(*client, "account.verify_email", {{"token", token}});
  REQUIRE(verified["type"] == "account.verify_email.ok");
  CHECK(verified["payload"]["address"] == address);
  return client;
}

std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::uint64_t notice_metric(const ServerProcess& server, const std::string& name) {
  const std::string body = http_request(server, http::verb::get, "/metrics").body();
  const std::size_t at = body.find("\n" + name + " ");
  return at == std::string::npos ? 0 : std::stoull(body.substr(at + name.size() + 2));
}

}  // namespace

TEST_CASE("an address is verified by a mailed link once, and a change is told to the old address", "[notices]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  ServerProcess server(mail_args(server_args(dir), smtp.port()));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  CHECK(code_of(request(ana, "account.set_email", {{"address", "ana@example.org"}})) == "wrong_state");  // a guest
  REQUIRE(request(ana, "account.sign_up", {{"username", "Ana_P"}, {"password", kAnasPassword}})["type"] ==
          "account.sign_up.ok");
  for (const char* bad : {"ana", "ana@", "@example.org", "ana@example", "ana@example.org\r\nBcc: eve@example.org",
                          "ana example@example.org", "\"ana\"@example.org", "ana@[127.0.0.1]"}) {
    INFO(bad);
    CHECK(code_of(bad_request(ana, "account.set_email", {{"address", bad}})) == "bad_payload");
  }

  REQUIRE(request(ana, "account.set_email", {{"address", "ana@example.org"}})["type"] == "account.set_email.ok");
  Json mails = smtp.wait_for(1);
  REQUIRE(mails.size() == 1);
  const Json& link = mails[0];
  CHECK(link["to"] == "ana@example.org");
  CHECK(link["from"] == "El Grande <elgrande@example.org>");
  CHECK(link["content_type"] == "multipart/alternative");
  CHECK(link["defects"].empty());
  CHECK(link["list_unsubscribe"] == "");  // mail about the account itself is always sent
  CHECK(std::string(link["text"]).find("Ana_P") != std::string::npos);
  CHECK(std::string(link["html"]).find("http://play.example.org/#/verify-email/") != std::string::npos);
  const std::string token = token_in(link, "verify-email");
  REQUIRE(token.size() == 64);

  // The link is followed on another device, not signed in: no hello needed.
  WsClient browser(server.address(), server.port());
  const Json verified = request(browser, "account.verify_email", {{"token", token}});
  REQUIRE(verified["type"] == "account.verify_email.ok");
  CHECK(verified["payload"] == Json{{"username", "Ana_P"}, {"address", "ana@example.org"}});
  CHECK(code_of(request(browser, "account.verify_email", {{"token", token}})) == "bad_token");  // once
  CHECK(code_of(request(browser, "account.verify_email", {{"token", std::string(64, 'a')}})) == "bad_token");
  const Json shown = request(ana, "notices.preferences", Json::object());
  CHECK(shown["payload"]["email"] == "ana@example.org");
  CHECK(shown["payload"]["pending_email"] == nullptr);
  CHECK(shown["payload"]["mail"] == true);

  // A new address: the old one is told once the new one is verified, not before.
  REQUIRE(request(ana, "account.set_email", {{"address", "ana.p@example.net"}})["type"] == "account.set_email.ok");
  mails = smtp.wait_for(2);
  REQUIRE(mails.size() == 2);
  CHECK(request(ana, "notices.preferences", Json::object())["payload"]["pending_email"] == "ana.p@example.net");
  REQUIRE(request(browser, "account.verify_email", {{"token", token_in(mails[1], "verify-email")}})["type"] ==
          "account.verify_email.ok");
  mails = smtp.wait_for(3);
  REQUIRE(mails.size() == 3);
  CHECK(mails[2]["to"] == "ana@example.org");
  CHECK(std::string(mails[2]["text"]).find("ana.p@example.net") != std::string::npos);

  // Removed: nothing is sent there any more, and the account shows no address.
  REQUIRE(request(ana, "account.remove_email", Json::object())["type"] == "account.remove_email.ok");
  CHECK(request(ana, "notices.preferences", Json::object())["payload"]["email"] == nullptr);
}

TEST_CASE("a forgotten password is reset by a mailed link that works once, and every session ends", "[notices]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  ServerProcess server(mail_args(server_args(dir), smtp.port()));
  const auto laptop = account_with_address(server, smtp, "Ana_P", "ana@example.org");

  // The same answer for a known address (in another case) and an unknown one.
  WsClient stranger(server.address(), server.port());
  const Json known = request(stranger, "account.forgot_password", {{"address", "ANA@example.org"}});
  const Json unknown = request(stranger, "account.forgot_password", {{"address", "nobody@example.org"}});
  REQUIRE(known["type"] == "account.forgot_password.ok");
  CHECK(known["payload"] == unknown["payload"]);
  Json mails = smtp.wait_for(2);
  REQUIRE(mails.size() == 2);  // the verification, and one reset: none to the unknown address
  CHECK(mails[1]["to"] == "ANA@example.org");
  const std::string token = token_in(mails[1], "reset-password");
  REQUIRE(token.size() == 64);

  CHECK(code_of(request(stranger, "account.reset_password", {{"token", token}, {"new_password", "short"}})) ==
        "bad_payload");
  const Json reset =
      request(stranger, "account.reset_password", {{"token", token}, {"new_password", "a new long password"}});
  REQUIRE(reset["type"] == "account.reset_password.ok");
  CHECK(reset["payload"]["username"] == "Ana_P");
  CHECK(closed_with(*laptop) == 4001);  // whoever knew the old password is signed out
  CHECK(code_of(request(stranger, "account.reset_password", {{"token", token}, {"new_password", "another one!"}})) ==
        "bad_token");

  WsClient phone(server.address(), server.port());
  CHECK(code_of(sign_in(phone, "Ana_P", kAnasPassword)) == "bad_credentials");
  CHECK(sign_in(phone, "Ana_P", "a new long password")["type"] == "account.sign_in.ok");
}

TEST_CASE("a player away from the table is mailed once that it is their turn, and one click unsubscribes",
          "[notices]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  ServerProcess server(mail_args(server_args(dir), smtp.port()));
  auto ana = account_with_address(server, smtp, "Ana_P", "ana@example.org");
  // Her mail is in her account's language: the last of the catalogs built in (English while
  // clients/web/lang/ holds only en.json), English where that catalog lacks a message.
  const elgrande::notices::Catalogs& catalogs = elgrande::notices::Catalogs::embedded();
  const std::string language = catalogs.languages().back();
  REQUIRE(request(*ana, "account.set_language", {{"language", language}})["type"] == "account.set_language.ok");
  const Json created = create_table(*ana, kThreePlayers);
  const std::int64_t table = created["id"];
  const std::string table_name = created["name"];
  REQUIRE(request(*ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(*ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(*ana, "table.start", {{"table", table}})["type"] == "table.start.ok");

  // While she is connected, nothing is sent, however long it waits.
  std::this_thread::sleep_for(2500ms);
  CHECK(smtp.mails().size() == 1);
  ana.reset();  // she leaves, owing a decision
  Json mails = smtp.wait_for(2);
  REQUIRE(mails.size() == 2);
  const Json& turn = mails[1];
  CHECK(turn["to"] == "ana@example.org");
  CHECK(turn["subject"] == catalogs.format(language, "letters.turn.subject", {{"table_name", table_name}}));
  CHECK(std::string(turn["text"]).find(catalogs.format(language, "letters.turn.body", {{"table_name", table_name}})) !=
        std::string::npos);
  CHECK(turn["defects"].empty());
  CHECK(std::string(turn["text"]).find("http://play.example.org/#/table/" + std::to_string(table)) != std::string::npos);
  CHECK(turn["list_unsubscribe_post"] == "List-Unsubscribe=One-Click");
  const std::string unsubscribe = turn["list_unsubscribe"];
  REQUIRE(unsubscribe.starts_with("<http://play.example.org/notices/unsubscribe?token="));
  // At most one per game until she has played there.
  std::this_thread::sleep_for(2500ms);
  CHECK(smtp.mails().size() == 2);

  // The link, on this server: GET only shows a button; POST (one click) turns turn mail off.
  const std::string target = unsubscribe.substr(std::string("<http://play.example.org").size(),
                                                unsubscribe.size() - std::string("<http://play.example.org").size() - 1);
  const HttpResponse page = http_request(server, http::verb::get, target);
  CHECK(page.result() == http::status::ok);
  CHECK(page.body().find("<form method=\"post\"") != std::string::npos);
  CHECK(page.body().find("<html lang=\"" + language + "\">") != std::string::npos);  // hers, not the browser's
  WsClient back(server.address(), server.port());
  REQUIRE(sign_in(back, "Ana_P", kAnasPassword)["type"] == "account.sign_in.ok");
  CHECK(request(back, "notices.preferences", Json::object())["payload"]["preferences"]["turn"]["mail"] == true);
  http::request<http::string_body> click{http::verb::post, target, 11};
  click.set(http::field::content_type, "application/x-www-form-urlencoded");
  click.body() = "List-Unsubscribe=One-Click";
  click.prepare_payload();
  CHECK(send_http(server.address(), server.port(), click).result() == http::status::ok);
  const Json preferences = request(back, "notices.preferences", Json::object())["payload"]["preferences"];
  CHECK(preferences["turn"]["mail"] == false);
  CHECK(preferences["turn"]["push"] == true);
  CHECK(preferences["game_ended"]["mail"] == true);
  // A forged token changes nothing.
  http::request<http::string_body> forged{http::verb::post, target.substr(0, target.size() - 4) + "AAAA", 11};
  CHECK(send_http(server.address(), server.port(), forged).result() == http::status::bad_request);
}

TEST_CASE("an unreachable relay only makes the outbox wait: counted, still ready, delivered once it is up",
          "[notices]") {
  TempDir dir;
  const std::uint16_t relay_port = free_port();
  ServerProcess server(mail_args(server_args(dir), relay_port));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  REQUIRE(request(ana, "account.sign_up", {{"username", "Ana_P"}, {"password", kAnasPassword}})["type"] ==
          "account.sign_up.ok");
  REQUIRE(request(ana, "account.set_email", {{"address", "ana@example.org"}})["type"] == "account.set_email.ok");
  const auto deadline = Clock::now() + 10s;
  while (notice_metric(server, "elgrande_notices_failed_total") == 0 && Clock::now() < deadline) std::this_thread::sleep_for(50ms);
  CHECK(notice_metric(server, "elgrande_notices_failed_total") >= 1);
  CHECK(http_request(server, http::verb::get, "/readyz").result() == http::status::ok);
  CHECK(request(ana, "ping", Json::object())["type"] == "ping.ok");  // the rest goes on

  SmtpServer smtp(dir.path() / "mail", relay_port);  // the relay comes up: the next attempt gets through
  const Json mails = smtp.wait_for(1, 30s);
  REQUIRE(mails.size() == 1);
  CHECK(mails[0]["to"] == "ana@example.org");
  CHECK(notice_metric(server, "elgrande_mails_sent_total") == 1);
}

TEST_CASE("a server without a relay sends no mail and says so", "[notices]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  REQUIRE(request(ana, "account.sign_up", {{"username", "Ana_P"}, {"password", kAnasPassword}})["type"] ==
          "account.sign_up.ok");
  CHECK(code_of(request(ana, "account.set_email", {{"address", "ana@example.org"}})) == "wrong_state");
  CHECK(code_of(request(ana, "account.forgot_password", {{"address", "ana@example.org"}})) == "wrong_state");
  CHECK(request(ana, "notices.preferences", Json::object())["payload"]["mail"] == false);
}

TEST_CASE("Web Push: every device gets the turn encrypted and signed, gone devices are dropped, a busy service is "
          "tried again",
          "[notices]") {
  TempDir dir;
  PushService push(dir.path() / "push.jsonl", {"429,201", "410", "404"});
  std::vector<std::string> args = server_args(dir);
  args.insert(args.end(), {"--push-endpoints", "http", "--notice-turn-after-seconds", "1", "--notice-retry-seconds", "1"});
  ServerProcess server(args);
  WsClient guest(server.address(), server.port());
  hello(guest, "Gus");
  const Json& devices = push.subscriptions();
  CHECK(code_of(request(guest, "push.subscribe", devices[0])) == "wrong_state");

  auto ana = std::make_unique<WsClient>(server.address(), server.port());
  hello(*ana, "Ana");
  REQUIRE(request(*ana, "account.sign_up", {{"username", "Ana_P"}, {"password", kAnasPassword}})["type"] ==
          "account.sign_up.ok");
  const std::string key = request(*ana, "push.key", Json::object())["payload"]["key"];
  CHECK(key.size() == 87);  // 65 bytes, base64url
  Json bad = devices[0];
  bad["endpoint"] = "ftp://127.0.0.1/push/0";
  CHECK(code_of(bad_request(*ana, "push.subscribe", bad)) == "bad_payload");
  bad = devices[0];
  bad["keys"]["p256dh"] = "AAAA";
  CHECK(code_of(request(*ana, "push.subscribe", bad)) == "bad_payload");
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    Json subscription = devices[i];
    subscription["device"] = "phone " + std::to_string(i);
    const Json subscribed = request(*ana, "push.subscribe", subscription);
    REQUIRE(subscribed["type"] == "push.subscribe.ok");
    ids.push_back(subscribed["payload"]["id"]);
  }
  CHECK(request(*ana, "push.devices", Json::object())["payload"]["devices"].size() == 3);

  const std::int64_t table = create_table(*ana, kThreePlayers)["id"];
  REQUIRE(request(*ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(*ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(*ana, "table.start", {{"table", table}})["type"] == "table.start.ok");
  ana.reset();  // away, owing a decision

  // Each device once (busy, gone, unknown), then the busy one again once it may be.
  const Json received = push.wait_for(4);
  REQUIRE(received.size() == 4);
  CHECK(received[0]["status"] == 429);
  CHECK(received[1]["status"] == 410);
  CHECK(received[2]["status"] == 404);
  CHECK(received[3]["status"] == 201);
  CHECK(received[3]["endpoint"] == received[0]["endpoint"]);
  for (const Json& message : received) {
    INFO(message.dump());
    CHECK(message["vapid_key"] == key);
    CHECK_FALSE(message.contains("vapid_error"));
    CHECK_FALSE(message.contains("decrypt_error"));
    CHECK(message["encoding"] == "aes128gcm");
    CHECK(message["urgency"] == "high");
    CHECK(message["payload"]["kind"] == "turn");
    CHECK(std::string(message["payload"]["title"]).starts_with("Your turn at "));
    CHECK(message["payload"]["url"] == "/#/table/" + std::to_string(table));
  }
  std::this_thread::sleep_for(1500ms);
  CHECK(push.received().size() == 4);  // nothing more: one notice per turn

  WsClient back(server.address(), server.port());
  REQUIRE(sign_in(back, "Ana_P", kAnasPassword)["type"] == "account.sign_in.ok");
  const Json left = request(back, "push.devices", Json::object())["payload"]["devices"];
  REQUIRE(left.size() == 1);  // those their push service said are gone are forgotten
  CHECK(left[0]["id"] == ids[0]);
  CHECK(left[0]["device"] == "phone 0");
  CHECK(request(back, "push.remove", {{"id", ids[0]}})["type"] == "push.remove.ok");
  CHECK(code_of(request(back, "push.remove", {{"id", ids[0]}})) == "not_found");
  CHECK(request(back, "push.devices", Json::object())["payload"]["devices"].empty());
}

TEST_CASE("kill -9 while 200 notices wait: after a restart every one arrives, none twice but the one in flight",
          "[notices][sqlite]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  const std::vector<std::string> args = mail_args(server_args(dir), smtp.port());
  {
    ServerProcess server(args);
    WsClient ana(server.address(), server.port());
    hello(ana, "Ana");  // player 1, whom the notices are about
    server.signal(SIGTERM);
    REQUIRE(server.wait_for_exit(20s) == 0);
  }
  // 200 notices written as the server writes them, as if many things had just happened.
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(database_of(dir).c_str(), &handle) == SQLITE_OK);
  std::string sql = "BEGIN;";
  for (int i = 1; i <= 200; ++i) {
    const Json payload{{"to", "player" + std::to_string(i) + "@example.org"}, {"username", "Ana_P"},
                       {"address", "new@example.org"}};
    sql += "INSERT INTO notice_outbox (player, channel, kind, payload, due_at, created_at) VALUES (1, 'mail', "
           "'email_changed', '" + payload.dump() + "', 0, " + std::to_string(i) + ");";
  }
  sql += "COMMIT;";
  REQUIRE(sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(handle);

  {
    ServerProcess server(args);
    const auto deadline = Clock::now() + 60s;
    while (smtp.mails().size() < 20 && Clock::now() < deadline) std::this_thread::sleep_for(20ms);
    server.signal(SIGKILL);  // in the middle of the outbox
    server.wait_for_exit(10s);
  }
  const std::size_t before_restart = smtp.mails().size();
  INFO(before_restart << " mails before the kill");
  CHECK(before_restart < 200);
  ServerProcess server(args);
  const Json mails = smtp.wait_for(200, 60s);
  std::set<std::string> ids;
  std::set<std::string> addresses;
  for (const Json& mail : mails) {
    ids.insert(mail["message_id"]);
    addresses.insert(mail["to"]);
  }
  CHECK(addresses.size() == 200);  // every notice arrived
  CHECK(ids.size() == addresses.size());  // each with a Message-ID of its own, the same when sent again
  CHECK(mails.size() - ids.size() <= 1);  // at most the one in flight twice
}

TEST_CASE("a deleted account is gone with its address and devices, and its games stay under another name", "[notices]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  ServerProcess server(mail_args(server_args(dir), smtp.port()));
  auto ana = account_with_address(server, smtp, "Ana_P", "ana@example.org");
  const std::int64_t table = create_table(*ana, kThreePlayers)["id"];
  WsClient other_tab(server.address(), server.port());
  REQUIRE(sign_in(other_tab, "Ana_P", kAnasPassword)["type"] == "account.sign_in.ok");

  CHECK(code_of(request(*ana, "account.delete", {{"password", "not the password"}})) == "bad_credentials");
  REQUIRE(request(*ana, "account.delete", {{"password", kAnasPassword}})["type"] == "account.delete.ok");
  CHECK(closed_with(*ana) == 4001);
  CHECK(closed_with(other_tab) == 4001);

  WsClient stranger(server.address(), server.port());
  CHECK(code_of(sign_in(stranger, "Ana_P", kAnasPassword)) == "bad_credentials");
  REQUIRE(request(stranger, "account.forgot_password", {{"address", "ana@example.org"}})["type"] ==
          "account.forgot_password.ok");
  std::this_thread::sleep_for(1s);
  CHECK(smtp.mails().size() == 1);  // only the verification, long ago: the address is forgotten
  hello(stranger, "Bea");
  const Json listed = request(stranger, "lobby.list", Json::object());
  bool found = false;
  for (const Json& row : listed["payload"]["tables"]) {
    if (row["id"] != table) continue;
    found = true;
    CHECK(row.dump().find("Ana") == std::string::npos);
  }
  CHECK(found);
}

TEST_CASE("a game's end is mailed to its players with the scores, at once", "[notices]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  ServerProcess server(mail_args(server_args(dir), smtp.port()));
  auto ana = account_with_address(server, smtp, "Ana_P", "ana@example.org");
  // Turn notices off for this game: only its end is told.
  REQUIRE(request(*ana, "notices.set_preferences", {{"preferences", {{"turn", {{"mail", false}}}}}})["type"] ==
          "notices.set_preferences.ok");
  const std::int64_t table = create_table(*ana, kThreePlayers)["id"];
  REQUIRE(request(*ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(*ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  REQUIRE(request(*ana, "table.start", {{"table", table}})["type"] == "table.start.ok");
  REQUIRE(request(*ana, "game.resign", {{"table", table}})["type"] == "game.resign.ok");  // the bots play it out
  const Json mails = smtp.wait_for(2, 120s);
  REQUIRE(mails.size() == 2);
  const Json& ended = mails[1];
  CHECK(std::string(ended["subject"]).starts_with("The game at "));
  CHECK(std::string(ended["text"]).find("You placed ") != std::string::npos);
  CHECK(std::string(ended["text"]).find("Scores: Ana_P ") != std::string::npos);
  CHECK(ended["list_unsubscribe_post"] == "List-Unsubscribe=One-Click");
}

TEST_CASE("a player who chose the digest gets one mail listing what waited", "[notices][sqlite]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  const std::vector<std::string> args = mail_args(server_args(dir), smtp.port());
  {
    ServerProcess server(args);
    auto ana = account_with_address(server, smtp, "Ana_P", "ana@example.org");
    REQUIRE(request(*ana, "notices.set_preferences", {{"preferences", {{"digest", true}}}})["type"] ==
            "notices.set_preferences.ok");
    server.signal(SIGTERM);
    REQUIRE(server.wait_for_exit(20s) == 0);
  }
  // Three notices that waited for the digest hour, which has come.
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(database_of(dir).c_str(), &handle) == SQLITE_OK);
  std::string sql;
  for (int table = 1; table <= 3; ++table) {
    sql += "INSERT INTO notice_outbox (player, channel, kind, payload, due_at, created_at) VALUES (1, 'digest', 'turn', '" +
           Json{{"table", table}, {"table_name", "Table " + std::to_string(table)}}.dump() + "', 0, 1);";
  }
  REQUIRE(sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(handle);
  ServerProcess server(args);
  const Json mails = smtp.wait_for(2);
  INFO(mails.dump(1));
  REQUIRE(mails.size() == 2);
  CHECK(mails[1]["subject"] == "El Grande: 3 things happened today");
  for (int table = 1; table <= 3; ++table) {
    CHECK(std::string(mails[1]["text"]).find("Your turn at Table " + std::to_string(table) +
                                             ": http://play.example.org/#/table/" + std::to_string(table)) !=
          std::string::npos);
  }
  std::this_thread::sleep_for(1s);
  CHECK(smtp.mails().size() == 2);  // one mail for the three
}

TEST_CASE("a tournament's entrants are reminded when its check-in opens, then told their table", "[notices]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  std::vector<std::string> args = mail_args(server_args(dir), smtp.port());
  args.insert(args.end(), {"--tournament-reminder-minutes", "0"});
  ServerProcess server(args);
  std::vector<std::unique_ptr<WsClient>> players;
  const std::vector<std::string> names{"Ana_P", "Bea_Q", "Cruz_R", "Dan_S"};
  for (const std::string& name : names) {
    players.push_back(account_with_address(server, smtp, name, name + "@example.org", players.size()));
  }
  // The check-in opens a minute before the start: in two seconds.
  const Json settings = {
      {"stages", {{{"format", "swiss"}, {"rounds", 1}, {"table_sizes", {{"preferred", 3}, {"minimum", 3}}}}}},
      {"starts_at", unix_ms_now() + 62'000},
      {"check_in_minutes", 1}};
  const Json created = request(*players[0], "tournament.create", {{"name", "Spring Cup"}, {"settings", settings}});
  REQUIRE(created["type"] == "tournament.create.ok");
  const std::int64_t id = created["payload"]["tournament"]["id"];
  for (auto& player : players) {
    REQUIRE(request(*player, "tournament.register", {{"tournament", id}})["type"] == "tournament.register.ok");
  }
  REQUIRE(request(*players[2], "tournament.unregister", {{"tournament", id}})["type"] == "tournament.unregister.ok");

  Json mails = smtp.wait_for(7);
  REQUIRE(mails.size() == 7);  // four verifications, three reminders: none for Cruz, who left
  std::set<std::string> reminded;
  for (std::size_t m = 4; m < 7; ++m) {
    CHECK(mails[m]["subject"] == "Spring Cup starts soon");
    CHECK(std::string(mails[m]["text"]).find("Check in now") != std::string::npos);
    reminded.insert(mails[m]["to"]);
  }
  CHECK(reminded == std::set<std::string>{"Ana_P@example.org", "Bea_Q@example.org", "Dan_S@example.org"});

  for (std::size_t p : {0u, 1u, 3u}) {
    REQUIRE(request(*players[p], "tournament.check_in", {{"tournament", id}})["type"] == "tournament.check_in.ok");
  }
  REQUIRE(request(*players[0], "tournament.start", {{"tournament", id}})["type"] == "tournament.start.ok");
  mails = smtp.wait_for(10);
  REQUIRE(mails.size() == 10);
  for (std::size_t m = 7; m < 10; ++m) {
    CHECK(mails[m]["subject"] == "Round 1 of Spring Cup: your table");
    CHECK(std::string(mails[m]["text"]).find("http://play.example.org/#/table/") != std::string::npos);
  }
}

TEST_CASE("mail goes to the relay over STARTTLS or TLS, its certificate checked", "[notices][no-storage]") {
  TempDir dir;
  // A certificate of the relay's own for 127.0.0.1, which no system CA signed.
  const SmtpServer::Certificate certificate{dir.path() / "relay.pem", dir.path() / "relay.key"};
  const Completed made = run_program(
      "/usr/bin/openssl", {"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                           "-subj", "/CN=relay", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout",
                           certificate.key.string(), "-out", certificate.cert.string()});
  REQUIRE(made.exit_code == 0);
  for (const auto& [tls, security] : {std::pair{SmtpServer::Tls::starttls, "starttls"},
                                      std::pair{SmtpServer::Tls::implicit, "tls"}}) {
    INFO(security);
    TempDir run;
    SmtpServer smtp(run.path() / "mail", 0, tls, certificate);
    std::vector<std::string> args = mail_args(server_args(run), smtp.port());
    args.insert(args.end(), {"--smtp-security", security, "--smtp-ca-file", certificate.cert.string()});
    ServerProcess server(args);
    account_with_address(server, smtp, "Ana_P", "ana@example.org");  // the link came, and was followed
    // Without the relay's CA, its certificate is refused: counted, and no mail goes.
    TempDir distrust;
    SmtpServer other(distrust.path() / "mail", 0, tls, certificate);
    std::vector<std::string> trusting_nobody = mail_args(server_args(distrust), other.port());
    trusting_nobody.insert(trusting_nobody.end(), {"--smtp-security", security});
    ServerProcess unsure(trusting_nobody);
    WsClient bea(unsure.address(), unsure.port());
    hello(bea, "Bea");
    REQUIRE(request(bea, "account.sign_up", {{"username", "Bea_Q"}, {"password", kAnasPassword}})["type"] ==
            "account.sign_up.ok");
    REQUIRE(request(bea, "account.set_email", {{"address", "bea@example.org"}})["type"] == "account.set_email.ok");
    const auto deadline = Clock::now() + 10s;
    while (notice_metric(unsure, "elgrande_notices_failed_total") == 0 && Clock::now() < deadline) {
      std::this_thread::sleep_for(50ms);
    }
    CHECK(notice_metric(unsure, "elgrande_notices_failed_total") >= 1);
    CHECK(other.mails().empty());
  }
}
