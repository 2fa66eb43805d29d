#pragma once

#include <array>
#include <string>
#include <string_view>

#include "elgrande/engine/options.hpp"

namespace elgrande::server {

// The ladders rated games count on (docs/ratings.md): one per player count, one for two
// players with the automa, and the short game's apart from the full game's: "2p", "3p",
// "4p", "5p", "2p-automa", and the same with "-short".
inline constexpr std::array<std::string_view, 10> kLadders{
    "2p", "3p", "4p", "5p", "2p-automa", "2p-short", "3p-short", "4p-short", "5p-short", "2p-automa-short"};

std::string ladder_of(const Options& options);
bool is_ladder(std::string_view name);

}  // namespace elgrande::server
