#include "elgrande/db/moderation.hpp"

namespace elgrande::db {

ModerationStore::ModerationStore(Database& database) : database_(database) {}

void ModerationStore::impose(const SanctionRecord& sanction) {
  database_.prepare("INSERT INTO sanctions (player, kind, until, reason) VALUES (?1, ?2, ?3, ?4) "
                    "ON CONFLICT (player, kind) DO UPDATE SET until = excluded.until, reason = excluded.reason")
      .bind(1, sanction.player)
      .bind(2, sanction.kind)
      .bind(3, sanction.until)
      .bind(4, sanction.reason)
      .run();
}

void ModerationStore::lift(std::int64_t player, const std::string& kind) {
  database_.prepare("DELETE FROM sanctions WHERE player = ?1 AND kind = ?2").bind(1, player).bind(2, kind).run();
}

std::vector<SanctionRecord> ModerationStore::sanctions() {
  Statement rows = database_.prepare("SELECT player, kind, until, reason FROM sanctions ORDER BY player, kind");
  std::vector<SanctionRecord> sanctions;
  while (rows.step()) {
    sanctions.push_back({rows.integer(0), rows.text(1), rows.optional_integer(2), rows.text(3)});
  }
  return sanctions;
}

void ModerationStore::audit(const AuditEntry& entry) {
  database_
      .prepare("INSERT INTO audit_log (time, moderator, action, player, detail, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(1, entry.time)
      .bind(2, entry.moderator)
      .bind(3, entry.action)
      .bind(4, entry.player)
      .bind(5, entry.detail)
      .bind(6, entry.reason)
      .run();
}

std::vector<AuditEntry> ModerationStore::audit_log(std::optional<std::int64_t> before, int limit) {
  Statement rows = database_.prepare(
      "SELECT id, time, moderator, action, player, detail, reason FROM audit_log "
      "WHERE CAST(?1 AS BIGINT) IS NULL OR id < ?1 ORDER BY id DESC LIMIT ?2");
  rows.bind(1, before).bind(2, limit);
  std::vector<AuditEntry> entries;
  while (rows.step()) {
    entries.push_back(
        {rows.integer(0), rows.integer(1), rows.integer(2), rows.text(3), rows.integer(4), rows.text(5), rows.text(6)});
  }
  return entries;
}

void ModerationStore::block(std::int64_t player, std::int64_t blocked) {
  database_.prepare("INSERT INTO blocks (player, blocked) VALUES (?1, ?2) ON CONFLICT DO NOTHING").bind(1, player).bind(2, blocked).run();
}

void ModerationStore::unblock(std::int64_t player, std::int64_t blocked) {
  database_.prepare("DELETE FROM blocks WHERE player = ?1 AND blocked = ?2").bind(1, player).bind(2, blocked).run();
}

std::vector<std::pair<std::int64_t, std::int64_t>> ModerationStore::blocks() {
  Statement rows = database_.prepare("SELECT player, blocked FROM blocks ORDER BY player, blocked");
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  while (rows.step()) blocks.emplace_back(rows.integer(0), rows.integer(1));
  return blocks;
}

}  // namespace elgrande::db
