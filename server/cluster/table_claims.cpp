#include "cluster/table_claims.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/unix_time.hpp"
#include "elgrande/db/write_fence.hpp"
#include "events/events.hpp"

namespace elgrande::server {

void TableClaims::take_restored(db::Database& database, const std::vector<db::RestoredTable>& restored) {
  std::vector<std::int64_t> tables;
  for (const db::RestoredTable& table : restored) tables.push_back(table.table.id);
  db::Transaction taking(database);
  const std::vector<db::TableEpoch> taken = db::take_tables(database, tables, process_, unix_milliseconds());
  taking.commit();
  const std::lock_guard lock(mutex_);
  for (const db::TableEpoch& table : taken) epochs_[table.table] = table.epoch;
}

void TableClaims::listen(Bus& bus) {
  bus.subscribe<SavingNewTable>([this](const SavingNewTable& saving) {
    db::take_new_table(saving.store.database(), saving.table, process_, unix_milliseconds());
    // Recorded before the commit: a transaction tried again takes the table again, and
    // one that fails for good stops the table, whose writes then never reach the fence.
    const std::lock_guard lock(mutex_);
    epochs_[saving.table] = db::kFirstEpoch;
  });
}

std::vector<db::TableEpoch> TableClaims::epochs_of(std::span<const Storage::Stream> streams) const {
  std::vector<db::TableEpoch> held;
  const std::lock_guard lock(mutex_);
  for (const Storage::Stream stream : streams) {
    // A table's writes are its stream; a new table's first has no epoch yet (it is taken
    // in that very transaction), and a tournament's stream is its negative id.
    const auto found = epochs_.find(stream);
    if (found == epochs_.end()) continue;
    const db::TableEpoch table{stream, found->second};
    if (std::find(held.begin(), held.end(), table) == held.end()) held.push_back(table);
  }
  return held;
}

std::int64_t TableClaims::epoch(std::int64_t table) const {
  const std::lock_guard lock(mutex_);
  const auto found = epochs_.find(table);
  return found == epochs_.end() ? 0 : found->second;
}

void TableClaims::require(db::Database& database, std::span<const Storage::Stream> streams) const {
  db::require_tables(database, epochs_of(streams));
}

void TableClaims::confirm(db::Database& database, std::span<const Storage::Stream> streams) const {
  // The epoch is kept: a write for the table checked against none would pass the fence.
  // Storage abandons the table's writes from here on anyway.
  for (const std::int64_t table : db::tables_lost(database, epochs_of(streams))) {
    spdlog::critical("table {} was taken by another process: this one writes nothing more for it", table);
  }
}

Storage::Fence cluster_fence(const Leadership& leadership, TableClaims& tables) {
  return {
      [leader = leadership.fence(), process = leadership.process(), &tables](
          db::Database& database, std::span<const Storage::Stream> streams) {
        db::hold_writes(database, process);  // before the checks: their snapshots come after it
        leader(database);
        tables.require(database, streams);
      },
      [leader = leadership.confirm_fence(), &tables](db::Database& database,
                                                     std::span<const Storage::Stream> streams) {
        leader(database);  // ends the process if the leader's epoch is over
        tables.confirm(database, streams);
      },
      [&tables](std::int64_t table) { return tables.epoch(table); },
  };
}

}  // namespace elgrande::server
