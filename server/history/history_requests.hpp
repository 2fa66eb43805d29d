#pragma once

#include <functional>
#include <optional>

#include "common/net.hpp"
#include "elgrande/games/module.hpp"
#include "requests/answers.hpp"

namespace elgrande::server {

class Reader;

// What the history requests need: the reader connections, and the game to replay.
struct HistoryRequestsEnv : RequestEnv {
  Reader* reader = nullptr;
  const games::GameModule* game = nullptr;
};

// history.list: finished games, the player's or everyone's, newest first, paged.
void list_history(const HistoryRequestsEnv& env, Client& client, Request& request);

// table.log: a table's public event log from its first move, a page of versions at a time
// (docs/replays.md#the-public-event-log), for a late spectator or a player coming back:
// replayed from its log on a reader connection, as a spectator was told it.
void table_log(const HistoryRequestsEnv& env, Client& client, Request& request);

// GET /api/games/ID/record: the record of a finished game; GET /api/games/ID/replay: its
// replay (docs/replays.md), built from its log. Both read and built on a reader connection,
// off the tables' strands and the storage writer. Returns false, without calling `respond`, for any other request; otherwise `respond`
// later receives the answer (500 with the reason if the read fails) on a reader thread.
bool export_game_record(const http::request<http::string_body>& request, const HistoryRequestsEnv& env,
                        Respond respond);

}  // namespace elgrande::server
