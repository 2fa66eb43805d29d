#pragma once

#include <chrono>
#include <cstdint>

namespace elgrande::server {

// Wall-clock time as the protocol and the database carry it: milliseconds since the Unix epoch.
inline std::int64_t unix_milliseconds(std::chrono::system_clock::time_point when = std::chrono::system_clock::now()) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
}

}  // namespace elgrande::server
