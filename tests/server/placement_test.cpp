// Where a cluster's tables go (server/cluster/placement.hpp): new tables to the process
// owning the fewest, the tables of a process that leaves spread evenly over the others.

#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "cluster/placement.hpp"

using namespace elgrande::server;

namespace {

ProcessLoad process(const char* id, std::int64_t registered, std::size_t tables) {
  return {.id = id, .registered = registered, .tables = tables};
}

}  // namespace

TEST_CASE("a new table goes to the process owning the fewest, the older one on a tie", "[placement]") {
  std::vector<ProcessLoad> processes{process("a", 1, 4), process("b", 2, 2), process("c", 3, 2)};
  CHECK(place_new_table(processes) == 1u);
  processes[1].tables = 3;
  CHECK(place_new_table(processes) == 2u);
  processes[2].registered = 0;
  processes[2].tables = 3;
  processes[1].tables = 3;
  CHECK(place_new_table(processes) == 2u);  // registered first of the two with 3
}

TEST_CASE("a process that died or drains gets no new table, and with none left the table has nowhere to go",
          "[placement]") {
  std::vector<ProcessLoad> processes{process("a", 1, 9), process("b", 2, 0), process("c", 3, 1)};
  processes[1].live = false;
  CHECK(place_new_table(processes) == 2u);
  processes[2].draining = true;
  CHECK(place_new_table(processes) == 0u);
  processes[0].live = false;
  CHECK_FALSE(place_new_table(processes));
  CHECK_FALSE(place_new_table({}));
}

TEST_CASE("the tables of a process that leaves spread evenly over the others, in the order given",
          "[placement]") {
  const std::vector<ProcessLoad> processes{process("a", 1, 3), process("b", 2, 10), process("c", 3, 5),
                                           process("d", 4, 6)};
  const std::vector<std::int64_t> tables{11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
  const std::vector<Move> moves = plan_moves(processes, 1, tables);
  REQUIRE(moves.size() == tables.size());
  std::map<std::size_t, std::size_t> load{{0, 3}, {2, 5}, {3, 6}};
  for (std::size_t i = 0; i < moves.size(); ++i) {
    CHECK(moves[i].table == tables[i]);
    CHECK(moves[i].to != 1u);  // never back to the process leaving
    ++load[moves[i].to];
  }
  // 14 + 10 tables over three processes: 8 each.
  CHECK(load == std::map<std::size_t, std::size_t>{{0, 8}, {2, 8}, {3, 8}});
  // The least loaded first: a took the first two before c had to share.
  CHECK(moves[0].to == 0u);
  CHECK(moves[1].to == 0u);
  CHECK(moves[2].to == 0u);  // a at 5 and c at 5: a registered first
}

TEST_CASE("a process that leaves with nobody to take its tables keeps them: no plan", "[placement]") {
  std::vector<ProcessLoad> processes{process("a", 1, 3), process("b", 2, 1)};
  processes[1].draining = true;
  const std::vector<std::int64_t> tables{1, 2, 3};
  CHECK(plan_moves(processes, 0, tables).empty());
  CHECK(plan_moves(processes, 0, {}).empty());
}
