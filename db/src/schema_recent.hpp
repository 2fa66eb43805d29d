#pragma once

// The latest migrations, for both backends (schema.cpp lists them), in a file of their own so
// that schema.cpp stops growing.

#include <string_view>

namespace elgrande::db::detail {

// Each table's log length and head (schema 4) move out of its row into a narrow table of
// their own: they are rewritten by every commit that logs one of the table's commands, and
// a row of three numbers, all tables' in a page or two, costs less to rewrite than the
// table's whole row in pages of their own (docs/performance.md, step 14).
inline constexpr std::string_view kVersion12 = R"sql(
CREATE TABLE log_heads (
  table_id INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
  length   INTEGER,  -- commands in the log; NULL: not chained yet
  head     INTEGER   -- the chain through the last of them
);
INSERT INTO log_heads (table_id, length, head) SELECT id, log_length, log_head FROM tables;
ALTER TABLE tables DROP COLUMN log_length;
ALTER TABLE tables DROP COLUMN log_head;
)sql";

// The log heads, as kVersion12.
inline constexpr std::string_view kPostgresVersion12 = R"sql(
CREATE TABLE log_heads (
  table_id BIGINT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
  length   BIGINT,
  head     BIGINT
);
INSERT INTO log_heads (table_id, length, head) SELECT id, log_length, log_head FROM tables;
ALTER TABLE tables DROP COLUMN log_length, DROP COLUMN log_head;
)sql";

// How many transactions the server's writer has committed, one row, counted in the same
// transaction as each commit (elgrande/db/commit_sequence.hpp). The server keeps the same
// number in a file beside a SQLite database and compares the two at start: committed data
// that disappeared (a damaged frame of the write-ahead log drops it and every later one)
// shows as a database behind its file (docs/persistence.md#lost-commits).
inline constexpr std::string_view kVersion13 = R"sql(
CREATE TABLE commit_sequence (
  only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
  n        INTEGER NOT NULL
);
INSERT INTO commit_sequence (only_row, n) VALUES (1, 0);
)sql";
// PostgreSQL's own write-ahead log finds its damage; the row is kept for the same schema.
inline constexpr std::string_view kPostgresVersion13 = R"sql(
CREATE TABLE commit_sequence (
  only_row BIGINT PRIMARY KEY CHECK (only_row = 1),
  n        BIGINT NOT NULL
);
INSERT INTO commit_sequence (only_row, n) VALUES (1, 0);
)sql";

// Notices (docs/notifications.md): what a player is told by mail, by Web Push and in a daily
// digest, and what the server needs to tell them.
inline constexpr std::string_view kVersion14 = R"sql(
-- Each player's verified mail address; unverified ones wait in email_tokens.
CREATE TABLE emails (
  player      INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
  address     TEXT NOT NULL,
  verified_at INTEGER NOT NULL
);
CREATE INDEX emails_by_address ON emails(address COLLATE NOCASE);

-- The links mailed to verify an address or reset a password, kept as the SHA-256 of their
-- token; the token itself is never stored. Each is used once, before it expires.
CREATE TABLE email_tokens (
  token_hash BLOB PRIMARY KEY,  -- SHA-256 of the link's token
  player     INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  purpose    TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
  address    TEXT NOT NULL,     -- where it was sent: the address it verifies
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER            -- none: not used yet
);
CREATE INDEX email_tokens_by_player ON email_tokens(player, purpose);

-- What each player wants to be told, and how: JSON, read by the server.
CREATE TABLE notice_preferences (
  player      INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
  preferences TEXT NOT NULL
);

