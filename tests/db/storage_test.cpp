// The server's database thread: writes queued together share one commit, a write is
// reported done only once committed, a lock held elsewhere is waited out (the server
// reports itself unhealthy meanwhile), and a write that fails for good fails alone.

#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <thread>

#include "elgrande/db/schema.hpp"
#include "storage/reader.hpp"
#include "storage/storage.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TestDatabase;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<db::Database> migrated(const TestDatabase& test, int busy_timeout_ms = 5000) {
  // Migrated with the usual patience: other tests' schemas are being made beside it.
  db::migrate(*test.open());
  return test.open(db::OpenOptions{.busy_timeout_ms = busy_timeout_ms});
}

// Another connection in the middle of a write: SQLite's one write lock, or in PostgreSQL a
// lock on the players table that writers of players wait for (and readers do not).
std::unique_ptr<db::Transaction> hold_write_lock(db::Database& other) {
  auto transaction = std::make_unique<db::Transaction>(other);
  if (other.backend() == db::Backend::postgresql) other.execute("LOCK TABLE players IN EXCLUSIVE MODE");
  return transaction;
}

db::PlayerRecord player(std::int64_t id) {
  db::PlayerRecord record{id, "Player " + std::to_string(id), {}, 0};
  std::memcpy(record.token_hash.data(), &id, sizeof id);  // unique, as hashes are
  return record;
}

std::int64_t count_players(const TestDatabase& test) {
  const auto reader = test.open();
  db::Statement count = reader->prepare("SELECT count(*) FROM players");
  count.step();
  return count.integer(0);
}

}  // namespace

TEST_CASE("writes queued while a commit runs go to the disk together, each reported once committed", "[storage]") {
  TestDatabase test;
  auto metrics = std::make_shared<server::Metrics>();
  server::Storage storage(migrated(test), metrics);

  constexpr int kWrites = 500;
  std::atomic<int> committed{0};
  std::promise<void> all_done;
  for (int i = 1; i <= kWrites; ++i) {
    storage.write([i](db::Store& store) { store.insert_player(player(i)); },
                  [&](bool ok) {
                    CHECK(ok);
                    // Done means on the disk: another connection sees it.
                    if (++committed == kWrites) all_done.set_value();
                  });
  }
  REQUIRE(all_done.get_future().wait_for(30s) == std::future_status::ready);
  CHECK(count_players(test) == kWrites);
  CHECK(metrics->db_writes == kWrites);
  // Five hundred writes asked for at once took far fewer commits.
  CHECK(metrics->db_commits < kWrites / 2);
  CHECK(storage.healthy());
}

// A writer with a commit delay, and players written through it, counted as they commit.
struct DelayedStorage {
  TestDatabase test;
  std::shared_ptr<server::Metrics> metrics = std::make_shared<server::Metrics>();
  server::Storage storage;
  std::atomic<int> committed{0};

