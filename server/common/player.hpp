#pragma once

#include <cstdint>
#include <string>

#include "elgrande/protocol/codec.hpp"

namespace elgrande::server {

using PlayerId = std::int64_t;
using TableId = std::int64_t;

// An identity as others see it.
struct Player {
  PlayerId id = 0;
  std::string name;
  friend bool operator==(const Player&, const Player&) = default;
};

inline protocol::Json to_json(const Player& player) { return {{"id", player.id}, {"name", player.name}}; }

}  // namespace elgrande::server
