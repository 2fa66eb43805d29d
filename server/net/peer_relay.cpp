#include "net/peer_relay.hpp"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

namespace elgrande::server {

// What a link hears, passed on with the link's number: a link closed because the leader
// changed must not touch the connections of the link after it.
class PeerRelay::Tap : public PeerEnd {
 public:
  Tap(std::weak_ptr<PeerRelay> relay, std::uint64_t link) : relay_(std::move(relay)), link_(link) {}
  void received(const PeerMessage& message) override {
    if (const auto relay = relay_.lock()) relay->received(link_, message);
  }
  void lost() override {
    if (const auto relay = relay_.lock()) relay->lost(link_);
  }

 private:
  std::weak_ptr<PeerRelay> relay_;
  std::uint64_t link_;
};

void PeerRelay::follow(std::optional<Leader> leader) {
  std::shared_ptr<PeerLink> before;
  {
    const std::lock_guard lock(mutex_);
    if (leader == leader_) return;
    leader_ = std::move(leader);
    before = std::exchange(link_, nullptr);
    if (leader_) spdlog::info("relaying clients to the leader at {}", leader_->address);
  }
  if (before) before->close();
}

void PeerRelay::stop() {
  std::shared_ptr<PeerLink> before;
  {
    const std::lock_guard lock(mutex_);
    stopped_ = true;
    before = std::exchange(link_, nullptr);
  }
  if (before) before->close();
}

std::shared_ptr<PeerLink> PeerRelay::link() {
  if (!link_ && leader_ && !stopped_) {
    ++link_number_;
    link_ = PeerLink::connect(io_, leader_->address, leader_->key, std::make_shared<Tap>(weak_from_this(), link_number_));
  }
  return link_;
}

std::optional<std::uint64_t> PeerRelay::open(const std::shared_ptr<Client>& client, std::string_view address) {
  std::shared_ptr<PeerLink> to;
  std::uint64_t connection = 0;
  {
    const std::lock_guard lock(mutex_);
    to = link();
    if (!to) return std::nullopt;
    connection = next_connection_++;
    clients_[connection] = {client, link_number_};
  }
  to->send(PeerKind::open, connection, address);
  return connection;
}

void PeerRelay::text(std::uint64_t connection, std::string_view text) {
  std::shared_ptr<PeerLink> to;
  {
    const std::lock_guard lock(mutex_);
    const auto found = clients_.find(connection);
    if (found == clients_.end() || found->second.link != link_number_) return;  // closing with its link
    to = link_;
  }
  if (to) to->send(PeerKind::text, connection, text);
}

void PeerRelay::closed(std::uint64_t connection) {
  std::shared_ptr<PeerLink> to;
  {
    const std::lock_guard lock(mutex_);
    const auto found = clients_.find(connection);
    if (found == clients_.end()) return;
    if (found->second.link == link_number_) to = link_;
    clients_.erase(found);
  }
  if (to) to->send(PeerKind::closed, connection);
}

void PeerRelay::http(std::string_view request, Answered answered) {
  std::shared_ptr<PeerLink> to;
  std::uint64_t number = 0;
  {
    const std::lock_guard lock(mutex_);
    to = link();
    if (to) {
      number = next_connection_++;
      requests_[number] = {std::move(answered), link_number_};
    }
  }
  if (!to) return answered(std::nullopt);
  to->send(PeerKind::http, number, request);
}

void PeerRelay::received(std::uint64_t link, const PeerMessage& message) {
  if (message.kind == PeerKind::http_answer) {
    Answered answered;
    {
      const std::lock_guard lock(mutex_);
      const auto found = requests_.find(message.connection);
      if (found == requests_.end() || found->second.link != link) return;
      answered = std::move(found->second.answered);
      requests_.erase(found);
    }
    return answered(std::string(message.body));
  }
  std::shared_ptr<Client> client;
  {
    const std::lock_guard lock(mutex_);
    const auto found = clients_.find(message.connection);
    if (found == clients_.end() || found->second.link != link) return;  // it closed meanwhile
    client = found->second.client.lock();
  }
  if (!client) return;
  switch (message.kind) {
    case PeerKind::deliver:
      return client->deliver(std::make_shared<const std::string>(message.body));
    case PeerKind::end:
      if (const auto why = read_end_body(message.body)) {
        return client->end(static_cast<protocol::CloseCode>(why->code), why->reason);
      }
      return client->close();
    case PeerKind::drop:
      return client->close();
    default: {
      spdlog::warn("the leader sent a message meant for the other end of a peer link (kind {})",
                   static_cast<int>(message.kind));
      std::shared_ptr<PeerLink> to;
      {
        const std::lock_guard lock(mutex_);
        if (link == link_number_) to = link_;
      }
      if (to) to->close();
    }
  }
}

void PeerRelay::lost(std::uint64_t link) {
  std::vector<std::shared_ptr<Client>> closing;
  std::vector<Answered> unanswered;
  {
    const std::lock_guard lock(mutex_);
    for (auto it = clients_.begin(); it != clients_.end();) {
      if (it->second.link != link) {
        ++it;
        continue;
      }
      if (auto client = it->second.client.lock()) closing.push_back(std::move(client));
      it = clients_.erase(it);
    }
    for (auto it = requests_.begin(); it != requests_.end();) {
      if (it->second.link != link) {
        ++it;
        continue;
      }
      unanswered.push_back(std::move(it->second.answered));
      it = requests_.erase(it);
    }
    if (link == link_number_) link_.reset();
  }
  if (!closing.empty() || !unanswered.empty()) {
    spdlog::info("the link to the leader closed: {} connection(s) close, and their clients reconnect",
                 closing.size() + unanswered.size());
  }
  // Going away (1001): the client reconnects, as after any restart.
  for (const auto& client : closing) client->go_away();
  for (const auto& answered : unanswered) answered(std::nullopt);
}

}  // namespace elgrande::server
