#pragma once

// What several server tests share: a few players, and a migrated database on a real file.

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

#include "common/player.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/sqlite.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/el_grande/module.hpp"

namespace elgrande::test {

inline const server::Player ana{1, "Ana"};
inline const server::Player ben{2, "Ben"};
inline const server::Player cid{3, "Cid"};
inline const server::Player dee{4, "Dee"};

// El Grande's options for a new table, as the module reads them from table.create.
inline games::Json options_for(int players, bool short_game = false, bool automa = false) {
  auto read = el_grande::module().read_options(
      {{"players", players}, {"short_game", short_game}, {"automa", automa}, {"four_stacks", false}});
  if (auto* why_not = std::get_if<std::string>(&read)) throw std::invalid_argument(*why_not);
  return std::get<games::Json>(read);
}

inline std::unique_ptr<db::Database> migrated(const std::filesystem::path& file) {
  auto database = std::make_unique<db::SqliteDatabase>(file);
  db::migrate(*database);
  return database;
}

}  // namespace elgrande::test
