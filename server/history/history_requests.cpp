#include "history/history_requests.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "history/history.hpp"
#include "storage/reader.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;

constexpr int kHistoryPage = 50;  // finished games per history.list answer, at most
constexpr int kLogPage = 200;     // versions per table.log answer, at most

// Where a damaged log breaks, for the export's refusal.
std::string damage_of(const db::Store::LogCheck& check) {
  if (check.first_gap) return "command " + std::to_string(*check.first_gap) + " is missing";
  if (check.first_bad_row) return "command " + std::to_string(*check.first_bad_row) + " breaks its hash chain";
  return std::to_string(check.rows) + " commands stored, " + std::to_string(*check.recorded_length) + " recorded";
}

// What is asked of a finished game: its record, or its replay.
enum class Asked { record, replay };

// The table id of /api/games/ID/record or /api/games/ID/replay, if that is the path.
std::optional<std::pair<std::int64_t, Asked>> game_path(std::string_view path) {
  static constexpr std::string_view kPrefix = "/api/games/";
  if (!path.starts_with(kPrefix)) return std::nullopt;
  path.remove_prefix(kPrefix.size());
  const std::size_t slash = path.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view what = path.substr(slash + 1);
  if (what != "record" && what != "replay") return std::nullopt;
  std::int64_t id = 0;
  const auto [end, error] = std::from_chars(path.data(), path.data() + slash, id);
  if (error != std::errc() || end != path.data() + slash || id < 1) return std::nullopt;
  return std::pair{id, what == "record" ? Asked::record : Asked::replay};
}

}  // namespace

void list_history(const HistoryRequestsEnv& env, Client& client, Request& request) {
  const protocol::Json& payload = request.envelope.payload;
  const auto& id = request.envelope.id;
  std::optional<PlayerId> player = client.player->id;
  if (const auto field = payload.find("everyone"); field != payload.end()) {
    if (!field->is_boolean()) return refuse(env, client, ErrorCode::bad_payload, "everyone: must be a boolean", id);
    if (field->get<bool>()) player.reset();
  }
  std::optional<TableId> before;
  if (const auto field = payload.find("before"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1) {
      return refuse(env, client, ErrorCode::bad_payload, "before: must be a table id", id);
    }
    before = field->get<TableId>();
  }
  int limit = kHistoryPage;
  if (const auto field = payload.find("limit"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1 || field->get<std::int64_t>() > kHistoryPage) {
      return refuse(env, client, ErrorCode::bad_payload, "limit: 1 to " + std::to_string(kHistoryPage), id);
    }
    limit = field->get<int>();
  }
  // The query runs on a reader thread; the answer is delivered from there.
  env.reader->read(
      [connection = client.self(), id, player, before, limit](db::Store& store) {
        protocol::Json games = protocol::Json::array();
        for (const db::FinishedGame& game : store.finished_games(player, before, limit)) {
          games.push_back(history_entry(game));
        }
        connection->deliver(protocol::reply_message("history.list", id, {{"games", std::move(games)}}));
      },
      [metrics = env.metrics, connection = client.self(), id](const std::string& /*why*/) {
        metrics->count_error(ErrorCode::internal);
        connection->deliver(protocol::error_message(ErrorCode::internal, "the history could not be read; try again", id));
      });
}

