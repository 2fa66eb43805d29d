#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// A mute or a ban in force (schema 6).
struct SanctionRecord {
  std::int64_t player = 0;
  std::string kind;  // "mute" or "ban"
  std::optional<std::int64_t> until;  // none: until lifted
  std::string reason;
  friend bool operator==(const SanctionRecord&, const SanctionRecord&) = default;
};

// One moderator's action, as the audit log keeps it for admins.
struct AuditEntry {
  std::int64_t id = 0;  // given by the database
  std::int64_t time = 0;
  std::int64_t moderator = 0;
  std::string action;  // "mute", "unmute", "ban", "unban", "kick", "delete_chat", "set_role"
  std::int64_t player = 0;  // whom
  std::string detail;
  std::string reason;
  friend bool operator==(const AuditEntry&, const AuditEntry&) = default;
};

// Sanctions, the audit log and block lists in SQLite; part of Store, on the same connection and thread.
class ModerationStore {
 public:
  explicit ModerationStore(Database& database);

  void impose(const SanctionRecord& sanction);  // replaces one of the same kind
  void lift(std::int64_t player, const std::string& kind);
  std::vector<SanctionRecord> sanctions();

  void audit(const AuditEntry& entry);
  // Newest first: entries with ids below `before`, at most `limit`.
  std::vector<AuditEntry> audit_log(std::optional<std::int64_t> before, int limit);

  // Block lists: (player, blocked) pairs.
  void block(std::int64_t player, std::int64_t blocked);
  void unblock(std::int64_t player, std::int64_t blocked);
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks();

 private:
  Database& database_;
};

}  // namespace elgrande::db
