#include "elgrande/db/schema.hpp"

#include <optional>
#include <string>

#include "schema_postgres.hpp"
#include "schema_recent.hpp"

namespace elgrande::db {
namespace {

// Times are milliseconds since the Unix epoch. Options, commands and results are JSON in
// the codecs' shapes (docs/protocol-codecs.md), so that a record can be read without the
// server and survives changes to the engine's memory layout.
constexpr std::string_view kVersion1 = R"sql(
CREATE TABLE players (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  token_hash BLOB NOT NULL UNIQUE,  -- SHA-256 of the secret token; the token is never stored
  created_at INTEGER NOT NULL
);

CREATE TABLE tables (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL,
  host         INTEGER NOT NULL REFERENCES players(id),
  status       TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished')),
  options      TEXT NOT NULL,
  turn_seconds INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  seed         INTEGER,  -- secret until the game is over; set at the start
  started_at   INTEGER,
  finished_at  INTEGER,
  result       TEXT      -- {"scores": [...], "winners": [...]}; from schema 3, the results table
);
CREATE INDEX tables_by_status ON tables(status, id);

CREATE TABLE seats (
  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seat     INTEGER NOT NULL,
  kind     TEXT NOT NULL CHECK (kind IN ('empty', 'human', 'bot')),
  player   INTEGER REFERENCES players(id),
  resigned INTEGER NOT NULL DEFAULT 0,
  deadline INTEGER,  -- when the seat's pending decision times out
  PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX seats_by_player ON seats(player) WHERE player IS NOT NULL;

-- The command log: a game is its options, its seed and these, in order.
CREATE TABLE commands (
  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,  -- 1, 2, ...: the game's version once it is applied
  seat     INTEGER NOT NULL,
  command  TEXT NOT NULL,
  source   TEXT NOT NULL CHECK (source IN ('player', 'bot', 'timeout')),
  time     INTEGER NOT NULL,
  PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

-- The latest state of a game in progress, so that loading replays a few commands
-- instead of the whole log. Only an optimisation: the log alone rebuilds every game.
CREATE TABLE snapshots (
  table_id INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,
  format   INTEGER NOT NULL,  -- the engine's in-memory layout the bytes are in
  state    BLOB NOT NULL,
  hash     INTEGER NOT NULL   -- the engine's state hash, checked after loading
);
)sql";

// Asynchronous play: what a timeout costs a seat, and the table chat.
constexpr std::string_view kVersion2 = R"sql(
ALTER TABLE tables ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'bot_answers'
  CHECK (on_timeout IN ('bot_answers', 'replace_seat'));
ALTER TABLE tables ADD COLUMN replace_after INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;  -- in a row
ALTER TABLE seats ADD COLUMN replaced INTEGER NOT NULL DEFAULT 0;  -- a bot took over

CREATE TABLE chat (
  id       INTEGER PRIMARY KEY,
  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  player   INTEGER NOT NULL REFERENCES players(id),
  seat     INTEGER,  -- none for a spectator
  text     TEXT NOT NULL,
  time     INTEGER NOT NULL
);
CREATE INDEX chat_by_table ON chat(table_id, id);
)sql";

// Results as rows, for standings and ratings to query rather than parse, filled from the
// JSON results of the games finished before; and tables that start once every seat is
// filled (tournaments, "play now").
constexpr std::string_view kVersion3 = R"sql(
CREATE TABLE results (
  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seat     INTEGER NOT NULL,
  player   INTEGER REFERENCES players(id),  -- who had the seat, also if a bot finished it
  score    INTEGER NOT NULL,
  rank     INTEGER NOT NULL,  -- 1 + the number of seats that scored more: winners are 1
  PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX results_by_player ON results(player) WHERE player IS NOT NULL;
INSERT INTO results (table_id, seat, player, score, rank)
  SELECT t.id, score.key, seats.player, score.value,
         1 + (SELECT count(*) FROM json_each(t.result, '$.scores') AS other WHERE other.value > score.value)
  FROM tables AS t
  JOIN json_each(t.result, '$.scores') AS score
  LEFT JOIN seats ON seats.table_id = t.id AND seats.seat = score.key
  WHERE t.status = 'finished' AND json_valid(t.result);

ALTER TABLE tables ADD COLUMN auto_start INTEGER NOT NULL DEFAULT 0;
)sql";

// Each table's command log is a hash chain: every row carries the chain through itself,
// and the table row keeps the head and the length, so that a log damaged or cut short on
// the disk is found at start instead of silently rolling a game back. Logs written before
// are chained at their next command.
constexpr std::string_view kVersion4 = R"sql(
ALTER TABLE commands ADD COLUMN chain INTEGER;  -- the chain through this row (log_chain)
ALTER TABLE tables ADD COLUMN log_length INTEGER;  -- commands in the log; NULL: not chained yet
ALTER TABLE tables ADD COLUMN log_head INTEGER;    -- the chain through the last of them
)sql";

// Accounts: a player with a username and a password, signed in on any device by a session
// token. Every guest stays a player; an account is added to one, keeping its id.
constexpr std::string_view kVersion5 = R"sql(
CREATE TABLE accounts (
  player        INTEGER PRIMARY KEY REFERENCES players(id),
  username      TEXT NOT NULL UNIQUE COLLATE NOCASE,  -- ASCII only, so NOCASE is the whole rule
  password_hash TEXT NOT NULL,  -- libsodium's Argon2id string: parameters, salt and hash
  role          TEXT NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'moderator', 'admin')),
  created_at    INTEGER NOT NULL
);

