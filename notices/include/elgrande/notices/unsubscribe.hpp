#pragma once
// One-click unsubscribe links (RFC 8058): the token names the player and the kind of notice
// and carries a MAC, so the link works without signing in and cannot be made for someone else.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace elgrande::notices {

// "PLAYER.KIND.MAC": PLAYER in decimal, KIND of [a-z_]+ (at most 64), MAC the first 16 bytes of
// HMAC-SHA256(key, "unsubscribe PLAYER KIND") in base64url. Throws std::invalid_argument for an
// empty key, a negative player or a kind outside [a-z_]{1,64}.
std::string unsubscribe_token(std::span<const std::uint8_t> key, std::int64_t player, std::string_view kind);

struct Unsubscribe {
  std::int64_t player = 0;
  std::string kind;
  bool operator==(const Unsubscribe&) const = default;
};
// The token's player and kind if its MAC is right (compared in constant time); nothing for
// anything malformed, non-canonical (leading zeros, a sign) or forged.
std::optional<Unsubscribe> read_unsubscribe_token(std::span<const std::uint8_t> key, std::string_view token);

}  // namespace elgrande::notices
