#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/net.hpp"
#include "app/services.hpp"

namespace elgrande::server {

using HttpRequest = http::request<http::string_body>;

// Over TLS: a browser that once loaded the client so never tries plain HTTP again for two
// years, as the HSTS preload list asks.
inline constexpr std::string_view kStrictTransportSecurity = "max-age=63072000";

// Answers one plain HTTP request: GET/HEAD /healthz, /readyz, /metrics (Prometheus), else a
// static file from the web root. Every other method gets 405. Nothing a client sends makes it throw.
http::message_generator handle_request(const HttpRequest& request, const Services& services);

// Answers one request, at once or later from a reader's thread: the database's answers
// (a game's record, the ratings API, an unsubscribe link), else handle_request's. For a
// connection here (HttpSession) and a request another process relays (net/peer_clients.hpp);
// `send` may be called on any thread.
void answer_request(const HttpRequest& request, const Services& services,
                    std::function<void(http::message_generator)> send);

// A whole answer as its bytes go on the wire.
std::string serialise(http::message_generator answer);

// The probes, /healthz, /readyz and /metrics, each answered by the process asked, or none
// for any other path. A follower's are its own: alive, ready while it knows where the leader
// is, and its own connections' figures.
std::optional<http::message_generator> probe(const HttpRequest& request, const Services& services);

// The plain HTTP port of a server that serves HTTPS: files certbot left for Let's Encrypt's
// HTTP challenge, /healthz, and a permanent redirect to the same target over HTTPS for
// everything else.
http::message_generator answer_plain_http(const HttpRequest& request, const Services& services);

// For a connection beyond the connection limit: the probes (/healthz, /readyz, /metrics)
// as ever, 503 with Retry-After for anything else, and the connection closes after it.
http::message_generator answer_when_full(const HttpRequest& request, const Services& services);

// A short text/plain answer, for refusals the session decides itself (such as an
// oversized body) before a request reaches handle_request.
http::message_generator text_response(const HttpRequest& request, http::status status,
                                      std::string_view text, bool keep_alive);

}  // namespace elgrande::server
