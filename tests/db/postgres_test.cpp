// The PostgreSQL backend's own behaviour: the SQL it is given in SQLite's dialect, its
// failures as typed errors, and a connection lost and opened again.

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <future>
#include <thread>

#include "elgrande/db/id_blocks.hpp"
#include "elgrande/db/leader_lease.hpp"
#include "elgrande/db/postgres.hpp"
#include "elgrande/db/processes.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/db/table_owners.hpp"
#include "elgrande/db/write_fence.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TestDatabase;

namespace {

db::PlayerRecord player(std::int64_t id, const std::string& name) {
  db::PlayerRecord record{id, name, {}, 10 * id};
  record.token_hash[0] = static_cast<std::byte>(id);  // unique, as hashes are
  return record;
}

db::TableRecord open_table(std::int64_t id) {
  db::TableRecord table;
  table.id = id;
  table.name = "Table " + std::to_string(id);
  table.host = 1;
  table.status = "open";
  table.options = R"({"players":2})";
  table.turn_seconds = 86400;
  table.created_at = 1000;
  return table;
}

// Ana, and her open tables 1 and 2.
void hosts_two_tables(db::Store& store) {
  store.insert_player(player(1, "Ana"));
  for (const std::int64_t id : {1, 2}) store.save_table(open_table(id));
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
  db::hold_writes(*database, "first");
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
    db::hold_writes(*database, "first");
    db::LeaderLease::require_epoch(*database, first);
    store.insert_player(player(2, "Bea"));
    late.commit();
  };
  CHECK_THROWS_WITH(late_commit(), Catch::Contains("another process took over as leader"));
  CHECK(players() == 1);
  db::Transaction current(*database);
  db::hold_writes(*database, "second");
  db::LeaderLease::require_epoch(*database, second);
  store.insert_player(player(2, "Bea"));
  current.commit();
  CHECK(players() == 2);

  // A take-over waits for the leader's transactions under way.
  db::Transaction under_way(*database);
  db::hold_writes(*database, "second");
  db::LeaderLease::require_epoch(*database, second);
  database->prepare("SELECT 1").step();  // answered: the leader's lock is held
  const auto other = test.open();
  other->execute("SET lock_timeout = '300ms'");
  db::LeaderLease third(*other);
  CHECK_THROWS_WITH(third.take_over("third", 3), Catch::Contains("lock timeout"));
}

