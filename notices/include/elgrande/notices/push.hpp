#pragma once
// Web Push: the payload encryption of RFC 8291 (aes128gcm, RFC 8188) and the VAPID
// authorisation of RFC 8292. Pure: the caller sends the request and supplies the time; the
// only randomness is in the overloads that make fresh keys, each with a deterministic twin.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace elgrande::notices {

using Bytes = std::vector<std::uint8_t>;

// Base64url (RFC 4648 §5) without padding, as Web Push and JWT use it.
std::string base64url(std::span<const std::uint8_t> bytes);
// Accepts it with or without '=' padding; nothing on any other character, a bad length, wrong
// padding or non-zero unused bits (so each byte string has exactly one accepted spelling
// without padding).
std::optional<Bytes> from_base64url(std::string_view text);

// A subscription's keys as the browser gives them: a 65-byte uncompressed P-256 point and a
// 16-byte authentication secret.
struct PushKeys {
  Bytes p256dh;
  Bytes auth;
};
// What is wrong with the keys (sizes, a point not on the curve), or nothing.
std::optional<std::string> why_not_push_keys(const PushKeys& keys);

// The largest payload one 4096-byte push message carries: 4096 less the 86-byte header, the
// 16-byte tag and the padding delimiter.
inline constexpr std::size_t max_push_payload = 3993;

// RFC 8291 aes128gcm, one record: salt(16) | rs(4, big-endian) | idlen(1)=65 | the sender's
// ephemeral public key, then the AES-128-GCM record (plaintext, the 0x02 delimiter, tag).
// Throws std::invalid_argument if the payload is over max_push_payload or does not fit rs
// (or rs < 18), the keys fail why_not_push_keys, the sender's key is not a valid P-256
// scalar or the salt is not 16 bytes. This overload is deterministic, for tests.
Bytes encrypt(std::span<const std::uint8_t> plaintext, const PushKeys& to, std::span<const std::uint8_t> sender_private,
              std::span<const std::uint8_t> salt, std::uint32_t record_size = 4096);
// The same with a fresh ephemeral key and salt (OpenSSL's random generator).
Bytes encrypt(std::span<const std::uint8_t> plaintext, const PushKeys& to);

// The server's VAPID key: the 32-byte P-256 scalar and its 65-byte uncompressed point.
struct VapidKey {
  Bytes private_key;
  Bytes public_key;
};
VapidKey make_vapid_key();
// The key with its public half derived; nothing unless 32 bytes in 1 .. n-1.
std::optional<VapidKey> vapid_key_from_private(std::span<const std::uint8_t> private_key);

// "https://host[:port]" (scheme://authority, lower case) of an endpoint URL: the JWT's aud.
// Empty if the URL is not http(s), has no host or carries user information.
std::string push_audience(std::string_view endpoint);
// RFC 8292's JWT: header {"typ":"JWT","alg":"ES256"}, claims aud, exp (Unix seconds), sub
// (a mailto: or https: URL), ES256 signature as JOSE's r || s. Throws std::invalid_argument
// if the key is not a valid key pair.
std::string vapid_jwt(const VapidKey& key, std::string_view audience, std::string_view subject, std::int64_t expires);
// The Authorization header's value: "vapid t=<jwt>, k=<base64url public key>".
std::string vapid_authorization(const VapidKey& key, std::string_view audience, std::string_view subject,
                                std::int64_t expires);

}  // namespace elgrande::notices