-- Notices waiting to go out, each by its channel when due; retried later when sending fails.
CREATE TABLE notice_outbox (
  id         INTEGER PRIMARY KEY,
  player     INTEGER REFERENCES players(id) ON DELETE CASCADE,  -- none: to an address, not a player
  channel    TEXT NOT NULL CHECK (channel IN ('mail', 'push', 'digest')),
  kind       TEXT NOT NULL,     -- turn, invitation, result, ...
  table_id   INTEGER,           -- the game it is about, if any
  payload    TEXT NOT NULL,     -- JSON: what the message says
  due_at     INTEGER NOT NULL,
  attempts   INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX notice_outbox_by_due ON notice_outbox(due_at, id);
CREATE INDEX notice_outbox_by_player ON notice_outbox(player, kind, table_id);

-- Players told of their turn at this game, not played there since: one notice per game
-- until they play.
CREATE TABLE notice_turns (
  player   INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  told_at  INTEGER NOT NULL,
  PRIMARY KEY (player, table_id)
) WITHOUT ROWID;

-- Browsers subscribed to Web Push: where to send, and the keys to encrypt for them.
CREATE TABLE push_subscriptions (
  id         INTEGER PRIMARY KEY,
  player     INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  endpoint   TEXT NOT NULL UNIQUE,  -- the push service's URL for this browser
  p256dh     TEXT NOT NULL,         -- the browser's public key
  auth       TEXT NOT NULL,         -- the browser's authentication secret
  device     TEXT NOT NULL,         -- what the player is shown to tell their devices apart
  created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_by_player ON push_subscriptions(player);

-- Keys the server makes once and keeps: the VAPID key pair, the unsubscribe links' HMAC key.
CREATE TABLE server_keys (
  name  TEXT PRIMARY KEY,
  value BLOB NOT NULL
);
)sql";
// The notices' tables, as kVersion14; addresses compare without case through lower().
inline constexpr std::string_view kPostgresVersion14 = R"sql(
CREATE TABLE emails (
  player      BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
  address     TEXT NOT NULL,
  verified_at BIGINT NOT NULL
);
CREATE INDEX emails_by_address ON emails(lower(address));

CREATE TABLE email_tokens (
  token_hash BYTEA PRIMARY KEY,
  player     BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  purpose    TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
  address    TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at    BIGINT
);
CREATE INDEX email_tokens_by_player ON email_tokens(player, purpose);

CREATE TABLE notice_preferences (
  player      BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
  preferences TEXT NOT NULL
);

CREATE TABLE notice_outbox (
  id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  player     BIGINT REFERENCES players(id) ON DELETE CASCADE,
  channel    TEXT NOT NULL CHECK (channel IN ('mail', 'push', 'digest')),
  kind       TEXT NOT NULL,
  table_id   BIGINT,
  payload    TEXT NOT NULL,
  due_at     BIGINT NOT NULL,
  attempts   BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX notice_outbox_by_due ON notice_outbox(due_at, id);
CREATE INDEX notice_outbox_by_player ON notice_outbox(player, kind, table_id);

CREATE TABLE notice_turns (
  player   BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  table_id BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  told_at  BIGINT NOT NULL,
  PRIMARY KEY (player, table_id)
);

CREATE TABLE push_subscriptions (
  id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  player     BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
  endpoint   TEXT NOT NULL UNIQUE,
  p256dh     TEXT NOT NULL,
  auth       TEXT NOT NULL,
  device     TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_by_player ON push_subscriptions(player);

CREATE TABLE server_keys (
  name  TEXT PRIMARY KEY,
  value BYTEA NOT NULL
);
)sql";

// Languages (docs/accounts.md#language): the language an account reads the site and its mail
// in, a BCP 47 code of the server's catalogs ("en", "pl", ...); none: not chosen yet.
inline constexpr std::string_view kVersion15 = R"sql(
ALTER TABLE accounts ADD COLUMN language TEXT;
)sql";
// The account's language, as kVersion15.
inline constexpr std::string_view kPostgresVersion15 = R"sql(
ALTER TABLE accounts ADD COLUMN language TEXT;
)sql";

