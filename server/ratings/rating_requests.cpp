#include "ratings/rating_requests.hpp"

#include <charconv>

#include "identity/identities.hpp"
#include "ratings/ratings.hpp"
#include "storage/reader.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;


// A player's name as the lobby knows it.
std::function<std::string(PlayerId)> names_from(const RatingRequestsEnv& env) {
  return [identities = env.identities](PlayerId id) {
    const auto player = identities->find(id);
    return player ? player->name : "Player " + std::to_string(id);
  };
}

template <class Number>
std::optional<Number> number_from(std::string_view digits) {
  Number value{};
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

// `name`'s value in a query string such as "offset=50&limit=10".
std::string_view query_value(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const std::string_view pair = query.substr(0, query.find('&'));
    if (pair.starts_with(name) && pair.size() > name.size() && pair[name.size()] == '=') {
      return pair.substr(name.size() + 1);
    }
    query.remove_prefix(std::min(query.size(), pair.size() + 1));
  }
  return {};
}

struct Page {
  int offset = 0;
  int limit = kLeaderboardPage;
};

// Why an offset or a limit cannot be used, if so.
std::optional<std::string> why_not_a_page(const Page& page) {
  if (page.offset < 0) return "offset: 0 or more";
  if (page.limit < 1 || page.limit > kLeaderboardPage) return "limit: 1 to " + std::to_string(kLeaderboardPage);
  return std::nullopt;
}

}  // namespace

Json leaderboard_json(const Ratings& ratings, const std::function<std::string(PlayerId)>& name_of,
                      const std::string& ladder, int offset, int limit) {
  Json entries = Json::array();
  int rank = offset;
  for (const Ratings::Place& place : ratings.page(ladder, static_cast<std::size_t>(offset), static_cast<std::size_t>(limit))) {
    Json row = rating_json(ladder, place.current.rating, place.current.games);
    row["mu"] = place.current.rating.mu;
    row["sigma"] = place.current.rating.sigma;
    row["rank"] = ++rank;
    row["player"] = {{"id", place.player}, {"name", name_of(place.player)}};
    entries.push_back(std::move(row));
  }
  return {{"ladder", ladder}, {"players", ratings.size(ladder)}, {"offset", offset}, {"entries", std::move(entries)}};
}

std::optional<Json> profile_json(db::Store& store, const Ratings& ratings, PlayerId player) {
  const std::optional<std::string> name = store.player_name(player);
  if (!name) return std::nullopt;
  Json on_ladders = Json::array();
  for (const std::string& ladder : ratings.ladders()) {
    const std::optional<Ratings::Current> current = ratings.find(player, ladder);
    const std::optional<std::size_t> rank = ratings.rank(player, ladder);
    if (!current || !rank) continue;
    Json json = rating_json(ladder, current->rating, current->games);
    json["mu"] = current->rating.mu;
    json["sigma"] = current->rating.sigma;
    json["rank"] = *rank;
    json["players"] = ratings.size(ladder);
    on_ladders.push_back(std::move(json));
  }
  Json games = Json::array();
  for (const db::PlayerRatedGame& game : store.ratings().player_games(player, std::nullopt, std::nullopt, kProfileGames)) {
    const db::RatingChange& c = game.change;
    games.push_back({{"table", game.table},
                     {"ladder", game.ladder},
                     {"rated_at", game.rated_at},
                     {"rank", c.rank},
                     {"before", competition::displayed({c.mu_before, c.sigma_before})},
                     {"after", competition::displayed({c.mu, c.sigma})}});
  }
  return Json{{"player", {{"id", player}, {"name", *name}}}, {"ratings", std::move(on_ladders)}, {"games", std::move(games)}};
}

void leaderboard(const RatingRequestsEnv& env, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  const auto& id = request.envelope.id;
  const auto ladder = payload.find("ladder");
  if (ladder == payload.end() || !ladder->is_string() || !env.ratings->is_ladder(ladder->get<std::string>())) {
    return refuse(env, client, ErrorCode::bad_payload, "ladder: one of 2p, 3p, 4p, 5p, 2p-automa, or one of these with -short", id);
  }
  Page page;
  for (auto [name, field] : {std::pair{"offset", &page.offset}, std::pair{"limit", &page.limit}}) {
    if (const auto value = payload.find(name); value != payload.end()) {
      if (!value->is_number_integer() || value->get<std::int64_t>() < 0 || value->get<std::int64_t>() > 1'000'000'000) {
        return refuse(env, client, ErrorCode::bad_payload, std::string(name) + ": a whole number", id);
      }
      *field = value->get<int>();
    }
  }
  if (const auto why_not = why_not_a_page(page)) return refuse(env, client, ErrorCode::bad_payload, *why_not, id);
  client.send(protocol::reply_message(
      request.envelope.type, id,
      leaderboard_json(*env.ratings, names_from(env), ladder->get<std::string>(), page.offset, page.limit)));
}

