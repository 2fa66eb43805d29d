#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/client.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "ops/metrics.hpp"

namespace elgrande::server {

class Identities;
class Presence;
class TableDirectory;
class TableFactory;
class Storage;
class Reader;
class SessionRegistry;

// Per-connection WebSocket limits, from the configuration.
struct WsLimits {
  std::size_t max_message_bytes = 64 * 1024;
  std::size_t max_queued_messages = 256;
  double messages_per_second = 20;
  double message_burst = 40;
};

// What connections and request handlers work with, made once at startup by main and
// shared immutably between threads. Each service locks (or strands) itself; none is
// reached through another.
struct Services {
  // Absolute directory of the web client; empty when the configured one does not exist.
  std::optional<std::filesystem::path> web_root;
  WsLimits ws_limits;
  std::shared_ptr<SessionRegistry> sessions;  // open WebSocket sessions, for shutdown
  std::shared_ptr<Metrics> metrics;
  Storage* storage = nullptr;  // the writer: asked whether changes are taken
  Reader* reader = nullptr;    // history and record export
  Identities* identities = nullptr;
  Presence* presence = nullptr;
  TableDirectory* tables = nullptr;
  TableFactory* table_factory = nullptr;
};

// Answers `client` with an error and counts it.
inline void refuse(const Services& services, Client& client, protocol::ErrorCode code, std::string_view message,
                   const std::optional<protocol::RequestId>& id = std::nullopt) {
  services.metrics->count_error(code);
  client.send(protocol::error_message(code, message, id));
}

}  // namespace elgrande::server
