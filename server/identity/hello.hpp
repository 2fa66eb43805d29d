#pragma once

#include "app/client.hpp"
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

// Reads the payload's "protocol" (1 or 2) and notes whether the connection takes view
// patches; otherwise why not, for a bad_payload.
std::optional<std::string> read_protocol(const protocol::Json& payload, Client& client);

// What hello and the sign-ins answer with about an account; null for a guest.
protocol::Json account_json(const Services& services, PlayerId player, std::optional<std::int64_t> session);

}  // namespace elgrande::server
