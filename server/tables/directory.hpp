#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/player.hpp"
#include "common/recipient.hpp"
#include "elgrande/engine/options.hpp"
#include "ops/metrics.hpp"
#include "tables/table_config.hpp"

namespace elgrande::server {

class Table;

// What the lobby and "my games" show of one table. Its table writes it; anyone reads it.
// It has a lock of its own, so that a table's per-command update never waits for the
// directory or another table.
class TableListing {
 public:
  struct Turns {
    std::uint8_t waiting = 0;  // a bit per seat owing a decision
    std::array<std::int64_t, kMaxPlayers> deadlines{};  // Unix ms, 0 for none
  };
  struct Entry {
    TableStatus status = TableStatus::open;
    protocol::Json description;  // the Table shape of docs/protocol.md; null until published
    std::vector<std::optional<PlayerId>> members;  // per seat: the member who has or had it
    Turns turns;
  };

  void describe(TableStatus status, protocol::Json description, std::vector<std::optional<PlayerId>> members);
  void set_turns(Turns turns);
  Entry read() const;
  TableStatus status() const;

 private:
  mutable std::mutex mutex_;
  Entry entry_;
};

// Every table the server runs: finding one by id, the lobby listing with its subscribers,
// and which tables are whose ("my games"). Tables publish into it; it never calls into a
// table except to close it at shutdown. Internally locked; a game command never takes
// this lock.
class TableDirectory {
 public:
  TableDirectory() = default;
  TableDirectory(const TableDirectory&) = delete;
  TableDirectory& operator=(const TableDirectory&) = delete;

  TableId next_id();
  void restored_up_to(TableId highest);  // ids from the database are not handed out again
  void add(const std::shared_ptr<Table>& table);
  std::shared_ptr<Table> find(TableId id) const;
  // The table's members or description changed: re-indexed, and pushed to subscribers.
  void publish(TableId id, TableStatus status, const protocol::Json& description,
               std::vector<std::optional<PlayerId>> members);
  void remove(TableId id);

  // The tables a player sits or sat at (a seat resigned or lost to timeouts stays).
  std::vector<std::shared_ptr<Table>> tables_of(PlayerId player) const;

  protocol::Json list() const;  // open and playing tables, oldest first
  protocol::Json subscribe(const RecipientPtr& subscriber);  // also the list
  void unsubscribe(const Recipient* subscriber);
  // "My games" (player.games): those waiting for the player first.
  protocol::Json games_of(PlayerId player) const;

  void close_all();  // at shutdown: every table stops its timers
  void count(Gauges& gauges) const;

 private:
  void push(const std::string& message);

  mutable std::mutex mutex_;
  TableId next_id_ = 1;
  std::map<TableId, std::shared_ptr<Table>> tables_;  // ordered: the listing shows tables oldest first
  std::unordered_map<TableId, std::vector<PlayerId>> members_;
  std::unordered_map<PlayerId, std::vector<TableId>> tables_by_player_;
  std::unordered_map<const Recipient*, WeakRecipient> subscribers_;
};

}  // namespace elgrande::server
