#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace elgrande::server {

// A PROXY protocol line (version 1, HAProxy's), as a trusted proxy in front sends it before
// a connection's bytes to name the client: "PROXY TCP4 <client> <local> <client port>
// <local port>" (TCP6 for IPv6). The client's address from such a line, without its
// "\r\n", or none if it is not one.
std::optional<std::string> proxied_client(std::string_view line);

}  // namespace elgrande::server