void profile(const RatingRequestsEnv& env, Client& client, Request& request) {
  const auto player = request.envelope.payload.find("player");
  if (player == request.envelope.payload.end() || !player->is_number_integer() || player->get<std::int64_t>() < 1) {
    return refuse(env, client, ErrorCode::bad_payload, "player: a player id", request.envelope.id);
  }
  env.reader->read(
      [connection = client.self(), id = request.envelope.id, ratings = env.ratings,
       player = player->get<PlayerId>()](db::Store& store) {
        std::optional<Json> profile = profile_json(store, *ratings, player);
        connection->deliver(profile ? protocol::reply_message("rating.profile", id, std::move(*profile))
                                    : protocol::error_message(ErrorCode::not_found, "no such player", id));
      },
      [metrics = env.metrics, connection = client.self(), id = request.envelope.id](const std::string& /*why*/) {
        metrics->count_error(ErrorCode::internal);
        connection->deliver(protocol::error_message(ErrorCode::internal, "the profile could not be read; try again", id));
      });
}

bool answer_ratings_api(const http::request<http::string_body>& request, const RatingRequestsEnv& env,
                        const Respond& respond) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) return false;
  const std::string_view target = request.target();
  const std::string_view path = target.substr(0, target.find('?'));
  const std::string_view query = path.size() < target.size() ? target.substr(path.size() + 1) : std::string_view();
  constexpr std::string_view kLadderPrefix = "/api/ratings/";
  constexpr std::string_view kPlayerPrefix = "/api/players/";
  constexpr std::string_view kPlayerSuffix = "/ratings";
  std::optional<PlayerId> player;
  std::string ladder;
  Page page;
  if (path.starts_with(kLadderPrefix)) {
    ladder = path.substr(kLadderPrefix.size());
    if (const auto offset = query_value(query, "offset"); !offset.empty()) page.offset = number_from<int>(offset).value_or(-1);
    if (const auto limit = query_value(query, "limit"); !limit.empty()) page.limit = number_from<int>(limit).value_or(-1);
  } else if (path.starts_with(kPlayerPrefix) && path.ends_with(kPlayerSuffix) &&
             path.size() > kPlayerPrefix.size() + kPlayerSuffix.size()) {
    player = number_from<PlayerId>(
        path.substr(kPlayerPrefix.size(), path.size() - kPlayerPrefix.size() - kPlayerSuffix.size()));
    if (!player || *player < 1) return false;
  } else {
    return false;
  }

  const bool head = request.method() == http::verb::head;
  const auto answer = [head, version = request.version(), keep_alive = request.keep_alive()](
                          http::status status, std::string_view type, std::string body) {
    http::response<http::string_body> response{status, version};
    response.set(http::field::server, kServerName);
    response.set(http::field::content_type, type);
    response.set(http::field::cache_control, "no-cache");
    response.set("X-Content-Type-Options", "nosniff");
    response.keep_alive(keep_alive);
    response.content_length(body.size());
    if (!head) response.body() = std::move(body);
    return response;
  };
  if (!player) {
    const std::optional<std::string> refused =
        env.ratings->is_ladder(ladder) ? why_not_a_page(page) : std::optional<std::string>("no ladder " + ladder);
    respond(refused ? answer(http::status::bad_request, "text/plain; charset=utf-8", *refused + "\n")
                    : answer(http::status::ok, "application/json",
                             leaderboard_json(*env.ratings, names_from(env), ladder, page.offset, page.limit)
                                 .dump()));
    return true;
  }
  env.reader->read(
      [player = *player, ratings = env.ratings, answer, respond](db::Store& store) {
        const std::optional<Json> json = profile_json(store, *ratings, player);
        respond(json ? answer(http::status::ok, "application/json", json->dump())
                     : answer(http::status::not_found, "text/plain; charset=utf-8", "no such player\n"));
      },
      [answer, respond](const std::string& why) {
        respond(answer(http::status::internal_server_error, "text/plain; charset=utf-8",
                       "ratings could not be read: " + why + "\n"));
      });
  return true;
}

}  // namespace elgrande::server
