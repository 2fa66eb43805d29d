#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/player.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "elgrande/db/moderation.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {

enum class SanctionKind : std::uint8_t { mute, ban };
std::string_view to_string(SanctionKind kind);  // "mute", "ban"

struct Sanction {
  std::optional<db::UnixMillis> until;  // none: until lifted
  std::string reason;
};

// How long it lasts, in words: "until 2026-11-24 17:00 UTC", or "until a moderator lifts it".
std::string until_text(const Sanction& sanction);
// What a sanction means, in words for the person concerned: "muted until 2026-11-24 17:00
// UTC: spam".
std::string describe(SanctionKind kind, const Sanction& sanction);

// A sanction's facts, for the client to word in the player's language: `until` (ms; absent:
// until lifted) and `moderator_reason`, the moderator's own text (docs/protocol.md#errors).
protocol::Json facts_of(const Sanction& sanction);

// The mutes and bans in force. Each change is saved together with its audit entry, and in
// memory once saved (the callbacks run on the database thread). Internally locked.
class Sanctions {
 public:
  explicit Sanctions(Storage& storage);
  Sanctions(const Sanctions&) = delete;
  Sanctions& operator=(const Sanctions&) = delete;

  void restore(const std::vector<db::SanctionRecord>& sanctions);

  // The sanction of this kind in force on `player` at `now`, if any.
  std::optional<Sanction> in_force(PlayerId player, SanctionKind kind, db::UnixMillis now) const;

  // Imposes `sanction` (replacing one of its kind), or lifts the kind with none.
  void set(PlayerId player, SanctionKind kind, std::optional<Sanction> sanction, db::AuditEntry audit,
           Storage::Done done);

 private:
  Storage& storage_;
  mutable std::mutex mutex_;
  std::map<std::pair<PlayerId, SanctionKind>, Sanction> in_force_;
};

}  // namespace elgrande::server
