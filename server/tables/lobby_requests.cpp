#include "tables/lobby_requests.hpp"

#include <spdlog/spdlog.h>

#include "accounts/accounts.hpp"
#include "storage/storage.hpp"
#include "tables/directory.hpp"
#include "tables/table_factory.hpp"

namespace elgrande::server {

using protocol::ErrorCode;

void list_tables(const LobbyRequestsEnv& env, Client& client, Request& request) {
  const protocol::Decoded<LobbyQuery> query = lobby_query_from_json(request.envelope.payload);
  if (!query) return refuse(env, client, ErrorCode::bad_payload, query.error().message, request.envelope.id);
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id, env.tables->list(query.value())));
}

void subscribe_to_tables(const LobbyRequestsEnv& env, Client& client, Request& request) {
  const protocol::Decoded<LobbyQuery> query = lobby_query_from_json(request.envelope.payload);
  if (!query) return refuse(env, client, ErrorCode::bad_payload, query.error().message, request.envelope.id);
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      env.tables->subscribe(client.self(), query.value())));
}

void unsubscribe_from_tables(const LobbyRequestsEnv& env, Client& client, Request& request) {
  env.tables->unsubscribe(&client);
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id));
}

void my_games(const LobbyRequestsEnv& env, Client& client, Request& request) {
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      {{"games", env.tables->games_of(client.player->id)}}));
}

void create_table(const LobbyRequestsEnv& env, Client& client, Request& request) {
  protocol::Decoded<TableConfig> config = table_config_from_json(request.envelope.payload, env.table_factory->game());
  if (!config) return refuse(env, client, ErrorCode::bad_payload, config.error().message, request.envelope.id);
  // Rated by default when the host has an account; guests are never rated, so a guest's
  // table is not either.
  const bool account = env.accounts && env.accounts->of(client.player->id);
  if (config.value().rated.value_or(false) && !account) {
    return refuse(env, client, ErrorCode::forbidden, "rated: only players with an account host rated tables",
                  request.envelope.id);
  }
  config.value().rated = config.value().rated.value_or(account);
  const std::size_t cap = env.open_tables_per_player;
  if (cap != 0 && env.tables->hosted_unfinished(client.player->id) >= cap) {
    return refuse(env, client, ErrorCode::limit_reached,
                  "you host " + std::to_string(cap) +
                      " tables that have not finished, as many as one player may; finish or leave one first",
                  request.envelope.id, {{"limit", "open_tables_per_player"}, {"max", cap}});
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  const auto table = env.table_factory->create(TableSpec::hosted_by(*client.player, config.value(), env.table_factory->game().seats(config.value().options)),
                                                    client.self(), request.envelope.id);
  if (!table) return refuse(env, client, ErrorCode::unavailable, kNoIdAtHand, request.envelope.id);
  spdlog::debug("player {} created table {}", client.player->id, table->id());
}

void forward_to_table(const LobbyRequestsEnv& env, Client& client, Request& request, Table::Handler handler) {
  TableId id = 0;
  if (request.game_command) {
    id = request.game_command->table;
  } else {
    const auto field = request.envelope.payload.find("table");
    if (field == request.envelope.payload.end() || !field->is_number_integer()) {
      return refuse(env, client, ErrorCode::bad_payload, "table: must be a table id", request.envelope.id);
    }
    id = field->get<TableId>();
  }
  TableEndpointPtr table = client.tables[id].lock();
  if (!table) {
    table = env.tables->find(id);
    if (!table) {
      client.tables.erase(id);
      return refuse(env, client, ErrorCode::not_found, "no table " + std::to_string(id), request.envelope.id);
    }
    // A removed table refuses by itself ("the table is gone"); forgotten ones are pruned.
    if (client.tables.size() > 64) std::erase_if(client.tables, [](const auto& entry) { return entry.second.expired(); });
    client.tables[id] = table;
  }
  if (handler == &Table::spectate) client.watching.insert(table->id());
  table->handle(handler, TableRequest{client.self(), *client.player, std::move(request.envelope), request.received,
                                             std::move(request.game_command)},
                request.text);
}

}  // namespace elgrande::server
