#include "storage/id_reservations.hpp"

#include <memory>

namespace elgrande::server {

FirstIds first_ids(db::Database& database) {
  if (database.backend() != db::Backend::postgresql) return {};
  db::Transaction reserving(database);
  FirstIds first{.tables = db::reserve_ids(database, db::IdKind::table, IdSupply::kBlock),
                 .players = db::reserve_ids(database, db::IdKind::player, IdSupply::kBlock),
                 .chat_lines = db::reserve_ids(database, db::IdKind::chat_line, IdSupply::kBlock)};
  reserving.commit();
  return first;
}

IdSupply id_supply(Storage& storage, db::IdKind kind, std::optional<db::IdBlock> first, std::int64_t highest) {
  if (!first) return IdSupply::after(highest);
  return IdSupply(*first, [&storage, kind](std::int64_t count, IdSupply::Granted granted) {
    auto block = std::make_shared<db::IdBlock>();
    // A write that stands alone, committed with whatever shares its transaction; tried
    // again alone if that transaction fails for another write's sake.
    storage.write([block, kind, count](db::Store& store) { *block = db::reserve_ids(store.database(), kind, count); },
                  [block, granted = std::move(granted)](bool committed) {
                    granted(committed ? std::optional(*block) : std::nullopt);
                  });
  });
}

}  // namespace elgrande::server
