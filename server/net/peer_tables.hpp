#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <unordered_map>

#include "app/services.hpp"
#include "net/peer_link.hpp"

namespace elgrande::server {

// The tables this process owns, served to connections another process holds (issue 47,
// docs/scaling.md; net/remote_table.hpp is the other end): each such connection is a
// Recipient here whose messages go back over the link, attached to presence as its
// player's, so that the tables treat it as a connection of their own. Requests go to the
// table's handler as the dispatcher's route names it; the process that holds the
// connection has already checked who may ask. The other process hears of every table's
// listing here, as it is when the link opens and as it changes, so that it can list them,
// and tell them of their members' connections.
class PeerTables : public PeerEnd, public TableWatcher, public std::enable_shared_from_this<PeerTables> {
 public:
  explicit PeerTables(std::shared_ptr<const Services> services) : services_(std::move(services)) {}

  // The link they come over; before it is accepted (see PeerClients::serve).
  void serve(const std::shared_ptr<PeerLink>& link);

  // PeerEnd, on the link's strand.
  void received(const PeerMessage& message) override;
  void lost() override;

  // TableWatcher: each table's listing goes over the link.
  void published(const PublishedTable& table) override;
  void removed(TableId id) override;
  void turns(TableId id, const TableListing::Turns& turns) override;

  class Seat;

 private:
  struct Held {
    std::shared_ptr<Seat> seat;
    PlayerId player = 0;
    std::set<TableId> tables;  // the tables told of it, to tell when it closes
  };

  // The connection numbered `number` on the link, known from now on.
  Held& held(PeerLink& link, std::uint64_t number, const TableCall& call);
  void request(PeerLink& link, std::uint64_t number, const TableCall& call);
  void forget(Held& held);

  std::shared_ptr<const Services> services_;
  std::weak_ptr<PeerLink> link_;
  std::unordered_map<std::uint64_t, Held> held_;  // the link's strand's
};

}  // namespace elgrande::server
