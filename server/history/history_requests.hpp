#pragma once

#include <functional>
#include <optional>

#include "app/client.hpp"
#include "app/services.hpp"
#include "common/net.hpp"

namespace elgrande::server {

// history.list: finished games, the player's or everyone's, newest first, paged.
void list_history(const Services& services, Client& client, Request& request);

// GET /api/games/ID/record: the record of a finished game, read on a reader connection.
// Returns false, without calling `respond`, for any other request; otherwise `respond`
// later receives the answer (500 with the reason if the read fails) on a reader thread.
bool export_game_record(const http::request<http::string_body>& request, const Services& services, Respond respond);

}  // namespace elgrande::server
