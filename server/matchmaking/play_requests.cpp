#include "matchmaking/play_requests.hpp"

#include "matchmaking/matchmaker.hpp"

namespace elgrande::server {

void join_play_now(const PlayRequestsEnv& env, Client& client, Request& request) {
  protocol::Decoded<PlayRequest> wish = play_request_from_json(request.envelope.payload, env.matchmaker->game());
  if (!wish) {
    return refuse(env, client, protocol::ErrorCode::bad_payload, wish.error().message, request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  env.matchmaker->join(client.self(), *client.player, std::move(wish).value(), request.envelope.id);
}

void leave_play_now(const PlayRequestsEnv& env, Client& client, Request& request) {
  env.matchmaker->leave(client.self(), client.player->id, request.envelope.id);
}

}  // namespace elgrande::server
