#include "elgrande/notices/push.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <openssl/rand.h>

#include "openssl.hpp"

namespace elgrande::notices {
namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int sextet(char c) {
  auto at = alphabet.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

void append(Bytes& out, std::span<const std::uint8_t> bytes) { out.insert(out.end(), bytes.begin(), bytes.end()); }
void append(Bytes& out, std::string_view text) { append(out, detail::bytes_of(text)); }

}  // namespace

std::string base64url(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    std::uint32_t v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    for (int shift : {18, 12, 6, 0}) out += alphabet[(v >> shift) & 63];
  }
  if (auto rest = bytes.size() - i; rest > 0) {
    std::uint32_t v = bytes[i] << 16;
    if (rest == 2) v |= bytes[i + 1] << 8;
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    if (rest == 2) out += alphabet[(v >> 6) & 63];
  }
  return out;
}

std::optional<Bytes> from_base64url(std::string_view text) {
  if (text.size() % 4 == 0 && !text.empty()) {
    // Padding is either absent or exactly what the length needs.
    std::size_t pad = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
    text.remove_suffix(pad);
    if (pad > 0 && text.size() % 4 != 4 - pad) return std::nullopt;
  }
  if (text.size() % 4 == 1) return std::nullopt;
  Bytes out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int held = 0;
  for (char c : text) {
    int v = sextet(c);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out.push_back(static_cast<std::uint8_t>((bits >> held) & 0xff));
    }
  }
  if ((bits & ((1u << held) - 1)) != 0) return std::nullopt;
  return out;
}

std::optional<std::string> why_not_push_keys(const PushKeys& keys) {
  if (keys.p256dh.size() != 65) return "p256dh is not 65 bytes";
  if (keys.p256dh[0] != 0x04) return "p256dh is not an uncompressed point";
  if (keys.auth.size() != 16) return "auth is not 16 bytes";
  if (!detail::p256_public(keys.p256dh)) return "p256dh is not a point on P-256";
  return std::nullopt;
}

Bytes encrypt(std::span<const std::uint8_t> plaintext, const PushKeys& to, std::span<const std::uint8_t> sender_private,
              std::span<const std::uint8_t> salt, std::uint32_t record_size) {
  if (plaintext.size() > max_push_payload) throw std::invalid_argument("push payload over 3993 bytes");
  // One record holds the plaintext, the delimiter and the tag.
  // RFC 8188 §2: a record size under 18 cannot hold a byte of content.
  if (record_size < 18 || record_size < plaintext.size() + 17) {
    throw std::invalid_argument("push payload does not fit the record size");
  }
  if (salt.size() != 16) throw std::invalid_argument("push salt is not 16 bytes");
  if (auto why = why_not_push_keys(to)) throw std::invalid_argument("push keys: " + *why);
  detail::Pkey sender = detail::p256_private(sender_private);
  if (!sender) throw std::invalid_argument("push sender key is not a P-256 scalar");
  Bytes sender_public = detail::p256_public_of(sender_private);
  Bytes shared = detail::ecdh(sender, detail::p256_public(to.p256dh));

  // RFC 8291 §3.4: the auth secret and both public keys bind the key to this subscription.
  Bytes key_info;
  append(key_info, std::string_view("WebPush: info\0", 14));
  append(key_info, to.p256dh);
  append(key_info, sender_public);
  Bytes ikm = detail::hkdf_sha256(to.auth, shared, key_info, 32);
  Bytes cek = detail::hkdf_sha256(salt, ikm, detail::bytes_of(std::string_view("Content-Encoding: aes128gcm\0", 28)), 16);
  Bytes nonce = detail::hkdf_sha256(salt, ikm, detail::bytes_of(std::string_view("Content-Encoding: nonce\0", 24)), 12);

  Bytes record(plaintext.begin(), plaintext.end());
  record.push_back(0x02);  // the last (and only) record's delimiter, no padding after it
  Bytes sealed = detail::aes128gcm_seal(cek, nonce, record);

  Bytes out;
  out.reserve(86 + sealed.size());
  append(out, salt);
  for (int shift : {24, 16, 8, 0}) out.push_back(static_cast<std::uint8_t>(record_size >> shift));
  out.push_back(65);
  append(out, sender_public);
  append(out, sealed);
  return out;
}

Bytes encrypt(std::span<const std::uint8_t> plaintext, const PushKeys& to) {
  Bytes scalar = detail::p256_generate().first;
  std::array<std::uint8_t, 16> salt{};
  if (RAND_bytes(salt.data(), static_cast<int>(salt.size())) != 1) throw std::runtime_error("OpenSSL: RAND_bytes failed");
  return encrypt(plaintext, to, scalar, salt);
}

VapidKey make_vapid_key() {
  auto [scalar, point] = detail::p256_generate();
  return VapidKey{std::move(scalar), std::move(point)};
}

std::optional<VapidKey> vapid_key_from_private(std::span<const std::uint8_t> private_key) {
  Bytes point = detail::p256_public_of(private_key);
  if (point.empty()) return std::nullopt;
  return VapidKey{Bytes(private_key.begin(), private_key.end()), std::move(point)};
}

std::string push_audience(std::string_view endpoint) {
  auto lower = [](std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    return out;
  };
  auto colon = endpoint.find("://");
  if (colon == std::string_view::npos) return {};
  std::string scheme = lower(endpoint.substr(0, colon));
  if (scheme != "https" && scheme != "http") return {};
  std::string_view rest = endpoint.substr(colon + 3);
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.empty() || authority.front() == ':' || authority.find('@') != std::string_view::npos) return {};
  for (char c : authority) {
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) return {};
  }
  return scheme + "://" + lower(authority);
}

std::string vapid_jwt(const VapidKey& key, std::string_view audience, std::string_view subject, std::int64_t expires) {
  detail::Pkey pkey = detail::p256_private(key.private_key);
  if (!pkey || detail::p256_public_of(key.private_key) != key.public_key) {
    throw std::invalid_argument("VAPID key is not a P-256 key pair");
  }
  const std::string header = R"({"typ":"JWT","alg":"ES256"})";
  const std::string claims =
      nlohmann::json{{"aud", audience}, {"exp", expires}, {"sub", subject}}.dump();
  std::string signing_input = base64url(detail::bytes_of(header)) + "." + base64url(detail::bytes_of(claims));
  Bytes signature = detail::es256_sign(pkey, detail::bytes_of(signing_input));
  return signing_input + "." + base64url(signature);
}

std::string vapid_authorization(const VapidKey& key, std::string_view audience, std::string_view subject,
                                std::int64_t expires) {
  return "vapid t=" + vapid_jwt(key, audience, subject, expires) + ", k=" + base64url(key.public_key);
}

}  // namespace elgrande::notices
