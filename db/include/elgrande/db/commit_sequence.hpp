#pragma once

#include <cstdint>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// The number of transactions the server's writer has committed (schema 13), counted in each
// of them, so that a commit and its number are saved, or lost, together. The server keeps the
// same number in a file beside a SQLite database (server/storage/commit_ledger.hpp); a
// database found behind the file at start has lost committed transactions.
class CommitSequence {
 public:
  // The database must be migrated to schema 13 or later.
  explicit CommitSequence(Database& database);

  std::int64_t read();
  // Inside the caller's transaction.
  void write(std::int64_t n);

 private:
  Database& database_;
  Statement write_;
};

}  // namespace elgrande::db
