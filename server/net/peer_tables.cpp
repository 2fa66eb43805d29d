#include "net/peer_tables.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>

#include "app/dispatcher.hpp"
#include "presence/presence.hpp"
#include "tables/directory.hpp"
#include "tables/table_endpoint.hpp"

namespace elgrande::server {

// A connection another process holds: what the tables say to it goes back over the link.
class PeerTables::Seat : public Recipient {
 public:
  Seat(std::shared_ptr<PeerLink> link, std::uint64_t number) : link_(std::move(link)), number_(number) {}

  void deliver(std::shared_ptr<const std::string> message) override { link_->send(PeerKind::deliver, number_, *message); }
  void deliver(std::shared_ptr<const std::string> first, std::shared_ptr<const std::string> then) override {
    link_->send(PeerKind::deliver, number_, *first, *then);
  }
  using Recipient::deliver;
  void close() override { link_->send(PeerKind::drop, number_); }
  void end(protocol::CloseCode code, std::string_view reason) override {
    link_->send(PeerKind::end, number_, end_body(static_cast<std::uint16_t>(code), reason));
  }

 private:
  const std::shared_ptr<PeerLink> link_;
  const std::uint64_t number_;
};

void PeerTables::serve(const std::shared_ptr<PeerLink>& link) {
  link_ = link;
  services_->tables->watch(shared_from_this());
}

void PeerTables::published(const PublishedTable& table) {
  if (const auto link = link_.lock()) link->send(PeerKind::listing, 0, listing_body(table));
}

void PeerTables::removed(TableId id) {
  if (const auto link = link_.lock()) link->send(PeerKind::listing, 0, removal_body(id));
}

void PeerTables::turns(TableId id, const TableListing::Turns& turns) {
  if (const auto link = link_.lock()) link->send(PeerKind::turns, 0, turns_body(id, turns));
}

void PeerTables::received(const PeerMessage& message) {
  const std::shared_ptr<PeerLink> link = link_.lock();
  if (!link) return;
  if (message.kind == PeerKind::closed) {
    if (const auto found = held_.find(message.connection); found != held_.end()) {
      forget(found->second);
      held_.erase(found);
    }
    return;
  }
  const std::optional<TableCall> call = read_table_call(message.body);
  if (!call || (message.kind != PeerKind::table && message.kind != PeerKind::seat &&
                message.kind != PeerKind::renamed && message.kind != PeerKind::call_time)) {
    spdlog::warn("a peer process sent a table a message it does not take (kind {})", static_cast<int>(message.kind));
    return link->close();
  }
  switch (message.kind) {
    case PeerKind::table:
      return request(*link, message.connection, *call);
    case PeerKind::seat: {
      Held& connection = held(*link, message.connection, *call);
      if (const auto table = services_->tables->find(call->table)) {
        connection.tables.insert(call->table);
        table->player_connected(connection.seat, call->player);
      }
      return;
    }
    case PeerKind::renamed:
      if (const auto table = services_->tables->find(call->table)) table->player_renamed({call->player, std::string(call->name)});
      return;
    default:
      if (const auto table = services_->tables->find(call->table)) table->call_time();
  }
}

void PeerTables::lost() {
  for (auto& [number, held] : held_) forget(held);
  held_.clear();
}

PeerTables::Held& PeerTables::held(PeerLink& link, std::uint64_t number, const TableCall& call) {
  Held& connection = held_[number];
  if (!connection.seat) {
    connection.seat = std::make_shared<Seat>(link.shared_from_this(), number);
    connection.seat->take_view_patches(call.patches);
    connection.player = call.player;
    services_->presence->attach(call.player, connection.seat);
  }
  return connection;
}

void PeerTables::request(PeerLink& link, std::uint64_t number, const TableCall& call) {
  Held& connection = held(link, number, call);
  // Read as the dispatcher reads it: the process that sent it has, so it reads.
  Request request{{}, std::chrono::steady_clock::now(), services_->game->read_command_message(call.message), {}};
  if (request.game_command) {
    request.envelope = {"game.command", request.game_command->id, protocol::Json::object()};
  } else if (auto decoded = protocol::decode_envelope(call.message); std::holds_alternative<protocol::Envelope>(decoded)) {
    request.envelope = std::move(std::get<protocol::Envelope>(decoded));
  }
  const Route* route = route_for(request.envelope.type);
  if (!route || !route->at_table) {
    spdlog::warn("a peer process sent table {} a message that is not a table's ('{}')", call.table,
                 request.envelope.type.substr(0, 64));
    return connection.seat->deliver(protocol::error_message(protocol::ErrorCode::bad_envelope,
                                                            "not a table's request", request.envelope.id));
  }
  const auto table = services_->tables->find(call.table);
  if (!table) {
    return connection.seat->deliver(protocol::error_message(
        protocol::ErrorCode::not_found, "no table " + std::to_string(call.table), request.envelope.id));
  }
  connection.tables.insert(call.table);
  table->handle(route->at_table,
                TableRequest{connection.seat, {call.player, std::string(call.name)}, std::move(request.envelope),
                             request.received, std::move(request.game_command)},
                call.message);
}

void PeerTables::forget(Held& held) {
  services_->presence->detach(held.player, held.seat.get());
  for (const TableId id : held.tables) {
    if (const auto table = services_->tables->find(id)) table->connection_closed(held.seat.get());
  }
}

}  // namespace elgrande::server
