#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/player.hpp"
#include "elgrande/db/notices.hpp"
#include "elgrande/notices/preferences.hpp"

namespace elgrande::server {

// How each account can be reached away from the table: its verified address, its devices
// subscribed to Web Push, and its preferences. Kept in memory (restored at start, changed
// once each change is saved) so that the listeners on the database's writer thread decide
// without a query whom a move concerns. Internally locked; nothing blocks under the lock.
class Reach {
 public:
  void restore(const std::vector<db::EmailRecord>& emails, const std::vector<db::EmailToken>& pending,
               const std::vector<db::PushSubscriptionRecord>& devices,
               const std::vector<std::pair<std::int64_t, std::string>>& preferences);

  // How a notice of `kind` (about `table`, if it is about one) reaches the player now:
  // mail only with a verified address, push only with a device, each if wanted.
  notices::Channels channels(PlayerId player, notices::Kind kind, std::optional<std::int64_t> table) const;
  bool digest(PlayerId player) const;

  std::optional<std::string> address(PlayerId player) const;
  void set_address(PlayerId player, std::string address);  // verified: no longer pending
  void remove_address(PlayerId player);
  // The players whose verified address this is, ignoring ASCII case.
  std::vector<PlayerId> players_at(std::string_view address) const;
  // An address a link went to, not followed yet.
  std::optional<std::string> pending(PlayerId player) const;
  void set_pending(PlayerId player, std::string address);

  std::vector<db::PushSubscriptionRecord> devices(PlayerId player) const;
  void add_device(db::PushSubscriptionRecord device);  // replaces one with the same endpoint
  void remove_device(std::int64_t id);

  notices::Preferences preferences(PlayerId player) const;
  void set_preferences(PlayerId player, notices::Preferences preferences);

  void forget(PlayerId player);

 private:
  struct Player {
    std::optional<std::string> address;
    std::optional<std::string> pending;
    std::vector<db::PushSubscriptionRecord> devices;
    notices::Preferences preferences;
  };
  mutable std::mutex mutex_;
  std::unordered_map<PlayerId, Player> players_;
};

}  // namespace elgrande::server
