#pragma once

// The database a persistence test runs against: a SQLite file in a temporary directory,
// or, when ELGRANDE_TEST_POSTGRES names a PostgreSQL server (the db-postgresql/ and
// integration-postgresql/ tests), a schema of its own on that server. The variable holds a
// URL, or a file holding one: CTest's `postgres` fixture starts a server with
// scripts/postgres.sh, which writes that file.

#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"
#include "elgrande/db/postgres.hpp"
#include "support/temp_dir.hpp"

namespace elgrande::test {

inline bool testing_postgresql() { return std::getenv("ELGRANDE_TEST_POSTGRES") != nullptr; }

// The test server's URL.
inline std::string postgres_server_url() {
  const char* named = std::getenv("ELGRANDE_TEST_POSTGRES");
  if (named == nullptr) throw std::runtime_error("ELGRANDE_TEST_POSTGRES is not set");
  std::string url = named;
  if (db::is_postgresql_url(url)) return url;
  std::ifstream file(named);
  if (!std::getline(file, url) || !db::is_postgresql_url(url)) {
    throw std::runtime_error(std::string("no PostgreSQL URL in ") + named);
  }
  return url;
}

// The URL of schema `schema` on the test server, made if it is not there yet.
inline std::string postgres_schema(const std::string& schema) {
  const std::string server = postgres_server_url();
  db::PostgresDatabase(server).execute("CREATE SCHEMA IF NOT EXISTS " + schema);
  return server + (server.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
}

// The server's database: the SQLite file under the data directory, or, when the tests run
// against PostgreSQL, a schema of the test server's named after the directory, so that a
// server started again on the directory finds the same database.
inline std::vector<std::string> database_args(const TempDir& dir) {
  std::vector<std::string> args{"--data-dir", (dir.path() / "data").string()};
  if (testing_postgresql()) {
    std::ostringstream schema;
    schema << "test_" << std::hex << std::hash<std::string>{}(dir.path().string());
    args.insert(args.end(), {"--database", postgres_schema(schema.str())});
  }
  return args;
}

class TestDatabase {
 public:
  TestDatabase() {
    if (!testing_postgresql()) {
      location_ = (dir_.path() / "test.sqlite").string();
      return;
    }
    // A schema per test: tests run side by side on one server and never see each other.
    std::random_device random;
    schema_ = "test_" + std::to_string(random()) + std::to_string(random());
    location_ = postgres_schema(schema_);
  }
  ~TestDatabase() {
    if (schema_.empty()) return;
    try {
      db::PostgresDatabase(postgres_server_url()).execute("DROP SCHEMA " + schema_ + " CASCADE");
    } catch (...) {  // the server is gone: nothing to clean
    }
  }
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  // What db::open and the server's --database take (for SQLite, the file's path).
  const std::string& location() const { return location_; }
  bool postgresql() const { return !schema_.empty(); }
  std::unique_ptr<db::Database> open(const db::OpenOptions& options = {}) const { return db::open(location_, options); }
  // The directory the test may use for its other files.
  const TempDir& dir() const { return dir_; }

 private:
  TempDir dir_;
  std::string schema_;
  std::string location_;
};

}  // namespace elgrande::test
