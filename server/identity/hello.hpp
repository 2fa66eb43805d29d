#pragma once

#include "app/client.hpp"
#include "app/services.hpp"

namespace elgrande::server {

// hello: who the connection speaks for. A known token signs its player in (renamed if
// the name differs); no token makes a new guest. The answer waits until a new identity
// or name is saved, and then the player's tables greet the connection.
void hello(const Services& services, Client& client, Request& request);

}  // namespace elgrande::server
