#pragma once

#include <filesystem>
#include <optional>

namespace elgrande::server {

// What every connection may read, fixed at startup and shared immutably between threads.
// Game rooms and the database join it when the WebSocket protocol arrives.
struct ServerContext {
  // Absolute directory of the web client; empty when the configured one does not exist.
  std::optional<std::filesystem::path> web_root;
};

}  // namespace elgrande::server
