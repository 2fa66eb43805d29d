#pragma once

#include <cstdint>
#include <optional>

#include "common/id_supply.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/id_blocks.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {

// At start, on the connection the storage will take: the first block of each kind on
// PostgreSQL, in one transaction; nothing on SQLite, whose ids count on.
struct FirstIds {
  std::optional<db::IdBlock> tables;
  std::optional<db::IdBlock> players;
  std::optional<db::IdBlock> chat_lines;
};
FirstIds first_ids(db::Database& database);

// The server's supply of `kind`: from `first` on, its next blocks reserved in transactions
// of the database thread; or, without a first block, counting on from `highest`.
IdSupply id_supply(Storage& storage, db::IdKind kind, std::optional<db::IdBlock> first, std::int64_t highest);

}  // namespace elgrande::server
