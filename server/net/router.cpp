#include "net/router.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>

#include "history/history_requests.hpp"
#include "identity/identities.hpp"
#include "net/connection_limit.hpp"
#include "net/peer_relay.hpp"
#include "net/session_registry.hpp"
#include "net/static_files.hpp"
#include "net/web_files.hpp"
#include "notices/unsubscribe_page.hpp"
#include "ops/metrics.hpp"
#include "ratings/rating_requests.hpp"
#include "storage/storage.hpp"
#include "tables/directory.hpp"
#include "tournaments/tournament_report.hpp"
#include "tournaments/tournaments.hpp"

namespace elgrande::server {
namespace {


// The web client is plain files from this server: no inline script or style, nothing from
// elsewhere, never inside another site's frame (clickjacking). WebSockets to this host
// fall under 'self'.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'";

void log_answer(const HttpRequest& request, http::status status) {
  spdlog::debug("{} {} -> {}", std::string_view(request.method_string()),
                std::string_view(request.target()), static_cast<unsigned>(status));
}

template <class Body>
void set_headers(http::response<Body>& response, std::string_view content_type, bool keep_alive) {
  response.set(http::field::server, kServerName);
  response.set(http::field::content_type, content_type);
  // On everything served, so no answer of this server can be framed or sniffed.
  response.set("Content-Security-Policy", kContentSecurityPolicy);
  response.set("X-Frame-Options", "DENY");  // frame-ancestors for browsers before CSP 2
  // Browsers must trust our Content-Type, not guess one from the bytes.
  response.set("X-Content-Type-Options", "nosniff");
  // Table links carry table ids; other sites need not see them.
  response.set("Referrer-Policy", "same-origin");
  response.keep_alive(keep_alive);
}

http::response<http::string_body> make_response(const HttpRequest& request, http::status status,
                                                std::string_view content_type, std::string body,
                                                bool keep_alive) {
  log_answer(request, status);
  http::response<http::string_body> response{status, request.version()};
  set_headers(response, content_type, keep_alive);
  response.content_length(body.size());
  // A HEAD answer announces the length a GET would get, without the body itself.
  if (request.method() != http::verb::head) response.body() = std::move(body);
  return response;
}

http::message_generator health(const HttpRequest& request) {
  auto response = make_response(request, http::status::ok, "application/json", R"({"status":"ok"})",
                                request.keep_alive());
  // Probes must see the live answer, never a cached one.
  response.set(http::field::cache_control, "no-store");
  return http::message_generator(std::move(response));
}

// Readiness: whether this server takes changes now. Liveness (/healthz) stays 200 meanwhile,
// since a restart would not cure a full disk or a lock held by another program.
http::message_generator readiness(const HttpRequest& request, const Services& services) {
  // A follower is ready while it knows where the leader is; a server, while its storage takes changes.
  const std::optional<std::string> reason =
      services.relay   ? (services.relay->has_leader() ? std::nullopt : std::optional<std::string>("no process leads"))
      : services.storage ? services.storage->why_not_accepting()
                         : std::optional<std::string>("starting");
  nlohmann::json body = reason ? nlohmann::json{{"status", "unavailable"}, {"reason", *reason}}
                               : nlohmann::json{{"status", "ready"}};
  // Damaged logs keep only their tables out of play; the server is ready for the others.
  if (!services.damaged_logs.empty()) body["damaged_logs"] = services.damaged_logs;
  auto response = make_response(request, reason ? http::status::service_unavailable : http::status::ok,
                                "application/json", body.dump(), request.keep_alive());
  response.set(http::field::cache_control, "no-store");
  return http::message_generator(std::move(response));
}

http::message_generator metrics(const HttpRequest& request, const Services& services) {
  Gauges gauges;
  gauges.connections = services.sessions->size();
  gauges.open_sockets = services.connections->open();
  gauges.connection_limit = services.connections->limit();
  // A follower has no players or tables of its own: its gauges are its connections.
  if (services.identities) gauges.players = services.identities->size();
  if (services.game) gauges.phases = services.game->phases();
  if (services.tables) services.tables->count(gauges);
  auto response = make_response(request, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                                render_metrics(*services.metrics, gauges), request.keep_alive());
  response.set(http::field::cache_control, "no-store");
  return http::message_generator(std::move(response));
}

http::message_generator method_not_allowed(const HttpRequest& request) {
  auto response =
      make_response(request, http::status::method_not_allowed, "text/plain; charset=utf-8",
                    "method not allowed\n", request.keep_alive());
  response.set(http::field::allow, "GET, HEAD");
  return http::message_generator(std::move(response));
}

// A file of the web client, compressed as the client accepts. Revalidated on every use
// (no-cache): the modules are not versioned in their names, and a client must never mix
// two versions of them; an unchanged file costs a 304 with no body.
http::message_generator static_file(const HttpRequest& request, WebFiles& web_files, bool over_tls) {
  const bool keep_alive = request.keep_alive();
  const auto path = resolve_static_file(web_files.root(), std::string_view(request.target()));
  if (!path) {
    return text_response(request, http::status::bad_request, "illegal request target\n",
                         keep_alive);
  }
  const std::shared_ptr<const WebFile> file = web_files.read(*path);
  if (!file) return text_response(request, http::status::not_found, "not found\n", keep_alive);

  const ContentCoding coding = choose_coding(request[http::field::accept_encoding], *file);
  const std::string etag = etag_of(*file, coding);
  const bool current = none_match_hits(request[http::field::if_none_match], etag);
  const http::status status = current ? http::status::not_modified : http::status::ok;
  log_answer(request, status);
  http::response<http::string_body> response{status, request.version()};
  set_headers(response, file->content_type, keep_alive);
  response.set(http::field::etag, etag);
  response.set(http::field::cache_control, "no-cache");
  if (over_tls) response.set(http::field::strict_transport_security, kStrictTransportSecurity);
  if (!file->gzip.empty() || !file->brotli.empty()) response.set(http::field::vary, "Accept-Encoding");
  if (coding != ContentCoding::identity) response.set(http::field::content_encoding, name(coding));
  if (current) return http::message_generator(std::move(response));
  const std::string& body = body_of(*file, coding);
  response.content_length(body.size());
  // A HEAD answer announces the length a GET would get, without the body itself.
  if (request.method() != http::verb::head) response.body() = body;
  return http::message_generator(std::move(response));
}

// The public read-only tournament API (docs/tournaments.md#http): the list, one event's
// detail (also the JSON export), and its standings and results as CSV.
std::optional<http::message_generator> tournament_api(const HttpRequest& request, const Services& services) {
  const std::string_view target = request.target();
  std::string_view path = target.substr(0, target.find('?'));
  constexpr std::string_view kPrefix = "/api/tournaments";
  if (!path.starts_with(kPrefix) || !services.tournaments) return std::nullopt;
  path.remove_prefix(kPrefix.size());
  const auto answer = [&](http::status status, std::string_view type, std::string body) {
    auto response = make_response(request, status, type, std::move(body), request.keep_alive());
    response.set(http::field::cache_control, "no-cache");
    return http::message_generator(std::move(response));
  };
  if (path.empty() || path == "/") {
    return answer(http::status::ok, "application/json", services.tournaments->list(std::nullopt, std::nullopt, 200).dump());
  }
  path.remove_prefix(1);
  const std::string_view number = path.substr(0, path.find('/'));
  const std::string_view rest = path.substr(number.size());
  TournamentId id = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), id);
  const auto tournament = error == std::errc() && end == number.data() + number.size() ? services.tournaments->find(id)
                                                                                      : nullptr;
  if (!tournament) return answer(http::status::not_found, "text/plain; charset=utf-8", "no such tournament\n");
  const auto detail = tournament->detail();
  if (rest.empty()) return answer(http::status::ok, "application/json", detail->dump());
  if (rest == "/standings.csv") return answer(http::status::ok, "text/csv; charset=utf-8", standings_csv(*detail));
  if (rest == "/results.csv") return answer(http::status::ok, "text/csv; charset=utf-8", results_csv(*detail));
  return answer(http::status::not_found, "text/plain; charset=utf-8", "not found\n");
}

}  // namespace

