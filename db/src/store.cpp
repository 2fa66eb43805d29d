#include "elgrande/db/store.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <variant>

#include "elgrande/db/snapshot.hpp"
#include "store_log.hpp"

namespace elgrande::db {
namespace {

using detail::log_of_table;
using detail::source_from;
using games::Json;

// SQLite integers are signed; seeds use all 64 bits.
std::int64_t to_column(std::uint64_t seed) { return static_cast<std::int64_t>(seed); }
std::uint64_t seed_from(std::int64_t column) { return static_cast<std::uint64_t>(column); }

// The options as saved: the module's JSON, read by the module when it restores the game.
Json options_from(const std::string& text, std::int64_t table) {
  Json json = Json::parse(text, nullptr, false);
  if (!json.is_object()) throw std::runtime_error("table " + std::to_string(table) + ": options are not a JSON object");
  return json;
}

// The columns read_table expects, in order.
constexpr std::string_view kTableColumns =
    "id, name, host, status, options, turn_seconds, created_at, seed, started_at, finished_at, "
    "on_timeout, replace_after, auto_start, rated, secrets_closed";

}  // namespace

GameResult result_of(std::int64_t table, UnixMillis finished_at, std::span<const int> scores,
                     const std::vector<std::optional<std::int64_t>>& players) {
  GameResult result{table, finished_at, {}};
  for (std::size_t s = 0; s < scores.size(); ++s) {
    const int rank = 1 + static_cast<int>(std::ranges::count_if(scores, [&](int other) { return other > scores[s]; }));
    const auto player = s < players.size() ? players[s] : std::nullopt;
    result.seats.push_back(SeatResult{static_cast<int>(s), player, scores[s], rank});
  }
  return result;
}

Store::Store(Database& database)
    : database_(database),
      accounts_(database),
      moderation_(database),
      tournaments_(database),
      ratings_(database),
      notices_(database),
      reviews_(database),
      insert_player_(database.prepare(
          "INSERT INTO players (id, name, token_hash, created_at) VALUES (?1, ?2, ?3, ?4)")),
      rename_player_(database.prepare("UPDATE players SET name = ?2 WHERE id = ?1")),
      save_table_(database.prepare(
          "INSERT INTO tables (id, name, host, status, options, turn_seconds, created_at, seed, "
          "started_at, finished_at, on_timeout, replace_after, auto_start, rated, secrets_closed) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) "
          "ON CONFLICT (id) DO UPDATE SET name = ?2, host = ?3, status = ?4, options = ?5, "
          "turn_seconds = ?6, created_at = ?7, seed = ?8, started_at = ?9, finished_at = ?10, "
          "on_timeout = ?11, replace_after = ?12, auto_start = ?13, rated = ?14, secrets_closed = ?15")),
      save_seat_(database.prepare(
          "INSERT INTO seats (table_id, seat, kind, player, resigned, deadline, timeouts, replaced, bot_level) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (table_id, seat) DO UPDATE SET "
          "kind = excluded.kind, player = excluded.player, resigned = excluded.resigned, deadline = excluded.deadline, "
          "timeouts = excluded.timeouts, replaced = excluded.replaced, bot_level = excluded.bot_level")),
      save_result_(database.prepare(
          "INSERT INTO results (table_id, seat, player, score, rank) VALUES (?1, ?2, ?3, ?4, ?5) "
          "ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player, score = excluded.score, "
          "rank = excluded.rank")),
      results_(database.prepare(
          "SELECT r.seat, r.player, r.score, r.rank, t.finished_at FROM results r JOIN tables t ON t.id = r.table_id "
          "WHERE r.table_id = ?1 ORDER BY r.seat")),
      new_log_(database.prepare(
          "INSERT INTO log_heads (table_id, length, head) VALUES (?1, 0, 0) ON CONFLICT (table_id) DO NOTHING")),
      log_head_(database.prepare("SELECT length, head FROM log_heads WHERE table_id = ?1")),
      delete_table_(database.prepare("DELETE FROM tables WHERE id = ?1")),
      save_snapshot_(database.prepare(
          "INSERT INTO snapshots (table_id, seq, format, state, hash) VALUES (?1, ?2, ?3, ?4, ?5) "
          "ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, format = excluded.format, state = excluded.state, "
          "hash = excluded.hash")),
      delete_snapshot_(database.prepare("DELETE FROM snapshots WHERE table_id = ?1")),
      seats_(database.prepare("SELECT kind, player, resigned, deadline, timeouts, replaced, bot_level FROM seats "
                              "WHERE table_id = ?1 ORDER BY seat")),
      add_chat_(database.prepare(
          "INSERT INTO chat (table_id, player, seat, text, time, id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")),
      add_chat_without_id_(database.prepare("INSERT INTO chat (table_id, player, seat, text, time) VALUES (?1, ?2, ?3, ?4, ?5)")),
      recent_chat_(database.prepare(
          "SELECT c.player, p.name, c.seat, c.text, c.time, c.id, c.removed_by IS NOT NULL "
          "FROM chat c JOIN players p ON p.id = c.player WHERE c.table_id = ?1 ORDER BY c.id DESC LIMIT ?2")),
      player_name_(database.prepare("SELECT name FROM players WHERE id = ?1")),
      ring_in_use_(database.backend() == Backend::sqlite),
      put_rows_(kPowersOfTwo),
      put_commands_(kPowersOfTwo),
      put_heads_(kPowersOfTwo),
      insert_commands_(kCopyRows) {}

// --- Identities. ---

void Store::insert_player(const PlayerRecord& player) {
  insert_player_.bind(1, player.id)
      .bind(2, player.name)
      .bind(3, std::span<const std::byte>(player.token_hash))
      .bind(4, player.created_at)
      .run();
}

void Store::rename_player(std::int64_t id, const std::string& name) {
  rename_player_.bind(1, id).bind(2, name).run();
}

std::optional<std::string> Store::player_name(std::int64_t id) {
  player_name_.bind(1, id);
  std::optional<std::string> name;
  if (player_name_.step()) name = player_name_.text(0);
  player_name_.reset();
  return name;
}

std::vector<PlayerRecord> Store::players() {
  Statement rows = database_.prepare("SELECT id, name, token_hash, created_at FROM players ORDER BY id");
  std::vector<PlayerRecord> players;
  while (rows.step()) {
    PlayerRecord player{rows.integer(0), rows.text(1), {}, rows.integer(3)};
    const std::vector<std::byte> hash = rows.blob(2);
    if (hash.size() != player.token_hash.size()) {
      throw std::runtime_error("player " + std::to_string(player.id) + ": token hash is not 32 bytes");
    }
    std::memcpy(player.token_hash.data(), hash.data(), hash.size());
    players.push_back(std::move(player));
  }
  return players;
}

// --- Tables. ---

namespace {

// A table's own row: everything but its seats.
auto row_of(const TableRecord& t) {
  return std::tie(t.id, t.name, t.host, t.status, t.options, t.turn_seconds, t.on_timeout, t.replace_after,
                  t.created_at, t.seed, t.started_at, t.finished_at, t.auto_start, t.rated, t.secrets_closed);
}

}  // namespace

void Store::save_table(const TableRecord& table, const TableRecord* saved) {
  if (!saved || row_of(table) != row_of(*saved)) {
    save_table_.bind(1, table.id)
        .bind(2, table.name)
        .bind(3, table.host)
        .bind(4, table.status)
        .bind(5, table.options.dump())
        .bind(6, table.turn_seconds)
        .bind(7, table.created_at)
        .bind(8, table.seed ? std::optional(to_column(*table.seed)) : std::nullopt)
        .bind(9, table.started_at)
        .bind(10, table.finished_at)
        .bind(11, table.on_timeout)
        .bind(12, table.replace_after)
        .bind(13, table.auto_start ? 1 : 0)
        .bind(14, table.rated ? 1 : 0)
        .bind(15, table.secrets_closed ? 1 : 0)
        .send();
    if (!saved) new_log_.bind(1, table.id).send();  // a new table's log: empty, and chained
  }
  for (std::size_t s = 0; s < table.seats.size(); ++s) {
    const SeatRecord& seat = table.seats[s];
    if (saved && s < saved->seats.size() && seat == saved->seats[s]) continue;
    save_seat_.bind(1, table.id)
        .bind(2, static_cast<std::int64_t>(s))
        .bind(3, seat.kind)
        .bind(4, seat.player)
        .bind(5, seat.resigned ? 1 : 0)
        .bind(6, seat.deadline)
        .bind(7, seat.timeouts)
        .bind(8, seat.replaced ? 1 : 0)
        .bind(9, seat.bot_level)
        .send();
  }
}

void Store::save_result(const GameResult& result) {
  for (const SeatResult& seat : result.seats) {
    save_result_.bind(1, result.table).bind(2, seat.seat).bind(3, seat.player).bind(4, seat.score).bind(5, seat.rank).send();
  }
}

std::optional<GameResult> Store::result(std::int64_t table) {
  GameResult result{table, 0, {}};
  results_.bind(1, table);
  while (results_.step()) {
    result.seats.push_back(SeatResult{static_cast<int>(results_.integer(0)), results_.optional_integer(1),
                                      static_cast<int>(results_.integer(2)), static_cast<int>(results_.integer(3))});
    result.finished_at = results_.optional_integer(4).value_or(0);
  }
  results_.reset();
  if (result.seats.empty()) return std::nullopt;
  return result;
}

void Store::delete_table(std::int64_t id) {
  flush_log();  // rows of the table would not find it
  delete_table_.bind(1, id).run();
  if (ring_) {  // its rows left the ring with it
    ring_->release(id);
    ring_->heads.erase(id);
  }
}

void Store::save_snapshot(std::int64_t table, std::int64_t seq, const std::string& bytes) {
  const SnapshotRow row = snapshot_row(seq, bytes);
  save_snapshot_.bind(1, table)
      .bind(2, row.seq)
      .bind(3, row.format)
      .bind(4, std::as_bytes(std::span(row.state.data(), row.state.size())))
      .bind(5, row.checksum)
      .send();
}

void Store::delete_snapshot(std::int64_t table) { delete_snapshot_.bind(1, table).send(); }

std::int64_t Store::max_table_id() {
  Statement row = database_.prepare("SELECT coalesce(max(id), 0) FROM tables");
  row.step();
  return row.integer(0);
}

std::vector<SeatRecord> Store::seats(std::int64_t table) {
  std::vector<SeatRecord> seats;
  seats_.bind(1, table);
  while (seats_.step()) {
    seats.push_back(SeatRecord{seats_.text(0), seats_.optional_integer(1), seats_.integer(2) != 0,
                               seats_.optional_integer(3), static_cast<int>(seats_.integer(4)),
                               seats_.integer(5) != 0, seats_.optional_text(6)});
  }
  seats_.reset();
  return seats;
}

TableRecord Store::read_table(Statement& row) {
  TableRecord table;
  table.id = row.integer(0);
  table.name = row.text(1);
  table.host = row.integer(2);
  table.status = row.text(3);
  table.options = options_from(row.text(4), table.id);
  table.turn_seconds = static_cast<int>(row.integer(5));
  table.created_at = row.integer(6);
  if (!row.is_null(7)) table.seed = seed_from(row.integer(7));
  table.started_at = row.optional_integer(8);
  table.finished_at = row.optional_integer(9);
  table.on_timeout = row.text(10);
  table.replace_after = static_cast<int>(row.integer(11));
  table.auto_start = row.integer(12) != 0;
  table.rated = row.integer(13) != 0;
  table.secrets_closed = row.integer(14) != 0;
  table.seats = seats(table.id);
  return table;
}

std::optional<Store::SnapshotBytes> Store::snapshot_of(std::int64_t table, std::string& refused) {
  Statement row = database_.prepare("SELECT seq, format, state, hash FROM snapshots WHERE table_id = ?1");
  row.bind(1, table);
  if (!row.step()) return std::nullopt;
  const std::vector<std::byte> state = row.blob(2);
  const SnapshotRow read{row.integer(0), row.integer(1),
                         std::string(reinterpret_cast<const char*>(state.data()), state.size()), row.integer(3)};
  std::optional<std::string> bytes = snapshot_bytes(read, refused);
  if (!bytes) return std::nullopt;
  return SnapshotBytes{read.seq, std::move(*bytes)};
}

std::vector<games::Recorded> Store::read_log(std::int64_t table, std::int64_t from, const LogHead& head) {
  flush_log();
  Statement log = database_.prepare(
      "SELECT seq, seat, command, source, time, chain FROM " + log_of_table() + " WHERE seq >= ?2 ORDER BY seq");
  log.bind(1, table).bind(2, std::max<std::int64_t>(from, 1));
  std::int64_t chain = 0;
  if (from > 0) {
    // The chain goes on from the row the snapshot was taken at.
    if (!log.step() || log.integer(0) != from) throw std::runtime_error("command " + std::to_string(from) + " is missing");
    if (head.length) chain = log.optional_integer(5).value_or(0);
  }
  std::vector<games::Recorded> moves;
  std::int64_t expected = from + 1;
  for (; log.step(); ++expected) {
    const std::int64_t seq = log.integer(0);
    if (seq != expected) throw std::runtime_error("command " + std::to_string(expected) + " is missing");
    std::string text = log.text(2);
    if (head.length) {
      chain = log_chain(chain, seq, static_cast<int>(log.integer(1)), text, log.text(3), log.integer(4));
      if (log.optional_integer(5) != chain) {
        throw std::runtime_error("command " + std::to_string(seq) +
                                 " does not match the log's hash chain: the database was damaged");
      }
    }
    moves.push_back(games::Recorded{static_cast<int>(log.integer(1)), std::move(text),
                                    source_from(log.text(3)) != Source::player});
  }
  if (head.length && (expected - 1 != *head.length || chain != head.head)) {
    throw std::runtime_error("the log ends at command " + std::to_string(expected - 1) + " but the table recorded " +
                             std::to_string(*head.length) + " commands: the database lost part of it");
  }
  return moves;
}

std::unique_ptr<games::Game> Store::rebuild(RestoredTable& restored, const games::GameModule& module) {
  const TableRecord& table = restored.table;
  if (!table.seed) throw std::runtime_error("a started game without a seed");
  const Json& options = table.options;
  const LogHead head = log_head(table.id);
  restored.log_verified = head.length.has_value();
  // What the seats may still take back is restored with the game: a snapshot is taken only
  // with nothing to take back, so the log after it holds all of it.
  std::string refused;
  if (std::optional<SnapshotBytes> snapshot = snapshot_of(table.id, refused)) {
    try {
      const std::vector<games::Recorded> log = read_log(table.id, snapshot->seq, head);
      auto game = module.restore(options, *table.seed, snapshot->bytes, log);
      if (auto* restored_game = std::get_if<std::unique_ptr<games::Game>>(&game)) {
        if ((*restored_game)->version() == static_cast<std::uint64_t>(snapshot->seq) + log.size()) {
          restored.replayed = log.size();
          return std::move(*restored_game);
        }
        refused = "the snapshot's version does not match its row";
      } else {
        refused = std::get<std::string>(game);
      }
    } catch (const std::exception& error) {
      refused = std::string("the log after it does not replay: ") + error.what();
    }
  }
  if (!refused.empty()) restored.snapshot_refused = refused;
  const std::vector<games::Recorded> log = read_log(table.id, 0, head);
  auto game = module.restore(options, *table.seed, std::nullopt, log);
  if (auto* error = std::get_if<std::string>(&game)) throw std::runtime_error(*error);
  restored.replayed = log.size();
  return std::move(std::get<std::unique_ptr<games::Game>>(game));
}

Restored Store::live_tables(UnixMillis finished_since, const games::GameModule& module) {
  Restored restored;
  Statement tables = database_.prepare(
      "SELECT " + std::string(kTableColumns) +
      " FROM tables WHERE status IN ('open', 'playing') OR (status = 'finished' AND finished_at >= ?1) "
      "ORDER BY id");
  tables.bind(1, finished_since);
  while (tables.step()) {
    RestoredTable table;
    table.table = read_table(tables);
    const std::int64_t id = table.table.id;
    try {
      table.chat = recent_chat(id, kRecentChat);
      if (table.table.status != "open") table.game = rebuild(table, module);
      restored.tables.push_back(std::move(table));
    } catch (const std::exception& error) {
      restored.failed.push_back(Unrestorable{id, error.what()});
    }
  }
  return restored;
}

void Store::add_chat(std::int64_t table, const ChatLine& line) {
  // Without an id, the database gives the next.
  Statement& insert = line.id != 0 ? add_chat_ : add_chat_without_id_;
  insert.bind(1, table)
      .bind(2, line.player)
      .bind(3, line.seat ? std::optional<std::int64_t>(*line.seat) : std::nullopt)
      .bind(4, line.text)
      .bind(5, line.time);
  if (line.id != 0) insert.bind(6, line.id);
  insert.send();
}

void Store::remove_chat(std::int64_t table, std::int64_t line, std::int64_t moderator) {
  database_.prepare("UPDATE chat SET text = '', removed_by = ?3 WHERE table_id = ?1 AND id = ?2")
      .bind(1, table)
      .bind(2, line)
      .bind(3, moderator)
      .run();
}

std::int64_t Store::max_chat_id() {
  Statement row = database_.prepare("SELECT coalesce(max(id), 0) FROM chat");
  row.step();
  return row.integer(0);
}

std::vector<ChatLine> Store::recent_chat(std::int64_t table, int limit) {
  recent_chat_.bind(1, table).bind(2, limit);
  std::vector<ChatLine> lines;
  while (recent_chat_.step()) {
    std::optional<int> seat;
    if (!recent_chat_.is_null(2)) seat = static_cast<int>(recent_chat_.integer(2));
    lines.push_back(ChatLine{recent_chat_.integer(0), recent_chat_.text(1), seat, recent_chat_.text(3),
                             recent_chat_.integer(4), recent_chat_.integer(5), recent_chat_.integer(6) != 0});
  }
  recent_chat_.reset();
  return {lines.rbegin(), lines.rend()};
}

// --- History. ---

std::vector<FinishedGame> Store::finished_games(std::optional<std::int64_t> player,
                                                std::optional<std::int64_t> before, int limit) {
  Statement rows = database_.prepare(
      "SELECT " + std::string(kTableColumns) + " FROM tables WHERE status = 'finished' "
      "AND (CAST(?1 AS BIGINT) IS NULL OR id IN (SELECT table_id FROM seats WHERE player = ?1)) "
      "AND (CAST(?2 AS BIGINT) IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3");
  rows.bind(1, player).bind(2, before).bind(3, limit);
  std::vector<FinishedGame> games;
  while (rows.step()) games.push_back(finished_game(rows));
  return games;
}

FinishedGame Store::finished_game(Statement& row) {
  FinishedGame game;
  game.table = read_table(row);
  if (auto result = this->result(game.table.id)) game.results = std::move(result->seats);
  for (const SeatRecord& seat : game.table.seats) {
    std::optional<std::string> seat_name;
    if (seat.player) {
      player_name_.bind(1, *seat.player);
      if (player_name_.step()) seat_name = player_name_.text(0);
      player_name_.reset();
    }
    game.names.push_back(std::move(seat_name));
  }
  return game;
}

std::optional<FinishedGame> Store::finished_game(std::int64_t table) {
  Statement row = database_.prepare("SELECT " + std::string(kTableColumns) +
                                    " FROM tables WHERE id = ?1 AND status = 'finished'");
  row.bind(1, table);
  if (!row.step()) return std::nullopt;
  return finished_game(row);
}

std::optional<TableRecord> Store::table(std::int64_t id) {
  Statement row = database_.prepare("SELECT " + std::string(kTableColumns) + " FROM tables WHERE id = ?1");
  row.bind(1, id);
  if (!row.step()) return std::nullopt;
  return read_table(row);
}

}  // namespace elgrande::db
