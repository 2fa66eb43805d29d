#pragma once

#include "app/client.hpp"
#include "app/services.hpp"

namespace elgrande::server {

// The tournament.* requests (docs/tournaments.md#messages): creating one, the list and
// one event's detail (answered from the connection's strand, from what was last saved),
// and everything else handed to the tournament's strand.
void create_tournament(const Services& services, Client& client, Request& request);
void list_tournaments(const Services& services, Client& client, Request& request);
void get_tournament(const Services& services, Client& client, Request& request);
void forward_to_tournament(const Services& services, Client& client, Request& request);

}  // namespace elgrande::server