// Replays and reviews (docs/replays.md): a table may keep its game's secrets closed after the
// end (its replay and record then show what spectators saw); the strong bot's second opinion
// on a decision, kept with the game once asked, and who asked when (the daily limit).
inline constexpr std::string_view kVersion16 = R"sql(
ALTER TABLE tables ADD COLUMN secrets_closed INTEGER NOT NULL DEFAULT 0;
CREATE TABLE reviews (
  table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  version  INTEGER NOT NULL,  -- the decision's: the move reviewed is the log's entry there
  level    TEXT NOT NULL,
  result   TEXT NOT NULL,     -- JSON, as the server answers it
  asked_by INTEGER REFERENCES players(id) ON DELETE SET NULL,
  asked_at INTEGER NOT NULL,
  PRIMARY KEY (table_id, version, level)
);
CREATE INDEX reviews_by_asker ON reviews(asked_by, asked_at);
)sql";
// As kVersion16.
inline constexpr std::string_view kPostgresVersion16 = R"sql(
ALTER TABLE tables ADD COLUMN secrets_closed BIGINT NOT NULL DEFAULT 0;
CREATE TABLE reviews (
  table_id BIGINT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
  version  BIGINT NOT NULL,
  level    TEXT NOT NULL,
  result   TEXT NOT NULL,
  asked_by BIGINT REFERENCES players(id) ON DELETE SET NULL,
  asked_at BIGINT NOT NULL,
  PRIMARY KEY (table_id, version, level)
);
CREATE INDEX reviews_by_asker ON reviews(asked_by, asked_at);
)sql";

// Which server process writes for each table when several share one PostgreSQL database
// (docs/scaling.md, issue 47): taking a table adds one to its epoch, and every transaction
// of its owner first checks the epochs of the tables it writes (elgrande/db/table_owners.hpp).
// A SQLite database has one process: nothing to record.
inline constexpr std::string_view kVersion17 = R"sql(
-- table_owners: PostgreSQL's only
)sql";
inline constexpr std::string_view kPostgresVersion17 = R"sql(
CREATE TABLE table_owners (
  table_id BIGINT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
  process  TEXT NOT NULL,    -- host name and process id, for operators
  epoch    BIGINT NOT NULL,  -- 1 when first taken, one more each time since
  since    BIGINT NOT NULL   -- when it was taken (Unix ms)
);
)sql";

// The ids several processes on one PostgreSQL database hand out come in blocks reserved
// here (elgrande/db/id_blocks.hpp), so no two give the same. A reservation starts above
// the highest id stored too, so ids stored before this version, or by `--create-admin`,
// are never given again. Each command records the epoch it was written in. And the
// processes themselves (elgrande/db/processes.hpp): a row
// each, live while its advisory lock is held. A SQLite database has one process, which
// counts on in memory.
inline constexpr std::string_view kVersion18 = R"sql(
-- id_blocks and processes: PostgreSQL's only
)sql";
inline constexpr std::string_view kPostgresVersion18 = R"sql(
CREATE TABLE id_blocks (
  kind TEXT PRIMARY KEY,  -- 'table', 'player', 'chat line'
  next BIGINT NOT NULL    -- the first id of this kind no process has reserved
);
INSERT INTO id_blocks (kind, next) VALUES ('table', 1), ('player', 1), ('chat line', 1);
-- The epoch of its table's owner that wrote each command (table_owners.epoch); 0: before
-- epochs were recorded, or a tool's write.
ALTER TABLE commands ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
CREATE TABLE processes (
  id         TEXT PRIMARY KEY,               -- host name, process id and start time
  address    TEXT NOT NULL,                  -- where the others reach it
  registered BIGINT NOT NULL,                -- when it joined (Unix ms)
  draining   BOOLEAN NOT NULL DEFAULT false  -- handing its tables over before it exits
);
)sql";

// The key the other processes present to reach the leader over a peer link, through which
// they relay their clients (docs/scaling.md); only those that can read the database know it.
inline constexpr std::string_view kVersion19 = R"sql(
-- leader.peer_key: PostgreSQL's only
)sql";
inline constexpr std::string_view kPostgresVersion19 = R"sql(
ALTER TABLE leader ADD COLUMN peer_key TEXT NOT NULL DEFAULT '';
)sql";

}  // namespace elgrande::db::detail
