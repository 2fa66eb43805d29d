#pragma once

#include "app/client.hpp"
#include "app/services.hpp"

namespace elgrande::server {

// play.join {players, short_game?, automa?, clock?, bots_after_seconds?} and play.leave.
void join_play_now(const Services& services, Client& client, Request& request);
void leave_play_now(const Services& services, Client& client, Request& request);

}  // namespace elgrande::server
