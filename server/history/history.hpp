#pragma once

#include <span>

#include "elgrande/db/store.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/codec.hpp"

namespace elgrande::server {

// A finished game as history.list shows it: the table, its players, its result and when
// it ran (docs/protocol.md).
protocol::Json history_entry(const db::FinishedGame& game);

// The exported record of a finished game (docs/game-record.md): options, the seed (no
// longer secret), every command with who answered it and when, the table's history entry,
// its replay (replay_document's, for the web client's viewer offline) and the second
// opinions its players asked for. elgrande-replay reads it as it is. A table that kept its
// secrets exports its public replay alone.
protocol::Json export_record(const db::FinishedGame& game, std::span<const db::LoggedCommand> commands,
                             const games::GameModule& module, std::span<const db::ReviewRecord> reviews = {});

// A table's log as its game module replays it.
std::vector<games::Recorded> recorded_log(std::span<const db::LoggedCommand> commands);

// A finished game's replay (docs/replays.md): its history entry, who answered each move
// and when, and the module's frames (what a spectator connected from the start was sent
// after each step, and what each seat alone knew then), as JSON text. Throws
// std::runtime_error naming the move if the log does not replay.
std::string replay_document(const db::FinishedGame& game, std::span<const db::LoggedCommand> commands,
                            const games::GameModule& module);

}  // namespace elgrande::server
