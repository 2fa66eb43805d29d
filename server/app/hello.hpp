#pragma once

#include "app/services.hpp"

namespace elgrande::server {

// hello: who the connection speaks for. A known token signs its player in (renamed if
// the name differs); no token makes a new guest. The answer waits until a new identity
// or name is saved, and then the player's tables greet the connection.
void hello(const Services& services, Client& client, Request& request);

// The connection speaks for `player` from now on (signed in with `session`, if an
// account's): it is present, and the player's tables greet it. A connection that spoke for
// someone else leaves everything first, as if it had closed.
void speak_for(const Services& services, Client& client, const Player& player, std::optional<std::int64_t> session);

}  // namespace elgrande::server
