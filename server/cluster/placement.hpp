#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace elgrande::server {

// Where tables go when several processes share them (docs/scaling.md, issue 47's plan): a
// pure policy over what the `processes` rows say, so that every process that asks comes to
// the same answer and the tests need no cluster.
struct ProcessLoad {
  std::string id;               // host name and process id, as operators see it
  std::int64_t registered = 0;  // when it registered: the older wins a tie
  std::size_t tables = 0;       // tables it owns now
  bool live = true;             // holds its lock
  bool draining = false;        // handing its tables over before it exits
};

// Takes tables: live and not draining.
bool takes_tables(const ProcessLoad& process);

// The process a new table goes to: the one that takes tables and owns the fewest, the
// earliest registered of those; none when no process takes tables.
std::optional<std::size_t> place_new_table(std::span<const ProcessLoad> processes);

struct Move {
  std::int64_t table;
  std::size_t to;  // an index into the processes given
};

// Where the tables of a process that died or drains go, in the order given: each to the
// process that takes tables and owns the fewest once the moves before it are counted, so
// they spread evenly. Empty when no other process takes tables.
std::vector<Move> plan_moves(std::span<const ProcessLoad> processes, std::size_t leaving,
                             std::span<const std::int64_t> tables);

}  // namespace elgrande::server
