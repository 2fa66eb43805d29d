#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "app/services.hpp"
#include "net/peer_link.hpp"

namespace elgrande::server {

// The clients another process relays over a peer link, served here as if they had
// connected here (docs/scaling.md): each is a Client whose requests go to the dispatcher
// on a strand of its own and whose answers and updates go back over the link. The process
// holding the client's socket keeps its transport limits (message size, floods, a reader
// that falls behind); this end keeps everything the protocol knows of it.
class PeerClients : public PeerEnd, public std::enable_shared_from_this<PeerClients> {
 public:
  PeerClients(net::io_context& io, std::shared_ptr<const Services> services);
  ~PeerClients() override;

  // The link they come over; before it is accepted. The link holds this end, and each
  // client the link: this end only names it, so that nothing is left holding itself once
  // the link and its clients are done.
  void serve(const std::shared_ptr<PeerLink>& link) { link_ = link; }

  // PeerEnd, on the link's strand.
  void received(const PeerMessage& message) override;
  void lost() override;

  class Relayed;

 private:
  void answer_http(PeerLink& link, std::uint64_t request, std::string_view bytes);

  net::io_context& io_;
  std::shared_ptr<const Services> services_;
  std::weak_ptr<PeerLink> link_;
  std::unordered_map<std::uint64_t, std::shared_ptr<Relayed>> clients_;  // the link's strand's
};

}  // namespace elgrande::server