void table_log(const HistoryRequestsEnv& env, Client& client, Request& request) {
  const protocol::Json& payload = request.envelope.payload;
  const auto& id = request.envelope.id;
  const auto table = payload.find("table");
  if (table == payload.end() || !table->is_number_integer() || table->get<std::int64_t>() < 1) {
    return refuse(env, client, ErrorCode::bad_payload, "table: must be a table id", id);
  }
  std::optional<std::int64_t> before;
  if (const auto field = payload.find("before"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1) {
      return refuse(env, client, ErrorCode::bad_payload, "before: must be a version, 1 or more", id);
    }
    before = field->get<std::int64_t>();
  }
  int limit = kLogPage;
  if (const auto field = payload.find("limit"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1 || field->get<std::int64_t>() > kLogPage) {
      return refuse(env, client, ErrorCode::bad_payload, "limit: 1 to " + std::to_string(kLogPage), id);
    }
    limit = field->get<int>();
  }
  env.reader->read(
      [metrics = env.metrics, game_module = env.game, connection = client.self(), id, table_id = table->get<std::int64_t>(),
       before, limit](db::Store& store) {
        const auto refuse_from_reader = [&](ErrorCode code, const std::string& why) {
          metrics->count_error(code);
          connection->deliver(protocol::error_message(code, why, id));
        };
        const auto table = store.table(table_id);
        if (!table) return refuse_from_reader(ErrorCode::not_found, "no table " + std::to_string(table_id));
        if (!table->seed) return refuse_from_reader(ErrorCode::wrong_state, "the game at this table has not begun");
        // Only the moves up to the page's end are replayed; what came after is not read.
        const std::vector<db::LoggedCommand> commands = store.commands(table_id);
        const auto versions = static_cast<std::int64_t>(commands.size()) + 1;
        const std::int64_t end = std::min(before.value_or(versions), versions);
        const auto log = recorded_log(std::span(commands).first(static_cast<std::size_t>(end - 1)));
        auto frames = game_module->replay(table->options, *table->seed, log, table_id, false);
        if (const auto* why = std::get_if<std::string>(&frames)) {
          throw std::runtime_error("the log of table " + std::to_string(table_id) + " does not replay: " + *why);
        }
        const auto& replayed = std::get<std::vector<games::ReplayFrame>>(frames);
        const std::int64_t first = std::max<std::int64_t>(0, end - limit);
        protocol::Json entries = protocol::Json::array();
        for (std::int64_t version = first; version < end; ++version) {
          protocol::Json update = protocol::Json::parse(replayed[static_cast<std::size_t>(version)].update);
          entries.push_back({{"version", version}, {"events", std::move(update["payload"]["events"])}});
        }
        connection->deliver(protocol::reply_message(
            "table.log", id, {{"table", table_id}, {"entries", std::move(entries)}, {"more", first > 0}}));
      },
      [metrics = env.metrics, connection = client.self(), id](const std::string& /*why*/) {
        metrics->count_error(ErrorCode::internal);
        connection->deliver(protocol::error_message(ErrorCode::internal, "the table's log could not be read; try again", id));
      });
}

bool export_game_record(const http::request<http::string_body>& request, const HistoryRequestsEnv& env, Respond respond) {
  const std::string_view target = request.target();
  const auto asked = game_path(target.substr(0, target.find('?')));
  if (!asked || (request.method() != http::verb::get && request.method() != http::verb::head)) return false;
  const auto [id, what] = *asked;
  const bool head = request.method() == http::verb::head;
  const auto answer = [head, version = request.version(), keep_alive = request.keep_alive()](
                          http::status status, std::string_view type, std::string body) {
    http::response<http::string_body> response{status, version};
    response.set(http::field::server, kServerName);
    response.set(http::field::content_type, type);
    response.set("X-Content-Type-Options", "nosniff");
    response.keep_alive(keep_alive);
    response.content_length(body.size());
    if (!head) response.body() = std::move(body);
    return response;
  };
  auto shared_respond = std::make_shared<Respond>(std::move(respond));
  env.reader->read(
      [id, what, answer, shared_respond, game_module = env.game](db::Store& store) {
        auto game = store.finished_game(id);
        if (!game) {
          // Games in progress are neither exported nor replayed: their seed, and a replay's
          // secrets, would reveal every hidden card.
          return (*shared_respond)(answer(http::status::not_found, "text/plain; charset=utf-8",
                                          "no finished game " + std::to_string(id) + "\n"));
        }
        // A damaged log would export a record that does not replay, or replays to another end.
        if (const db::Store::LogCheck check = store.check_log(id);
            check.recorded_length && (!check.head_matches || check.first_gap)) {
          return (*shared_respond)(answer(
              http::status::internal_server_error, "text/plain; charset=utf-8",
              "the command log of game " + std::to_string(id) + " is damaged (" + damage_of(check) +
                  "), so it is neither exported nor replayed; see elgrande-server --check-table " + std::to_string(id) + "\n"));
        }
        const auto commands = store.commands(id);
        if (what == Asked::replay) {
          return (*shared_respond)(
              answer(http::status::ok, "application/json", replay_document(*game, commands, *game_module)));
        }
        auto response = answer(http::status::ok, "application/json", export_record(*game, commands, *game_module, store.reviews().of_table(id)).dump(1) + "\n");
        // A file name for browsers that save it.
        response.set(http::field::content_disposition,
                     "attachment; filename=\"elgrande-" + std::to_string(id) + ".json\"");
        (*shared_respond)(std::move(response));
      },
      [id, what, answer, shared_respond](const std::string& why) {
        (*shared_respond)(answer(http::status::internal_server_error, "text/plain; charset=utf-8",
                                 std::string(what == Asked::record ? "the record" : "the replay") + " of game " +
                                     std::to_string(id) + " could not be read: " + why + "\n"));
      });
  return true;
}

}  // namespace elgrande::server