std::optional<http::message_generator> probe(const HttpRequest& request, const Services& services) {
  const std::string_view target = request.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == "/healthz") return health(request);
  if (path == "/readyz") return readiness(request, services);
  if (path == "/metrics") return metrics(request, services);
  return std::nullopt;
}

namespace {

constexpr std::string_view kChallenges = "/.well-known/acme-challenge/";

// A token of Let's Encrypt's HTTP challenge, as certbot's webroot mode writes it: base64url.
bool is_challenge_token(std::string_view token) {
  return !token.empty() && token.size() <= 128 && std::all_of(token.begin(), token.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
  });
}

std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string content(4096, '\0');
  in.read(content.data(), static_cast<std::streamsize>(content.size()));
  content.resize(static_cast<std::size_t>(in.gcount()));
  return content;
}

}  // namespace

http::message_generator answer_plain_http(const HttpRequest& request, const Services& services) {
  const std::string_view target = request.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (path.starts_with(kChallenges) && !services.acme_challenge_dir.empty()) {
    const std::string_view token = path.substr(kChallenges.size());
    const auto content = is_challenge_token(token) ? read_small_file(services.acme_challenge_dir / std::string(token))
                                                   : std::nullopt;
    if (!content) return text_response(request, http::status::not_found, "no such challenge\n", request.keep_alive());
    return http::message_generator(
        make_response(request, http::status::ok, "text/plain", *content, request.keep_alive()));
  }
  if (path == "/healthz") return health(request);
  std::string origin = services.https_origin;
  if (origin.empty()) {
    // The name the visitor asked for, on the HTTPS port.
    std::string_view host = request[http::field::host];
    if (const auto colon = host.rfind(':'); colon != std::string_view::npos && host.find(']', colon) == std::string_view::npos) {
      host = host.substr(0, colon);
    }
    if (host.empty()) host = "localhost";
    origin = "https://" + std::string(host) + (services.https_port == 443 ? "" : ":" + std::to_string(services.https_port));
  }
  auto response = make_response(request, http::status::moved_permanently, "text/plain; charset=utf-8",
                                "this server answers over https\n", request.keep_alive());
  response.set(http::field::location, origin + std::string(target));
  return http::message_generator(std::move(response));
}

