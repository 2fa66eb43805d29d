#include "elgrande/db/reviews.hpp"

namespace elgrande::db {

namespace {

constexpr const char* kColumns = "table_id, version, level, result, asked_by, asked_at";

ReviewRecord read_review(Statement& row) {
  return {row.integer(0), row.integer(1), row.text(2), row.text(3), row.optional_integer(4), row.integer(5)};
}

}  // namespace

ReviewStore::ReviewStore(Database& database) : database_(database) {}

std::optional<ReviewRecord> ReviewStore::find(std::int64_t table, std::int64_t version, const std::string& level) {
  Statement row = database_.prepare(std::string("SELECT ") + kColumns +
                                    " FROM reviews WHERE table_id = ?1 AND version = ?2 AND level = ?3");
  row.bind(1, table).bind(2, version).bind(3, level);
  if (!row.step()) return std::nullopt;
  return read_review(row);
}

void ReviewStore::save(const ReviewRecord& review) {
  database_
      .prepare("INSERT INTO reviews (table_id, version, level, result, asked_by, asked_at) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (table_id, version, level) DO NOTHING")
      .bind(1, review.table)
      .bind(2, review.version)
      .bind(3, review.level)
      .bind(4, review.result)
      .bind(5, review.asked_by)
      .bind(6, review.asked_at)
      .run();
}

int ReviewStore::asked_since(std::int64_t player, std::int64_t since) {
  Statement row = database_.prepare("SELECT count(*) FROM reviews WHERE asked_by = ?1 AND asked_at >= ?2");
  row.bind(1, player).bind(2, since);
  row.step();
  return static_cast<int>(row.integer(0));
}

std::vector<ReviewRecord> ReviewStore::of_table(std::int64_t table) {
  Statement rows = database_.prepare(std::string("SELECT ") + kColumns +
                                     " FROM reviews WHERE table_id = ?1 ORDER BY version, level");
  rows.bind(1, table);
  std::vector<ReviewRecord> reviews;
  while (rows.step()) reviews.push_back(read_review(rows));
  return reviews;
}

}  // namespace elgrande::db
