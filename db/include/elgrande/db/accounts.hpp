#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

using UnixMillis = std::int64_t;
using TokenHash = std::array<std::byte, 32>;

// A player who signed up (schema 5): the player row stays what it was, the account adds
// a username and a password to it.
struct AccountRecord {
  std::int64_t player = 0;
  std::string username;
  std::string password_hash;  // libsodium's Argon2id string
  std::string role = "player";  // "player", "moderator" or "admin"
  UnixMillis created_at = 0;
  std::optional<std::string> language{};  // schema 15: a catalog's code ("en", "pl"); none: not chosen
  friend bool operator==(const AccountRecord&, const AccountRecord&) = default;
};

// One device signed in to an account.
struct SessionRecord {
  std::int64_t id = 0;
  std::int64_t player = 0;
  TokenHash token_hash{};
  UnixMillis created_at = 0;
  UnixMillis last_seen = 0;
  std::string device;
  friend bool operator==(const SessionRecord&, const SessionRecord&) = default;
};

// Accounts and their sessions in SQLite; part of Store, on the same connection and thread.
class AccountStore {
 public:
  explicit AccountStore(Database& database);

  void insert(const AccountRecord& account);
  // Throws Error (constraint) if the username is taken.
  void set_password(std::int64_t player, const std::string& password_hash);
  void set_role(std::int64_t player, std::string_view role);
  void set_language(std::int64_t player, const std::optional<std::string>& language);
  // The account's language; none for a guest, or an account that has not chosen one.
  std::optional<std::string> language(std::int64_t player);
  std::vector<AccountRecord> all();
  std::optional<AccountRecord> find(std::string_view username);  // ignoring case
  bool has_account(std::int64_t player);

  // A guest's token stops working once the guest becomes an account: the player row keeps
  // the hash of a secret nobody was given.
  void retire_guest_token(std::int64_t player, const TokenHash& unused);

  void insert_session(const SessionRecord& session);
  void touch_session(std::int64_t id, UnixMillis last_seen);
  void end_session(std::int64_t id);
  // Ends the player's sessions, but `keep`.
  void end_sessions(std::int64_t player, std::optional<std::int64_t> keep);
  // The account and its sessions are gone; the player row (seats, results, chat) stays.
  void remove(std::int64_t player);
  // Ends the sessions idle since before `idle_since`; returns how many.
  std::int64_t end_idle_sessions(UnixMillis idle_since);
  std::vector<SessionRecord> sessions();

  // For a player made outside the server (--create-admin).
  std::int64_t max_player_id();

 private:
  Database& database_;
  Statement insert_;
  Statement set_password_;
  Statement insert_session_;
  Statement touch_session_;
  Statement end_session_;
};

}  // namespace elgrande::db
