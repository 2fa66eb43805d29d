#include "net/remote_table.hpp"

#include <spdlog/spdlog.h>

#include <iterator>
#include <vector>

namespace elgrande::server {

std::shared_ptr<OwnerLink> OwnerLink::connect(net::io_context& io, const std::string& address, std::string key,
                                              TableDirectory& directory) {
  auto owner = std::make_shared<OwnerLink>(directory);
  const std::shared_ptr<PeerLink> link = PeerLink::connect(io, address, std::move(key), owner);
  const std::lock_guard lock(owner->mutex_);
  owner->link_ = link;
  return owner;
}

bool OwnerLink::up() const {
  const std::lock_guard lock(mutex_);
  return !lost_;
}

void OwnerLink::request(TableId table, const TableRequest& request, std::string_view text) {
  const std::lock_guard lock(mutex_);
  send(PeerKind::table, number_of(request.from),
       {table, request.player.id, request.player.name, request.from->takes_view_patches(), text});
}

void OwnerLink::seat(TableId table, const RecipientPtr& connection, PlayerId player) {
  const std::lock_guard lock(mutex_);
  send(PeerKind::seat, number_of(connection), {table, player, {}, connection->takes_view_patches(), {}});
}

void OwnerLink::closed(const Recipient* connection) {
  const std::lock_guard lock(mutex_);
  if (const auto found = numbers_.find(connection); found != numbers_.end()) forget(found);
}

void OwnerLink::renamed(TableId table, const Player& player) {
  const std::lock_guard lock(mutex_);
  send(PeerKind::renamed, 0, {table, player.id, player.name, false, {}});
}

void OwnerLink::call_time(TableId table) {
  const std::lock_guard lock(mutex_);
  send(PeerKind::call_time, 0, {table, 0, {}, false, {}});
}

void OwnerLink::close() {
  std::shared_ptr<PeerLink> link;
  {
    const std::lock_guard lock(mutex_);
    link = link_.lock();
  }
  if (link) link->close();  // outside the lock: losing the link takes it (lost())
}

std::uint64_t OwnerLink::number_of(const RecipientPtr& connection) {
  if (const auto found = numbers_.find(connection.get()); found != numbers_.end()) {
    if (found->second.connection.lock() == connection) return found->second.number;
    forget(found);  // another connection, since gone, had its address
  }
  if (numbers_.size() >= sweep_at_) forget_closed();
  const std::uint64_t number = next_++;
  numbers_[connection.get()] = {number, connection};
  connections_[number] = connection;
  return number;
}

OwnerLink::Numbers::iterator OwnerLink::forget(Numbers::iterator numbered) {
  if (const auto link = link_.lock()) link->send(PeerKind::closed, numbered->second.number);
  connections_.erase(numbered->second.number);
  return numbers_.erase(numbered);
}

void OwnerLink::forget_closed() {
  for (auto it = numbers_.begin(); it != numbers_.end();) {
    it = it->second.connection.expired() ? forget(it) : std::next(it);
  }
  sweep_at_ = std::max<std::size_t>(64, 2 * numbers_.size());
}

void OwnerLink::send(PeerKind kind, std::uint64_t connection, const TableCall& call) {
  if (const auto link = link_.lock()) link->send(kind, connection, table_call_body(call));
}

void OwnerLink::received(const PeerMessage& message) {
  RecipientPtr connection;
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = connections_.find(message.connection); found != connections_.end()) {
      connection = found->second.lock();
    }
  }
  switch (message.kind) {
    case PeerKind::deliver:
      if (connection) connection->deliver(std::string(message.body));
      return;
    case PeerKind::end:
      if (const auto reason = read_end_body(message.body); connection && reason) {
        connection->end(static_cast<protocol::CloseCode>(reason->code), reason->reason);
      }
      return;
    case PeerKind::drop:
      if (connection) connection->close();
      return;
    case PeerKind::listing:
      return listed(message.body);
    case PeerKind::turns:
      if (const auto read = read_turns(message.body)) {
        if (const auto table = directory_.find(read->table)) table->listing().set_turns(read->turns);
        return;
      }
      spdlog::warn("a table's owner sent turns that do not read");
      return close();
    default:
      spdlog::warn("a table's owner sent a message meant for the other end of its link (kind {})",
                   static_cast<int>(message.kind));
      close();
  }
}

void OwnerLink::listed(std::string_view body) {
  const auto listing = read_listing(body);
  if (!listing) {
    spdlog::warn("a table's owner sent a listing that does not read");
    return close();
  }
  if (const auto* removed = std::get_if<TableId>(&*listing)) return directory_.remove(*removed);
  const auto& table = std::get<PublishedTable>(*listing);
  if (!directory_.find(table.id)) directory_.add(std::make_shared<RemoteTable>(table.id, shared_from_this()));
  directory_.publish(table.id, table.status, table.description, table.seats, table.host);
}

void OwnerLink::lost() {
  const std::lock_guard lock(mutex_);
  lost_ = true;
  numbers_.clear();
  connections_.clear();
}

void RemoteTable::handle(Handler /*handler*/, TableRequest request, std::string_view text) {
  if (!owner_->up()) {
    return request.from->deliver(protocol::error_message(protocol::ErrorCode::unavailable,
                                                         "table " + std::to_string(id_) +
                                                             " is run by a server process that cannot be reached now",
                                                         request.envelope.id));
  }
  owner_->request(id_, request, text);
}

}  // namespace elgrande::server
