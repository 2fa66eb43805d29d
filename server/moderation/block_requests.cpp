#include "moderation/moderation_requests.hpp"

#include "identity/identities.hpp"
#include "moderation/block_lists.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

void set_block(const ModerationRequestsEnv& env, Client& client, const Request& request, bool blocked) {
  const auto field = request.envelope.payload.find("player");
  if (field == request.envelope.payload.end() || !field->is_number_integer()) {
    return refuse(env, client, ErrorCode::bad_payload, "player: must be a player id", request.envelope.id);
  }
  const PlayerId other = field->get<PlayerId>();
  if (other == client.player->id) {
    return refuse(env, client, ErrorCode::wrong_state, "not yourself", request.envelope.id);
  }
  if (!env.identities->find(other)) {
    return refuse(env, client, ErrorCode::not_found, "no such player", request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  env.block_lists->set(
      client.player->id, other, blocked,
      [&env, connection = client.self(), id = request.envelope.id, type = request.envelope.type](bool saved) {
        if (saved) return connection->deliver(protocol::reply_message(type, id));
        env.metrics->count_error(ErrorCode::unavailable);
        connection->deliver(protocol::error_message(ErrorCode::unavailable, "the server could not save that", id));
      });
}

}  // namespace

void block(const ModerationRequestsEnv& env, Client& client, Request& request) { set_block(env, client, request, true); }

void unblock(const ModerationRequestsEnv& env, Client& client, Request& request) {
  set_block(env, client, request, false);
}

void list_blocks(const ModerationRequestsEnv& env, Client& client, Request& request) {
  Json players = Json::array();
  for (const PlayerId blocked : env.block_lists->blocked_by(client.player->id)) {
    players.push_back(to_json(env.identities->find(blocked).value_or(Player{blocked, "?"})));
  }
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"players", std::move(players)}}));
}

}  // namespace elgrande::server