CREATE TABLE sessions (
  id         INTEGER PRIMARY KEY,
  player     INTEGER NOT NULL REFERENCES accounts(player) ON DELETE CASCADE,
  token_hash BLOB NOT NULL UNIQUE,  -- SHA-256 of the session's token; the token is never stored
  created_at INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL,      -- idle sessions expire from here
  device     TEXT NOT NULL          -- what the player is shown to tell their sessions apart
);
CREATE INDEX sessions_by_player ON sessions(player);
)sql";

// Moderation: the mutes and bans in force, every moderator's action with its reason, and
// each player's own block list.
constexpr std::string_view kVersion6 = R"sql(
CREATE TABLE sanctions (
  player INTEGER NOT NULL REFERENCES players(id),
  kind   TEXT NOT NULL CHECK (kind IN ('mute', 'ban')),
  until  INTEGER,  -- NULL: until lifted
  reason TEXT NOT NULL,
  PRIMARY KEY (player, kind)
) WITHOUT ROWID;

CREATE TABLE audit_log (
  id        INTEGER PRIMARY KEY,
  time      INTEGER NOT NULL,
  moderator INTEGER NOT NULL REFERENCES players(id),
  action    TEXT NOT NULL,  -- mute, unmute, ban, unban, kick, delete_chat, set_role
  player    INTEGER NOT NULL REFERENCES players(id),  -- whom
  detail    TEXT NOT NULL,  -- what exactly: until when, which role
  reason    TEXT NOT NULL
);

ALTER TABLE chat ADD COLUMN removed_by INTEGER REFERENCES players(id);  -- a moderator; the text is then ''

CREATE TABLE blocks (
  player  INTEGER NOT NULL REFERENCES players(id),  -- who blocks
  blocked INTEGER NOT NULL REFERENCES players(id),
  PRIMARY KEY (player, blocked)
) WITHOUT ROWID;
)sql";

// Tournaments (docs/tournaments.md): the event with its settings and seed, its entrants, and
// its rounds with their boards (each a table of the tables above) and byes. A round is a
// function of the seed and the results stored before it, so anyone can recompute it.
constexpr std::string_view kVersion7 = R"sql(
CREATE TABLE tournaments (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  director    INTEGER NOT NULL REFERENCES players(id),  -- who created it and runs it
  settings    TEXT NOT NULL,  -- JSON: format and stages, table sizes, points, tie-breaks, game, clock, windows
  seed        INTEGER NOT NULL,  -- public: every round can be recomputed from it and the results
  status      TEXT NOT NULL CHECK (status IN ('registering', 'running', 'paused', 'finished', 'cancelled')),
  created_at  INTEGER NOT NULL,
  started_at  INTEGER,
  finished_at INTEGER
);

