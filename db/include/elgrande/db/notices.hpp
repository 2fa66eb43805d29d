#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "elgrande/db/accounts.hpp"
#include "elgrande/db/database.hpp"

namespace elgrande::db {

// A player's verified mail address (schema 14).
struct EmailRecord {
  std::int64_t player = 0;
  std::string address;
  UnixMillis verified_at = 0;
  friend bool operator==(const EmailRecord&, const EmailRecord&) = default;
};

// A link mailed to verify an address or to reset a password, kept as its token's SHA-256.
struct EmailToken {
  TokenHash hash{};
  std::int64_t player = 0;
  std::string purpose;  // "verify" or "reset"
  std::string address;  // where it was sent
  UnixMillis created_at = 0;
  UnixMillis expires_at = 0;
  std::optional<UnixMillis> used_at;
  friend bool operator==(const EmailToken&, const EmailToken&) = default;
};

// A notice waiting in the outbox until it is due.
struct OutboxNotice {
  std::int64_t id = 0;
  std::optional<std::int64_t> player;
  std::string channel;  // "mail", "push" or "digest"
  std::string kind;
  std::optional<std::int64_t> table;  // the game it is about
  std::string payload;  // JSON text
  UnixMillis due_at = 0;
  int attempts = 0;
  UnixMillis created_at = 0;
  friend bool operator==(const OutboxNotice&, const OutboxNotice&) = default;
};

// A browser subscribed to Web Push.
struct PushSubscriptionRecord {
  std::int64_t id = 0;
  std::int64_t player = 0;
  std::string endpoint;
  std::string p256dh;
  std::string auth;
  std::string device;
  UnixMillis created_at = 0;
  friend bool operator==(const PushSubscriptionRecord&, const PushSubscriptionRecord&) = default;
};

// Notices (docs/notifications.md): addresses and their tokens, preferences, the outbox, the
// turn notices already sent, Web Push devices and the server's own keys. Part of Store, on
// the same connection and thread.
class NoticeStore {
 public:
  explicit NoticeStore(Database& database);

  // --- Addresses. ---
  void set_email(std::int64_t player, const std::string& address, UnixMillis verified_at);  // insert or replace
  void remove_email(std::int64_t player);
  std::optional<EmailRecord> email_of(std::int64_t player);
  std::vector<EmailRecord> emails_at(std::string_view address);  // equal ignoring ASCII case, by player
  std::vector<EmailRecord> emails();  // all, by player

  // --- Tokens, kept as their SHA-256. ---
  void insert_token(const EmailToken& token);
  std::optional<EmailToken> token(const TokenHash& hash);
  // Marks it used if it is unused and not expired at `now`, and gives it back as it was
  // before; nothing otherwise. One statement, so two callers can never both use it.
  std::optional<EmailToken> use_token(const TokenHash& hash, UnixMillis now);
  // Links to verify an address that still work at `now`, by player: the addresses waiting.
  std::vector<EmailToken> pending_verifications(UnixMillis now);
  void remove_tokens(std::int64_t player, std::string_view purpose);  // a newer link supersedes the older ones
  std::int64_t remove_tokens_before(UnixMillis expired_before);       // how many

  // --- Preferences (JSON, read by the server). ---
  void set_preferences(std::int64_t player, const std::string& json);
  std::vector<std::pair<std::int64_t, std::string>> preferences();  // all, by player

  // --- The outbox. ---
  std::int64_t enqueue(const OutboxNotice& notice);  // its id; the argument's id is ignored
  std::vector<OutboxNotice> due(UnixMillis now, std::size_t limit);  // due_at <= now, by due_at then id
  std::optional<UnixMillis> next_due();
  std::optional<OutboxNotice> notice(std::int64_t id);
  void remove_notice(std::int64_t id);  // delivered, or given up
  void postpone(std::int64_t id, UnixMillis due_at, int attempts);
  std::vector<OutboxNotice> digest_of(std::int64_t player, UnixMillis now);  // channel "digest", due by now, by id
  // All of a player's notices, or those of one channel.
  void remove_notices(std::int64_t player, std::optional<std::string_view> channel);
  std::int64_t waiting();  // rows in the outbox

  // --- Turn notices: at most one per game until the player has played there. ---
  bool tell_of_turn(std::int64_t player, std::int64_t table, UnixMillis now);  // false: told already
  // Forgets that the player was told, and removes their outbox rows of kind "turn" for the table.
  void played(std::int64_t player, std::int64_t table);

  // --- Web Push devices. ---
  // Keyed by endpoint: a browser that subscribes again, even for another player, moves its
  // row. Its id.
  std::int64_t add_subscription(const PushSubscriptionRecord& subscription);
  std::vector<PushSubscriptionRecord> subscriptions_of(std::int64_t player);  // by id
  std::vector<PushSubscriptionRecord> subscriptions();                        // all, by id
  bool remove_subscription(std::int64_t player, std::int64_t id);  // false: the player has none such
  void remove_subscription(std::int64_t id);                       // the push service said it is gone

  // --- The server's own keys, made once. ---
  // Stores `value` under `name` unless a value is there already; the value stored, either way.
  // Throws std::invalid_argument for an empty value.
  std::vector<std::byte> keep_server_key(std::string_view name, std::span<const std::byte> value);

  // An account deleted: its address, tokens, preferences, outbox rows, turn notices and devices.
  void forget_player(std::int64_t player);

 private:
  Database& database_;
  Statement enqueue_;
  Statement due_;
  Statement next_due_;
  Statement remove_notice_;
  Statement postpone_;
  Statement tell_of_turn_;
  Statement forget_turn_;
  Statement remove_turn_notices_;
  Statement use_token_;
};

}  // namespace elgrande::db
