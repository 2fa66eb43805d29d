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
#include <stdexcept>
#include <string>

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

class TestDatabase {
 public:
  TestDatabase() {
    if (!testing_postgresql()) {
      location_ = (dir_.path() / "test.sqlite").string();
      return;
    }
    // A schema per test: tests run side by side on one server and never see each other.
    const std::string server = postgres_server_url();
    std::random_device random;
    schema_ = "test_" + std::to_string(random()) + std::to_string(random());
    db::PostgresDatabase(server).execute("CREATE SCHEMA " + schema_);
    location_ = server + (server.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema_;
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
