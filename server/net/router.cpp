#include "router.hpp"

#include <spdlog/spdlog.h>

#include <charconv>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>

#include "history.hpp"
#include "metrics.hpp"
#include "static_files.hpp"

namespace elgrande::server {
namespace {

constexpr std::string_view kServerName = "elgrande-server/" ELGRANDE_VERSION;

void log_answer(const Request& request, http::status status) {
  spdlog::debug("{} {} -> {}", std::string_view(request.method_string()),
                std::string_view(request.target()), static_cast<unsigned>(status));
}

template <class Body>
void set_headers(http::response<Body>& response, std::string_view content_type, bool keep_alive) {
  response.set(http::field::server, kServerName);
  response.set(http::field::content_type, content_type);
  // Browsers must trust our Content-Type, not guess one from the bytes.
  response.set("X-Content-Type-Options", "nosniff");
  response.keep_alive(keep_alive);
}

http::response<http::string_body> make_response(const Request& request, http::status status,
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

http::message_generator health(const Request& request) {
  auto response = make_response(request, http::status::ok, "application/json", R"({"status":"ok"})",
                                request.keep_alive());
  // Probes must see the live answer, never a cached one.
  response.set(http::field::cache_control, "no-store");
  return http::message_generator(std::move(response));
}

http::message_generator metrics(const Request& request, const ServerContext& context) {
  const Gauges gauges = context.lobby->gauges(context.sessions->size());
  auto response = make_response(request, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                                render_metrics(*context.metrics, gauges), request.keep_alive());
  response.set(http::field::cache_control, "no-store");
  return http::message_generator(std::move(response));
}

http::message_generator method_not_allowed(const Request& request) {
  auto response =
      make_response(request, http::status::method_not_allowed, "text/plain; charset=utf-8",
                    "method not allowed\n", request.keep_alive());
  response.set(http::field::allow, "GET, HEAD");
  return http::message_generator(std::move(response));
}

http::message_generator static_file(const Request& request, const std::filesystem::path& web_root) {
  const bool keep_alive = request.keep_alive();
  const auto file = resolve_static_file(web_root, std::string_view(request.target()));
  if (!file) {
    return text_response(request, http::status::bad_request, "illegal request target\n",
                         keep_alive);
  }
  std::error_code not_a_file;
  if (!std::filesystem::is_regular_file(*file, not_a_file)) {
    return text_response(request, http::status::not_found, "not found\n", keep_alive);
  }

  http::file_body::value_type body;
  beast::error_code ec;
  body.open(file->c_str(), beast::file_mode::scan, ec);
  if (ec == beast::errc::no_such_file_or_directory) {
    return text_response(request, http::status::not_found, "not found\n", keep_alive);
  }
  if (ec) {
    spdlog::warn("cannot open {}: {}", file->string(), ec.message());
    return text_response(request, http::status::internal_server_error, "cannot read file\n",
                         keep_alive);
  }

  log_answer(request, http::status::ok);
  const std::uint64_t size = body.size();
  const std::string_view type = content_type_for(*file);
  if (request.method() == http::verb::head) {
    http::response<http::empty_body> response{http::status::ok, request.version()};
    set_headers(response, type, keep_alive);
    response.content_length(size);
    return http::message_generator(std::move(response));
  }
  http::response<http::file_body> response{std::piecewise_construct,
                                           std::make_tuple(std::move(body)),
                                           std::make_tuple(http::status::ok, request.version())};
  set_headers(response, type, keep_alive);
  response.content_length(size);
  return http::message_generator(std::move(response));
}

// The table id of /api/games/ID/record, if that is the path.
std::optional<std::int64_t> record_path(std::string_view path) {
  static constexpr std::string_view kPrefix = "/api/games/";
  static constexpr std::string_view kSuffix = "/record";
  if (!path.starts_with(kPrefix) || !path.ends_with(kSuffix)) return std::nullopt;
  const std::string_view digits = path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
  std::int64_t id = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (error != std::errc() || end != digits.data() + digits.size() || id < 1) return std::nullopt;
  return id;
}

}  // namespace

bool handle_database_request(const Request& request, const ServerContext& context, Respond respond) {
  const std::string_view target = request.target();
  const auto id = record_path(target.substr(0, target.find('?')));
  if (!id || (request.method() != http::verb::get && request.method() != http::verb::head)) {
    return false;
  }
  context.lobby->storage().read([id = *id, head = request.method() == http::verb::head,
                                 version = request.version(), keep_alive = request.keep_alive(),
                                 respond = std::move(respond)](db::Store& store) {
    http::response<http::string_body> response{http::status::ok, version};
    std::string body;
    std::string_view type = "application/json";
    if (auto game = store.finished_game(id)) {
      const auto commands = store.commands(id);
      body = export_record(*game, commands).dump(1) + "\n";
      // A file name for browsers that save it.
      response.set(http::field::content_disposition,
                   "attachment; filename=\"elgrande-" + std::to_string(id) + ".json\"");
    } else {
      // Games in progress are not exported: their seed would reveal every hidden card.
      response.result(http::status::not_found);
      body = "no finished game " + std::to_string(id) + "\n";
      type = "text/plain; charset=utf-8";
    }
    set_headers(response, type, keep_alive);
    response.content_length(body.size());
    if (!head) response.body() = std::move(body);
    respond(std::move(response));
  });
  return true;
}

http::message_generator text_response(const Request& request, http::status status,
                                      std::string_view text, bool keep_alive) {
  return http::message_generator(
      make_response(request, status, "text/plain; charset=utf-8", std::string(text), keep_alive));
}

http::message_generator handle_request(const Request& request, const ServerContext& context) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    return method_not_allowed(request);
  }
  const std::string_view target = request.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == "/healthz") return health(request);
  if (path == "/metrics") return metrics(request, context);
  if (!context.web_root) {
    return text_response(request, http::status::not_found, "not found\n", request.keep_alive());
  }
  return static_file(request, *context.web_root);
}

}  // namespace elgrande::server
