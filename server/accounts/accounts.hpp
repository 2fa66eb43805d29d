#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/player.hpp"
#include "common/recipient.hpp"
#include "elgrande/db/accounts.hpp"
#include "elgrande/db/moderation.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {

class Identities;

enum class Role : std::uint8_t { player, moderator, admin };
std::string_view to_string(Role role);
std::optional<Role> role_from_string(std::string_view name);

// A player who signed up: the username they sign in with and their password's hash.
struct Account {
  PlayerId player = 0;
  std::string username;
  std::string password_hash;
  Role role = Role::player;
  std::optional<std::string> language{};  // a catalog's code ("en", "pl"); none: not chosen
};

using SessionId = std::int64_t;

// One device signed in to an account.
struct Session {
  SessionId id = 0;
  PlayerId player = 0;
  db::UnixMillis created_at = 0;
  db::UnixMillis last_seen = 0;
  std::string device;
};

// A session just opened, and the token that resumes it: handed out once, never stored.
struct NewSession {
  Session session;
  std::string token;
};

// Every account and every signed-in device. A session's token is kept only as its
// SHA-256; a session idle for longer than `idle_limit` is over. Every change is in memory
// once it is saved (the callbacks run on the database thread then), so that nothing is
// acknowledged that a restart would forget. Internally locked; nothing blocks under the lock.
class Accounts {
 public:
  using Opened = std::function<void(std::optional<NewSession>)>;

  Accounts(Storage& storage, Identities& identities, std::chrono::milliseconds idle_limit);
  Accounts(const Accounts&) = delete;
  Accounts& operator=(const Accounts&) = delete;

  // At start, before any connection is served; sessions idle too long are left out.
  void restore(const std::vector<db::AccountRecord>& accounts, const std::vector<db::SessionRecord>& sessions,
               db::UnixMillis now);

  std::optional<Account> find(std::string_view username) const;  // ignoring case
  std::optional<Account> of(PlayerId player) const;
  bool has_account(PlayerId player) const;

  // Holds `username` while its password is hashed, so that two sign-ups cannot both take
  // it: false if it is taken or held. sign_up lets it go.
  bool hold(std::string_view username);
  void let_go(std::string_view username);

  // Makes the guest `player` an account, keeping its id (and with it its seats, games and
  // chat); its guest token stops working. Opens the first session.
  void sign_up(PlayerId player, std::string username, std::string password_hash, std::string device,
               std::optional<std::string> language, db::UnixMillis now, Opened opened);
  void open_session(PlayerId player, std::string device, db::UnixMillis now, Opened opened);
  // The session `token` opens, if it is one and not idle too long (an expired one is ended).
  std::optional<Session> resume(std::string_view token, db::UnixMillis now);

  // Connections signed in with a session are closed when it ends.
  void attach(SessionId session, const RecipientPtr& connection);
  std::vector<Session> sessions_of(PlayerId player) const;
  // Ends the player's session `id` (false: it has none such), or all of the player's
  // sessions but `keep`; their connections are closed once it is saved.
  bool end_session(PlayerId player, SessionId id, Storage::Done done);
  void end_sessions(PlayerId player, std::optional<SessionId> keep, Storage::Done done);
  // A new password, which ends every other session.
  void change_password(PlayerId player, std::string password_hash, std::optional<SessionId> keep,
                       Storage::Done done);
  // An admin's decision, saved with its audit entry.
  void set_role(PlayerId player, Role role, db::AuditEntry audit, Storage::Done done);
  // Deletes the account: its username and password, and every session (their connections
  // close once it is saved); `also` runs in the same transaction. The player stays, as
  // whoever played its games.
  void remove(PlayerId player, std::function<void(db::Store&)> also, Storage::Done done);
  // The language the account reads the site and its mail in (docs/accounts.md#language).
  void set_language(PlayerId player, std::string language, Storage::Done done);
  // A better hash of the same password, after a sign-in under older parameters.
  void rehash(PlayerId player, std::string password_hash);

 private:
  // Ends the sessions in memory; their connections, to be closed.
  std::vector<WeakRecipient> forget_sessions(const std::vector<SessionId>& ended);
  static void close_all(const std::vector<WeakRecipient>& connections);

  Storage& storage_;
  Identities& identities_;
  const std::chrono::milliseconds idle_limit_;

  mutable std::mutex mutex_;
  std::unordered_map<PlayerId, Account> accounts_;
  std::unordered_map<std::string, PlayerId> by_username_;  // by username_key
  std::set<std::string> held_;                             // usernames being signed up
  SessionId next_session_ = 1;
  struct StoredSession {
    Session session;
    db::TokenHash token_hash;
  };
  std::unordered_map<SessionId, StoredSession> sessions_;
  std::map<db::TokenHash, SessionId> by_token_;
  std::unordered_map<SessionId, std::vector<WeakRecipient>> connections_;
};

}  // namespace elgrande::server
