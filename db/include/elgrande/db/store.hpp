#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "elgrande/db/accounts.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/moderation.hpp"
#include "elgrande/db/notices.hpp"
#include "elgrande/db/ratings.hpp"
#include "elgrande/db/reviews.hpp"
#include "elgrande/db/tournaments.hpp"
#include "elgrande/games/module.hpp"

namespace elgrande::db {

struct PlayerRecord {
  std::int64_t id = 0;
  std::string name;
  TokenHash token_hash{};
  UnixMillis created_at = 0;
};

struct SeatRecord {
  std::string kind = "empty";  // "empty", "human" or "bot"
  std::optional<std::int64_t> player;
  bool resigned = false;
  std::optional<UnixMillis> deadline;
  int timeouts = 0;       // in a row (schema 2)
  bool replaced = false;  // handed to a bot after repeated timeouts (schema 2)
  // The level of the bot that plays the seat, if one does (schema 10): "random", "easy",
  // "medium" or "strong". None: a seat from before, whose bot played at random.
  std::optional<std::string> bot_level;
  friend bool operator==(const SeatRecord&, const SeatRecord&) = default;
};

// A table as stored: what everyone may know, plus the secret seed.
struct TableRecord {
  std::int64_t id = 0;
  std::string name;
  std::int64_t host = 0;
  std::string status = "open";  // "open", "playing" or "finished"
  games::Json options;  // the game module's (GameModule::read_options), stored as its dump()
  int turn_seconds = 0;
  std::string on_timeout = "bot_answers";  // or "replace_seat" (schema 2)
  int replace_after = 0;
  UnixMillis created_at = 0;
  std::optional<std::uint64_t> seed;
  std::optional<UnixMillis> started_at;
  std::optional<UnixMillis> finished_at;
  bool auto_start = false;  // starts once every seat is filled (schema 3)
  bool rated = false;       // its finished game moves its players' ratings (schema 8)
  bool secrets_closed = false;  // its replay and record keep the seats' secrets after the end (schema 16)
  std::vector<SeatRecord> seats;
  friend bool operator==(const TableRecord&, const TableRecord&) = default;
};

// How one seat ended a finished game.
struct SeatResult {
  int seat = 0;
  std::optional<std::int64_t> player;  // who had the seat, also if a bot finished it for them
  int score = 0;
  int rank = 1;  // 1 + the number of seats that scored more: the winners are 1
  friend bool operator==(const SeatResult&, const SeatResult&) = default;
};

// A finished game's outcome, as rows (schema 3): what standings and ratings read.
struct GameResult {
  std::int64_t table = 0;
  UnixMillis finished_at = 0;
  std::vector<SeatResult> seats;  // in seat order
  friend bool operator==(const GameResult&, const GameResult&) = default;
};
// The result of a game that is over, seat by seat, from its seats' scores
// (games::Game::scores()); `players` gives each seat's player.
GameResult result_of(std::int64_t table, UnixMillis finished_at, std::span<const int> scores,
                     const std::vector<std::optional<std::int64_t>>& players);

// Who answered a decision: the seat's player, a server bot seat, or the server's bot for
// a player whose time ran out.
enum class Source : std::uint8_t { player, bot, timeout };
std::string_view name(Source source);  // "player", "bot", "timeout"

struct LoggedCommand {
  std::int64_t seq = 0;  // the game's version once applied: 1, 2, ...
  int seat = 0;
  std::string move;  // the module's record of the move (games::Move::record()), kept as is
  Source source = Source::player;
  UnixMillis time = 0;
};

struct ChatLine {
  std::int64_t player = 0;
  std::string name;
  std::optional<int> seat;  // none for a spectator
  std::string text;
  UnixMillis time = 0;
  std::int64_t id = 0;   // 0: the database gives one
  bool removed = false;  // by a moderator (schema 6): the text is gone
};

// The chat lines a table keeps to show whoever comes (back) to it.
constexpr int kRecentChat = 50;

// A table brought back at start: its record and, once started, its game as its module
// restored it (with what its seats may still take back).
struct RestoredTable {
  TableRecord table;
  std::unique_ptr<games::Game> game;
  std::size_t replayed = 0;  // commands replayed on top of the snapshot (or from the start)
  std::vector<ChatLine> chat;  // the last kRecentChat lines, oldest first
  // Why the snapshot was not used and the game was rebuilt from its whole log instead.
  std::optional<std::string> snapshot_refused;
  bool log_verified = false;  // its hash chain matched (false: a log from before schema 4)
};

// A table whose game could not be rebuilt (its log is damaged, or its module refuses it):
// left untouched in the database, reported to the operator.
struct Unrestorable {
  std::int64_t table = 0;
  std::string reason;
};

struct Restored {
  std::vector<RestoredTable> tables;
  std::vector<Unrestorable> failed;
};

// A finished game as the history lists it.
struct FinishedGame {
  TableRecord table;
  std::vector<SeatResult> results;  // in seat order
  std::vector<std::optional<std::string>> names;  // per seat: the player's name, if any
};

// The server's records in SQLite: identities, accounts, moderation, tournaments, ratings and notices, tables with their seats, command logs and
// snapshots. Every method runs on the connection's thread; writes are meant to be grouped
// in a caller's Transaction.
class Store {
 public:
  // The database must be migrated to the latest schema.
  explicit Store(Database& database);

