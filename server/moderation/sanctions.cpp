#include "moderation/sanctions.hpp"

#include <chrono>
#include <ctime>

namespace elgrande::server {
namespace {

std::optional<SanctionKind> kind_from(std::string_view name) {
  if (name == "mute") return SanctionKind::mute;
  if (name == "ban") return SanctionKind::ban;
  return std::nullopt;
}

std::string utc(db::UnixMillis time) {
  const std::time_t seconds = static_cast<std::time_t>(time / 1000);
  std::tm parts{};
  ::gmtime_r(&seconds, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &parts);
  return text;
}

}  // namespace

std::string_view to_string(SanctionKind kind) { return kind == SanctionKind::mute ? "mute" : "ban"; }

std::string until_text(const Sanction& sanction) {
  return sanction.until ? "until " + utc(*sanction.until) : "until a moderator lifts it";
}

std::string describe(SanctionKind kind, const Sanction& sanction) {
  return std::string(kind == SanctionKind::mute ? "muted " : "banned ") + until_text(sanction) + ": " +
         sanction.reason;
}

protocol::Json facts_of(const Sanction& sanction) {
  protocol::Json facts{{"moderator_reason", sanction.reason}};
  if (sanction.until) facts["until"] = *sanction.until;
  return facts;
}

Sanctions::Sanctions(Storage& storage) : storage_(storage) {}

void Sanctions::restore(const std::vector<db::SanctionRecord>& sanctions) {
  const std::lock_guard lock(mutex_);
  for (const db::SanctionRecord& record : sanctions) {
    if (const auto kind = kind_from(record.kind)) in_force_[{record.player, *kind}] = Sanction{record.until, record.reason};
  }
}

std::optional<Sanction> Sanctions::in_force(PlayerId player, SanctionKind kind, db::UnixMillis now) const {
  const std::lock_guard lock(mutex_);
  const auto found = in_force_.find({player, kind});
  if (found == in_force_.end() || (found->second.until && *found->second.until <= now)) return std::nullopt;
  return found->second;
}

void Sanctions::set(PlayerId player, SanctionKind kind, std::optional<Sanction> sanction, db::AuditEntry audit,
                    Storage::Done done) {
  storage_.write(
      [player, kind, sanction, audit](db::Store& store) {
        if (sanction) {
          store.moderation().impose({player, std::string(to_string(kind)), sanction->until, sanction->reason});
        } else {
          store.moderation().lift(player, std::string(to_string(kind)));
        }
        store.moderation().audit(audit);
      },
      [this, player, kind, sanction, done = std::move(done)](bool saved) {
        if (saved) {
          const std::lock_guard lock(mutex_);
          if (sanction) {
            in_force_[{player, kind}] = *sanction;
          } else {
            in_force_.erase({player, kind});
          }
        }
        done(saved);
      });
}

}  // namespace elgrande::server
