#pragma once

#include <string>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// How a process of several on one PostgreSQL database proves, in each of its transactions,
// that what it writes is still its own: the lead (leader_lease.hpp) and its tables
// (table_owners.hpp). Without a row lock per transaction, which PostgreSQL would write to
// the row's page and its log:
// - each of its transactions first takes a shared advisory lock on the process's own key
//   (hold_writes), kept until the transaction ends, then checks its epochs in statements of
//   their own, whose snapshots are taken once the lock is held;
// - whoever takes something over from a process first takes that key's exclusive lock in
//   its own transaction (wait_for_writes): it waits for the process's transactions under
//   way, and holds back its next ones until the take-over has committed, so that they see
//   the new epoch and fail.
// An advisory lock lives in PostgreSQL's memory only. Both are sent without waiting for an
// answer where the connection pipelines.
void hold_writes(Database& database, const std::string& process);
void wait_for_writes(Database& database, const std::string& process);

}  // namespace elgrande::db