  Database& database() { return database_; }

  // --- Identities. ---
  void insert_player(const PlayerRecord& player);
  void rename_player(std::int64_t id, const std::string& name);
  std::vector<PlayerRecord> players();
  std::optional<std::string> player_name(std::int64_t id);
  AccountStore& accounts() { return accounts_; }
  ModerationStore& moderation() { return moderation_; }
  TournamentStore& tournaments() { return tournaments_; }
  RatingStore& ratings() { return ratings_; }
  NoticeStore& notices() { return notices_; }
  ReviewStore& reviews() { return reviews_; }

  // --- Tables. ---
  // Inserts or replaces the table's row and its seats; given `saved`, the table as it was
  // last saved, only the row and the seats that differ from it (a seat taken rewrites
  // that seat alone, not the table and every seat).
  void save_table(const TableRecord& table, const TableRecord* saved = nullptr);
  void save_result(const GameResult& result);
  std::optional<GameResult> result(std::int64_t table);
  void delete_table(std::int64_t id);
  // Appends to the command ring (docs/persistence.md#the-command-ring): rows this Store
  // keeps track of until they are copied into each table's log. Only one Store may append
  // to a database at a time.
  void append_commands(std::int64_t table, std::span<const LoggedCommand> commands);
  // Copies every row of the ring not yet copied into its table's log and empties the ring:
  // when the server starts (before restoring) and when it stops, in a transaction.
  void settle_log();
  // After a transaction rolled back: what this Store knew of the ring may be what the
  // transaction did, so it is read again before the next append.
  void forget_log_ring() noexcept {
    ring_.reset();
    held_rows_.clear();
    held_heads_.clear();
  }
  // Holding, the ring's rows and log heads that append_commands writes wait for
  // flush_log() (or a read of a log, or a table's deletion) and then go in a few
  // statements for many commands: fewer for the database to run, which PostgreSQL runs in
  // the commit's round trip. The database thread's Store holds, and flushes before each
  // commit. Not holding (the default), each append writes at once.
  void hold_log_writes(bool hold) { hold_log_writes_ = hold; }
  void flush_log();
  // On PostgreSQL, each command is written with the epoch its table is held in by the
  // process writing it (server/cluster/table_claims.hpp), so that a log shows who wrote
  // what; without, 0.
  using EpochOf = std::function<std::int64_t(std::int64_t table)>;
  void record_epochs(EpochOf epoch_of) { epoch_of_ = std::move(epoch_of); }
  // Keeps only the latest snapshot of each table: `bytes` (games::Game::snapshot()) taken at
  // version `seq`, under a checksum of them. Their layout is their module's.
  void save_snapshot(std::int64_t table, std::int64_t seq, const std::string& bytes);
  void delete_snapshot(std::int64_t table);
  std::int64_t max_table_id();

  // Every open or playing table, and those finished since `finished_since` (for players
  // coming back to see the end), with the games restored by `module` from the snapshot and
  // the log after it, or else from the whole log. The log is checked here (its hash chain,
  // its gaps, its recorded length); the snapshot's bytes and the moves are the module's.
  Restored live_tables(UnixMillis finished_since, const games::GameModule& module);

  void add_chat(std::int64_t table, const ChatLine& line);
  // A moderator removed the line: its text is gone for good.
  void remove_chat(std::int64_t table, std::int64_t line, std::int64_t moderator);
  std::int64_t max_chat_id();
  // The table's last `limit` lines, oldest first.
  std::vector<ChatLine> recent_chat(std::int64_t table, int limit);

  // --- History. ---
  // Finished games, newest first: those of `player` (or everyone's), with ids below
  // `before` (for paging), at most `limit`.
  std::vector<FinishedGame> finished_games(std::optional<std::int64_t> player,
                                           std::optional<std::int64_t> before, int limit);
  // One finished game (its seed may be revealed then); nothing if it is not finished.
  std::optional<FinishedGame> finished_game(std::int64_t table);
  // One table as last saved, whatever its status (its seed too: for the server's own use).
  std::optional<TableRecord> table(std::int64_t id);
  // The whole log of a table, finished or not.
  std::vector<LoggedCommand> commands(std::int64_t table);

  // --- For the operator. ---
  // What the database holds of one table's log, and where its hash chain breaks, if it does.
  struct LogCheck {
    bool table_found = false;
    std::string status;
    std::int64_t rows = 0;  // commands stored
    std::optional<std::int64_t> recorded_length;  // as the table row says
    std::optional<std::int64_t> first_gap;        // the first missing seq
    std::optional<std::int64_t> first_bad_row;    // the first row whose chain does not match
    bool head_matches = false;
    std::optional<std::int64_t> snapshot_seq;
  };
  LogCheck check_log(std::int64_t table);

