// The PostgreSQL backend's own behaviour: the SQL it is given in SQLite's dialect, its
// failures as typed errors, and a connection lost and opened again.

#include <catch2/catch.hpp>

#include "elgrande/db/leader_lease.hpp"
#include "elgrande/db/postgres.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TestDatabase;

namespace {

db::PlayerRecord player(std::int64_t id, const std::string& name) {
  db::PlayerRecord record{id, name, {}, 10 * id};
  record.token_hash[0] = static_cast<std::byte>(id);  // unique, as hashes are
  return record;
}

}  // namespace

TEST_CASE("numbered parameters become PostgreSQL's, and quoted text and comments are left alone", "[db]") {
  CHECK(db::postgres_parameters("SELECT ?1, ?12 FROM t WHERE a = ?2") == "SELECT $1, $12 FROM t WHERE a = $2");
  CHECK(db::postgres_parameters("SELECT '?1', \"?2\" -- ?3\nFROM t WHERE x = ?4") ==
        "SELECT '?1', \"?2\" -- ?3\nFROM t WHERE x = $4");
  CHECK(db::postgres_parameters("SELECT 'it''s ?1', ?2") == "SELECT 'it''s ?1', $2");
  CHECK_THROWS_AS(db::postgres_parameters("SELECT ? FROM t"), std::invalid_argument);
}

TEST_CASE("PostgreSQL's failures arrive as typed errors, and a lost connection is opened again",
          "[db][postgresql]") {
  TestDatabase test;
  REQUIRE(test.postgresql());
  const auto database = test.open();
  db::migrate(*database);
  db::Store store(*database);
  store.insert_player(player(1, "Ana"));

  SECTION("a constraint") {
    try {
      store.insert_player(player(1, "Ana again"));
      FAIL("two players with one id");
    } catch (const db::Error& error) {
      CHECK(error.kind() == db::Error::Kind::constraint);
      CHECK_FALSE(error.transient());
    }
  }
  SECTION("a connection ended by the server between transactions fails once, then is opened again") {
    db::Statement pid = database->prepare("SELECT pg_backend_pid()");
    REQUIRE(pid.step());
    test.open()->prepare("SELECT pg_terminate_backend(?1)").bind(1, pid.integer(0)).run();
    try {
      store.players();
      FAIL("a statement on a terminated connection worked");
    } catch (const db::Error& error) {
      CHECK(error.kind() == db::Error::Kind::io);
      CHECK(error.transient());
    }
    CHECK(store.players().size() == 1);
  }
  SECTION("a connection lost in a transaction fails the transaction, not only a statement") {
    db::Statement pid = database->prepare("SELECT pg_backend_pid()");
    REQUIRE(pid.step());
    const std::int64_t backend = pid.integer(0);
    pid.reset();
    {
      db::Transaction transaction(*database);
      store.insert_player(player(2, "Bea"));
      test.open()->prepare("SELECT pg_terminate_backend(?1)").bind(1, backend).run();
      CHECK_THROWS_AS(store.insert_player(player(3, "Cai")), db::Error);
      CHECK_THROWS_AS(transaction.commit(), db::Error);
    }
    CHECK(store.players().size() == 1);  // Bea was never committed
  }
}

TEST_CASE("writes sent without waiting in a transaction: read back in it, all or none committed, the first failure told",
          "[db][postgresql]") {
  TestDatabase test;
  REQUIRE(test.postgresql());
  const auto database = test.open();
  database->execute("CREATE TABLE moves (n BIGINT PRIMARY KEY, text TEXT NOT NULL)");
  db::Statement put = database->prepare("INSERT INTO moves (n, text) VALUES (?1, ?2)");
  const auto count = [&] {
    db::Statement rows = database->prepare("SELECT count(*) FROM moves");
    rows.step();
    return rows.integer(0);
  };

  SECTION("a read in the transaction sees what was sent before it, and more writes than are held unread commit") {
    db::Transaction transaction(*database);
    put.bind(1, 1).bind(2, "first").send();
    CHECK(count() == 1);
    for (int n = 2; n <= 1000; ++n) put.bind(1, n).bind(2, "move").send();
    transaction.commit();
    CHECK(count() == 1000);
  }
  SECTION("a write that fails fails the commit with its own error, and nothing of the transaction stays") {
    put.bind(1, 1).bind(2, "kept").send();  // outside a transaction: at once
    {
      db::Transaction transaction(*database);
      put.bind(1, 2).bind(2, "lost").send();
      put.bind(1, 1).bind(2, "twice").send();  // refused, but not told yet
      put.bind(1, 3).bind(2, "lost too").send();
      try {
        transaction.commit();
        FAIL("a transaction with a refused write committed");
      } catch (const db::Error& error) {
        CHECK(error.kind() == db::Error::Kind::constraint);
        CHECK_THAT(error.what(), Catch::Contains("moves_pkey"));
      }
    }
    CHECK(count() == 1);
    // The connection goes on, in and out of transactions.
    db::Transaction again(*database);
    put.bind(1, 2).bind(2, "second").send();
    again.commit();
    CHECK(count() == 2);
  }
  SECTION("a statement first prepared in a failed pipeline is prepared again after it") {
    {
      db::Transaction transaction(*database);
      put.bind(1, 1).bind(2, "a").send();
      put.bind(1, 1).bind(2, "a again").send();  // refused: the server skips what follows
      database->prepare("INSERT INTO moves (n, text) VALUES (?1, 'b')").bind(1, 2).send();  // never prepared
      CHECK_THROWS_AS(transaction.commit(), db::Error);
    }
    db::Transaction transaction(*database);
    database->prepare("INSERT INTO moves (n, text) VALUES (?1, 'b')").bind(1, 5).send();
    transaction.commit();
    CHECK(count() == 1);
  }
}

TEST_CASE("a leader whose epoch is over commits nothing: its fence fails the transaction in the commit's answer",
          "[db][postgresql]") {
  TestDatabase test;
  REQUIRE(test.postgresql());
  const auto database = test.open();
  db::migrate(*database);
  db::LeaderLease lease(*database);
  const std::int64_t first = lease.take_over("first", 1);
  db::Store store(*database);
  const auto players = [&] {
    db::Statement rows = database->prepare("SELECT count(*) FROM players");
    rows.step();
    return rows.integer(0);
  };

  db::Transaction leading(*database);
  db::LeaderLease::require_epoch(*database, first);
  store.insert_player(player(1, "Ana"));
  leading.commit();
  REQUIRE(players() == 1);

  const std::int64_t second = lease.take_over("second", 2);
  REQUIRE(second == first + 1);
  CHECK_FALSE(db::LeaderLease::current_epoch(*database, first));
  CHECK(db::LeaderLease::current_epoch(*database, second));
  // The refusal comes with the first answer waited for: the commit's, or a statement's
  // that reads one.
  const auto late_commit = [&] {
    db::Transaction late(*database);
    db::LeaderLease::require_epoch(*database, first);
    store.insert_player(player(2, "Bea"));
    late.commit();
  };
  CHECK_THROWS_WITH(late_commit(), Catch::Contains("another process took over as leader"));
  CHECK(players() == 1);
  db::Transaction current(*database);
  db::LeaderLease::require_epoch(*database, second);
  store.insert_player(player(2, "Bea"));
  current.commit();
  CHECK(players() == 2);
}
