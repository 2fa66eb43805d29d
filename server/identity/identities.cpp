#include "identity/identities.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "common/unix_time.hpp"

namespace elgrande::server {

// Unguessable, and printable for clients to keep in local storage.
std::string new_token() {
  static thread_local std::random_device entropy("/dev/urandom");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  token.reserve(64);
  for (int i = 0; i < 8; ++i) {
    std::uint32_t word = entropy();
    for (int nibble = 0; nibble < 8; ++nibble, word >>= 4) token += kHex[word & 0xF];
  }
  return token;
}

db::TokenHash hash_token(std::string_view token) {
  db::TokenHash hash{};
  unsigned int size = 0;
  if (EVP_Digest(token.data(), token.size(), reinterpret_cast<unsigned char*>(hash.data()), &size,
                 EVP_sha256(), nullptr) != 1 ||
      size != hash.size()) {
    throw std::runtime_error("SHA-256 failed");
  }
  return hash;
}

Identities::Identities(Storage& storage, IdSupply ids) : storage_(storage), ids_(std::move(ids)) {}

void Identities::restore(const std::vector<db::PlayerRecord>& players) {
  const std::lock_guard lock(mutex_);
  for (const db::PlayerRecord& record : players) {
    players_[record.id] = Known{Player{record.id, record.name}, record.token_hash};
    by_token_[record.token_hash] = record.id;
    ids_.skip_past(record.id);
  }
}

void Identities::create(std::optional<std::string> name, Saved saved) {
  const std::optional<PlayerId> taken = ids_.take();
  if (!taken) return saved({}, false);
  const PlayerId id = *taken;
  std::string token = new_token();
  const db::TokenHash hash = hash_token(token);
  Player player;
  {
    const std::lock_guard lock(mutex_);
    player = Player{id, name ? std::move(*name) : "Guest " + std::to_string(id)};
    players_[id] = Known{player, hash};
    by_token_[hash] = id;
  }
  db::PlayerRecord record{player.id, player.name, hash, unix_milliseconds()};
  storage_.write([record = std::move(record)](db::Store& store) { store.insert_player(record); },
                 [issued = Issued{std::move(player), std::move(token)}, saved = std::move(saved)](bool ok) {
                   saved(issued, ok);
                 });
}

std::optional<Player> Identities::find_by_token(std::string_view token) const {
  const db::TokenHash key = hash_token(token);
  const std::lock_guard lock(mutex_);
  const auto found = by_token_.find(key);
  if (found == by_token_.end()) return std::nullopt;
  return players_.at(found->second).player;
}

std::optional<Player> Identities::find(PlayerId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = players_.find(id);
  if (found == players_.end()) return std::nullopt;
  return found->second.player;
}

void Identities::rename(PlayerId id, std::string name, Storage::Done saved) {
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = players_.find(id); found != players_.end()) found->second.player.name = name;
  }
  storage_.write([id, name = std::move(name)](db::Store& store) { store.rename_player(id, name); },
                 std::move(saved));
}

void Identities::retire_token(PlayerId id) {
  const std::lock_guard lock(mutex_);
  // Only while the hash still names this player: a second retirement finds nothing.
  if (const auto found = players_.find(id); found != players_.end()) {
    if (const auto named = by_token_.find(found->second.token_hash); named != by_token_.end() && named->second == id) {
      by_token_.erase(named);
    }
  }
}

std::size_t Identities::size() const {
  const std::lock_guard lock(mutex_);
  return players_.size();
}

}  // namespace elgrande::server