 private:
  std::vector<SeatRecord> seats(std::int64_t table);
  TableRecord read_table(Statement& row);
  FinishedGame finished_game(Statement& row);  // read_table's columns
  struct LogHead {
    std::optional<std::int64_t> length;  // none: the log is not chained yet
    std::int64_t head = 0;
  };
  LogHead log_head(std::int64_t table);
  // The game as the snapshot and the log after it restore it, or else the whole log; throws
  // if the log is damaged or the module refuses it.
  std::unique_ptr<games::Game> rebuild(RestoredTable& table, const games::GameModule& module);
  // The snapshot's version and bytes, or none (with the reason in `refused` if there was one).
  struct SnapshotBytes {
    std::int64_t seq = 0;
    std::string bytes;
  };
  std::optional<SnapshotBytes> snapshot_of(std::int64_t table, std::string& refused);
  // The moves after version `from` (a snapshot's, or 0), checked against the log's chain and
  // recorded length; throws where they are not.
  std::vector<games::Recorded> read_log(std::int64_t table, std::int64_t from, const LogHead& head);

  Database& database_;
  AccountStore accounts_;
  ModerationStore moderation_;
  TournamentStore tournaments_;
  RatingStore ratings_;
  NoticeStore notices_;
  ReviewStore reviews_;
  Statement insert_player_;
  Statement rename_player_;
  Statement save_table_;
  Statement save_seat_;
  Statement save_result_;
  Statement results_;
  Statement new_log_;
  Statement log_head_;
  Statement delete_table_;
  Statement save_snapshot_;
  Statement delete_snapshot_;
  Statement seats_;
  Statement add_chat_;
  Statement add_chat_without_id_;
  Statement recent_chat_;
  Statement player_name_;

  // The command ring as this Store last left it: which row comes next, the rows not yet
  // copied into their table's log (kept here so that copying them reads nothing back), and
  // each table's log head as this Store last wrote it.
  static constexpr std::int64_t kRingSlots = 4096;
  struct RingRow {
    std::int64_t slot = 0;
    std::int64_t seq = 0;
    int seat = 0;
    std::string command;
    std::string_view source;  // name(Source): static text
    UnixMillis time = 0;
    std::int64_t chain = 0;
  };
  struct Ring {
    std::int64_t next = 0;                     // the next row's n
    std::vector<std::int64_t> uncopied_owner;  // by slot: its table, or 0 once copied
    std::unordered_map<std::int64_t, std::vector<RingRow>> uncopied;  // by table, oldest first
    std::unordered_map<std::int64_t, LogHead> heads;                  // by table
    // The table's rows wait no longer: copied, or gone with the table.
    void release(std::int64_t table);
  };
  std::optional<Ring> ring_;
  // Written by flush_log: each row with its slot's n and its table, and each table's head.
  struct HeldRow {
    std::int64_t n = 0;
    std::int64_t table = 0;
    RingRow row;
    std::int64_t epoch = 0;  // PostgreSQL's
  };
  bool hold_log_writes_ = false;
  EpochOf epoch_of_;
  // PostgreSQL's commands go straight into `commands`: a shared ring's slots would be
  // written by every process that owns tables (docs/scaling.md), and PostgreSQL does not
  // keep a table's rows together in pages, which is what the ring saves SQLite.
  const bool ring_in_use_;
  std::vector<HeldRow> held_rows_;  // each with its slot's n and row on SQLite; its table's log row on PostgreSQL
  std::map<std::int64_t, LogHead> held_heads_;  // by table
  // Rows a statement writes: 1, 2, 4, ... kHeldRows, prepared when first needed.
  static constexpr std::size_t kHeldRows = 64;
  static constexpr std::size_t kPowersOfTwo = 7;  // 1 to kHeldRows
  static constexpr std::size_t kMostHeld = 1024;  // then written at once: a bound on the memory held
  std::vector<std::optional<Statement>> put_rows_;
  std::vector<std::optional<Statement>> put_commands_;
  std::vector<std::optional<Statement>> put_heads_;
  Statement& put_rows(std::size_t rows);
  Statement& put_commands(std::size_t rows);  // PostgreSQL's, straight into the log
  Statement& put_heads(std::size_t rows);
  Ring& ring();
  void copy_to_log(Ring& ring, std::int64_t table);
  // INSERT INTO commands of `rows` rows (1 to kCopyRows), prepared when first needed.
  static constexpr std::size_t kCopyRows = 32;
  Statement& insert_commands(std::size_t rows);
  std::vector<std::optional<Statement>> insert_commands_;
};

// The command log's hash chain: the chain through one more row (FNV-1a, 64 bits: it finds
// damage, not forgery; whoever can write the file can rewrite the chain too).
std::int64_t log_chain(std::int64_t previous, std::int64_t seq, int seat, std::string_view command,
                       std::string_view source, UnixMillis time);

}  // namespace elgrande::db
