#include "elgrande/db/commit_sequence.hpp"

namespace elgrande::db {

CommitSequence::CommitSequence(Database& database)
    : database_(database), write_(database.prepare("UPDATE commit_sequence SET n = ?1 WHERE only_row = 1")) {}

std::int64_t CommitSequence::read() {
  Statement row = database_.prepare("SELECT n FROM commit_sequence WHERE only_row = 1");
  return row.step() ? row.integer(0) : 0;
}

void CommitSequence::write(std::int64_t n) { write_.bind(1, n).send(); }

}  // namespace elgrande::db
