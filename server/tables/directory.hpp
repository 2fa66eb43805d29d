#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "common/player.hpp"
#include "common/recipient.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/decoded.hpp"
#include "ops/metrics.hpp"
#include "tables/table_config.hpp"

namespace elgrande::server {

class Bus;

class TableEndpoint;
using TableEndpointPtr = std::shared_ptr<TableEndpoint>;

// One page of the lobby: the newest tables first, older ones by asking again with
// `before` the last one's id.
struct LobbyQuery {
  static constexpr std::size_t kDefaultLimit = 50;
  static constexpr std::size_t kMaxLimit = 200;

  std::optional<TableStatus> status;  // open or playing; none: both
  std::optional<TableId> before;      // only tables with smaller ids
  std::size_t limit = kDefaultLimit;
};

// The query a lobby.list or lobby.subscribe payload asks for, or what is wrong with it.
protocol::Decoded<LobbyQuery> lobby_query_from_json(const protocol::Json& payload);

// What the lobby and "my games" show of one table. Its table writes it; anyone reads it.
// It has a lock of its own, so that a table's per-command update never waits for the
// directory or another table.
class TableListing {
 public:
  struct Turns {
    std::uint8_t waiting = 0;  // a bit per seat owing a decision
    std::array<std::int64_t, games::kMaxSeats> deadlines{};  // Unix ms, 0 for none
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

// A table's listing as its table publishes it (TableDirectory::publish).
struct PublishedTable {
  TableId id = 0;
  TableStatus status = TableStatus::open;
  protocol::Json description;  // null until the table has described itself
  std::vector<std::optional<PlayerId>> seats;  // per seat: the member who has or had it
  PlayerId host = 0;
};

// Who else hears of the directory's tables: another process holding connections to them
// (net/peer_tables.hpp). Called after the directory's own change, from the table's strand.
class TableWatcher {
 public:
  virtual ~TableWatcher() = default;
  virtual void published(const PublishedTable& table) = 0;
  virtual void removed(TableId id) = 0;
  // Whose turn it is, after each command (for "my games").
  virtual void turns(TableId id, const TableListing::Turns& turns) = 0;
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

  void add(const TableEndpointPtr& table);
  TableEndpointPtr find(TableId id) const;
  // The table's members, host or description changed: re-indexed, and pushed to subscribers.
  void publish(TableId id, TableStatus status, const protocol::Json& description,
               std::vector<std::optional<PlayerId>> members, PlayerId host);
  void remove(TableId id);
  // A table's turns changed: into its listing, and to the watchers. It runs after every
  // command, so it takes a lock only while another process watches, and never the one
  // the lobby and the directory's other calls take.
  void set_turns(TableId id, TableListing& listing, const TableListing::Turns& turns);
  // Tells `watcher` of every table as it is now, then of every publish and removal from
  // now on, while it lives. The tables as they are now are told under the directory's
  // lock, so that none is told after a later publish of it: the watcher must only queue.
  void watch(const std::shared_ptr<TableWatcher>& watcher);

  // The tables a player sits or sat at (a seat resigned or lost to timeouts stays).
  std::vector<TableEndpointPtr> tables_of(PlayerId player) const;
  // Every table, for the rare news that concerns any of them (a rename).
  std::vector<TableEndpointPtr> all() const;
  // Hears the bus's PlayerRenamed from now on: each table checks whether the player sits
  // there or has lines in its chat (renames are rare; a table with neither does nothing).
  void listen(Bus& bus) const;

  // Tables the player hosts that have not finished, for the cap on open tables.
  std::size_t hosted_unfinished(PlayerId host) const;

  // One page of the open and playing tables: {"tables": [...], "more": bool}.
  protocol::Json list(const LobbyQuery& query) const;
  // Pushes every table's changes to the subscriber from now on; returns the page.
  protocol::Json subscribe(const RecipientPtr& subscriber, const LobbyQuery& query);
  void unsubscribe(const Recipient* subscriber);
  // "My games" (player.games): those waiting for the player first.
  protocol::Json games_of(PlayerId player) const;

  void close_all();  // at shutdown: every table stops its timers
  void count(Gauges& gauges) const;

 private:
  void push(const std::string& message);
  std::vector<std::shared_ptr<TableWatcher>> watchers();  // the live ones; prunes the others
  void forget_hosted(PlayerId host, TableId id);  // under the lock

  mutable std::mutex mutex_;
  std::map<TableId, TableEndpointPtr> tables_;  // ordered: the listing shows tables oldest first
  std::unordered_map<TableId, std::vector<PlayerId>> members_;
  std::unordered_map<PlayerId, std::vector<TableId>> tables_by_player_;
  std::unordered_map<TableId, PlayerId> host_of_;
  std::unordered_map<PlayerId, std::set<TableId>> hosted_by_;
  std::unordered_map<const Recipient*, WeakRecipient> subscribers_;
  std::mutex watchers_mutex_;  // guards watchers_, apart from the rest: set_turns takes it
  std::vector<std::weak_ptr<TableWatcher>> watchers_;
  std::atomic<bool> watched_ = false;  // whether watchers_ ever held one
};

}  // namespace elgrande::server
