#pragma once

#include <functional>
#include <string_view>

#include "net.hpp"
#include "server_context.hpp"

namespace elgrande::server {

using Request = http::request<http::string_body>;

// Answers one plain HTTP request: GET/HEAD /healthz, /metrics (Prometheus), else a
// static file from the web root. Every other method gets 405. Nothing a client sends makes it throw.
http::message_generator handle_request(const Request& request, const ServerContext& context);

// Requests answered from the database, on its thread: GET /api/games/ID/record (the record
// of a finished game). Returns false, without calling `respond`, for any other request;
// otherwise `respond` later receives the answer on the database thread.
using Respond = std::function<void(http::response<http::string_body>)>;
bool handle_database_request(const Request& request, const ServerContext& context, Respond respond);

// A short text/plain answer, for refusals the session decides itself (such as an
// oversized body) before a request reaches handle_request.
http::message_generator text_response(const Request& request, http::status status,
                                      std::string_view text, bool keep_alive);

}  // namespace elgrande::server
