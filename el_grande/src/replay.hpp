#pragma once

#include <span>
#include <string>
#include <variant>
#include <vector>

#include "elgrande/engine/record.hpp"
#include "elgrande/games/module.hpp"

namespace elgrande::el_grande {

// The log's moves as engine commands, the first of them the game's move `first_version`,
// or why one is not El Grande's.
std::variant<std::vector<RecordedCommand>, std::string> read_log(std::span<const games::Recorded> log,
                                                                 std::uint32_t first_version);

// GameModule::replay for El Grande: the setup, then each command through elgrande::replay.
std::variant<std::vector<games::ReplayFrame>, std::string> replay_frames(const Options& options, std::uint64_t seed,
                                                                         std::span<const RecordedCommand> commands,
                                                                         std::int64_t table, bool secrets);

}  // namespace elgrande::el_grande
