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

}  // namespace elgrande::db::detail
