#include "accounts/accounts.hpp"

#include <algorithm>
#include <array>

#include "accounts/credentials.hpp"
#include "identity/identities.hpp"

namespace elgrande::server {
namespace {

constexpr std::array<std::string_view, 3> kRoleNames{"player", "moderator", "admin"};

// A session's last_seen is saved when it is older than this: often enough for an idle
// limit counted in days, rarely enough not to write on every connection.
constexpr db::UnixMillis kTouchEvery = 60 * 60 * 1000;

}  // namespace

std::string_view to_string(Role role) { return kRoleNames[static_cast<std::size_t>(role)]; }

std::optional<Role> role_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i) {
    if (kRoleNames[i] == name) return static_cast<Role>(i);
  }
  return std::nullopt;
}

Accounts::Accounts(Storage& storage, Identities& identities, std::chrono::milliseconds idle_limit)
    : storage_(storage), identities_(identities), idle_limit_(idle_limit) {}

void Accounts::restore(const std::vector<db::AccountRecord>& accounts, const std::vector<db::SessionRecord>& sessions,
                       db::UnixMillis now) {
  const std::lock_guard lock(mutex_);
  for (const db::AccountRecord& record : accounts) {
    accounts_[record.player] =
        Account{record.player, record.username, record.password_hash, role_from_string(record.role).value_or(Role::player),
                record.language};
    by_username_[username_key(record.username)] = record.player;
  }
  for (const db::SessionRecord& record : sessions) {
    next_session_ = std::max(next_session_, record.id + 1);
    if (now - record.last_seen > idle_limit_.count()) continue;
    sessions_[record.id] = {Session{record.id, record.player, record.created_at, record.last_seen, record.device},
                            record.token_hash};
    by_token_[record.token_hash] = record.id;
  }
}

std::optional<Account> Accounts::find(std::string_view username) const {
  const std::lock_guard lock(mutex_);
  const auto found = by_username_.find(username_key(username));
  if (found == by_username_.end()) return std::nullopt;
  return accounts_.at(found->second);
}

std::optional<Account> Accounts::of(PlayerId player) const {
  const std::lock_guard lock(mutex_);
  const auto found = accounts_.find(player);
  if (found == accounts_.end()) return std::nullopt;
  return found->second;
}

bool Accounts::has_account(PlayerId player) const {
  const std::lock_guard lock(mutex_);
  return accounts_.contains(player);
}

bool Accounts::hold(std::string_view username) {
  std::string key = username_key(username);
  const std::lock_guard lock(mutex_);
  if (by_username_.contains(key)) return false;
  return held_.insert(std::move(key)).second;
}

void Accounts::let_go(std::string_view username) {
  const std::lock_guard lock(mutex_);
  held_.erase(username_key(username));
}

void Accounts::sign_up(PlayerId player, std::string username, std::string password_hash, std::string device,
                       std::optional<std::string> language, db::UnixMillis now, Opened opened) {
  NewSession made{Session{0, player, now, now, std::move(device)}, new_token()};
  {
    const std::lock_guard lock(mutex_);
    made.session.id = next_session_++;
  }
  Account account{player, std::move(username), std::move(password_hash), Role::player, std::move(language)};
  const db::TokenHash token_hash = hash_token(made.token);
  storage_.write(
      [account, session = made.session, token_hash, unused = hash_token(new_token())](db::Store& store) {
        store.accounts().insert({account.player, account.username, account.password_hash, "player", session.created_at,
                                 account.language});
        store.accounts().retire_guest_token(account.player, unused);
        store.accounts().insert_session({session.id, session.player, token_hash, session.created_at,
                                         session.last_seen, session.device});
      },
      [this, account, made = std::move(made), token_hash, opened = std::move(opened)](bool saved) {
        {
          const std::lock_guard lock(mutex_);
          held_.erase(username_key(account.username));
          if (saved) {
            accounts_[account.player] = account;
            by_username_[username_key(account.username)] = account.player;
            sessions_[made.session.id] = {made.session, token_hash};
            by_token_[token_hash] = made.session.id;
          }
        }
        if (saved) identities_.retire_token(account.player);
        opened(saved ? std::optional(made) : std::nullopt);
      });
}

