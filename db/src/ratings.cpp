#include "elgrande/db/ratings.hpp"

#include <map>

namespace elgrande::db {

RatingStore::RatingStore(Database& database) : database_(database) {}

namespace {

RatingRecord read_rating(Statement& row, int first) {
  return {row.integer(first), row.text(first + 1), row.real(first + 2), row.real(first + 3),
          static_cast<int>(row.integer(first + 4)), row.integer(first + 5)};
}

RatingChange read_change(Statement& row, int first) {
  return {row.integer(first), static_cast<int>(row.integer(first + 1)), row.real(first + 2), row.real(first + 3),
          row.real(first + 4), row.real(first + 5)};
}

constexpr const char* kRatingColumns = "r.player, r.ladder, r.mu, r.sigma, r.games, r.last_seq";
constexpr const char* kChangeColumns = "c.player, c.rank, c.mu_before, c.sigma_before, c.mu, c.sigma";

}  // namespace

std::optional<RatingRecord> RatingStore::find(std::int64_t player, const std::string& ladder) {
  Statement row = database_.prepare(std::string("SELECT ") + kRatingColumns +
                                    " FROM ratings AS r WHERE r.player = ?1 AND r.ladder = ?2");
  row.bind(1, player).bind(2, ladder);
  if (!row.step()) return std::nullopt;
  return read_rating(row, 0);
}

void RatingStore::set_rating(const RatedGame& game, const RatingChange& change, int games) {
  database_
      .prepare("INSERT INTO ratings (player, ladder, mu, sigma, games, last_seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
               "ON CONFLICT (player, ladder) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
               "games = excluded.games, last_seq = excluded.last_seq")
      .bind(1, change.player)
      .bind(2, game.ladder)
      .bind(3, change.mu)
      .bind(4, change.sigma)
      .bind(5, games)
      .bind(6, game.seq)
      .run();
}

std::int64_t RatingStore::record(const RatedGame& game) {
  // Without a seq, the database gives the next.
  Statement insert = database_.prepare(
      game.seq == 0 ? "INSERT INTO rated_games (table_id, ladder, rated_at) VALUES (?1, ?2, ?3) RETURNING seq"
                    : "INSERT INTO rated_games (table_id, ladder, rated_at, seq) VALUES (?1, ?2, ?3, ?4) RETURNING seq");
  insert.bind(1, game.table).bind(2, game.ladder).bind(3, game.rated_at);
  if (game.seq != 0) insert.bind(4, game.seq);
  insert.step();
  RatedGame stored = game;
  stored.seq = insert.integer(0);
  insert.reset();
  Statement change = database_.prepare(
      "INSERT INTO rating_changes (seq, player, rank, mu_before, sigma_before, mu, sigma) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  for (const RatingChange& c : game.changes) {
    change.bind(1, stored.seq)
        .bind(2, c.player)
        .bind(3, c.rank)
        .bind(4, c.mu_before)
        .bind(5, c.sigma_before)
        .bind(6, c.mu)
        .bind(7, c.sigma)
        .run();
    const std::optional<RatingRecord> before = find(c.player, game.ladder);
    set_rating(stored, c, before ? before->games + 1 : 1);
  }
  return stored.seq;
}

std::vector<RatingRecord> RatingStore::all() {
  Statement rows = database_.prepare(std::string("SELECT ") + kRatingColumns + " FROM ratings AS r ORDER BY r.player, r.ladder");
  std::vector<RatingRecord> ratings;
  while (rows.step()) ratings.push_back(read_rating(rows, 0));
  return ratings;
}

std::vector<RatedGame> RatingStore::games() {
  Statement rows = database_.prepare(std::string("SELECT g.seq, g.table_id, g.ladder, g.rated_at, ") + kChangeColumns +
                                     " FROM rated_games AS g JOIN rating_changes AS c ON c.seq = g.seq "
                                     "ORDER BY g.seq, c.rank, c.player");
  std::vector<RatedGame> games;
  while (rows.step()) {
    if (games.empty() || games.back().seq != rows.integer(0)) {
      games.push_back({rows.integer(0), rows.integer(1), rows.text(2), rows.integer(3), {}});
    }
    games.back().changes.push_back(read_change(rows, 4));
  }
  return games;
}

void RatingStore::rewrite(const std::vector<RatedGame>& games) {
  Statement change = database_.prepare(
      "UPDATE rating_changes SET rank = ?3, mu_before = ?4, sigma_before = ?5, mu = ?6, sigma = ?7 "
      "WHERE seq = ?1 AND player = ?2");
  database_.execute("DELETE FROM ratings");
  std::map<std::pair<std::int64_t, std::string>, int> played;
  for (const RatedGame& game : games) {
    for (const RatingChange& c : game.changes) {
      change.bind(1, game.seq)
          .bind(2, c.player)
          .bind(3, c.rank)
          .bind(4, c.mu_before)
          .bind(5, c.sigma_before)
          .bind(6, c.mu)
          .bind(7, c.sigma)
          .run();
      set_rating(game, c, ++played[{c.player, game.ladder}]);
    }
  }
}

int RatingStore::games_together(std::int64_t a, std::int64_t b, std::int64_t since) {
  Statement count = database_.prepare(
      "SELECT count(*) FROM rating_changes AS x JOIN rating_changes AS y ON y.seq = x.seq AND y.player = ?2 "
      "JOIN rated_games AS g ON g.seq = x.seq WHERE x.player = ?1 AND g.rated_at >= ?3");
  count.bind(1, a).bind(2, b).bind(3, since);
  count.step();
  return static_cast<int>(count.integer(0));
}

bool RatingStore::plays_a_board(std::int64_t table) {
  Statement board = database_.prepare("SELECT 1 FROM round_boards WHERE table_id = ?1");
  board.bind(1, table);
  return board.step();
}

std::vector<PlayerRatedGame> RatingStore::player_games(std::int64_t player, const std::optional<std::string>& ladder,
                                                       std::optional<std::int64_t> before, int limit) {
  Statement rows = database_.prepare(std::string("SELECT g.seq, g.table_id, g.ladder, g.rated_at, ") + kChangeColumns +
                                     " FROM rating_changes AS c JOIN rated_games AS g ON g.seq = c.seq "
                                     "WHERE c.player = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR c.seq < ?2) AND (CAST(?4 AS TEXT) IS NULL OR g.ladder = ?4) "
                                     "ORDER BY c.seq DESC LIMIT ?3");
  rows.bind(1, player).bind(2, before).bind(3, limit).bind(4, ladder);
  std::vector<PlayerRatedGame> games;
  while (rows.step()) {
    games.push_back({rows.integer(0), rows.integer(1), rows.text(2), rows.integer(3), read_change(rows, 4)});
  }
  return games;
}

}  // namespace elgrande::db
