#include "moderation/block_requests.hpp"

#include "identity/identities.hpp"
#include "moderation/block_lists.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

void set_block(const Services& services, Client& client, const Request& request, bool blocked) {
  const auto field = request.envelope.payload.find("player");
  if (field == request.envelope.payload.end() || !field->is_number_integer()) {
    return refuse(services, client, ErrorCode::bad_payload, "player: must be a player id", request.envelope.id);
  }
  const PlayerId other = field->get<PlayerId>();
  if (other == client.player->id) {
    return refuse(services, client, ErrorCode::wrong_state, "not yourself", request.envelope.id);
  }
  if (!services.identities->find(other)) {
    return refuse(services, client, ErrorCode::not_found, "no such player", request.envelope.id);
  }
  if (refuse_while_storage_refuses(services, client, request.envelope.id)) return;
  services.block_lists->set(
      client.player->id, other, blocked,
      [&services, connection = client.self(), id = request.envelope.id, type = request.envelope.type](bool saved) {
        if (saved) return connection->deliver(protocol::reply_message(type, id));
        services.metrics->count_error(ErrorCode::unavailable);
        connection->deliver(protocol::error_message(ErrorCode::unavailable, "the server could not save that", id));
      });
}

}  // namespace

void block(const Services& services, Client& client, Request& request) { set_block(services, client, request, true); }

void unblock(const Services& services, Client& client, Request& request) {
  set_block(services, client, request, false);
}

void list_blocks(const Services& services, Client& client, Request& request) {
  Json players = Json::array();
  for (const PlayerId blocked : services.block_lists->blocked_by(client.player->id)) {
    players.push_back(to_json(services.identities->find(blocked).value_or(Player{blocked, "?"})));
  }
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"players", std::move(players)}}));
}

}  // namespace elgrande::server
