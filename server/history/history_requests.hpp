#pragma once

#include <functional>
#include <optional>

#include "common/net.hpp"
#include "requests/answers.hpp"

namespace elgrande::server {

class Reader;

// What the history requests need: the reader connections.
struct HistoryRequestsEnv : RequestEnv {
  Reader* reader = nullptr;
};

// history.list: finished games, the player's or everyone's, newest first, paged.
void list_history(const HistoryRequestsEnv& env, Client& client, Request& request);

// GET /api/games/ID/record: the record of a finished game, read on a reader connection.
// Returns false, without calling `respond`, for any other request; otherwise `respond`
// later receives the answer (500 with the reason if the read fails) on a reader thread.
bool export_game_record(const http::request<http::string_body>& request, const HistoryRequestsEnv& env,
                        Respond respond);

}  // namespace elgrande::server
