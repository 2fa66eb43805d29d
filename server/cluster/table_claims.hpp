#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "cluster/leadership.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/db/table_owners.hpp"
#include "events/bus.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {

// The tables a process of a cluster writes for, each in the epoch it took it in
// (elgrande/db/table_owners.hpp): every table it restores at start, and each table it
// creates, in the table's first transaction. Every transaction of its database thread
// first checks the epochs of the tables it writes, so once another process has taken one
// (issue 47's plan, docs/scaling.md) this one commits nothing more for it: that write, and
// every later one of the table, is abandoned and the table stops here, while its other
// tables commit without it. Callable from any thread.
class TableClaims {
 public:
  explicit TableClaims(std::string process) : process_(std::move(process)) {}

  // At start, in a transaction of its own: every table restored, once the transactions
  // of their owners under way have ended.
  void take_restored(db::Database& database, const std::vector<db::RestoredTable>& restored);
  // Takes each table in its first transaction (SavingNewTable).
  void listen(Bus& bus);

  // Storage's fence for the tables among a transaction's streams: the check sent first,
  // and after a failed commit, the tables lost, named in the log.
  void require(db::Database& database, std::span<const Storage::Stream> streams) const;
  void confirm(db::Database& database, std::span<const Storage::Stream> streams) const;
  // The epoch `table` is held in, recorded with its commands; 0 if not held.
  std::int64_t epoch(std::int64_t table) const;

 private:
  std::vector<db::TableEpoch> epochs_of(std::span<const Storage::Stream> streams) const;

  const std::string process_;
  mutable std::mutex mutex_;
  std::unordered_map<std::int64_t, std::int64_t> epochs_;  // table → the epoch it was taken in
};

// A cluster's fence for Storage: the leader's epoch, then the tables'; and the tables'
// epochs for their commands' records.
Storage::Fence cluster_fence(const Leadership& leadership, TableClaims& tables);

}  // namespace elgrande::server
