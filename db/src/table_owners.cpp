#include "elgrande/db/table_owners.hpp"

#include <set>
#include <unordered_map>

#include "elgrande/db/write_fence.hpp"

namespace elgrande::db {
namespace {

// PostgreSQL's text form of an array of integers, for a parameter cast to BIGINT[]: one
// statement, however many tables.
template <class Each>
std::string array_of(std::size_t count, Each each) {
  std::string text = "{";
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) text += ',';
    text += std::to_string(each(i));
  }
  return text + '}';
}

std::string tables_of(std::span<const TableEpoch> held) {
  return array_of(held.size(), [&](std::size_t i) { return held[i].table; });
}
std::string epochs_of(std::span<const TableEpoch> held) {
  return array_of(held.size(), [&](std::size_t i) { return held[i].epoch; });
}

}  // namespace

std::vector<TableEpoch> take_tables(Database& database, std::span<const std::int64_t> tables,
                                    const std::string& process, std::int64_t now) {
  if (tables.empty()) return {};
  const std::string listed = array_of(tables.size(), [&](std::size_t i) { return tables[i]; });
  // Their rows first, so that no other take changes their owners meanwhile; then each
  // owner's transactions under way, in one order, so that two takes never wait in a circle.
  Statement owners = database.prepare(
      "SELECT process FROM table_owners WHERE table_id = ANY(CAST(?1 AS BIGINT[])) ORDER BY table_id FOR UPDATE");
  owners.bind(1, listed);
  std::set<std::string> previous;
  while (owners.step()) previous.insert(owners.text(0));
  owners.reset();
  for (const std::string& owner : previous) wait_for_writes(database, owner);
  Statement take = database.prepare(
      "INSERT INTO table_owners (table_id, process, epoch, since) "
      "SELECT taken.id, ?2, ?4, ?3 FROM unnest(CAST(?1 AS BIGINT[])) AS taken(id) "
      "ON CONFLICT (table_id) DO UPDATE SET process = excluded.process, epoch = table_owners.epoch + 1, "
      "since = excluded.since RETURNING table_id, epoch");
  take.bind(1, listed).bind(2, process).bind(3, now).bind(4, kFirstEpoch);
  std::unordered_map<std::int64_t, std::int64_t> epochs;
  while (take.step()) epochs[take.integer(0)] = take.integer(1);
  std::vector<TableEpoch> taken;
  taken.reserve(tables.size());
  for (const std::int64_t table : tables) taken.push_back({table, epochs.at(table)});
  return taken;
}

void take_new_table(Database& database, std::int64_t table, const std::string& process, std::int64_t now) {
  database.prepare("INSERT INTO table_owners (table_id, process, epoch, since) VALUES (?1, ?2, ?3, ?4)")
      .bind(1, table)
      .bind(2, process)
      .bind(3, kFirstEpoch)
      .bind(4, now)
      .send();
}

void require_tables(Database& database, std::span<const TableEpoch> held) {
  if (held.empty()) return;
  // An error rather than an empty answer, so that the commit's own answer carries it, as
  // the leader's fence does (LeaderLease::require_epoch).
  database
      .prepare("SELECT CAST(CASE WHEN (SELECT count(*) FROM table_owners o "
               "JOIN unnest(CAST(?1 AS BIGINT[]), CAST(?2 AS BIGINT[])) AS held(id, epoch) "
               "ON o.table_id = held.id AND o.epoch = held.epoch) = ?3 "
               "THEN '1' ELSE 'a table moved to another process' END AS BIGINT)")
      .bind(1, tables_of(held))
      .bind(2, epochs_of(held))
      .bind(3, static_cast<std::int64_t>(held.size()))
      .send();
}

std::vector<std::int64_t> tables_lost(Database& database, std::span<const TableEpoch> held) {
  if (held.empty()) return {};
  Statement lost = database.prepare(
      "SELECT held.id FROM unnest(CAST(?1 AS BIGINT[]), CAST(?2 AS BIGINT[])) AS held(id, epoch) "
      "WHERE NOT EXISTS (SELECT FROM table_owners o WHERE o.table_id = held.id AND o.epoch = held.epoch) "
      "ORDER BY held.id");
  lost.bind(1, tables_of(held)).bind(2, epochs_of(held));
  std::vector<std::int64_t> tables;
  while (lost.step()) tables.push_back(lost.integer(0));
  return tables;
}

std::optional<std::string> table_owner(Database& database, std::int64_t table) {
  Statement owner = database.prepare("SELECT process FROM table_owners WHERE table_id = ?1");
  owner.bind(1, table);
  if (!owner.step()) return std::nullopt;
  return owner.text(0);
}

}  // namespace elgrande::db
