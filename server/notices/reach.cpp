#include "notices/reach.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

namespace elgrande::server {

void Reach::restore(const std::vector<db::EmailRecord>& emails, const std::vector<db::EmailToken>& pending,
                    const std::vector<db::PushSubscriptionRecord>& devices,
                    const std::vector<std::pair<std::int64_t, std::string>>& preferences) {
  std::lock_guard lock(mutex_);
  for (const auto& email : emails) players_[email.player].address = email.address;
  for (const auto& token : pending) players_[token.player].pending = token.address;  // the latest last
  for (const auto& device : devices) players_[device.player].devices.push_back(device);
  for (const auto& [player, text] : preferences) {
    const auto json = nlohmann::json::parse(text, nullptr, false);
    auto read = notices::read_preferences(json);
    if (auto* wrong = std::get_if<std::string>(&read)) {
      spdlog::warn("notices: player {}'s stored preferences are not readable ({}); the defaults apply", player, *wrong);
      continue;
    }
    players_[player].preferences = std::get<notices::Preferences>(std::move(read));
  }
}

notices::Channels Reach::channels(PlayerId player, notices::Kind kind, std::optional<std::int64_t> table) const {
  std::lock_guard lock(mutex_);
  const auto found = players_.find(player);
  if (found == players_.end()) return {false, false};
  notices::Channels channels = found->second.preferences.wanted(kind, table);
  channels.mail = channels.mail && found->second.address.has_value();
  channels.push = channels.push && !found->second.devices.empty();
  return channels;
}

bool Reach::digest(PlayerId player) const {
  std::lock_guard lock(mutex_);
  const auto found = players_.find(player);
  return found != players_.end() && found->second.preferences.digest;
}

std::optional<std::string> Reach::address(PlayerId player) const {
  std::lock_guard lock(mutex_);
  const auto found = players_.find(player);
  return found == players_.end() ? std::nullopt : found->second.address;
}

void Reach::set_address(PlayerId player, std::string address) {
  std::lock_guard lock(mutex_);
  Player& reach = players_[player];
  reach.address = std::move(address);
  reach.pending.reset();
}

std::vector<PlayerId> Reach::players_at(std::string_view address) const {
  const auto same = [&](const std::string& other) {
    return std::ranges::equal(other, address, [](unsigned char a, unsigned char b) {
      return std::tolower(a) == std::tolower(b);
    });
  };
  std::lock_guard lock(mutex_);
  std::vector<PlayerId> players;
  for (const auto& [player, reach] : players_) {
    if (reach.address && same(*reach.address)) players.push_back(player);
  }
  return players;
}

std::optional<std::string> Reach::pending(PlayerId player) const {
  std::lock_guard lock(mutex_);
  const auto found = players_.find(player);
  return found == players_.end() ? std::nullopt : found->second.pending;
}

void Reach::set_pending(PlayerId player, std::string address) {
  std::lock_guard lock(mutex_);
  players_[player].pending = std::move(address);
}

void Reach::remove_address(PlayerId player) {
  std::lock_guard lock(mutex_);
  if (const auto found = players_.find(player); found != players_.end()) {
    found->second.address.reset();
    found->second.pending.reset();
  }
}

std::vector<db::PushSubscriptionRecord> Reach::devices(PlayerId player) const {
  std::lock_guard lock(mutex_);
  const auto found = players_.find(player);
  return found == players_.end() ? std::vector<db::PushSubscriptionRecord>{} : found->second.devices;
}

void Reach::add_device(db::PushSubscriptionRecord device) {
  std::lock_guard lock(mutex_);
  for (auto& [player, reach] : players_) {  // a browser that subscribes again, maybe for someone else
    std::erase_if(reach.devices, [&](const auto& had) { return had.endpoint == device.endpoint; });
  }
  players_[device.player].devices.push_back(std::move(device));
}

void Reach::remove_device(std::int64_t id) {
  std::lock_guard lock(mutex_);
  for (auto& [player, reach] : players_) std::erase_if(reach.devices, [&](const auto& had) { return had.id == id; });
}

notices::Preferences Reach::preferences(PlayerId player) const {
  std::lock_guard lock(mutex_);
  const auto found = players_.find(player);
  return found == players_.end() ? notices::Preferences{} : found->second.preferences;
}

void Reach::set_preferences(PlayerId player, notices::Preferences preferences) {
  std::lock_guard lock(mutex_);
  players_[player].preferences = std::move(preferences);
}

void Reach::forget(PlayerId player) {
  std::lock_guard lock(mutex_);
  players_.erase(player);
}

}  // namespace elgrande::server
