#pragma once

#include <cstddef>

#include "requests/answers.hpp"
#include "tables/table.hpp"

namespace elgrande::server {

class Accounts;
class TableDirectory;
class TableFactory;

// What the lobby's requests need.
struct LobbyRequestsEnv : RequestEnv {
  TableDirectory* tables = nullptr;
  TableFactory* table_factory = nullptr;
  Accounts* accounts = nullptr;  // only players with an account host rated tables
  std::size_t open_tables_per_player = 0;  // 0: no cap
};

// The lobby's requests: the listing and its subscription, "my games", and table.create.
void list_tables(const LobbyRequestsEnv& env, Client& client, Request& request);
void subscribe_to_tables(const LobbyRequestsEnv& env, Client& client, Request& request);
void unsubscribe_from_tables(const LobbyRequestsEnv& env, Client& client, Request& request);
void my_games(const LobbyRequestsEnv& env, Client& client, Request& request);
void create_table(const LobbyRequestsEnv& env, Client& client, Request& request);

// A table.* or game.* request: finds the table named in the payload and hands the
// request to `handler` on the table's strand.
void forward_to_table(const LobbyRequestsEnv& env, Client& client, Request& request, Table::Handler handler);

}  // namespace elgrande::server