http::message_generator text_response(const HttpRequest& request, http::status status,
                                      std::string_view text, bool keep_alive) {
  return http::message_generator(
      make_response(request, status, "text/plain; charset=utf-8", std::string(text), keep_alive));
}

http::message_generator answer_when_full(const HttpRequest& request, const Services& services) {
  if (request.method() == http::verb::get || request.method() == http::verb::head) {
    if (auto answer = probe(request, services)) return std::move(*answer);
  }
  auto response = make_response(request, http::status::service_unavailable, "text/plain; charset=utf-8",
                                "the server is at its connection limit; try again shortly\n", false);
  response.set(http::field::retry_after, "5");
  return http::message_generator(std::move(response));
}

http::message_generator handle_request(const HttpRequest& request, const Services& services) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    return method_not_allowed(request);
  }
  if (auto answer = probe(request, services)) return std::move(*answer);
  if (auto answer = tournament_api(request, services)) return std::move(*answer);
  // Before the first certificate, certbot's challenge is answered on the one plain port.
  if (!services.tls && std::string_view(request.target()).starts_with(kChallenges)) {
    return answer_plain_http(request, services);
  }
  if (!services.web_files) {
    return text_response(request, http::status::not_found, "not found\n", request.keep_alive());
  }
  return static_file(request, *services.web_files, services.tls != nullptr);
}

void answer_request(const HttpRequest& request, const Services& services,
                    std::function<void(http::message_generator)> send) {
  const Respond respond = [send, over_tls = services.tls != nullptr](http::response<http::string_body> response) {
    if (over_tls) response.set(http::field::strict_transport_security, kStrictTransportSecurity);
    send(http::message_generator(std::move(response)));
  };
  const bool from_database = export_game_record(request, services.history_requests, respond) ||
                             answer_ratings_api(request, services.rating_requests, respond) ||
                             (services.notice_requests.sender &&
                              answer_unsubscribe(request, services.notice_requests, respond));
  if (!from_database) send(handle_request(request, services));
}

std::string serialise(http::message_generator answer) {
  std::string bytes;
  beast::error_code ec;
  while (!answer.is_done()) {
    const auto buffers = answer.prepare(ec);
    if (ec) break;
    std::size_t taken = 0;
    for (const auto& buffer : buffers) {
      bytes.append(static_cast<const char*>(buffer.data()), buffer.size());
      taken += buffer.size();
    }
    answer.consume(taken);
  }
  return bytes;
}

}  // namespace elgrande::server
