#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>

#include "lobby.hpp"
#include "metrics.hpp"
#include "session_registry.hpp"

namespace elgrande::server {

// Per-connection WebSocket limits, from the configuration.
struct WsLimits {
  std::size_t max_message_bytes = 64 * 1024;
  std::size_t max_queued_messages = 256;
  double messages_per_second = 20;
  double message_burst = 40;
};

// What every connection may read, fixed at startup and shared immutably between threads.
struct ServerContext {
  // Absolute directory of the web client; empty when the configured one does not exist.
  std::optional<std::filesystem::path> web_root;
  WsLimits ws_limits;
  // The open WebSocket sessions, so shutdown can say goodbye to each. Internally locked.
  std::shared_ptr<SessionRegistry> sessions = std::make_shared<SessionRegistry>();
  std::shared_ptr<Metrics> metrics = std::make_shared<Metrics>();
  // Identities and tables. Set once at startup, before the listener runs.
  std::shared_ptr<Lobby> lobby;
};

}  // namespace elgrande::server
