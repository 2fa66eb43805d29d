#include "elgrande/notices/unsubscribe.hpp"

#include <charconv>
#include <stdexcept>

#include <openssl/crypto.h>

#include "elgrande/notices/push.hpp"
#include "openssl.hpp"

namespace elgrande::notices {
namespace {

constexpr std::size_t mac_bytes = 16;
constexpr std::size_t max_kind = 64;

bool is_kind(std::string_view kind) {
  if (kind.empty() || kind.size() > max_kind) return false;
  for (char c : kind) {
    if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
  }
  return true;
}

Bytes mac(std::span<const std::uint8_t> key, std::int64_t player, std::string_view kind) {
  std::string message = "unsubscribe " + std::to_string(player) + " " + std::string(kind);
  Bytes full = detail::hmac_sha256(key, detail::bytes_of(message));
  full.resize(mac_bytes);
  return full;
}

}  // namespace

std::string unsubscribe_token(std::span<const std::uint8_t> key, std::int64_t player, std::string_view kind) {
  if (key.empty()) throw std::invalid_argument("unsubscribe key is empty");
  if (player < 0) throw std::invalid_argument("unsubscribe player is negative");
  if (!is_kind(kind)) throw std::invalid_argument("unsubscribe kind is not [a-z_]{1,64}");
  return std::to_string(player) + "." + std::string(kind) + "." + base64url(mac(key, player, kind));
}

std::optional<Unsubscribe> read_unsubscribe_token(std::span<const std::uint8_t> key, std::string_view token) {
  if (key.empty()) return std::nullopt;
  auto first = token.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  auto second = token.find('.', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  std::string_view digits = token.substr(0, first);
  std::string_view kind = token.substr(first + 1, second - first - 1);
  std::string_view tag = token.substr(second + 1);

  // One spelling per player: digits only, no leading zero, within int64.
  if (digits.empty() || digits.size() > 19 || (digits.size() > 1 && digits.front() == '0')) return std::nullopt;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::int64_t player = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), player);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (!is_kind(kind)) return std::nullopt;

  // 16 bytes are 22 characters unpadded; the strict decoder rejects other spellings.
  if (tag.size() != 22) return std::nullopt;
  std::optional<Bytes> given = from_base64url(tag);
  if (!given || given->size() != mac_bytes) return std::nullopt;
  Bytes expected = mac(key, player, kind);
  if (CRYPTO_memcmp(given->data(), expected.data(), mac_bytes) != 0) return std::nullopt;
  return Unsubscribe{player, std::string(kind)};
}

}  // namespace elgrande::notices
