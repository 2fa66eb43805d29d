#include "app/dispatcher.hpp"

#include <algorithm>
#include <unordered_map>

#include "accounts/account_requests.hpp"
#include "common/unix_time.hpp"
#include "history/history_requests.hpp"
#include "moderation/moderation_requests.hpp"
#include "notices/notice_requests.hpp"
#include "app/hello.hpp"
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

// A capability's handler (or gate), handed only its own requests' environment.
template <auto env, auto handler>
auto with(const Services& services, Client& client, Request& request) {
  return handler(services.*env, client, request);
}

Route at_table(Table::Handler handler, RequestGate gate = nullptr) {
  return Route{Access::identified, nullptr, handler, gate};
}

constexpr auto kAccounts = &Services::account_requests;
constexpr auto kModeration = &Services::moderation_requests;
constexpr auto kLobby = &Services::lobby_requests;
constexpr auto kPlay = &Services::play_requests;
constexpr auto kRatings = &Services::rating_requests;
constexpr auto kHistory = &Services::history_requests;
constexpr auto kReviews = &Services::review_requests;
constexpr auto kTournaments = &Services::tournament_requests;
constexpr auto kNotices = &Services::notice_requests;

const std::unordered_map<std::string_view, Route>& routes() {
  static const std::unordered_map<std::string_view, Route> kRoutes{
      {"hello", {Access::anyone, &hello}},
      {"ping", {Access::anyone, &ping}},
      {"account.sign_in", {Access::anyone, &with<kAccounts, &sign_in>}},
      {"account.sign_up", {Access::identified, &with<kAccounts, &sign_up>}},
      {"account.sessions", {Access::identified, &with<kAccounts, &list_sessions>}},
      {"account.end_sessions", {Access::identified, &with<kAccounts, &end_sessions>}},
      {"account.change_password", {Access::identified, &with<kAccounts, &change_password>}},
      {"account.delete", {Access::identified, &with<kAccounts, &delete_account>}},
      {"account.set_language", {Access::identified, &with<kAccounts, &set_language>}},
      // A mailed link may be followed on a device that is not signed in.
      {"account.verify_email", {Access::anyone, &with<kNotices, &verify_email>}},
      {"account.forgot_password", {Access::anyone, &with<kNotices, &forgot_password>}},
      {"account.reset_password", {Access::anyone, &with<kNotices, &reset_password>}},
      {"account.set_email", {Access::identified, &with<kNotices, &set_email>}},
      {"account.remove_email", {Access::identified, &with<kNotices, &remove_email>}},
      {"notices.preferences", {Access::identified, &with<kNotices, &notice_preferences>}},
      {"notices.set_preferences", {Access::identified, &with<kNotices, &set_notice_preferences>}},
      {"push.key", {Access::identified, &with<kNotices, &push_key>}},
      {"push.subscribe", {Access::identified, &with<kNotices, &push_subscribe>}},
      {"push.devices", {Access::identified, &with<kNotices, &push_devices>}},
      {"push.remove", {Access::identified, &with<kNotices, &push_remove>}},
      {"mod.mute", {Access::identified, &with<kModeration, &mute>}},
      {"mod.ban", {Access::identified, &with<kModeration, &ban>}},
      {"mod.kick", at_table(&Table::kick, &with<kModeration, &may_kick>)},
      {"mod.delete_chat", at_table(&Table::remove_chat, &with<kModeration, &may_delete_chat>)},
      {"admin.set_role", {Access::identified, &with<kModeration, &set_role>}},
      {"admin.audit", {Access::identified, &with<kModeration, &read_audit_log>}},
      {"lobby.list", {Access::identified, &with<kLobby, &list_tables>}},
      {"lobby.subscribe", {Access::identified, &with<kLobby, &subscribe_to_tables>}},
      {"lobby.unsubscribe", {Access::identified, &with<kLobby, &unsubscribe_from_tables>}},
      {"player.games", {Access::identified, &with<kLobby, &my_games>}},
      {"player.block", {Access::identified, &with<kModeration, &block>}},
      {"player.unblock", {Access::identified, &with<kModeration, &unblock>}},
      {"player.blocks", {Access::identified, &with<kModeration, &list_blocks>}},
      {"history.list", {Access::identified, &with<kHistory, &list_history>}},
      {"table.log", {Access::identified, &with<kHistory, &table_log>}},
      {"game.review", {Access::identified, &with<kReviews, &review_decision>}},
      {"rating.leaderboard", {Access::identified, &with<kRatings, &leaderboard>}},
      {"rating.profile", {Access::identified, &with<kRatings, &profile>}},
      {"play.join", {Access::identified, &with<kPlay, &join_play_now>}},
      {"play.leave", {Access::identified, &with<kPlay, &leave_play_now>}},
      {"table.create", {Access::identified, &with<kLobby, &create_table>}},
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
      {"tournament.create", {Access::identified, &with<kTournaments, &create_tournament>}},
      {"tournament.list", {Access::identified, &with<kTournaments, &list_tournaments>}},
      {"tournament.get", {Access::identified, &with<kTournaments, &get_tournament>}},
      {"tournament.register", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.unregister", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.check_in", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.withdraw", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.start", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.pause", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.resume", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.remove", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.disqualify", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.override", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
      {"tournament.cancel", {Access::identified, &with<kTournaments, &forward_to_tournament>}},
  };
  return kRoutes;
}

}  // namespace

const Route* route_for(std::string_view type) {
  const auto found = routes().find(type);
  return found == routes().end() ? nullptr : &found->second;
}

void dispatch(const Services& services, Client& client, std::string_view text,
              std::chrono::steady_clock::time_point received) {
  Request request{{}, received, services.game->read_command_message(text), text};
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
  if (route->at_table) {
    if (route->gate && !route->gate(services, client, request)) return;
    return forward_to_table(services.lobby_requests, client, request, route->at_table);
  }
  route->handle(services, client, request);
}

void farewell(const Services& services, const Client& client) {
  services.tables->unsubscribe(&client);
  std::vector<TableEndpointPtr> tables;
  for (const TableId id : client.watching) {
    if (auto table = services.tables->find(id)) tables.push_back(std::move(table));
  }
  // And those it spoke to: a table another process owns knows it from its first request.
  for (const auto& [id, spoken_to] : client.tables) {
    if (auto table = spoken_to.lock()) tables.push_back(std::move(table));
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
