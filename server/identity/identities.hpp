#pragma once

#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/id_supply.hpp"
#include "common/player.hpp"
#include "elgrande/db/store.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {

// A new secret token: 256 bits from the kernel's generator, as 64 lowercase hex digits.
std::string new_token();
// The SHA-256 of a token: what the database keeps instead of the token itself.
db::TokenHash hash_token(std::string_view token);

// Who is who: every identity and the hash of the secret token that proves it. Guests
// today; accounts will live here. Internally locked; nothing blocks under the lock.
class Identities {
 public:
  // New identities' ids from `ids`.
  explicit Identities(Storage& storage, IdSupply ids = IdSupply::after(0));
  Identities(const Identities&) = delete;
  Identities& operator=(const Identities&) = delete;

  // At start, before any connection is served.
  void restore(const std::vector<db::PlayerRecord>& players);

  struct Issued {
    Player player;
    std::string token;  // the secret a client keeps to come back as this player
  };
  // A new guest, named `name` or "Guest <id>". `saved` runs once it is in the database
  // (on the database thread): only then may the token be handed out. Not saved, at once,
  // when no id is at hand (IdSupply::take).
  using Saved = std::function<void(const Issued&, bool saved)>;
  void create(std::optional<std::string> name, Saved saved);
  std::optional<Player> find_by_token(std::string_view token) const;
  std::optional<Player> find(PlayerId id) const;
  void rename(PlayerId id, std::string name, Storage::Done saved);
  // The player's token stops working: a guest that became an account (whose player row
  // the account keeps with the hash of a secret nobody was given).
  void retire_token(PlayerId id);

  std::size_t size() const;

 private:
  // A SHA-256's first bytes are as good a hash as any.
  struct HashOfHash {
    std::size_t operator()(const db::TokenHash& hash) const noexcept {
      std::size_t value = 0;
      std::memcpy(&value, hash.data(), sizeof value);
      return value;
    }
  };
  struct Known {
    Player player;
    db::TokenHash token_hash;  // its key in by_token_, while its token works
  };

  Storage& storage_;
  mutable std::mutex mutex_;
  IdSupply ids_;
  // Two maps of fixed-size entries, not three with the hash copied into strings: every
  // identity ever made is kept, about 130 bytes less each.
  std::unordered_map<db::TokenHash, PlayerId, HashOfHash> by_token_;
  std::unordered_map<PlayerId, Known> players_;
};

}  // namespace elgrande::server
