#include "elgrande/db/notices.hpp"

#include <cstring>
#include <stdexcept>

namespace elgrande::db {
namespace {

// Resets a statement kept for reuse when its rows have been read, or a step failed.
class Resetting {
 public:
  explicit Resetting(Statement& statement) : statement_(statement) {}
  ~Resetting() { statement_.reset(); }
  Resetting(const Resetting&) = delete;
  Resetting& operator=(const Resetting&) = delete;

 private:
  Statement& statement_;
};

constexpr std::string_view kEmailColumns = "player, address, verified_at";
constexpr std::string_view kTokenColumns = "token_hash, player, purpose, address, created_at, expires_at, used_at";
constexpr std::string_view kNoticeColumns =
    "id, player, channel, kind, table_id, payload, due_at, attempts, created_at";
constexpr std::string_view kSubscriptionColumns = "id, player, endpoint, p256dh, auth, device, created_at";

std::string sql(std::string_view head, std::string_view columns, std::string_view tail) {
  return std::string(head) + std::string(columns) + std::string(tail);
}

EmailRecord email_from(const Statement& row) { return EmailRecord{row.integer(0), row.text(1), row.integer(2)}; }

EmailToken token_from(const Statement& row) {
  const std::vector<std::byte> bytes = row.blob(0);
  EmailToken token;
  if (bytes.size() != token.hash.size()) throw std::runtime_error("a mailed token's hash is not 32 bytes");
  std::memcpy(token.hash.data(), bytes.data(), bytes.size());
  token.player = row.integer(1);
  token.purpose = row.text(2);
  token.address = row.text(3);
  token.created_at = row.integer(4);
  token.expires_at = row.integer(5);
  token.used_at = row.optional_integer(6);
  return token;
}

OutboxNotice notice_from(const Statement& row) {
  return OutboxNotice{row.integer(0), row.optional_integer(1), row.text(2),
                      row.text(3),    row.optional_integer(4), row.text(5),
                      row.integer(6), static_cast<int>(row.integer(7)), row.integer(8)};
}

PushSubscriptionRecord subscription_from(const Statement& row) {
  return PushSubscriptionRecord{row.integer(0), row.integer(1), row.text(2), row.text(3),
                                row.text(4),    row.text(5),    row.integer(6)};
}

template <class Record, class Read>
std::vector<Record> all_rows(Statement& rows, Read read) {
  Resetting resetting(rows);
  std::vector<Record> records;
  while (rows.step()) records.push_back(read(rows));
  return records;
}

}  // namespace

NoticeStore::NoticeStore(Database& database)
    : database_(database),
      enqueue_(database.prepare(
          "INSERT INTO notice_outbox (player, channel, kind, table_id, payload, due_at, attempts, created_at) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id")),
      due_(database.prepare(sql("SELECT ", kNoticeColumns,
                                " FROM notice_outbox WHERE due_at <= ?1 ORDER BY due_at, id LIMIT ?2"))),
      next_due_(database.prepare("SELECT min(due_at) FROM notice_outbox")),
      remove_notice_(database.prepare("DELETE FROM notice_outbox WHERE id = ?1")),
      postpone_(database.prepare("UPDATE notice_outbox SET due_at = ?2, attempts = ?3 WHERE id = ?1")),
      tell_of_turn_(database.prepare(
          "INSERT INTO notice_turns (player, table_id, told_at) VALUES (?1, ?2, ?3) "
          "ON CONFLICT (player, table_id) DO NOTHING")),
      forget_turn_(database.prepare("DELETE FROM notice_turns WHERE player = ?1 AND table_id = ?2")),
      remove_turn_notices_(database.prepare(
          "DELETE FROM notice_outbox WHERE player = ?1 AND kind = 'turn' AND table_id = ?2")),
      use_token_(database.prepare(sql("UPDATE email_tokens SET used_at = ?2 "
                                      "WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING ",
                                      kTokenColumns, ""))) {}

// --- Addresses. ---

void NoticeStore::set_email(std::int64_t player, const std::string& address, UnixMillis verified_at) {
  database_
      .prepare("INSERT INTO emails (player, address, verified_at) VALUES (?1, ?2, ?3) "
               "ON CONFLICT (player) DO UPDATE SET address = excluded.address, verified_at = excluded.verified_at")
      .bind(1, player)
      .bind(2, address)
      .bind(3, verified_at)
      .run();
}

void NoticeStore::remove_email(std::int64_t player) {
  database_.prepare("DELETE FROM emails WHERE player = ?1").bind(1, player).run();
}

std::optional<EmailRecord> NoticeStore::email_of(std::int64_t player) {
  Statement row = database_.prepare(sql("SELECT ", kEmailColumns, " FROM emails WHERE player = ?1"));
  row.bind(1, player);
  if (!row.step()) return std::nullopt;
  return email_from(row);
}

std::vector<EmailRecord> NoticeStore::emails_at(std::string_view address) {
  // Each backend's way to reach its index of addresses without case.
  Statement rows = database_.prepare(
      database_.backend() == Backend::postgresql
          ? sql("SELECT ", kEmailColumns, " FROM emails WHERE lower(address) = lower(CAST(?1 AS TEXT)) ORDER BY player")
          : sql("SELECT ", kEmailColumns, " FROM emails WHERE address = ?1 COLLATE NOCASE ORDER BY player"));
  rows.bind(1, address);
  return all_rows<EmailRecord>(rows, email_from);
}

std::vector<EmailRecord> NoticeStore::emails() {
  Statement rows = database_.prepare(sql("SELECT ", kEmailColumns, " FROM emails ORDER BY player"));
  return all_rows<EmailRecord>(rows, email_from);
}

// --- Tokens. ---

void NoticeStore::insert_token(const EmailToken& token) {
  database_
      .prepare(sql("INSERT INTO email_tokens (", kTokenColumns, ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"))
      .bind(1, std::span<const std::byte>(token.hash))
      .bind(2, token.player)
      .bind(3, token.purpose)
      .bind(4, token.address)
      .bind(5, token.created_at)
      .bind(6, token.expires_at)
      .bind(7, token.used_at)
      .run();
}

std::optional<EmailToken> NoticeStore::token(const TokenHash& hash) {
  Statement row = database_.prepare(sql("SELECT ", kTokenColumns, " FROM email_tokens WHERE token_hash = ?1"));
  row.bind(1, std::span<const std::byte>(hash));
  if (!row.step()) return std::nullopt;
  return token_from(row);
}

std::optional<EmailToken> NoticeStore::use_token(const TokenHash& hash, UnixMillis now) {
  Resetting resetting(use_token_);
  use_token_.bind(1, std::span<const std::byte>(hash)).bind(2, now);
  if (!use_token_.step()) return std::nullopt;
  EmailToken used = token_from(use_token_);
  used.used_at = std::nullopt;  // as it was: RETURNING gives the row after the update
  return used;
}

std::vector<EmailToken> NoticeStore::pending_verifications(UnixMillis now) {
  Statement rows = database_.prepare(sql("SELECT ", kTokenColumns,
                                         " FROM email_tokens WHERE purpose = 'verify' AND used_at IS NULL"
                                         " AND expires_at > ?1 ORDER BY player, created_at"));
  rows.bind(1, now);
  std::vector<EmailToken> tokens;
  while (rows.step()) tokens.push_back(token_from(rows));
  return tokens;
}

void NoticeStore::remove_tokens(std::int64_t player, std::string_view purpose) {
  database_.prepare("DELETE FROM email_tokens WHERE player = ?1 AND purpose = ?2").bind(1, player).bind(2, purpose).run();
}

std::int64_t NoticeStore::remove_tokens_before(UnixMillis expired_before) {
  database_.prepare("DELETE FROM email_tokens WHERE expires_at < ?1").bind(1, expired_before).run();
  return database_.changes();
}

// --- Preferences. ---

void NoticeStore::set_preferences(std::int64_t player, const std::string& json) {
  database_
      .prepare("INSERT INTO notice_preferences (player, preferences) VALUES (?1, ?2) "
               "ON CONFLICT (player) DO UPDATE SET preferences = excluded.preferences")
      .bind(1, player)
      .bind(2, json)
      .run();
}

std::vector<std::pair<std::int64_t, std::string>> NoticeStore::preferences() {
  Statement rows = database_.prepare("SELECT player, preferences FROM notice_preferences ORDER BY player");
  return all_rows<std::pair<std::int64_t, std::string>>(
      rows, [](const Statement& row) { return std::pair(row.integer(0), row.text(1)); });
}

// --- The outbox. ---

std::int64_t NoticeStore::enqueue(const OutboxNotice& notice) {
  Resetting resetting(enqueue_);
  enqueue_.bind(1, notice.player)
      .bind(2, notice.channel)
      .bind(3, notice.kind)
      .bind(4, notice.table)
      .bind(5, notice.payload)
      .bind(6, notice.due_at)
      .bind(7, notice.attempts)
      .bind(8, notice.created_at);
  if (!enqueue_.step()) throw std::logic_error("INSERT ... RETURNING id gave no row");
  return enqueue_.integer(0);
}

std::vector<OutboxNotice> NoticeStore::due(UnixMillis now, std::size_t limit) {
  due_.bind(1, now).bind(2, static_cast<std::int64_t>(limit));
  return all_rows<OutboxNotice>(due_, notice_from);
}

std::optional<UnixMillis> NoticeStore::next_due() {
  Resetting resetting(next_due_);
  if (!next_due_.step()) return std::nullopt;
  return next_due_.optional_integer(0);
}

std::optional<OutboxNotice> NoticeStore::notice(std::int64_t id) {
  Statement row = database_.prepare(sql("SELECT ", kNoticeColumns, " FROM notice_outbox WHERE id = ?1"));
  row.bind(1, id);
  if (!row.step()) return std::nullopt;
  return notice_from(row);
}

void NoticeStore::remove_notice(std::int64_t id) { remove_notice_.bind(1, id).run(); }

void NoticeStore::postpone(std::int64_t id, UnixMillis due_at, int attempts) {
  postpone_.bind(1, id).bind(2, due_at).bind(3, attempts).run();
}

std::vector<OutboxNotice> NoticeStore::digest_of(std::int64_t player, UnixMillis now) {
  Statement rows = database_.prepare(sql("SELECT ", kNoticeColumns,
                                         " FROM notice_outbox WHERE player = ?1 AND channel = 'digest' "
                                         "AND due_at <= ?2 ORDER BY id"));
  rows.bind(1, player).bind(2, now);
  return all_rows<OutboxNotice>(rows, notice_from);
}

void NoticeStore::remove_notices(std::int64_t player, std::optional<std::string_view> channel) {
  // Two statements rather than "?2 IS NULL OR channel = ?2", whose parameter PostgreSQL cannot type.
  if (channel) {
    database_.prepare("DELETE FROM notice_outbox WHERE player = ?1 AND channel = ?2").bind(1, player).bind(2, *channel).run();
  } else {
    database_.prepare("DELETE FROM notice_outbox WHERE player = ?1").bind(1, player).run();
  }
}

std::int64_t NoticeStore::waiting() {
  Statement row = database_.prepare("SELECT count(*) FROM notice_outbox");
  row.step();
  return row.integer(0);
}

// --- Turn notices. ---

bool NoticeStore::tell_of_turn(std::int64_t player, std::int64_t table, UnixMillis now) {
  tell_of_turn_.bind(1, player).bind(2, table).bind(3, now).run();
  return database_.changes() == 1;
}

void NoticeStore::played(std::int64_t player, std::int64_t table) {
  forget_turn_.bind(1, player).bind(2, table).run();
  remove_turn_notices_.bind(1, player).bind(2, table).run();
}

// --- Web Push devices. ---

std::int64_t NoticeStore::add_subscription(const PushSubscriptionRecord& subscription) {
  Statement upsert = database_.prepare(
      "INSERT INTO push_subscriptions (player, endpoint, p256dh, auth, device, created_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
      "ON CONFLICT (endpoint) DO UPDATE SET player = excluded.player, p256dh = excluded.p256dh, "
      "auth = excluded.auth, device = excluded.device, created_at = excluded.created_at RETURNING id");
  upsert.bind(1, subscription.player)
      .bind(2, subscription.endpoint)
      .bind(3, subscription.p256dh)
      .bind(4, subscription.auth)
      .bind(5, subscription.device)
      .bind(6, subscription.created_at);
  if (!upsert.step()) throw std::logic_error("INSERT ... RETURNING id gave no row");
  const std::int64_t id = upsert.integer(0);
  upsert.reset();
  return id;
}

std::vector<PushSubscriptionRecord> NoticeStore::subscriptions_of(std::int64_t player) {
  Statement rows = database_.prepare(
      sql("SELECT ", kSubscriptionColumns, " FROM push_subscriptions WHERE player = ?1 ORDER BY id"));
  rows.bind(1, player);
  return all_rows<PushSubscriptionRecord>(rows, subscription_from);
}

std::vector<PushSubscriptionRecord> NoticeStore::subscriptions() {
  Statement rows = database_.prepare(sql("SELECT ", kSubscriptionColumns, " FROM push_subscriptions ORDER BY id"));
  return all_rows<PushSubscriptionRecord>(rows, subscription_from);
}

bool NoticeStore::remove_subscription(std::int64_t player, std::int64_t id) {
  database_.prepare("DELETE FROM push_subscriptions WHERE id = ?1 AND player = ?2").bind(1, id).bind(2, player).run();
  return database_.changes() > 0;
}

void NoticeStore::remove_subscription(std::int64_t id) {
  database_.prepare("DELETE FROM push_subscriptions WHERE id = ?1").bind(1, id).run();
}

// --- The server's own keys. ---

std::vector<std::byte> NoticeStore::keep_server_key(std::string_view name, std::span<const std::byte> value) {
  // SQLite binds an empty blob as NULL: refused here with a clear message rather than by NOT NULL.
  if (value.empty()) throw std::invalid_argument("server key '" + std::string(name) + "': an empty value");
  // Processes starting together on one PostgreSQL database all keep the first one's key:
  // the insert of a later one waits for the first's commit, then does nothing.
  database_.prepare("INSERT INTO server_keys (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING")
      .bind(1, name)
      .bind(2, value)
      .run();
  Statement row = database_.prepare("SELECT value FROM server_keys WHERE name = ?1");
  row.bind(1, name);
  if (!row.step()) throw std::logic_error("server key '" + std::string(name) + "' missing just after it was stored");
  return row.blob(0);
}

// --- Accounts deleted. ---

void NoticeStore::forget_player(std::int64_t player) {
  for (const char* table : {"emails", "email_tokens", "notice_preferences", "notice_outbox", "notice_turns",
                            "push_subscriptions"}) {
    database_.prepare(std::string("DELETE FROM ") + table + " WHERE player = ?1").bind(1, player).run();
  }
}

}  // namespace elgrande::db
