#include "elgrande/db/write_fence.hpp"

namespace elgrande::db {
namespace {

// One key per process and database schema, so that test servers on schemas of one database
// do not meet. Two names with one hash only make one wait for the other now and then.
constexpr const char* kKey = "hashtext('elgrande-server writes of ' || current_schema() || ' ' || ?1)";

}  // namespace

void hold_writes(Database& database, const std::string& process) {
  database.prepare(std::string("SELECT pg_advisory_xact_lock_shared(") + kKey + ")").bind(1, process).send();
}

void wait_for_writes(Database& database, const std::string& process) {
  database.prepare(std::string("SELECT pg_advisory_xact_lock(") + kKey + ")").bind(1, process).send();
}

}  // namespace elgrande::db