void Accounts::open_session(PlayerId player, std::string device, db::UnixMillis now, Opened opened) {
  NewSession made{Session{0, player, now, now, std::move(device)}, new_token()};
  {
    const std::lock_guard lock(mutex_);
    made.session.id = next_session_++;
  }
  const db::TokenHash token_hash = hash_token(made.token);
  storage_.write(
      [session = made.session, token_hash](db::Store& store) {
        store.accounts().insert_session({session.id, session.player, token_hash, session.created_at,
                                         session.last_seen, session.device});
      },
      [this, made = std::move(made), token_hash, opened = std::move(opened)](bool saved) {
        if (saved) {
          const std::lock_guard lock(mutex_);
          sessions_[made.session.id] = {made.session, token_hash};
          by_token_[token_hash] = made.session.id;
        }
        opened(saved ? std::optional(made) : std::nullopt);
      });
}

std::optional<Session> Accounts::resume(std::string_view token, db::UnixMillis now) {
  const db::TokenHash token_hash = hash_token(token);
  std::optional<Session> session;
  bool expired = false;
  bool touch = false;
  {
    const std::lock_guard lock(mutex_);
    const auto found = by_token_.find(token_hash);
    if (found == by_token_.end()) return std::nullopt;
    Session& stored = sessions_.at(found->second).session;
    expired = now - stored.last_seen > idle_limit_.count();
    if (!expired) {
      touch = now - stored.last_seen > kTouchEvery;
      if (touch) stored.last_seen = now;
      session = stored;
    } else {
      session = stored;
      sessions_.erase(found->second);
      by_token_.erase(found);
    }
  }
  if (expired) {
    storage_.write([id = session->id](db::Store& store) { store.accounts().end_session(id); }, [](bool) {});
    return std::nullopt;
  }
  if (touch) {
    storage_.write([id = session->id, now](db::Store& store) { store.accounts().touch_session(id, now); },
                   [](bool) {});
  }
  return session;
}

void Accounts::attach(SessionId session, const RecipientPtr& connection) {
  const std::lock_guard lock(mutex_);
  if (!sessions_.contains(session)) return;
  std::vector<WeakRecipient>& connections = connections_[session];
  std::erase_if(connections, [](const WeakRecipient& weak) { return weak.expired(); });
  connections.push_back(connection);
}

std::vector<Session> Accounts::sessions_of(PlayerId player) const {
  std::vector<Session> sessions;
  const std::lock_guard lock(mutex_);
  for (const auto& [id, stored] : sessions_) {
    if (stored.session.player == player) sessions.push_back(stored.session);
  }
  std::sort(sessions.begin(), sessions.end(), [](const Session& a, const Session& b) { return a.id < b.id; });
  return sessions;
}

bool Accounts::end_session(PlayerId player, SessionId id, Storage::Done done) {
  {
    const std::lock_guard lock(mutex_);
    const auto found = sessions_.find(id);
    if (found == sessions_.end() || found->second.session.player != player) return false;
  }
  storage_.write([id](db::Store& store) { store.accounts().end_session(id); },
                 [this, id, done = std::move(done)](bool saved) {
                   std::vector<WeakRecipient> connections;
                   if (saved) connections = forget_sessions({id});
                   done(saved);  // before the close, so that the answer goes out first
                   close_all(connections);
                 });
  return true;
}

void Accounts::end_sessions(PlayerId player, std::optional<SessionId> keep, Storage::Done done) {
  change_password(player, {}, keep, std::move(done));
}

