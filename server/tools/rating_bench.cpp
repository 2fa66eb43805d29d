// elgrande-rating-bench: the rating figures of docs/ratings.md.
//
//   elgrande-rating-bench [--players N] [--runs R] [--dir D]
//
// Prints one JSON object:
//   - updates_per_second: Weng-Lin updates of random 4-player games (competition::rate),
//     and of 2- and 5-player games, on one thread;
//   - stored_games_per_second: whole rated games as the server rates them (rate_game: read
//     the players' ratings, update, write the game, its changes and the ratings), 100 games
//     per transaction, on a real SQLite file;
//   - with N players rated on the 4p ladder (default 100,000): the time to load them all into
//     the server's ratings (as at start), and the medians over R runs of a leaderboard page
//     of 50 at the top, the middle and the end (as rating.leaderboard builds it, names
//     included), and a player's profile (ratings with places, latest games from the database).
// The database is a real file in D (default: a fresh directory under /tmp, removed afterwards).

#include <limits>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "elgrande/competition/rating.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/el_grande/module.hpp"
#include "ratings/rated_game.hpp"
#include "ratings/rating_requests.hpp"
#include "ratings/ratings.hpp"

namespace {

using namespace elgrande;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double updates_per_second(int players, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> mu(15.0, 35.0);
  std::uniform_real_distribution<double> sigma(1.0, 8.3);
  std::vector<competition::Rating> before(static_cast<std::size_t>(players));
  std::vector<int> ranks(static_cast<std::size_t>(players));
  constexpr int kGames = 200'000;
  double checksum = 0.0;
  const auto start = Clock::now();
  for (int game = 0; game < kGames; ++game) {
    for (std::size_t i = 0; i < before.size(); ++i) {
      before[i] = {mu(rng), sigma(rng)};
      ranks[i] = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(players));
    }
    checksum += competition::rate(before, ranks)[0].mu;
  }
  const double seconds = milliseconds_since(start) / 1000.0;
  if (checksum == 0.0) std::cerr << "";  // keeps the work
  return kGames / seconds;
}

}  // namespace

int main(int argc, char* argv[]) try {
  int players = 100'000;
  int runs = 5;
  std::filesystem::path dir;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--players") {
      players = std::stoi(value);
    } else if (flag == "--runs") {
      runs = std::stoi(value);
    } else if (flag == "--dir") {
      dir = value;
    } else {
      throw std::invalid_argument("unknown flag " + flag);
    }
  }
  if (players < 100 || runs < 1) throw std::invalid_argument("--players at least 100, --runs at least 1");
  const bool own_dir = dir.empty();
  if (own_dir) dir = std::filesystem::temp_directory_path() / ("elgrande-rating-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);

  std::mt19937_64 rng(20261124);
  Json figures;
  figures["updates_per_second"] = {{"2p", updates_per_second(2, rng)},
                                   {"4p", updates_per_second(4, rng)},
                                   {"5p", updates_per_second(5, rng)}};

  const std::unique_ptr<db::Database> connection = db::open((dir / "ratings.sqlite").string());
  db::Database& database = *connection;
  db::migrate(database);
  db::Store store(database);
  {
    // Players with accounts, and one finished table per rated game to come.
    db::Transaction transaction(database);
    for (std::int64_t id = 1; id <= players; ++id) {
      db::TokenHash token{};
      std::memcpy(token.data(), &id, sizeof id);
      store.insert_player({id, "Player " + std::to_string(id), token, 0});
      store.accounts().insert({id, "player" + std::to_string(id), "x", "player", 0});
    }
    transaction.commit();
  }
  // Rated games until every player is on the ladder: 4 players a game, players in turn.
  const auto stored_start = Clock::now();
  std::int64_t games = 0;
  for (std::int64_t first = 1; first <= players; first += 400) {
    db::Transaction transaction(database);
    for (std::int64_t g = 0; g < 100 && first + g * 4 <= players; ++g) {
      std::vector<server::RatedSeat> seats;
      for (std::int64_t s = 0; s < 4; ++s) {
        const std::int64_t player = (first + g * 4 + s - 1) % players + 1;
        seats.push_back({player, static_cast<int>(rng() % 120), false, static_cast<int>(s)});
      }
      db::TableRecord table;
      table.id = ++games;
      table.name = "Table";
      table.host = seats[0].player;
      table.status = "finished";
      store.save_table(table);
      // Games made up without logs, between the same few players: every one counts here.
      server::rate_game(store, table.id, "4p", games, seats,
                        {.min_decisions = 0, .rated_games_per_pair_per_day = std::numeric_limits<int>::max()});
    }
    transaction.commit();
  }
  figures["stored_games_per_second"] = static_cast<double>(games) / (milliseconds_since(stored_start) / 1000.0);

  const auto loading = Clock::now();
  server::Ratings ratings(el_grande::module().ladders());
  ratings.restore(store.ratings().all());
  figures["load_ms"] = milliseconds_since(loading);
  figures["players"] = ratings.size("4p");
  const auto name_of = [](server::PlayerId id) { return "Player " + std::to_string(id); };

  std::vector<double> top, middle, end, profile;
  for (int run = 0; run < runs; ++run) {
    auto start = Clock::now();
    server::leaderboard_json(ratings, name_of, "4p", 0, 50).dump();
    top.push_back(milliseconds_since(start));
    start = Clock::now();
    server::leaderboard_json(ratings, name_of, "4p", players / 2, 50).dump();
    middle.push_back(milliseconds_since(start));
    start = Clock::now();
    server::leaderboard_json(ratings, name_of, "4p", players - 50, 50).dump();
    end.push_back(milliseconds_since(start));
    start = Clock::now();
    server::profile_json(store, ratings, 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(players)))->dump();
    profile.push_back(milliseconds_since(start));
  }
  figures["leaderboard_ms"] = {{"top", median(top)}, {"middle", median(middle)}, {"end", median(end)}};
  figures["profile_ms"] = median(profile);
  std::cout << figures.dump(1) << std::endl;
  if (own_dir) std::filesystem::remove_all(dir);
  return 0;
} catch (const std::exception& error) {
  std::cerr << "elgrande-rating-bench: " << error.what() << "\n";
  return 1;
}
