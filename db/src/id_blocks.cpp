#include "elgrande/db/id_blocks.hpp"

#include <stdexcept>
#include <string>

namespace elgrande::db {
namespace {

struct KindRow {
  const char* name;   // its id_blocks row
  const char* table;  // where its ids are stored
};

KindRow row_of(IdKind kind) {
  switch (kind) {
    case IdKind::table:
      return {"table", "tables"};
    case IdKind::player:
      return {"player", "players"};
    case IdKind::chat_line:
      return {"chat line", "chat"};
  }
  throw std::logic_error("unknown id kind");
}

}  // namespace

IdBlock reserve_ids(Database& database, IdKind kind, std::int64_t count) {
  if (database.backend() != Backend::postgresql) throw std::logic_error("ids come in blocks on PostgreSQL only");
  if (count < 1) throw std::invalid_argument("a block holds at least one id");
  const KindRow row = row_of(kind);
  // The highest stored is read through its primary key's index: one page or two.
  Statement reserve = database.prepare(std::string("UPDATE id_blocks SET next = greatest(next, (SELECT coalesce(max(id), 0) + 1 FROM ") +
                                       row.table + ")) + ?2 WHERE kind = ?1 RETURNING next");
  reserve.bind(1, row.name).bind(2, count);
  if (!reserve.step()) throw std::runtime_error(std::string("id_blocks has no row for ") + row.name + " ids");
  const std::int64_t end = reserve.integer(0);
  return {end - count, end};
}

}  // namespace elgrande::db