void Accounts::change_password(PlayerId player, std::string password_hash, std::optional<SessionId> keep,
                               Storage::Done done) {
  storage_.write(
      [player, password_hash, keep](db::Store& store) {
        if (!password_hash.empty()) store.accounts().set_password(player, password_hash);
        store.accounts().end_sessions(player, keep);
      },
      [this, player, password_hash, keep, done = std::move(done)](bool saved) {
        if (saved) {
          // Done callbacks run in commit order, so the sessions in memory now are exactly
          // those the database held when it ended them.
          std::vector<SessionId> ended;
          {
            const std::lock_guard lock(mutex_);
            if (const auto found = accounts_.find(player); found != accounts_.end() && !password_hash.empty()) {
              found->second.password_hash = password_hash;
            }
            for (const auto& [id, stored] : sessions_) {
              if (stored.session.player == player && id != keep) ended.push_back(id);
            }
          }
          const std::vector<WeakRecipient> connections = forget_sessions(ended);
          done(saved);  // before the close, so that the answer goes out first
          close_all(connections);
          return;
        }
        done(saved);
      });
}

void Accounts::remove(PlayerId player, std::function<void(db::Store&)> also, Storage::Done done) {
  storage_.write(
      [player, also = std::move(also)](db::Store& store) {
        store.accounts().remove(player);
        if (also) also(store);
      },
      [this, player, done = std::move(done)](bool saved) {
        if (!saved) return done(false);
        std::vector<SessionId> ended;
        {
          const std::lock_guard lock(mutex_);
          if (const auto found = accounts_.find(player); found != accounts_.end()) {
            by_username_.erase(username_key(found->second.username));
            accounts_.erase(found);
          }
          for (const auto& [id, stored] : sessions_) {
            if (stored.session.player == player) ended.push_back(id);
          }
        }
        const std::vector<WeakRecipient> connections = forget_sessions(ended);
        done(true);  // before the close, so that the answer goes out first
        close_all(connections);
      });
}

void Accounts::set_role(PlayerId player, Role role, db::AuditEntry audit, Storage::Done done) {
  storage_.write(
      [player, role, audit](db::Store& store) {
        store.accounts().set_role(player, to_string(role));
        store.moderation().audit(audit);
      },
      [this, player, role, done = std::move(done)](bool saved) {
        if (saved) {
          const std::lock_guard lock(mutex_);
          if (const auto found = accounts_.find(player); found != accounts_.end()) found->second.role = role;
        }
        done(saved);
      });
}

void Accounts::set_language(PlayerId player, std::string language, Storage::Done done) {
  storage_.write([player, language](db::Store& store) { store.accounts().set_language(player, language); },
                 [this, player, language, done = std::move(done)](bool saved) {
                   if (saved) {
                     const std::lock_guard lock(mutex_);
                     if (const auto found = accounts_.find(player); found != accounts_.end()) {
                       found->second.language = language;
                     }
                   }
                   done(saved);
                 });
}

void Accounts::rehash(PlayerId player, std::string password_hash) {
  storage_.write([player, password_hash](db::Store& store) { store.accounts().set_password(player, password_hash); },
                 [this, player, password_hash](bool saved) {
                   const std::lock_guard lock(mutex_);
                   if (const auto found = accounts_.find(player); saved && found != accounts_.end()) {
                     found->second.password_hash = password_hash;
                   }
                 });
}

std::vector<WeakRecipient> Accounts::forget_sessions(const std::vector<SessionId>& ended) {
  std::vector<WeakRecipient> to_close;
  {
    const std::lock_guard lock(mutex_);
    for (const SessionId id : ended) {
      if (const auto found = sessions_.find(id); found != sessions_.end()) {
        by_token_.erase(found->second.token_hash);
        sessions_.erase(found);
      }
      if (const auto found = connections_.find(id); found != connections_.end()) {
        to_close.insert(to_close.end(), found->second.begin(), found->second.end());
        connections_.erase(found);
      }
    }
  }
  return to_close;
}

void Accounts::close_all(const std::vector<WeakRecipient>& connections) {
  for (const WeakRecipient& weak : connections) {
    if (const RecipientPtr connection = weak.lock()) {
      connection->end(protocol::CloseCode::session_ended, "session_ended");
    }
  }
}

}  // namespace elgrande::server
