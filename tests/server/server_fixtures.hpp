#pragma once

// What several server tests share: a few players, and a migrated database on a real file.

#include <filesystem>
#include <memory>

#include "common/player.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/sqlite.hpp"
#include "elgrande/db/schema.hpp"

namespace elgrande::test {

inline const server::Player ana{1, "Ana"};
inline const server::Player ben{2, "Ben"};
inline const server::Player cid{3, "Cid"};
inline const server::Player dee{4, "Dee"};

inline std::unique_ptr<db::Database> migrated(const std::filesystem::path& file) {
  auto database = std::make_unique<db::SqliteDatabase>(file);
  db::migrate(*database);
  return database;
}

}  // namespace elgrande::test