CREATE TABLE entrants (
  tournament    INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  player        INTEGER NOT NULL REFERENCES players(id),
  registered_at INTEGER NOT NULL,
  checked_in_at INTEGER,
  status        TEXT NOT NULL
                CHECK (status IN ('registered', 'playing', 'withdrawn', 'disqualified', 'removed')),
  reason        TEXT NOT NULL DEFAULT '',  -- why withdrawn, disqualified or removed
  PRIMARY KEY (tournament, player)
) WITHOUT ROWID;
CREATE INDEX entrants_by_player ON entrants(player);

CREATE TABLE tournament_rounds (
  tournament  INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  round       INTEGER NOT NULL,  -- 1, 2, ...
  stage       INTEGER NOT NULL,  -- which of the settings' stages it belongs to, from 0
  started_at  INTEGER NOT NULL,
  finished_at INTEGER,
  PRIMARY KEY (tournament, round)
) WITHOUT ROWID;

CREATE TABLE round_boards (
  tournament INTEGER NOT NULL,
  round      INTEGER NOT NULL,
  board      INTEGER NOT NULL,  -- 1 holds the leaders
  table_id   INTEGER UNIQUE REFERENCES tables(id),  -- the game; none until the table is saved
  seats      TEXT NOT NULL,     -- JSON: the players in seat order; seat 0 begins
  PRIMARY KEY (tournament, round, board),
  FOREIGN KEY (tournament, round) REFERENCES tournament_rounds(tournament, round) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE round_byes (
  tournament INTEGER NOT NULL,
  round      INTEGER NOT NULL,
  player     INTEGER NOT NULL REFERENCES players(id),
  PRIMARY KEY (tournament, round, player),
  FOREIGN KEY (tournament, round) REFERENCES tournament_rounds(tournament, round) ON DELETE CASCADE
) WITHOUT ROWID;

-- A director's correction of a board's result; the game's own result stays as it was.
CREATE TABLE result_overrides (
  tournament INTEGER NOT NULL,
  round      INTEGER NOT NULL,
  board      INTEGER NOT NULL,
  result     TEXT NOT NULL,  -- JSON: {"scores": [...], "forfeited": [...]} in seat order
  reason     TEXT NOT NULL,
  director   INTEGER NOT NULL REFERENCES players(id),
  time       INTEGER NOT NULL,
  PRIMARY KEY (tournament, round, board),
  FOREIGN KEY (tournament, round, board) REFERENCES round_boards(tournament, round, board) ON DELETE CASCADE
) WITHOUT ROWID;
)sql";

// Ratings (docs/ratings.md): tables marked rated; every rated game in the order it was rated,
// with each rated player's rating before and after, so that a recompute can replay them all;
// and each player's current rating per ladder, which the server loads at start.
constexpr std::string_view kVersion8 = R"sql(
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE rated_games (
  seq      INTEGER PRIMARY KEY,  -- the order games were rated in, which a recompute replays
  table_id INTEGER NOT NULL UNIQUE REFERENCES tables(id),
  ladder   TEXT NOT NULL,        -- e.g. '4p', '2p-automa', '5p-short'
  rated_at INTEGER NOT NULL
);

CREATE TABLE rating_changes (
  seq          INTEGER NOT NULL REFERENCES rated_games(seq),
  player       INTEGER NOT NULL REFERENCES players(id),
  rank         INTEGER NOT NULL,  -- among the rated players: 1 + the number ranked ahead
  mu_before    REAL NOT NULL,
  sigma_before REAL NOT NULL,
  mu           REAL NOT NULL,
  sigma        REAL NOT NULL,
  PRIMARY KEY (seq, player)
) WITHOUT ROWID;
CREATE INDEX rating_changes_by_player ON rating_changes(player, seq);

CREATE TABLE ratings (
  player   INTEGER NOT NULL REFERENCES players(id),
  ladder   TEXT NOT NULL,
  mu       REAL NOT NULL,
  sigma    REAL NOT NULL,
  games    INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,  -- the rated game that set it
  PRIMARY KEY (player, ladder)
) WITHOUT ROWID;
)sql";

// Seeding by rating (docs/tournaments.md#seeding): each entrant's rating when the event
// began, so that its rounds stay a function of stored data whatever ratings do later.
constexpr std::string_view kVersion9 = R"sql(
ALTER TABLE entrants ADD COLUMN seeding INTEGER;  -- none: seeded by lot, or not begun
)sql";