TEST_CASE("a process that lost a table commits nothing more for it, and its other tables commit without it",
          "[db][postgresql]") {
  TestDatabase test;
  REQUIRE(test.postgresql());
  const auto database = test.open();
  db::migrate(*database);
  db::Store store(*database);
  hosts_two_tables(store);
  const auto taken = [&](const std::vector<std::int64_t>& tables, const std::string& process) {
    db::Transaction transaction(*database);
    auto epochs = db::take_tables(*database, tables, process, 5);
    transaction.commit();
    return epochs;
  };
  const auto renamed = [&](std::span<const db::TableEpoch> held, const std::string& name,
                           const std::string& owner = "first") {
    db::Transaction transaction(*database);
    db::hold_writes(*database, owner);
    db::require_tables(*database, held);
    for (const db::TableEpoch& table : held) {
      database->prepare("UPDATE tables SET name = ?2 WHERE id = ?1").bind(1, table.table).bind(2, name).send();
    }
    transaction.commit();
  };
  const auto name_of = [&](std::int64_t table) {
    db::Statement row = database->prepare("SELECT name FROM tables WHERE id = ?1");
    row.bind(1, table).step();
    return row.text(0);
  };

  const std::vector<db::TableEpoch> first = taken({1, 2}, "first");
  CHECK(first == std::vector<db::TableEpoch>{{1, 1}, {2, 1}});
  renamed(first, "by first");
  CHECK(name_of(1) == "by first");
  CHECK(db::tables_lost(*database, first).empty());

  // Another process takes table 2: the first one's transaction that writes both commits
  // nothing, and says why in the commit's answer; table 1 alone still commits.
  CHECK(taken({2}, "second") == std::vector<db::TableEpoch>{{2, 2}});
  CHECK(db::table_owner(*database, 2) == "second");
  CHECK_THROWS_WITH(renamed(first, "late"), Catch::Contains("a table moved to another process"));
  CHECK(name_of(1) == "by first");
  CHECK(name_of(2) == "by first");
  CHECK(db::tables_lost(*database, first) == std::vector<std::int64_t>{2});
  renamed(std::span(first).first(1), "first alone");
  CHECK(name_of(1) == "first alone");
  renamed(std::vector<db::TableEpoch>{{2, 2}}, "by second", "second");
  CHECK(name_of(2) == "by second");

  SECTION("a take waits for the owner's transactions under way") {
    db::Transaction owner(*database);
    db::hold_writes(*database, "second");
    db::require_tables(*database, std::vector<db::TableEpoch>{{2, 2}});
    database->prepare("SELECT 1").step();  // answered: the owner's lock is held
    const auto other = test.open();
    other->execute("SET lock_timeout = '300ms'");
    db::Transaction taking(*other);
    CHECK_THROWS_WITH(db::take_tables(*other, std::vector<std::int64_t>{2}, "third", 6),
                      Catch::Contains("lock timeout"));
  }
  SECTION("the owner's transaction that begins during a take waits for it, then sees the table gone") {
    const auto other = test.open();
    db::Transaction taking(*other);
    CHECK(db::take_tables(*other, std::vector<std::int64_t>{2}, "third", 6) == std::vector<db::TableEpoch>{{2, 3}});
    auto late = std::async(std::launch::async, [&] { renamed(std::vector<db::TableEpoch>{{2, 2}}, "late", "second"); });
    CHECK(late.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);  // held back
    taking.commit();
    CHECK_THROWS_WITH(late.get(), Catch::Contains("a table moved to another process"));
    CHECK(name_of(2) == "by second");
  }
  SECTION("a new table whose id a process owns already is not taken from it: its transaction fails") {
    store.save_table(open_table(3));
    const auto create = [&](std::int64_t table) {
      db::Transaction creating(*database);
      db::take_new_table(*database, table, "third", 6);
      creating.commit();
    };
    create(3);
    CHECK(db::table_owner(*database, 3) == "third");
    CHECK_THROWS_AS(create(2), db::Error);
    CHECK(db::table_owner(*database, 2) == "second");
  }
  SECTION("a deleted table's owner goes with it") {
    store.delete_table(2);
    CHECK_FALSE(db::table_owner(*database, 2));
  }
}