  explicit DelayedStorage(std::chrono::microseconds delay)
      : storage(migrated(test), metrics, 100'000, {}, delay) {}
  void write(std::int64_t id) {
    storage.write([id](db::Store& store) { store.insert_player(player(id)); }, [this](bool ok) {
      CHECK(ok);
      ++committed;
    });
  }
  bool wait_for(int count, std::chrono::milliseconds patience) {
    const auto until = std::chrono::steady_clock::now() + patience;
    while (committed < count && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    return committed >= count;
  }
};

TEST_CASE("under load a commit waits the commit delay and takes the writes that came meanwhile, and a lone write "
          "does not wait",
          "[storage]") {
  // Long enough that a write that waited for it could not be mistaken for one that did not.
  constexpr auto kDelay = 3s;
  DelayedStorage delayed(kDelay);
  auto& [test, metrics, storage, committed] = delayed;
  const auto write = [&](std::int64_t id) { delayed.write(id); };
  const auto wait_for = [&](int count, std::chrono::milliseconds patience) { return delayed.wait_for(count, patience); };

  // Quiet: each write commits at once, alone.
  const auto quiet_start = std::chrono::steady_clock::now();
  for (int id = 1; id <= 3; ++id) {
    write(id);
    REQUIRE(wait_for(id, 2s));
  }
  CHECK(std::chrono::steady_clock::now() - quiet_start < kDelay / 2);
  CHECK(metrics->db_commits == 3);

  // A burst while a commit is under way: it goes into the next transaction, together. The
  // burst waits until that commit has begun: asked for sooner, on a busy machine, part of
  // it would join the commit held open, and the next would be too small to be a load.
  std::promise<void> gate;
  std::atomic<bool> held{false};
  storage.write([&held, opened = gate.get_future().share()](db::Store&) { held = true, opened.wait(); },
                [&](bool) { ++committed; });
  while (!held) std::this_thread::sleep_for(1ms);
  for (int id = 4; id < 4 + static_cast<int>(server::Storage::kCommitSiblings); ++id) write(id);
  gate.set_value();
  REQUIRE(wait_for(4 + static_cast<int>(server::Storage::kCommitSiblings), 10s));
  const auto commits = metrics->db_commits.load();

  // Under load now: the next write waits the delay, and the writes asked for meanwhile
  // share its commit.
  const auto loaded_start = std::chrono::steady_clock::now();
  for (int id = 100; id < 110; ++id) write(id);
  REQUIRE(wait_for(4 + static_cast<int>(server::Storage::kCommitSiblings) + 10, 20s));
  CHECK(std::chrono::steady_clock::now() - loaded_start >= kDelay);
  CHECK(metrics->db_commits == commits + 1);
}

TEST_CASE("under load a write waits for company at most the commit delay from when it was asked for, time behind "
          "the commit under way included, and not once a commit is full",
          "[storage]") {
  constexpr auto kDelay = 1s;
  DelayedStorage delayed(kDelay);
  auto& [test, metrics, storage, committed] = delayed;
  const auto write = [&](std::int64_t id) { delayed.write(id); };
  const auto wait_for = [&](int count) { return delayed.wait_for(count, 10s); };

  // Two writes in one commit, held open by the first: the server is under load after it.
  std::promise<void> gate;
  std::atomic<bool> held{false};
  storage.write([&held, opened = gate.get_future().share()](db::Store&) { held = true, opened.wait(); },
                [&](bool) { ++committed; });
  write(1);
  while (!held) std::this_thread::sleep_for(1ms);
  // Asked for while that commit is under way, which lasts the whole delay.
  write(2);
  write(3);
  std::this_thread::sleep_for(kDelay);
  const auto opened = std::chrono::steady_clock::now();
  gate.set_value();
  REQUIRE(wait_for(4));
  // They waited their delay behind the commit already: theirs follows at once.
  CHECK(std::chrono::steady_clock::now() - opened < kDelay / 2.0);
  CHECK(metrics->db_commits == 2);

  // Still under load; a commit that enough writes share waits no more.
  const auto full_start = std::chrono::steady_clock::now();
  for (int id = 10; id < 10 + static_cast<int>(server::Storage::kFullCommit); ++id) write(id);
  REQUIRE(wait_for(4 + static_cast<int>(server::Storage::kFullCommit)));
  CHECK(std::chrono::steady_clock::now() - full_start < kDelay / 2.0);
}

TEST_CASE("reads run on their own connection: they see what is committed and never wait for the writer",
          "[storage]") {
  TestDatabase test;
  server::Storage storage(migrated(test, 20), std::make_shared<server::Metrics>());
  server::Reader reader(test.location());
  std::promise<bool> written;
  storage.write([](db::Store& store) { store.insert_player(player(1)); }, [&](bool ok) { written.set_value(ok); });
  REQUIRE(written.get_future().get());

  // Another connection holds the write lock: the writer waits, the reader does not.
  const auto other = test.open();
  auto lock = hold_write_lock(*other);
  std::promise<bool> blocked;
  storage.write([](db::Store& store) { store.insert_player(player(2)); }, [&](bool ok) { blocked.set_value(ok); });
  std::promise<std::size_t> seen;
  reader.read([&](db::Store& store) { seen.set_value(store.players().size()); }, [](const std::string&) {});
  auto players = seen.get_future();
  REQUIRE(players.wait_for(5s) == std::future_status::ready);
  CHECK(players.get() == 1);
  auto second = blocked.get_future();
  CHECK(second.wait_for(100ms) == std::future_status::timeout);
  lock.reset();
  CHECK(second.get());
}

TEST_CASE("a read that fails is answered with the reason, and the next read works", "[storage]") {
  TestDatabase test;
  server::Storage storage(migrated(test), std::make_shared<server::Metrics>());
  server::Reader reader(test.location());
  std::promise<std::string> failed;
  reader.read([](db::Store& store) { store.database().execute("SELECT * FROM no_such_table"); },
              [&](const std::string& why) { failed.set_value(why); });
  CHECK_THAT(failed.get_future().get(), Catch::Contains("no_such_table"));
  std::promise<bool> worked;
  reader.read([&](db::Store& store) { worked.set_value(store.players().empty()); },
              [&](const std::string&) { worked.set_value(false); });
  CHECK(worked.get_future().get());
}

TEST_CASE("a database locked elsewhere is waited out, and nothing is reported done before it commits",
          "[storage]") {
  TestDatabase test;
  auto metrics = std::make_shared<server::Metrics>();
  server::Storage storage(migrated(test, 20), metrics);

  const auto other = test.open();
  auto lock = hold_write_lock(*other);  // holds the write lock
  std::promise<bool> done;
  bool accepting_when_done = false;
  storage.write([](db::Store& store) { store.insert_player(player(1)); }, [&](bool ok) {
    // Whoever hears of the commit may ask for the next change at once.
    accepting_when_done = storage.accepting();
    done.set_value(ok);
  });
  auto result = done.get_future();
  CHECK(result.wait_for(300ms) == std::future_status::timeout);  // still waiting
  CHECK_FALSE(storage.healthy());
  CHECK(metrics->db_errors > 0);
  // Longer than a commit may take before changes are refused.
  std::this_thread::sleep_for(server::Storage::kStalled + 200ms);
  CHECK_FALSE(storage.accepting());

  lock.reset();  // the other connection lets go
  REQUIRE(result.wait_for(10s) == std::future_status::ready);
  CHECK(result.get());
  CHECK(accepting_when_done);
  CHECK(storage.healthy());
  CHECK(count_players(test) == 1);
}

TEST_CASE("a write that fails for good fails alone", "[storage]") {
  TestDatabase test;
  server::Storage storage(migrated(test), std::make_shared<server::Metrics>());
  std::promise<bool> first, broken, last;
  storage.write([](db::Store& store) { store.insert_player(player(1)); },
                [&](bool ok) { first.set_value(ok); });
  storage.write([](db::Store& store) { store.insert_player(player(1)); },  // the same id again
                [&](bool ok) { broken.set_value(ok); });
  storage.write([](db::Store& store) { store.insert_player(player(2)); },
                [&](bool ok) { last.set_value(ok); });
  CHECK(first.get_future().get());
  CHECK_FALSE(broken.get_future().get());
  CHECK(last.get_future().get());
  CHECK(count_players(test) == 2);
}

TEST_CASE("after a table's write is abandoned, its later writes are too, so its log has no gap",
          "[storage]") {
  TestDatabase test;
  server::Storage storage(migrated(test), std::make_shared<server::Metrics>());
  constexpr server::Storage::Stream kTable = 7;
  std::promise<bool> first, broken, later, other;
  storage.write(kTable, [](db::Store& store) { store.insert_player(player(1)); }, [&](bool ok) { first.set_value(ok); });
  storage.write(kTable, [](db::Store& store) { store.insert_player(player(1)); },  // fails for good
                [&](bool ok) { broken.set_value(ok); });
  storage.write(kTable, [](db::Store& store) { store.insert_player(player(2)); }, [&](bool ok) { later.set_value(ok); });
  storage.write(8, [](db::Store& store) { store.insert_player(player(3)); }, [&](bool ok) { other.set_value(ok); });
  CHECK(first.get_future().get());
  CHECK_FALSE(broken.get_future().get());
  CHECK_FALSE(later.get_future().get());  // would commit past the lost write
  CHECK(other.get_future().get());        // another table goes on
  std::promise<bool> much_later;
  storage.write(kTable, [](db::Store& store) { store.insert_player(player(4)); },
                [&](bool ok) { much_later.set_value(ok); });
  CHECK_FALSE(much_later.get_future().get());
  CHECK(count_players(test) == 2);
}

TEST_CASE("past its limit of waiting writes, storage takes no new changes until it drains", "[storage]") {
  TestDatabase test;
  server::Storage storage(migrated(test, 20), std::make_shared<server::Metrics>(), 3);
  const auto other = test.open();
  auto lock = hold_write_lock(*other);  // nothing commits meanwhile
  std::promise<void> all_done;
  std::atomic<int> done = 0;
  for (int i = 1; i <= 3; ++i) {
    storage.write([i](db::Store& store) { store.insert_player(player(i)); }, [&](bool) {
      if (++done == 3) all_done.set_value();
    });
  }
  CHECK(storage.pending() == 3);
  CHECK_FALSE(storage.accepting());
  lock.reset();
  all_done.get_future().wait();
  CHECK(storage.pending() == 0);
  CHECK(storage.accepting());
  CHECK(count_players(test) == 3);
}

TEST_CASE("stopping finishes every write already asked for", "[storage]") {
  TestDatabase test;
  {
    server::Storage storage(migrated(test), std::make_shared<server::Metrics>());
    for (int i = 1; i <= 50; ++i) storage.write([i](db::Store& store) { store.insert_player(player(i)); }, nullptr);
    storage.stop();
  }
  CHECK(count_players(test) == 50);
}
