#include "app/dispatcher.hpp"

#include <algorithm>
#include <unordered_map>

#include "accounts/account_requests.hpp"
#include "common/unix_time.hpp"
#include "history/history_requests.hpp"
#include "moderation/block_requests.hpp"
#include "moderation/moderation_requests.hpp"
#include "identity/hello.hpp"
#include "matchmaking/play_requests.hpp"
#include "presence/presence.hpp"
#include "ratings/rating_requests.hpp"
#include "tables/directory.hpp"
#include "storage/storage.hpp"
#include "tables/lobby_requests.hpp"
#include "tournaments/tournament_requests.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;

void ping(const Services& /*services*/, Client& client, Request& request) {
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"time", unix_milliseconds()}}));
}

Route at_table(Table::Handler handler) { return Route{Access::identified, nullptr, handler}; }

const std::unordered_map<std::string_view, Route>& routes() {
  static const std::unordered_map<std::string_view, Route> kRoutes{
      {"hello", {Access::anyone, &hello}},
      {"ping", {Access::anyone, &ping}},
      {"account.sign_in", {Access::anyone, &sign_in}},
      {"account.sign_up", {Access::identified, &sign_up}},
      {"account.sessions", {Access::identified, &list_sessions}},
      {"account.end_sessions", {Access::identified, &end_sessions}},
      {"account.change_password", {Access::identified, &change_password}},
      {"mod.mute", {Access::identified, &mute}},
      {"mod.ban", {Access::identified, &ban}},
      {"mod.kick", {Access::identified, &kick}},
      {"mod.delete_chat", {Access::identified, &delete_chat}},
      {"admin.set_role", {Access::identified, &set_role}},
      {"admin.audit", {Access::identified, &read_audit_log}},
      {"lobby.list", {Access::identified, &list_tables}},
      {"lobby.subscribe", {Access::identified, &subscribe_to_tables}},
      {"lobby.unsubscribe", {Access::identified, &unsubscribe_from_tables}},
      {"player.games", {Access::identified, &my_games}},
      {"player.block", {Access::identified, &block}},
      {"player.unblock", {Access::identified, &unblock}},
      {"player.blocks", {Access::identified, &list_blocks}},
      {"history.list", {Access::identified, &list_history}},
      {"rating.leaderboard", {Access::identified, &leaderboard}},
      {"rating.profile", {Access::identified, &profile}},
      {"play.join", {Access::identified, &join_play_now}},
      {"play.leave", {Access::identified, &leave_play_now}},
      {"table.create", {Access::identified, &create_table}},
      {"table.join", at_table(&Table::join)},
      {"table.seat", at_table(&Table::choose_seat)},
      {"table.leave", at_table(&Table::leave)},
      {"table.add_bot", at_table(&Table::add_bot)},
      {"table.remove_bot", at_table(&Table::remove_bot)},
      {"table.start", at_table(&Table::start)},
      {"table.spectate", at_table(&Table::spectate)},
      {"table.chat", at_table(&Table::chat)},
      {"game.command", at_table(&Table::command)},
      {"game.resign", at_table(&Table::resign)},
      {"game.view", at_table(&Table::view_again)},
      {"tournament.create", {Access::identified, &create_tournament}},
      {"tournament.list", {Access::identified, &list_tournaments}},
      {"tournament.get", {Access::identified, &get_tournament}},
      {"tournament.register", {Access::identified, &forward_to_tournament}},
      {"tournament.unregister", {Access::identified, &forward_to_tournament}},
      {"tournament.check_in", {Access::identified, &forward_to_tournament}},
      {"tournament.withdraw", {Access::identified, &forward_to_tournament}},
      {"tournament.start", {Access::identified, &forward_to_tournament}},
      {"tournament.pause", {Access::identified, &forward_to_tournament}},
      {"tournament.resume", {Access::identified, &forward_to_tournament}},
      {"tournament.remove", {Access::identified, &forward_to_tournament}},
      {"tournament.disqualify", {Access::identified, &forward_to_tournament}},
      {"tournament.override", {Access::identified, &forward_to_tournament}},
      {"tournament.cancel", {Access::identified, &forward_to_tournament}},
  };
  return kRoutes;
}

}  // namespace

const Route* route_for(std::string_view type) {
  const auto found = routes().find(type);
  return found == routes().end() ? nullptr : &found->second;
}

bool refuse_while_storage_refuses(const Services& services, Client& client,
                                  const std::optional<protocol::RequestId>& id) {
  if (services.storage->accepting()) return false;
  refuse(services, client, ErrorCode::unavailable,
         "the server cannot save changes at the moment; nothing changed, try again shortly", id);
  return true;
}

void dispatch(const Services& services, Client& client, std::string_view text,
              std::chrono::steady_clock::time_point received) {
  Request request{{}, received, protocol::read_game_command(text)};
  if (request.game_command) {
    request.envelope.type = "game.command";
    request.envelope.id = request.game_command->id;
  } else {
    protocol::DecodedEnvelope decoded = protocol::decode_envelope(text);
    if (const auto* error = std::get_if<protocol::EnvelopeError>(&decoded)) {
      services.metrics->count_error(error->code);
      return client.send(protocol::error_message(*error));
    }
    request.envelope = std::move(std::get<protocol::Envelope>(decoded));
  }
  const Route* route = route_for(request.envelope.type);
  if (!route) {
    return refuse(services, client, ErrorCode::unknown_type, "unknown message type '" + request.envelope.type + "'",
                  request.envelope.id);
  }
  if (route->access == Access::identified && !client.player) {
    return refuse(services, client, ErrorCode::not_identified, "say hello first", request.envelope.id);
  }
  if (route->at_table) return forward_to_table(services, client, request, route->at_table);
  route->handle(services, client, request);
}

void farewell(const Services& services, const Client& client) {
  services.tables->unsubscribe(&client);
  std::vector<std::shared_ptr<Table>> tables;
  for (const TableId id : client.watching) {
    if (auto table = services.tables->find(id)) tables.push_back(std::move(table));
  }
  if (client.player) {
    // Presence first, so that the tables show the player disconnected.
    services.presence->detach(client.player->id, &client);
    for (auto& table : services.tables->tables_of(client.player->id)) tables.push_back(std::move(table));
  }
  std::sort(tables.begin(), tables.end());
  tables.erase(std::unique(tables.begin(), tables.end()), tables.end());
  for (const auto& table : tables) table->connection_closed(&client);
}

}  // namespace elgrande::server
