// The ids a server hands out (server/common/id_supply.hpp): one after another alone on
// SQLite; from blocks the database reserves when several processes share PostgreSQL, the
// next block asked for at half the one in hand, and a request refused rather than kept
// waiting when a burst uses them all first.

#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <vector>

#include "common/id_supply.hpp"

using namespace elgrande::server;
using elgrande::db::IdBlock;

namespace {

// Stands in for the database thread: records what is asked, and grants when told.
struct Reservations {
  std::vector<IdSupply::Granted> asked;
  std::int64_t next = 5001;  // the first id no one has reserved

  IdSupply::Reserve reserve() {
    return [this](std::int64_t count, IdSupply::Granted granted) {
      CHECK(count == IdSupply::kBlock);
      asked.push_back(std::move(granted));
    };
  }
  void grant() {
    const IdBlock block{next, next + IdSupply::kBlock};
    next = block.end;
    std::exchange(asked, {}).back()(block);
  }
};

std::vector<std::int64_t> take(IdSupply& ids, std::int64_t count) {
  std::vector<std::int64_t> taken;
  for (std::int64_t i = 0; i < count; ++i) taken.push_back(ids.take().value());
  return taken;
}

}  // namespace

TEST_CASE("alone, ids count on from the highest stored, past every id restored", "[ids]") {
  IdSupply ids = IdSupply::after(41);
  CHECK(ids.take() == 42);
  ids.skip_past(50);
  CHECK(ids.take() == 51);
  ids.skip_past(10);  // below what was handed out: nothing changes
  CHECK(ids.take() == 52);
  IdSupply copy = ids;  // copies share one supply
  CHECK(copy.take() == 53);
  CHECK(ids.take() == 54);
}

TEST_CASE("from blocks: the next one is asked for once half is used, and taken up when the first runs out",
          "[ids]") {
  Reservations database;
  IdSupply ids({1, 1 + IdSupply::kBlock}, database.reserve());
  const auto first_half = take(ids, IdSupply::kBlock / 2 - 1);
  CHECK(first_half.front() == 1);
  CHECK(database.asked.empty());
  CHECK(ids.take() == IdSupply::kBlock / 2);
  REQUIRE(database.asked.size() == 1);  // half left: the next block is asked for
  take(ids, 10);
  CHECK(database.asked.size() == 1);  // once
  database.grant();
  const auto rest = take(ids, IdSupply::kBlock / 2 - 10);
  CHECK(rest.back() == IdSupply::kBlock);
  CHECK(ids.take() == 5001);  // the reserved block, whatever its first id
  CHECK(database.asked.empty());  // a whole block in hand again
}

TEST_CASE("a burst that uses every id before the next block comes is refused, then served once it comes",
          "[ids]") {
  Reservations database;
  IdSupply ids({1, 1 + IdSupply::kBlock}, database.reserve());
  std::set<std::int64_t> seen;
  for (const std::int64_t id : take(ids, IdSupply::kBlock)) seen.insert(id);
  CHECK(seen.size() == static_cast<std::size_t>(IdSupply::kBlock));
  CHECK_FALSE(ids.take());
  CHECK(database.asked.size() == 1);
  database.grant();
  CHECK(ids.take() == 5001);
}

TEST_CASE("a reservation that failed is asked for again at the next take", "[ids]") {
  Reservations database;
  IdSupply ids({1, 11}, database.reserve());  // 10 in hand: half is gone at once
  CHECK(ids.take() == 1);
  REQUIRE(database.asked.size() == 1);
  std::exchange(database.asked, {}).back()(std::nullopt);  // its transaction failed
  CHECK(ids.take() == 2);
  REQUIRE(database.asked.size() == 1);
  database.grant();
  take(ids, 8);
  CHECK(ids.take() == 5001);
}

TEST_CASE("a block granted after the supply is gone is dropped", "[ids]") {
  Reservations database;
  {
    IdSupply ids({1, 2}, database.reserve());
    CHECK(ids.take() == 1);
  }
  REQUIRE(database.asked.size() == 1);
  database.grant();  // nothing to fill; no crash under the sanitizers
}
