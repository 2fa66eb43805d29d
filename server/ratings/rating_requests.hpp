#pragma once

#include <functional>
#include <optional>
#include <string>

#include "elgrande/db/store.hpp"
#include "elgrande/protocol/codec.hpp"
#include "common/net.hpp"
#include "requests/answers.hpp"

namespace elgrande::server {

class Identities;
class Ratings;
class Reader;

// What the rating requests and the ratings API need.
struct RatingRequestsEnv : RequestEnv {
  Ratings* ratings = nullptr;
  Identities* identities = nullptr;  // players' names
  Reader* reader = nullptr;          // profiles' games
};

// Leaderboards and profiles (docs/ratings.md), for the WebSocket requests and the public
// HTTP API alike: leaderboards from the ratings in memory, profiles' games from the
// database on a reader connection.

// A ladder's players ranked by mu - 3 sigma from `offset`, with the ladder's size.
protocol::Json leaderboard_json(const Ratings& ratings, const std::function<std::string(PlayerId)>& name_of,
                                const std::string& ladder, int offset, int limit);
// A player's ratings on every ladder they played, with their place on each, and their
// latest rated games (for the chart of their rating over time); none for no such player.
std::optional<protocol::Json> profile_json(db::Store& store, const Ratings& ratings, PlayerId player);

inline constexpr int kLeaderboardPage = 50;     // entries per answer, at most
inline constexpr int kProfileGames = 200;       // rated games in a profile, newest first

// rating.leaderboard {ladder, offset?, limit?} and rating.profile {player}.
void leaderboard(const RatingRequestsEnv& env, Client& client, Request& request);
void profile(const RatingRequestsEnv& env, Client& client, Request& request);

// GET /api/ratings/LADDER?offset=N&limit=M and GET /api/players/ID/ratings. Returns false,
// without calling `respond`, for any other request; otherwise `respond` receives the
// answer, a profile later and on a reader thread.
bool answer_ratings_api(const http::request<http::string_body>& request, const RatingRequestsEnv& env,
                        const Respond& respond);

}  // namespace elgrande::server
