#pragma once

#include <cstdint>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// The ids several server processes on one PostgreSQL database hand out, each from blocks
// it reserves here, so that no two give the same one (docs/scaling.md): the `id_blocks`
// row of each kind holds the first id nobody has reserved. Alone on SQLite a process
// counts on from the highest id stored instead.
enum class IdKind { table, player, chat_line };

struct IdBlock {
  std::int64_t first = 0;
  std::int64_t end = 0;  // one past the last
  bool operator==(const IdBlock&) const = default;
};

// In the caller's transaction (PostgreSQL only): the next `count` ids of `kind`, above
// every id of that kind stored, whoever stored it (`--create-admin` takes the highest
// player's id plus one). Two processes reserving at once wait for each other's commit on
// the kind's row.
IdBlock reserve_ids(Database& database, IdKind kind, std::int64_t count);

}  // namespace elgrande::db