TEST_CASE("processes on one database reserve blocks of ids that never meet, above every id stored",
          "[db][postgresql]") {
  TestDatabase test;
  REQUIRE(test.postgresql());
  const auto first = test.open();
  db::migrate(*first);
  const auto second = test.open();
  const auto reserved = [](db::Database& database, db::IdKind kind, std::int64_t count) {
    db::Transaction transaction(database);
    const db::IdBlock block = db::reserve_ids(database, kind, count);
    transaction.commit();
    return block;
  };
  CHECK(reserved(*first, db::IdKind::table, 1000) == db::IdBlock{1, 1001});
  CHECK(reserved(*second, db::IdKind::table, 1000) == db::IdBlock{1001, 2001});
  CHECK(reserved(*first, db::IdKind::table, 10) == db::IdBlock{2001, 2011});
  CHECK(reserved(*second, db::IdKind::chat_line, 5) == db::IdBlock{1, 6});  // each kind counts alone

  // A player stored without a block (`--create-admin` takes the highest id plus one, and
  // a database from before blocks has its ids): the next block starts above it.
  db::Store store(*first);
  store.insert_player(player(7000, "Admin"));
  CHECK(reserved(*second, db::IdKind::player, 100) == db::IdBlock{7001, 7101});
  CHECK(reserved(*first, db::IdKind::player, 100) == db::IdBlock{7101, 7201});

  SECTION("a reservation waits for another under way, then starts after it") {
    db::Transaction under_way(*first);
    CHECK(db::reserve_ids(*first, db::IdKind::table, 100) == db::IdBlock{2011, 2111});
    auto waiting = std::async(std::launch::async, [&] { return reserved(*second, db::IdKind::table, 100); });
    CHECK(waiting.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
    under_way.commit();
    CHECK(waiting.get() == db::IdBlock{2111, 2211});
  }
  SECTION("a reservation rolled back is given again: nothing was handed out from it") {
    {
      db::Transaction abandoned(*first);
      CHECK(db::reserve_ids(*first, db::IdKind::table, 100) == db::IdBlock{2011, 2111});
    }
    CHECK(reserved(*second, db::IdKind::table, 100) == db::IdBlock{2011, 2111});
  }
}

TEST_CASE("SQLite's one process counts its ids itself: no blocks there", "[db][sqlite]") {
  TestDatabase test;
  const auto database = test.open();
  db::migrate(*database);
  CHECK_THROWS_AS(db::reserve_ids(*database, db::IdKind::table, 10), std::logic_error);
}

TEST_CASE("the processes on one database are listed while their connections hold their locks, and those gone are removed",
          "[db][postgresql]") {
  TestDatabase test;
  REQUIRE(test.postgresql());
  const auto coordinator = test.open();
  db::migrate(*coordinator);
  auto a = test.open();
  auto b = test.open();
  db::join_processes(*a, "host:1:100", "127.0.0.1:8081", 100);
  db::join_processes(*b, "host:2:200", "127.0.0.1:8082", 200);
  CHECK_THROWS_WITH(db::join_processes(*coordinator, "host:2:200", "elsewhere", 300),
                    Catch::Contains("another process holds the lock"));
  auto listed = db::processes(*coordinator);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].id == "host:1:100");
  CHECK(listed[0].address == "127.0.0.1:8081");
  CHECK(listed[1].registered == 200);
  CHECK((listed[0].live && listed[1].live && !listed[1].draining));
  CHECK(db::holds_membership(*a, "host:1:100"));
  CHECK_FALSE(db::holds_membership(*a, "host:2:200"));
  CHECK(db::remove_gone_processes(*coordinator).empty());

  b.reset();  // its connection ends, as when the process dies
  const auto gone = [&] {
    for (int tries = 0; tries < 50; ++tries) {  // PostgreSQL lets the lock go as the session ends
      const auto now = db::processes(*coordinator);
      if (now.size() == 2 && !now[1].live) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  };
  REQUIRE(gone());
  CHECK(db::remove_gone_processes(*coordinator) == std::vector<std::string>{"host:2:200"});
  CHECK(db::processes(*coordinator).size() == 1);

  // Joining again (a connection lost and opened again) keeps the row and takes the lock.
  db::join_processes(*a, "host:1:100", "127.0.0.1:9091", 100);
  CHECK(db::processes(*coordinator).at(0).address == "127.0.0.1:9091");
  db::leave_processes(*a, "host:1:100");
  CHECK(db::processes(*coordinator).empty());
  CHECK_FALSE(db::holds_membership(*a, "host:1:100"));
}

TEST_CASE("each command is recorded with the epoch its writer held its table in", "[db][postgresql]") {
  TestDatabase test;
  REQUIRE(test.postgresql());
  const auto database = test.open();
  db::migrate(*database);
  db::Store store(*database);
  hosts_two_tables(store);
  const auto command = [](std::int64_t seq) { return db::LoggedCommand{seq, 0, "{}", db::Source::player, 100 * seq}; };
  store.append_commands(1, std::vector<db::LoggedCommand>{command(1)});  // nothing to tell: 0
  store.record_epochs([](std::int64_t table) { return table == 1 ? 3 : 7; });
  store.append_commands(1, std::vector<db::LoggedCommand>{command(2), command(3)});
  store.append_commands(2, std::vector<db::LoggedCommand>{command(1)});
  db::Statement rows = database->prepare("SELECT table_id, seq, epoch FROM commands ORDER BY table_id, seq");
  std::vector<std::array<std::int64_t, 3>> found;
  while (rows.step()) found.push_back({rows.integer(0), rows.integer(1), rows.integer(2)});
  CHECK(found == std::vector<std::array<std::int64_t, 3>>{{1, 1, 0}, {1, 2, 3}, {1, 3, 3}, {2, 1, 7}});
}
