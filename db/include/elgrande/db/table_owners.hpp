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
// its transactions checks the epochs of the tables it writes (require_tables), so a process
// that lost a table without knowing it commits nothing more for it, as the leader's epoch
// fences the leader (write_fence.hpp says how). PostgreSQL only; the policy is the
// server's (server/cluster/table_claims.hpp).
struct TableEpoch {
  std::int64_t table = 0;
  std::int64_t epoch = 0;
  bool operator==(const TableEpoch&) const = default;
};
inline constexpr std::int64_t kFirstEpoch = 1;  // a table's when first taken

// In the caller's transaction: takes `tables` for `process`, each at one more than its
// epoch (kFirstEpoch for a table never taken), once the transactions of their owners under way have
// ended (wait_for_writes). The tables must exist. Their new epochs, in the order given.
std::vector<TableEpoch> take_tables(Database& database, std::span<const std::int64_t> tables,
                                    const std::string& process, std::int64_t now);

// In the transaction that creates `table`, sent without waiting for an answer: takes it for
// `process` at kFirstEpoch. Fails the transaction if a process owns a table of that id
// already, rather than take it from that one.
void take_new_table(Database& database, std::int64_t table, const std::string& process, std::int64_t now);

// In an owner's transaction, after hold_writes, sent without waiting for its answer: fails
// the transaction unless every table of `held` is still in its epoch. Nothing is sent for
// no tables.
void require_tables(Database& database, std::span<const TableEpoch> held);

// Of `held`, the tables no longer in their epoch, asked outright (after a commit failed).
std::vector<std::int64_t> tables_lost(Database& database, std::span<const TableEpoch> held);

// The process that owns `table` now, if one ever took it.
std::optional<std::string> table_owner(Database& database, std::int64_t table);

}  // namespace elgrande::db
