#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace elgrande::server {

// Whether a page from `origin` (the Origin header; empty when absent) may open the game's
// WebSocket on this server, reached as `host` (the Host header). Browsers always send
// Origin with a WebSocket handshake and carry the player's token in the page, so a page
// on another site must not get a connection (cross-site WebSocket hijacking). The
// server's own host is allowed, as is anything in `allowed` (lower-case origins, or "*");
// programs that send no Origin are not browsers and are let through.
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

// Who the request comes from: the peer, or, when the peer is one of `trusted_proxies`,
// the last address its X-Forwarded-For names (the one the proxy itself saw).
std::string client_address(const boost::asio::ip::address& peer, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_proxies);

}  // namespace elgrande::server