// Bots of several strengths (docs/ai.md): the level of the bot that plays a seat, for a
// bot's seat and for a seat a bot took over. None: a seat from before, played at random.
constexpr std::string_view kVersion10 = R"sql(
ALTER TABLE seats ADD COLUMN bot_level TEXT;
)sql";

// The newest commands, in the order they came (docs/persistence.md#the-command-ring): a
// ring of rows overwritten in turn, `n` counting every row ever written (the slot is n
// modulo the ring's size). A commit then writes a page or two for all its commands instead
// of a page of `commands` for every table in it. A table's rows are copied into `commands`
// together before the oldest of them is overwritten, and all of them when the server stops
// or starts. A row of the ring not yet copied has a `seq` past the table's last in
// `commands`; `command_log` is every table's whole log, from both.
constexpr std::string_view kVersion11 = R"sql(
CREATE TABLE command_ring (
  slot     INTEGER PRIMARY KEY,
  n        INTEGER NOT NULL,
  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,
  seat     INTEGER NOT NULL,
  command  TEXT NOT NULL,
  source   TEXT NOT NULL,
  time     INTEGER NOT NULL,
  chain    INTEGER NOT NULL
);
CREATE VIEW command_log AS
  SELECT table_id, seq, seat, command, source, time, chain FROM commands
  UNION ALL
  SELECT r.table_id, r.seq, r.seat, r.command, r.source, r.time, r.chain FROM command_ring r
  WHERE r.seq > coalesce((SELECT max(c.seq) FROM commands c WHERE c.table_id = r.table_id), 0);
)sql";

// PostgreSQL begins here, in one step (schema_postgres.hpp).
constexpr int kPostgresFirstVersion = 10;

}  // namespace

const std::vector<std::string_view>& migrations() {
  static const std::vector<std::string_view> kMigrations{kVersion1, kVersion2, kVersion3, kVersion4, kVersion5,
                                                         kVersion6, kVersion7, kVersion8, kVersion9, kVersion10,
                                                         kVersion11, detail::kVersion12, detail::kVersion13,
                                                         detail::kVersion14, detail::kVersion15, detail::kVersion16,
                                                         detail::kVersion17, detail::kVersion18, detail::kVersion19};
  return kMigrations;
}

int latest_schema_version() { return static_cast<int>(migrations().size()); }

void migrate(Database& database, int up_to) {
  // Processes starting together on one PostgreSQL database migrate one after the other, all
  // in one transaction: the first does the work, the others find it done.
  std::optional<Transaction> serialised;
  if (database.backend() == Backend::postgresql) {
    serialised.emplace(database);
    database.execute("SELECT pg_advisory_xact_lock(hashtext('elgrande-server migrations ' || current_schema()))");
  }
  const int found = database.user_version();
  if (found > latest_schema_version()) {
    throw SchemaTooNew("database " + database.describe() + " has schema version " + std::to_string(found) +
                       ", newer than this server's " + std::to_string(latest_schema_version()) +
                       "; run the elgrande-server release that wrote it, or a later one");
  }
  const bool postgresql = database.backend() == Backend::postgresql;
  for (int version = found + 1; version <= up_to; ++version) {
    if (postgresql) {
      if (version < kPostgresFirstVersion) continue;
      database.execute(std::string(postgres_migrations()[static_cast<std::size_t>(version - kPostgresFirstVersion)]));
      database.set_user_version(version);
      continue;
    }
    Transaction transaction(database);
    database.execute(std::string(migrations()[static_cast<std::size_t>(version - 1)]));
    database.set_user_version(version);
    transaction.commit();
  }
  if (serialised) serialised->commit();
}

const std::vector<std::string_view>& postgres_migrations() {
  static const std::vector<std::string_view> kMigrations{detail::kPostgresVersion10, detail::kPostgresVersion11,
                                                         detail::kPostgresVersion12, detail::kPostgresVersion13,
                                                         detail::kPostgresVersion14, detail::kPostgresVersion15,
                                                         detail::kPostgresVersion16, detail::kPostgresVersion17,
                                                         detail::kPostgresVersion18, detail::kPostgresVersion19};
  return kMigrations;
}

}  // namespace elgrande::db
