// Sanctions without sockets: how long they hold, what the person concerned reads, and that
// a change is kept only once saved with its audit entry.

#include <catch2/catch.hpp>
#include <future>
#include <memory>

#include "server/server_fixtures.hpp"
#include "elgrande/db/schema.hpp"
#include "moderation/sanctions.hpp"
#include "storage/storage.hpp"
#include "support/temp_dir.hpp"

namespace db = elgrande::db;
using namespace elgrande::server;
using namespace elgrande::test;
using elgrande::test::TempDir;

namespace {

// A moderator (1) and a player (2).
std::unique_ptr<db::Database> with_mod_and_bea(const std::filesystem::path& file) {
  auto database = migrated(file);
  database->execute("INSERT INTO players (id, name, token_hash, created_at) VALUES (1, 'Mod', zeroblob(32), 0), "
                    "(2, 'Bea', randomblob(32), 0)");
  return database;
}

}  // namespace

TEST_CASE("a sanction holds until its time, says why, and is saved with its audit entry", "[moderation]") {
  TempDir dir;
  Storage storage(with_mod_and_bea(dir.path() / "m.sqlite"), std::make_shared<Metrics>());
  Sanctions sanctions(storage);
  const db::UnixMillis noon = 1'795'435'200'000;  // 2026-11-23 12:00 UTC
  std::promise<bool> saved;
  sanctions.set(2, SanctionKind::mute, Sanction{noon + 3'600'000, "shouting"}, {0, noon, 1, "mute", 2, "1 h", "shouting"},
                [&saved](bool ok) { saved.set_value(ok); });
  REQUIRE(saved.get_future().get());
  const auto muted = sanctions.in_force(2, SanctionKind::mute, noon);
  REQUIRE(muted);
  CHECK(describe(SanctionKind::mute, *muted) == "muted until 2026-11-23 13:00 UTC: shouting");
  CHECK_FALSE(sanctions.in_force(2, SanctionKind::ban, noon));
  CHECK_FALSE(sanctions.in_force(1, SanctionKind::mute, noon));
  CHECK_FALSE(sanctions.in_force(2, SanctionKind::mute, noon + 3'600'000));  // over on the minute

  std::promise<bool> banned;
  sanctions.set(2, SanctionKind::ban, Sanction{std::nullopt, "threats"}, {0, noon, 1, "ban", 2, "permanent", "threats"},
                [&banned](bool ok) { banned.set_value(ok); });
  REQUIRE(banned.get_future().get());
  CHECK(describe(SanctionKind::ban, *sanctions.in_force(2, SanctionKind::ban, noon + 1'000'000'000'000)) ==
        "banned until a moderator lifts it: threats");
  storage.stop();

  db::SqliteDatabase database(dir.path() / "m.sqlite");
  db::Store store(database);
  Storage other(with_mod_and_bea(dir.path() / "other.sqlite"), std::make_shared<Metrics>());
  Sanctions restarted(other);
  restarted.restore(store.moderation().sanctions());
  CHECK(restarted.in_force(2, SanctionKind::ban, noon));
  CHECK(restarted.in_force(2, SanctionKind::mute, noon)->reason == "shouting");
  CHECK(store.moderation().audit_log(std::nullopt, 10).size() == 2);
}
