#include "elgrande/db/accounts.hpp"

#include <cstring>
#include <span>
#include <stdexcept>

namespace elgrande::db {
namespace {

TokenHash token_hash_from(const Statement& row, int column, std::int64_t session) {
  const std::vector<std::byte> bytes = row.blob(column);
  TokenHash hash{};
  if (bytes.size() != hash.size()) {
    throw std::runtime_error("session " + std::to_string(session) + ": token hash is not 32 bytes");
  }
  std::memcpy(hash.data(), bytes.data(), bytes.size());
  return hash;
}

AccountRecord account_from(const Statement& row) {
  return AccountRecord{row.integer(0), row.text(1), row.text(2), row.text(3), row.integer(4), row.optional_text(5)};
}

constexpr std::string_view kAccountColumns = "player, username, password_hash, role, created_at, language";

}  // namespace

AccountStore::AccountStore(Database& database)
    : database_(database),
      insert_(database.prepare(
          "INSERT INTO accounts (player, username, password_hash, role, created_at, language) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")),
      set_password_(database.prepare("UPDATE accounts SET password_hash = ?2 WHERE player = ?1")),
      insert_session_(database.prepare(
          "INSERT INTO sessions (id, player, token_hash, created_at, last_seen, device) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")),
      touch_session_(database.prepare("UPDATE sessions SET last_seen = ?2 WHERE id = ?1")),
      end_session_(database.prepare("DELETE FROM sessions WHERE id = ?1")) {}

void AccountStore::insert(const AccountRecord& account) {
  insert_.bind(1, account.player)
      .bind(2, account.username)
      .bind(3, account.password_hash)
      .bind(4, account.role)
      .bind(5, account.created_at)
      .bind(6, account.language)
      .run();
}

void AccountStore::set_password(std::int64_t player, const std::string& password_hash) {
  set_password_.bind(1, player).bind(2, password_hash).run();
}

void AccountStore::set_role(std::int64_t player, std::string_view role) {
  database_.prepare("UPDATE accounts SET role = ?2 WHERE player = ?1").bind(1, player).bind(2, role).run();
}

void AccountStore::set_language(std::int64_t player, const std::optional<std::string>& language) {
  database_.prepare("UPDATE accounts SET language = ?2 WHERE player = ?1").bind(1, player).bind(2, language).run();
}

std::optional<std::string> AccountStore::language(std::int64_t player) {
  Statement row = database_.prepare("SELECT language FROM accounts WHERE player = ?1");
  row.bind(1, player);
  if (!row.step()) return std::nullopt;
  return row.optional_text(0);
}

std::vector<AccountRecord> AccountStore::all() {
  Statement rows = database_.prepare("SELECT " + std::string(kAccountColumns) + " FROM accounts ORDER BY player");
  std::vector<AccountRecord> accounts;
  while (rows.step()) accounts.push_back(account_from(rows));
  return accounts;
}

std::optional<AccountRecord> AccountStore::find(std::string_view username) {
  Statement row = database_.prepare("SELECT " + std::string(kAccountColumns) + " FROM accounts WHERE username = ?1");
  row.bind(1, username);
  if (!row.step()) return std::nullopt;
  return account_from(row);
}

bool AccountStore::has_account(std::int64_t player) {
  Statement row = database_.prepare("SELECT 1 FROM accounts WHERE player = ?1");
  row.bind(1, player);
  return row.step();
}

void AccountStore::retire_guest_token(std::int64_t player, const TokenHash& unused) {
  database_.prepare("UPDATE players SET token_hash = ?2 WHERE id = ?1")
      .bind(1, player)
      .bind(2, std::span<const std::byte>(unused))
      .run();
}

void AccountStore::insert_session(const SessionRecord& session) {
  insert_session_.bind(1, session.id)
      .bind(2, session.player)
      .bind(3, std::span<const std::byte>(session.token_hash))
      .bind(4, session.created_at)
      .bind(5, session.last_seen)
      .bind(6, session.device)
      .run();
}

void AccountStore::touch_session(std::int64_t id, UnixMillis last_seen) {
  touch_session_.bind(1, id).bind(2, last_seen).run();
}

void AccountStore::end_session(std::int64_t id) { end_session_.bind(1, id).run(); }

void AccountStore::end_sessions(std::int64_t player, std::optional<std::int64_t> keep) {
  database_.prepare("DELETE FROM sessions WHERE player = ?1 AND id IS DISTINCT FROM ?2").bind(1, player).bind(2, keep).run();
}

void AccountStore::remove(std::int64_t player) {
  database_.prepare("DELETE FROM sessions WHERE player = ?1").bind(1, player).run();
  database_.prepare("DELETE FROM accounts WHERE player = ?1").bind(1, player).run();
}

std::int64_t AccountStore::end_idle_sessions(UnixMillis idle_since) {
  database_.prepare("DELETE FROM sessions WHERE last_seen < ?1").bind(1, idle_since).run();
  return database_.changes();
}

std::vector<SessionRecord> AccountStore::sessions() {
  Statement rows = database_.prepare(
      "SELECT id, player, token_hash, created_at, last_seen, device FROM sessions ORDER BY id");
  std::vector<SessionRecord> sessions;
  while (rows.step()) {
    const std::int64_t id = rows.integer(0);
    sessions.push_back(
        SessionRecord{id, rows.integer(1), token_hash_from(rows, 2, id), rows.integer(3), rows.integer(4), rows.text(5)});
  }
  return sessions;
}

std::int64_t AccountStore::max_player_id() {
  Statement row = database_.prepare("SELECT coalesce(max(id), 0) FROM players");
  row.step();
  return row.integer(0);
}

}  // namespace elgrande::db
