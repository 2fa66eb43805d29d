#include "moderation/moderation_requests.hpp"

#include <spdlog/spdlog.h>

#include "accounts/accounts.hpp"
#include "common/display_name.hpp"
#include "common/unix_time.hpp"
#include "identity/identities.hpp"
#include "moderation/sanctions.hpp"
#include "presence/presence.hpp"
#include "storage/reader.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kMaxReasonBytes = 200;
constexpr int kAuditPage = 100;
constexpr db::UnixMillis kMinute = 60 * 1000;

Role role_of(const ModerationRequestsEnv& env, PlayerId player) {
  const auto account = env.accounts->of(player);
  return account ? account->role : Role::player;
}

// The acting moderator's role, if it is at least `needed`; refuses otherwise.
bool allowed(const ModerationRequestsEnv& env, Client& client, const Request& request, Role needed) {
  if (role_of(env, client.player->id) >= needed) return true;
  refuse(env, client, ErrorCode::forbidden,
         needed == Role::admin ? "only admins may do that" : "only moderators and admins may do that",
         request.envelope.id);
  return false;
}

// The reason the person concerned is shown, or a refusal.
std::optional<std::string> read_reason(const ModerationRequestsEnv& env, Client& client, const Request& request) {
  const auto reason = request.envelope.payload.find("reason");
  if (reason == request.envelope.payload.end() || !reason->is_string()) {
    refuse(env, client, ErrorCode::bad_payload, "reason: required, shown to the player", request.envelope.id);
    return std::nullopt;
  }
  if (const auto why_not = why_not_a_name(reason->get_ref<const std::string&>(), kMaxReasonBytes)) {
    refuse(env, client, ErrorCode::bad_payload, "reason: " + *why_not, request.envelope.id);
    return std::nullopt;
  }
  return reason->get<std::string>();
}

struct Target {
  Player player;
  std::string reason;
};

// Whom the action is for and why. Nobody acts on themselves; only an admin acts on a
// moderator or an admin.
std::optional<Target> read_target(const ModerationRequestsEnv& env, Client& client, const Request& request) {
  const Json& payload = request.envelope.payload;
  const auto& id = request.envelope.id;
  const auto player = payload.find("player");
  if (player == payload.end() || !player->is_number_integer()) {
    refuse(env, client, ErrorCode::bad_payload, "player: must be a player id", id);
    return std::nullopt;
  }
  const std::optional<std::string> reason = read_reason(env, client, request);
  if (!reason) return std::nullopt;
  const auto found = env.identities->find(player->get<PlayerId>());
  if (!found) {
    refuse(env, client, ErrorCode::not_found, "no such player", id);
    return std::nullopt;
  }
  if (found->id == client.player->id) {
    refuse(env, client, ErrorCode::forbidden, "not on yourself", id);
    return std::nullopt;
  }
  if (role_of(env, found->id) != Role::player && role_of(env, client.player->id) != Role::admin) {
    refuse(env, client, ErrorCode::forbidden, "only an admin acts on a moderator or an admin", id);
    return std::nullopt;
  }
  return Target{*found, *reason};
}

db::AuditEntry audit_entry(const Client& client, std::string action, const Target& target, std::string detail) {
  return {0, unix_milliseconds(), client.player->id, std::move(action), target.player.id, std::move(detail),
          target.reason};
}

std::string detail_of(const std::optional<Sanction>& sanction) { return sanction ? until_text(*sanction) : "lifted"; }

// What the person concerned is told, on every connection they have.
std::string notice(std::string_view action, const std::string& reason, const std::optional<Sanction>& sanction) {
  Json payload = {{"action", action}, {"reason", reason}};
  if (sanction && sanction->until) payload["until"] = *sanction->until;
  return protocol::push_message("moderation.notice", std::move(payload));
}

// Saves a sanction (or its lifting), answers, and tells the player.
void sanction(const ModerationRequestsEnv& env, Client& client, const Request& request, const Target& target,
              SanctionKind kind, std::optional<Sanction> sanction) {
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  const std::string action = sanction ? std::string(to_string(kind)) : "un" + std::string(to_string(kind));
  env.sanctions->set(
      target.player.id, kind, sanction, audit_entry(client, action, target, detail_of(sanction)),
      [&env, connection = client.self(), id = request.envelope.id, type = request.envelope.type, target, kind,
       sanction, action, moderator = client.player->id](bool saved) {
        if (!saved) {
          return connection->post([&env, connection, id] {
            refuse(env, *connection, ErrorCode::unavailable, "the server could not save that; try again", id);
          });
        }
        spdlog::info("player {}: {} player {} ({})", moderator, action, target.player.id, target.reason);
        connection->deliver(protocol::reply_message(type, id));
        const std::string told = notice(action, target.reason, sanction);
        for (const RecipientPtr& other : env.presence->connections_of(target.player.id)) {
          other->deliver(told);
          // A code for a reason: the notice just before says until when and why.
          if (kind == SanctionKind::ban && sanction) other->end(protocol::CloseCode::banned, "banned");
        }
      });
}

}  // namespace

