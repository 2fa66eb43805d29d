#pragma once

#include <optional>
#include <string_view>

#include "elgrande/protocol/envelope.hpp"
#include "ops/metrics.hpp"
#include "requests/client.hpp"

namespace elgrande::server {

class Storage;

// What every request handler answers with: the error counter, and the writer, asked whether
// changes are taken. Each capability's requests declare what else they need in a struct
// deriving from this one (lila's per-module Env), filled once by main.
struct RequestEnv {
  Metrics* metrics = nullptr;
  const Storage* storage = nullptr;
};

// Answers `client` with an error and counts it.
inline void refuse(const RequestEnv& env, Client& client, protocol::ErrorCode code, std::string_view message,
                   const std::optional<protocol::RequestId>& id = std::nullopt) {
  env.metrics->count_error(code);
  client.send(protocol::error_message(code, message, id));
}
// The same with facts the client words for the player (protocol::error_message_with).
inline void refuse(const RequestEnv& env, Client& client, protocol::ErrorCode code, std::string_view message,
                   const std::optional<protocol::RequestId>& id, const protocol::Json& facts) {
  env.metrics->count_error(code);
  client.send(protocol::error_message_with(code, message, id, facts));
}

// Whether changes are refused now because storage cannot take them (a failing disk, a full
// queue); if so, `client` is answered `unavailable`. Asked before anything is changed.
bool refuse_while_storage_refuses(const RequestEnv& env, Client& client, const std::optional<protocol::RequestId>& id);

}  // namespace elgrande::server
