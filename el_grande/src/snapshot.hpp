#pragma once

#include <optional>
#include <string>

#include "elgrande/engine/state.hpp"

// A GameState as a snapshot keeps it: this build's layout tag, then the state's bytes.
// Storage checksums the whole and checks its row; the layout is the module's to check.
namespace elgrande::el_grande {

std::string encode_state(const GameState& state);
// The state, or nothing with the reason in `refused`: another build's layout or size.
std::optional<GameState> decode_state(const std::string& bytes, std::string& refused);

}  // namespace elgrande::el_grande
