#include "requests/client.hpp"

#include <cstdint>

namespace elgrande::server {

std::optional<std::string> read_protocol(const protocol::Json& payload, Client& client) {
  const auto version = payload.find("protocol");
  if (version == payload.end() || !version->is_number_integer() ||
      version->get<std::int64_t>() < protocol::kOldestProtocolVersion ||
      version->get<std::int64_t>() > protocol::kProtocolVersion) {
    return "protocol: this server speaks versions " + std::to_string(protocol::kOldestProtocolVersion) + " to " +
           std::to_string(protocol::kProtocolVersion);
  }
  // Before the connection joins any table: from its first game update on.
  client.take_view_patches(version->get<std::int64_t>() >= 2);
  return std::nullopt;
}

}  // namespace elgrande::server
