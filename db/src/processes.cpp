#include "elgrande/db/processes.hpp"

#include <stdexcept>

namespace elgrande::db {
namespace {

// A process's lock, in the two-key space of advisory locks (the leader's is a one-key
// lock): this class, and the hash of the schema and the process's id. Its pg_locks row
// shows the keys as oids, hence the casts.
constexpr std::int64_t kProcessLocks = 47;

// The lock's keys, given the parameters of the class and of the process's id.
std::string keys(const char* locks, const char* process) {
  return std::string("CAST(") + locks + " AS integer), hashtext(current_schema() || ' ' || " + process + ")";
}

// 1 while the lock of `process` (an expression) is held, by `holder` if given.
std::string held(const char* locks, const char* process, const char* holder = "") {
  return std::string("CAST(EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted ") +
         "AND l.objsubid = 2 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) " +
         "AND l.classid = CAST(CAST(" + locks + " AS integer) AS oid) " +
         "AND l.objid = CAST(hashtext(current_schema() || ' ' || " + process + ") AS oid)" + holder + ") AS integer)";
}

void require_postgresql(Database& database) {
  if (database.backend() != Backend::postgresql) throw std::logic_error("processes share PostgreSQL only");
}

}  // namespace

void join_processes(Database& connection, const std::string& process, const std::string& address,
                    std::int64_t now) {
  require_postgresql(connection);
  // Once only: a session's advisory locks stack, and one unlock would leave one held.
  Statement lock = connection.prepare("SELECT CASE WHEN " + held("?2", "?1", " AND l.pid = pg_backend_pid()") +
                                      " = 1 THEN 1 ELSE CAST(pg_try_advisory_lock(" + keys("?2", "?1") +
                                      ") AS integer) END");
  lock.bind(1, process).bind(2, kProcessLocks);
  if (!lock.step() || lock.integer(0) == 0) {
    throw std::runtime_error("another process holds the lock of process " + process);
  }
  lock.reset();
  connection
      .prepare("INSERT INTO processes (id, address, registered) VALUES (?1, ?2, ?3) "
               "ON CONFLICT (id) DO UPDATE SET address = excluded.address")
      .bind(1, process)
      .bind(2, address)
      .bind(3, now)
      .run();
}

bool holds_membership(Database& connection, const std::string& process) {
  Statement mine = connection.prepare("SELECT " + held("?2", "?1", " AND l.pid = pg_backend_pid()"));
  mine.bind(1, process).bind(2, kProcessLocks);
  return mine.step() && mine.integer(0) != 0;
}

void leave_processes(Database& connection, const std::string& process) {
  connection.prepare("DELETE FROM processes WHERE id = ?1").bind(1, process).run();
  connection.prepare("SELECT CAST(pg_advisory_unlock(" + keys("?2", "?1") + ") AS integer)")
      .bind(1, process)
      .bind(2, kProcessLocks)
      .run();
}

std::vector<std::string> drain_process(Database& database, const std::string& id_or_address) {
  require_postgresql(database);
  Statement marked =
      database.prepare("UPDATE processes SET draining = true WHERE id = ?1 OR address = ?1 RETURNING id");
  marked.bind(1, id_or_address);
  std::vector<std::string> ids;
  while (marked.step()) ids.push_back(marked.text(0));
  return ids;
}

bool draining(Database& database, const std::string& process) {
  Statement row = database.prepare("SELECT CAST(draining AS integer) FROM processes WHERE id = ?1");
  row.bind(1, process);
  return row.step() && row.integer(0) != 0;
}

std::vector<ProcessRow> processes(Database& database) {
  require_postgresql(database);
  Statement rows = database.prepare("SELECT p.id, p.address, p.registered, CAST(p.draining AS integer), " +
                                    held("?1", "p.id") + " FROM processes p ORDER BY p.registered, p.id");
  rows.bind(1, kProcessLocks);
  std::vector<ProcessRow> found;
  while (rows.step()) {
    found.push_back({rows.text(0), rows.text(1), rows.integer(2), rows.integer(3) != 0, rows.integer(4) != 0});
  }
  return found;
}

std::vector<std::string> remove_gone_processes(Database& database) {
  require_postgresql(database);
  Statement gone = database.prepare("DELETE FROM processes p WHERE " + held("?1", "p.id") + " = 0 RETURNING p.id");
  gone.bind(1, kProcessLocks);
  std::vector<std::string> ids;
  while (gone.step()) ids.push_back(gone.text(0));
  return ids;
}

}  // namespace elgrande::db
