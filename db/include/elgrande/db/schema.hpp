#pragma once

#include <string_view>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// The schema's history: migration i (1-based) takes a database from user_version i - 1
// to i. Migrations are only ever appended; a released one is never edited.
const std::vector<std::string_view>& migrations();
int latest_schema_version();
// PostgreSQL's: the first takes an empty database to version 10 at once; each later one
// takes it to the version after, as migrations() does for SQLite.
const std::vector<std::string_view>& postgres_migrations();

// A database written by a newer server: refusing it is the only safe answer, since this
// server would not know what the newer columns mean.
class SchemaTooNew : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Brings the database to the latest schema, each migration in its own transaction.
// `up_to` stops earlier (for tests of the migrations themselves; PostgreSQL's first
// version is 10). Throws SchemaTooNew for a database from the future and db::Error when
// the database fails.
void migrate(Database& database, int up_to = latest_schema_version());

}  // namespace elgrande::db
