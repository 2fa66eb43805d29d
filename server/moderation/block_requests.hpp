#pragma once

#include "app/client.hpp"
#include "app/services.hpp"

namespace elgrande::server {

// player.block and player.unblock: the asker's own block list (`blocked`: which).
void block(const Services& services, Client& client, Request& request);
void unblock(const Services& services, Client& client, Request& request);
// player.blocks: whom the asker blocks.
void list_blocks(const Services& services, Client& client, Request& request);

}  // namespace elgrande::server
