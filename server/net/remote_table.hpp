#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/net.hpp"
#include "net/peer_link.hpp"
#include "tables/directory.hpp"
#include "tables/table_endpoint.hpp"

namespace elgrande::server {

// The link from a process holding connections to another process that owns tables they
// use (issue 47, docs/scaling.md): each request for one of those tables goes over it with
// the connection it came on, and what the owner says to that connection comes back over it
// (net/peer_tables.hpp is the other end). Each connection has a number on the link from
// its first request or seat until it closes. Callable from any thread.
class OwnerLink : public PeerEnd, public std::enable_shared_from_this<OwnerLink> {
 public:
  // Opens the link to the owner at `address` (host:port), presenting `key`. The owner's
  // tables are listed in `directory` as it tells of them, each a RemoteTable.
  static std::shared_ptr<OwnerLink> connect(net::io_context& io, const std::string& address, std::string key,
                                            TableDirectory& directory);
  explicit OwnerLink(TableDirectory& directory) : directory_(directory) {}

  // False once the link is lost: the owner cannot be reached over it.
  bool up() const;
  void request(TableId table, const TableRequest& request, std::string_view text);
  void seat(TableId table, const RecipientPtr& connection, PlayerId player);
  void closed(const Recipient* connection);
  void renamed(TableId table, const Player& player);
  void call_time(TableId table);
  void close();

  // PeerEnd, on the link's strand.
  void received(const PeerMessage& message) override;
  void lost() override;

 private:
  struct Numbered {
    std::uint64_t number = 0;
    WeakRecipient connection;
  };

  using Numbers = std::unordered_map<const Recipient*, Numbered>;

  // The connection's number, given now if it has none; under the mutex.
  std::uint64_t number_of(const RecipientPtr& connection);
  // Takes the number back and tells the owner the connection closed; under the mutex.
  Numbers::iterator forget(Numbers::iterator numbered);
  // Tells the owner of the connections that closed without a word (a connection that only
  // ever asked, and was refused, is no table's member); under the mutex.
  void forget_closed();
  void send(PeerKind kind, std::uint64_t connection, const TableCall& call);
  void listed(std::string_view body);

  TableDirectory& directory_;
  mutable std::mutex mutex_;
  std::weak_ptr<PeerLink> link_;  // the link holds this end; nothing more is needed
  bool lost_ = false;
  std::uint64_t next_ = 1;
  Numbers numbers_;
  std::unordered_map<std::uint64_t, WeakRecipient> connections_;
  std::size_t sweep_at_ = 64;  // forget_closed() once there are this many numbers
};

// A table another process owns, as this one's directory, hello, farewell and tournaments
// reach it: every call goes over the link to its owner. Its listing is what the owner last
// published of it.
class RemoteTable final : public TableEndpoint {
 public:
  RemoteTable(TableId id, std::shared_ptr<OwnerLink> owner) : id_(id), owner_(std::move(owner)) {}

  TableId id() const override { return id_; }
  int phase() const override { return phase_.load(std::memory_order_relaxed); }
  TableListing& listing() override { return listing_; }
  void handle(Handler handler, TableRequest request, std::string_view text) override;
  void player_connected(RecipientPtr connection, PlayerId player) override { owner_->seat(id_, connection, player); }
  void connection_closed(const Recipient* connection) override { owner_->closed(connection); }
  void player_renamed(Player player) override { owner_->renamed(id_, player); }
  void call_time() override { owner_->call_time(id_); }
  // The server shutting down: the table is its owner's, and goes on there.
  void close() override {}

 private:
  const TableId id_;
  const std::shared_ptr<OwnerLink> owner_;
  std::atomic<int> phase_{0};
  TableListing listing_;
};

}  // namespace elgrande::server
