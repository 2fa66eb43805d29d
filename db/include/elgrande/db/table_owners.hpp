#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// Which server process writes for each table when several share one PostgreSQL database
// (docs/scaling.md): the `table_owners` row, whose epoch goes up by one each time a process
// takes the table. A process writes for a table only in the epoch it took it in: each of
// its transactions first checks the epochs of the tables it writes (require), so a process
// that lost a table without knowing it commits nothing more for it, as the leader's epoch
// fences the leader (leader_lease.hpp). PostgreSQL only; the policy is the server's
// (server/cluster/table_claims.hpp).
struct TableEpoch {
  std::int64_t table = 0;
  std::int64_t epoch = 0;
  bool operator==(const TableEpoch&) const = default;
};

// In the caller's transaction: takes `tables` for `process`, each at one more than its
// epoch (1 for a table never taken), once the transactions of its owner before that checked
// it have ended. The tables must exist. Their new epochs, in the order given.
std::vector<TableEpoch> take_tables(Database& database, std::span<const std::int64_t> tables,
                                    const std::string& process, std::int64_t now);

// First in an owner's transaction, sent without waiting for its answer: fails the
// transaction unless every table of `held` is still in its epoch, and holds their rows
// against a take until the transaction ends. Nothing is sent for no tables.
void require_tables(Database& database, std::span<const TableEpoch> held);

// Of `held`, the tables no longer in their epoch, asked outright (after a commit failed).
std::vector<std::int64_t> tables_lost(Database& database, std::span<const TableEpoch> held);

// The process that owns `table` now, if one ever took it.
std::optional<std::string> table_owner(Database& database, std::int64_t table);

}  // namespace elgrande::db