void mute(const ModerationRequestsEnv& env, Client& client, Request& request) {
  if (!allowed(env, client, request, Role::moderator)) return;
  const auto target = read_target(env, client, request);
  if (!target) return;
  const auto minutes = request.envelope.payload.find("minutes");
  if (minutes == request.envelope.payload.end() || !minutes->is_number_integer() ||
      minutes->get<std::int64_t>() < 0 || minutes->get<std::int64_t>() > 525600) {
    return refuse(env, client, ErrorCode::bad_payload, "minutes: 1 to 525600 (a year), or 0 to lift the mute",
                  request.envelope.id);
  }
  std::optional<Sanction> muted;
  if (minutes->get<std::int64_t>() > 0) {
    muted = Sanction{unix_milliseconds() + minutes->get<std::int64_t>() * kMinute, target->reason};
  }
  sanction(env, client, request, *target, SanctionKind::mute, muted);
}

void ban(const ModerationRequestsEnv& env, Client& client, Request& request) {
  if (!allowed(env, client, request, Role::moderator)) return;
  const auto target = read_target(env, client, request);
  if (!target) return;
  static const std::map<std::string, std::optional<db::UnixMillis>, std::less<>> kDurations{
      {"1h", 60 * kMinute}, {"24h", 24 * 60 * kMinute}, {"7d", 7 * 24 * 60 * kMinute}, {"permanent", std::nullopt}};
  const auto duration = request.envelope.payload.find("duration");
  if (duration == request.envelope.payload.end() || !duration->is_string() ||
      (*duration != "lift" && !kDurations.contains(duration->get_ref<const std::string&>()))) {
    return refuse(env, client, ErrorCode::bad_payload,
                  "duration: \"1h\", \"24h\", \"7d\", \"permanent\" or \"lift\"", request.envelope.id);
  }
  std::optional<Sanction> banned;
  if (*duration != "lift") {
    const auto length = kDurations.at(duration->get_ref<const std::string&>());
    banned = Sanction{length ? std::optional(unix_milliseconds() + *length) : std::nullopt, target->reason};
  }
  sanction(env, client, request, *target, SanctionKind::ban, banned);
}

bool may_kick(const ModerationRequestsEnv& env, Client& client, Request& request) {
  // The table does the rest on its strand, the audit entry saved with the seat.
  return allowed(env, client, request, Role::moderator) && read_target(env, client, request);
}

bool may_delete_chat(const ModerationRequestsEnv& env, Client& client, Request& request) {
  return allowed(env, client, request, Role::moderator) && read_reason(env, client, request);
}

void set_role(const ModerationRequestsEnv& env, Client& client, Request& request) {
  if (!allowed(env, client, request, Role::admin)) return;
  const auto target = read_target(env, client, request);
  if (!target) return;
  const auto field = request.envelope.payload.find("role");
  const auto role = field != request.envelope.payload.end() && field->is_string()
                        ? role_from_string(field->get_ref<const std::string&>())
                        : std::nullopt;
  if (!role) {
    return refuse(env, client, ErrorCode::bad_payload, "role: \"player\", \"moderator\" or \"admin\"",
                  request.envelope.id);
  }
  if (!env.accounts->of(target->player.id)) {
    return refuse(env, client, ErrorCode::wrong_state, "only accounts have roles; this player is a guest",
                  request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  env.accounts->set_role(
      target->player.id, *role, audit_entry(client, "set_role", *target, std::string(to_string(*role))),
      [&env, connection = client.self(), id = request.envelope.id, type = request.envelope.type,
       target = *target, role = *role](bool saved) {
        if (!saved) {
          return connection->post([&env, connection, id] {
            refuse(env, *connection, ErrorCode::unavailable, "the server could not save that; try again", id);
          });
        }
        connection->deliver(protocol::reply_message(type, id));
        const std::string told = protocol::push_message(
            "moderation.notice", {{"action", "set_role"}, {"role", to_string(role)}, {"reason", target.reason}});
        for (const RecipientPtr& other : env.presence->connections_of(target.player.id)) other->deliver(told);
      });
}

void read_audit_log(const ModerationRequestsEnv& env, Client& client, Request& request) {
  if (!allowed(env, client, request, Role::admin)) return;
  std::optional<std::int64_t> before;
  if (const auto field = request.envelope.payload.find("before"); field != request.envelope.payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1) {
      return refuse(env, client, ErrorCode::bad_payload, "before: must be an entry id", request.envelope.id);
    }
    before = field->get<std::int64_t>();
  }
  env.reader->read(
      [&env, connection = client.self(), id = request.envelope.id, before](db::Store& store) {
        const std::vector<db::AuditEntry> entries = store.moderation().audit_log(before, kAuditPage + 1);
        const auto player = [&env](PlayerId player) {
          return to_json(env.identities->find(player).value_or(Player{player, "?"}));
        };
        Json page = Json::array();
        for (std::size_t i = 0; i < entries.size() && i < kAuditPage; ++i) {
          const db::AuditEntry& entry = entries[i];
          page.push_back({{"id", entry.id},
                          {"time", entry.time},
                          {"moderator", player(entry.moderator)},
                          {"action", entry.action},
                          {"player", player(entry.player)},
                          {"detail", entry.detail},
                          {"reason", entry.reason}});
        }
        connection->deliver(protocol::reply_message(
            "admin.audit", id, {{"entries", std::move(page)}, {"more", entries.size() > kAuditPage}}));
      },
      [&env, connection = client.self(), id = request.envelope.id](const std::string& why) {
        env.metrics->count_error(ErrorCode::internal);
        connection->deliver(protocol::error_message(ErrorCode::internal, "the audit log could not be read: " + why, id));
      });
}

}  // namespace elgrande::server
