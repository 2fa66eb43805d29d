// Notices in the database (schema 14, docs/notifications.md): verified addresses and the
// tokens mailed to verify or reset, preferences, the outbox, turn notices told once per game,
// Web Push devices, the server's own keys, and a deleted account's rows going with it; and
// the language its letters are in (schema 15).

#include <catch2/catch.hpp>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"
#include "elgrande/db/notices.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TestDatabase;

namespace {

db::TokenHash hash_of(std::uint8_t fill) {
  db::TokenHash hash;
  hash.fill(static_cast<std::byte>(fill));
  return hash;
}

std::vector<std::byte> bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (const int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

void add_player(db::Database& database, std::int64_t id) {
  const db::TokenHash hash = hash_of(static_cast<std::uint8_t>(id));
  database.prepare("INSERT INTO players (id, name, token_hash, created_at) VALUES (?1, ?2, ?3, 10)")
      .bind(1, id)
      .bind(2, "P" + std::to_string(id))
      .bind(3, std::span<const std::byte>(hash))
      .run();
}

void add_table(db::Database& database, std::int64_t id, std::int64_t host) {
  database
      .prepare("INSERT INTO tables (id, name, host, status, options, turn_seconds, created_at) "
               "VALUES (?1, 'T', ?2, 'open', '{}', 0, 1)")
      .bind(1, id)
      .bind(2, host)
      .run();
}

std::int64_t rows(db::Database& database, const std::string& table) {
  db::Statement count = database.prepare("SELECT count(*) FROM " + table);
  count.step();
  return count.integer(0);
}

struct NoticesFixture {
  TestDatabase db;
  std::unique_ptr<db::Database> database;
  std::optional<db::Store> store;

  NoticesFixture() {
    database = db.open();
    db::migrate(*database);
    store.emplace(*database);
    for (std::int64_t id = 1; id <= 3; ++id) add_player(*database, id);
    add_table(*database, 10, 1);
    add_table(*database, 11, 1);
  }
  db::NoticeStore& notices() { return store->notices(); }
};

db::OutboxNotice notice(std::optional<std::int64_t> player, std::string channel, std::string kind,
                        std::optional<std::int64_t> table, db::UnixMillis due_at) {
  db::OutboxNotice n;
  n.player = player;
  n.channel = std::move(channel);
  n.kind = std::move(kind);
  n.table = table;
  n.payload = R"({"k":")" + n.kind + R"("})";
  n.due_at = due_at;
  n.created_at = 5;
  return n;
}

db::EmailToken token(std::uint8_t fill, std::int64_t player, std::string purpose, db::UnixMillis expires_at) {
  return db::EmailToken{hash_of(fill), player, std::move(purpose), "p" + std::to_string(player) + "@example.org", 100,
                        expires_at, std::nullopt};
}

db::PushSubscriptionRecord device(std::int64_t player, std::string endpoint, std::string name) {
  return db::PushSubscriptionRecord{0, player, std::move(endpoint), "key", "secret", std::move(name), 50};
}

}  // namespace

TEST_CASE("schema 14 adds the notices' tables and keeps what schema 13 held", "[db]") {
  TestDatabase test;
  const auto database = test.open();
  db::migrate(*database, 13);
  REQUIRE(database->user_version() == 13);
  add_player(*database, 1);
  add_table(*database, 10, 1);
  database->execute(
      "INSERT INTO accounts (player, username, password_hash, created_at) VALUES (1, 'ana', 'h', 10);"
      "UPDATE commit_sequence SET n = 7");

  db::migrate(*database);  // through 14, and on: the store reads the latest schema
  CHECK(database->user_version() == db::latest_schema_version());
  db::Store store(*database);
  REQUIRE(store.players().size() == 1);
  CHECK(store.players()[0].name == "P1");
  CHECK(store.accounts().all().size() == 1);
  CHECK(rows(*database, "tables") == 1);
  db::Statement sequence = database->prepare("SELECT n FROM commit_sequence");
  REQUIRE(sequence.step());
  CHECK(sequence.integer(0) == 7);
  for (const char* table : {"emails", "email_tokens", "notice_preferences", "notice_outbox", "notice_turns",
                            "push_subscriptions", "server_keys"}) {
    INFO(table);
    CHECK(rows(*database, table) == 0);
  }
  CHECK(store.notices().tell_of_turn(1, 10, 20));
}

TEST_CASE("addresses are set, replaced, found ignoring case and removed", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  CHECK_FALSE(n.email_of(1));
  n.set_email(2, "Bea@Example.org", 30);
  n.set_email(1, "ana@example.org", 10);
  n.set_email(1, "Ana@Mail.example", 20);  // replaces
  CHECK(n.email_of(1) == db::EmailRecord{1, "Ana@Mail.example", 20});
  n.set_email(3, "bea@EXAMPLE.org", 40);
  CHECK(n.emails() == std::vector<db::EmailRecord>{{1, "Ana@Mail.example", 20},
                                                   {2, "Bea@Example.org", 30},
                                                   {3, "bea@EXAMPLE.org", 40}});
  CHECK(n.emails_at("BEA@example.ORG") ==
        std::vector<db::EmailRecord>{{2, "Bea@Example.org", 30}, {3, "bea@EXAMPLE.org", 40}});
  CHECK(n.emails_at("ana@mail.example") == std::vector<db::EmailRecord>{{1, "Ana@Mail.example", 20}});
  CHECK(n.emails_at("ana@example.org").empty());  // the replaced address is gone
  CHECK(n.emails_at("bea@example.or").empty());
  n.remove_email(2);
  CHECK_FALSE(n.email_of(2));
  CHECK(n.emails().size() == 2);
}

TEST_CASE("a mailed token is used once and before it expires, and newer links and time remove the old", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  const db::EmailToken verify = token(1, 1, "verify", 1000);
  n.insert_token(verify);
  n.insert_token(token(2, 1, "reset", 1000));
  n.insert_token(token(3, 2, "verify", 500));
  CHECK(n.token(verify.hash) == verify);
  CHECK_FALSE(n.token(hash_of(9)));

  CHECK(n.use_token(verify.hash, 999) == verify);  // as it was: unused
  CHECK_FALSE(n.use_token(verify.hash, 999));      // never twice
  CHECK(n.token(verify.hash)->used_at == 999);
  CHECK_FALSE(n.use_token(hash_of(3), 500));  // expired at 500
  CHECK_FALSE(n.token(hash_of(3))->used_at);
  CHECK_FALSE(n.use_token(hash_of(9), 1));  // never issued

  n.remove_tokens(1, "reset");
  CHECK_FALSE(n.token(hash_of(2)));
  CHECK(n.token(verify.hash));  // another purpose stays
  CHECK(n.remove_tokens_before(501) == 1);
  CHECK_FALSE(n.token(hash_of(3)));
  CHECK(n.token(verify.hash));
  CHECK(n.remove_tokens_before(501) == 0);
}

TEST_CASE("preferences are one JSON text per player, replaced when set again", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  CHECK(n.preferences().empty());
  n.set_preferences(2, R"({"turn":"push"})");
  n.set_preferences(1, R"({"turn":"mail"})");
  n.set_preferences(2, R"({"turn":"off"})");
  using Row = std::pair<std::int64_t, std::string>;
  CHECK(n.preferences() == std::vector<Row>{{1, R"({"turn":"mail"})"}, {2, R"({"turn":"off"})"}});
}

TEST_CASE("the outbox gives its notices when due, in order, and keeps them until removed", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  CHECK(n.waiting() == 0);
  CHECK_FALSE(n.next_due());
  CHECK(n.due(1000, 10).empty());

  db::OutboxNotice later = notice(1, "mail", "turn", 10, 300);
  later.attempts = 2;
  later.id = 999;  // ignored
  const std::int64_t a = n.enqueue(later);
  const std::int64_t b = n.enqueue(notice(2, "push", "invitation", std::nullopt, 100));
  const std::int64_t c = n.enqueue(notice(std::nullopt, "mail", "verify", std::nullopt, 100));
  const std::int64_t d = n.enqueue(notice(1, "digest", "result", 11, 200));
  CHECK(a != b);
  CHECK(n.waiting() == 4);
  CHECK(n.next_due() == 100);

  later.id = a;
  CHECK(n.notice(a) == later);
  CHECK_FALSE(n.notice(a + b + c + d));
  const auto due = n.due(200, 10);
  REQUIRE(due.size() == 3);
  CHECK(due[0].id == std::min(b, c));
  CHECK(due[1].id == std::max(b, c));
  CHECK(due[2].id == d);
  CHECK_FALSE(n.notice(c)->player);  // to an address, not a player
  CHECK(n.due(200, 2).size() == 2);
  CHECK(n.due(99, 10).empty());

  n.postpone(b, 500, 1);
  CHECK(n.notice(b)->due_at == 500);
  CHECK(n.notice(b)->attempts == 1);
  n.remove_notice(c);
  CHECK_FALSE(n.notice(c));
  CHECK(n.next_due() == 200);
  CHECK(n.waiting() == 3);
}

TEST_CASE("a player's digest is their due digest notices, and their notices go by channel or all", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  const std::int64_t first = n.enqueue(notice(1, "digest", "result", 10, 100));
  const std::int64_t second = n.enqueue(notice(1, "digest", "turn", 11, 50));
  n.enqueue(notice(1, "digest", "result", 11, 900));  // not yet due
  n.enqueue(notice(1, "mail", "result", 10, 50));
  n.enqueue(notice(2, "digest", "result", 10, 50));
  const auto digest = n.digest_of(1, 100);
  REQUIRE(digest.size() == 2);
  CHECK(digest[0].id == first);
  CHECK(digest[1].id == second);

  n.remove_notices(1, "digest");
  CHECK(n.digest_of(1, 1000).empty());
  CHECK(n.waiting() == 2);
  n.remove_notices(1, std::nullopt);
  CHECK(n.waiting() == 1);
  CHECK(n.digest_of(2, 100).size() == 1);
}

TEST_CASE("a player is told of their turn at a game once, until they play there", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  CHECK(n.tell_of_turn(1, 10, 100));
  CHECK_FALSE(n.tell_of_turn(1, 10, 200));
  CHECK(n.tell_of_turn(1, 11, 200));  // another game
  CHECK(n.tell_of_turn(2, 10, 200));  // another player
  const std::int64_t turn = n.enqueue(notice(1, "push", "turn", 10, 100));
  const std::int64_t turn_elsewhere = n.enqueue(notice(1, "push", "turn", 11, 100));
  const std::int64_t others_turn = n.enqueue(notice(2, "push", "turn", 10, 100));
  const std::int64_t result = n.enqueue(notice(1, "mail", "result", 10, 100));

  n.played(1, 10);
  CHECK_FALSE(n.notice(turn));
  CHECK(n.notice(turn_elsewhere));
  CHECK(n.notice(others_turn));
  CHECK(n.notice(result));
  CHECK(n.tell_of_turn(1, 10, 300));
  CHECK_FALSE(n.tell_of_turn(1, 11, 300));
  CHECK_FALSE(n.tell_of_turn(2, 10, 300));
}

TEST_CASE("Web Push devices: added, moved by their endpoint, listed and removed", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  const std::int64_t phone = n.add_subscription(device(1, "https://push.example/a", "phone"));
  const std::int64_t laptop = n.add_subscription(device(1, "https://push.example/b", "laptop"));
  CHECK(phone != laptop);
  CHECK(n.subscriptions_of(1) ==
        std::vector<db::PushSubscriptionRecord>{{phone, 1, "https://push.example/a", "key", "secret", "phone", 50},
                                                {laptop, 1, "https://push.example/b", "key", "secret", "laptop", 50}});

  // The laptop's browser subscribes again for player 2, with new keys: one row, now player 2's.
  db::PushSubscriptionRecord again{0, 2, "https://push.example/b", "key2", "secret2", "Bea's laptop", 70};
  const std::int64_t moved = n.add_subscription(again);
  again.id = moved;
  CHECK(n.subscriptions_of(1).size() == 1);
  CHECK(n.subscriptions_of(2) == std::vector<db::PushSubscriptionRecord>{again});
  CHECK(n.subscriptions().size() == 2);

  CHECK_FALSE(n.remove_subscription(1, moved));  // not player 1's
  CHECK(n.remove_subscription(2, moved));
  CHECK_FALSE(n.remove_subscription(2, moved));
  n.remove_subscription(phone);
  CHECK(n.subscriptions().empty());
}

TEST_CASE("the server's keys are made once: the first value stored stays", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  const auto first = bytes({0, 1, 2, 255});
  const auto second = bytes({9, 9});
  CHECK(n.keep_server_key("vapid", first) == first);
  CHECK(n.keep_server_key("vapid", second) == first);
  CHECK(n.keep_server_key("unsubscribe", second) == second);
  CHECK_THROWS_AS(n.keep_server_key("hmac", bytes({})), std::invalid_argument);  // a key is never empty
}

namespace {

// Every notices row of player `p`, on games 10 and 11.
void fill_player(db::NoticeStore& n, std::int64_t p, std::uint8_t token_fill) {
  n.set_email(p, "p" + std::to_string(p) + "@example.org", 10);
  n.insert_token(token(token_fill, p, "verify", 1000));
  n.set_preferences(p, "{}");
  n.enqueue(notice(p, "mail", "turn", 10, 100));
  n.enqueue(notice(p, "digest", "result", 11, 100));
  n.tell_of_turn(p, 10, 100);
  n.add_subscription(device(p, "https://push.example/" + std::to_string(p), "phone"));
}

std::vector<std::int64_t> counts(db::Database& database, std::int64_t player) {
  std::vector<std::int64_t> out;
  for (const char* table :
       {"emails", "email_tokens", "notice_preferences", "notice_outbox", "notice_turns", "push_subscriptions"}) {
    db::Statement count = database.prepare(std::string("SELECT count(*) FROM ") + table + " WHERE player = ?1");
    count.bind(1, player);
    count.step();
    out.push_back(count.integer(0));
  }
  return out;
}

}  // namespace

TEST_CASE("a deleted account's notices go with it, and nobody else's", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  fill_player(n, 1, 1);
  fill_player(n, 2, 2);
  const std::vector<std::int64_t> whole{1, 1, 1, 2, 1, 1};
  REQUIRE(counts(*f.database, 1) == whole);
  n.keep_server_key("vapid", bytes({1}));

  n.forget_player(1);
  CHECK(counts(*f.database, 1) == std::vector<std::int64_t>(6, 0));
  CHECK(counts(*f.database, 2) == whole);
  CHECK(rows(*f.database, "server_keys") == 1);
}

TEST_CASE("rows of a player or a game deleted from the database go with them", "[db]") {
  NoticesFixture f;
  auto& n = f.notices();
  fill_player(n, 2, 2);
  fill_player(n, 3, 3);
  n.tell_of_turn(2, 11, 100);

  f.store->delete_table(10);  // the game goes, and with it the turn notices told of it
  CHECK(rows(*f.database, "notice_turns") == 1);
  CHECK_FALSE(n.tell_of_turn(2, 11, 200));

  f.database->execute("DELETE FROM players WHERE id = 3");
  CHECK(counts(*f.database, 3) == std::vector<std::int64_t>(6, 0));
  CHECK(counts(*f.database, 2) == std::vector<std::int64_t>{1, 1, 1, 2, 1, 1});
  CHECK(n.email_of(2));
  CHECK(n.subscriptions().size() == 1);
}

TEST_CASE("schema 15 gives accounts a language, none until chosen, and it reads back as set", "[db]") {
  TestDatabase test;
  const auto database = test.open();
  db::migrate(*database, 14);
  add_player(*database, 1);
  add_player(*database, 2);
  database->execute("INSERT INTO accounts (player, username, password_hash, created_at) VALUES (1, 'ana', 'h', 10)");
  db::migrate(*database);
  CHECK(database->user_version() >= 15);
  db::Store store(*database);
  REQUIRE(store.accounts().all().size() == 1);
  CHECK_FALSE(store.accounts().all()[0].language);  // an account from before: not chosen
  CHECK_FALSE(store.accounts().language(1));
  CHECK_FALSE(store.accounts().language(2));  // a guest has none
  store.accounts().set_language(1, "pl");
  CHECK(store.accounts().language(1) == "pl");
  store.accounts().insert({2, "bea", "h", "player", 20, "hu"});
  CHECK(store.accounts().find("BEA")->language == "hu");
  store.accounts().set_language(2, std::nullopt);
  CHECK_FALSE(store.accounts().all()[1].language);
}

TEST_CASE("schema 16: a table keeps its secrets or not, and a game's reviews are kept once and counted per asker",
          "[db]") {
  TestDatabase test;
  const auto database = test.open();
  db::migrate(*database, 15);
  add_player(*database, 1);
  add_player(*database, 2);
  add_table(*database, 7, 1);
  db::migrate(*database);
  db::Store store(*database);
  db::TableRecord table = *store.table(7);
  CHECK_FALSE(table.secrets_closed);  // a table from before: open, as every game was
  table.secrets_closed = true;
  store.save_table(table);
  CHECK(store.table(7)->secrets_closed);

  db::ReviewStore& reviews = store.reviews();
  CHECK_FALSE(reviews.find(7, 3, "strong"));
  reviews.save({7, 3, "strong", R"({"v":3})", 1, 1000});
  reviews.save({7, 3, "strong", R"({"v":"again"})", 2, 2000});  // the first answer stays
  reviews.save({7, 9, "strong", R"({"v":9})", 1, 5000});
  CHECK(reviews.find(7, 3, "strong")->result == R"({"v":3})");
  CHECK(reviews.find(7, 3, "strong")->asked_by == 1);
  CHECK(reviews.asked_since(1, 0) == 2);
  CHECK(reviews.asked_since(1, 2000) == 1);
  CHECK(reviews.asked_since(2, 0) == 0);
  const auto kept = reviews.of_table(7);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].version == 3);
  CHECK(kept[1].version == 9);
  CHECK(reviews.of_table(8).empty());
}
