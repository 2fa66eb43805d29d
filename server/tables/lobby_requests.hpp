#pragma once

#include "app/client.hpp"
#include "app/services.hpp"
#include "tables/table.hpp"

namespace elgrande::server {

// The lobby's requests: the listing and its subscription, "my games", and table.create.
void list_tables(const Services& services, Client& client, Request& request);
void subscribe_to_tables(const Services& services, Client& client, Request& request);
void unsubscribe_from_tables(const Services& services, Client& client, Request& request);
void my_games(const Services& services, Client& client, Request& request);
void create_table(const Services& services, Client& client, Request& request);

// A table.* or game.* request: finds the table named in the payload and hands the
// request to `handler` on the table's strand.
void forward_to_table(const Services& services, Client& client, Request& request, Table::Handler handler);

}  // namespace elgrande::server
