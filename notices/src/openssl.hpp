#pragma once
// The few OpenSSL calls the library needs, behind RAII and spans. Every cipher is OpenSSL's
// (EVP); this file only moves bytes in and out. Failures throw std::runtime_error: they mean
// a broken OpenSSL, not bad input, which the callers check first.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <openssl/evp.h>

namespace elgrande::notices::detail {

using Bytes = std::vector<std::uint8_t>;

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

Bytes sha256(std::span<const std::uint8_t> data);
Bytes hmac_sha256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data);
// HKDF-SHA256, extract then expand (RFC 5869).
Bytes hkdf_sha256(std::span<const std::uint8_t> salt, std::span<const std::uint8_t> ikm,
                  std::span<const std::uint8_t> info, std::size_t length);
// AES-128-GCM: the ciphertext followed by the 16-byte tag.
Bytes aes128gcm_seal(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                     std::span<const std::uint8_t> plaintext);

// P-256 keys. A public key is the 65-byte uncompressed point; nothing if it is not on the curve.
Pkey p256_public(std::span<const std::uint8_t> point);
// A private key from its 32 bytes; nothing if 0 or not below the group order.
Pkey p256_private(std::span<const std::uint8_t> scalar);
// The uncompressed public point of a private scalar; empty if the scalar is out of range.
Bytes p256_public_of(std::span<const std::uint8_t> scalar);
// A fresh key pair: the 32-byte scalar and the 65-byte point.
std::pair<Bytes, Bytes> p256_generate();
Bytes ecdh(const Pkey& mine, const Pkey& theirs);
// ECDSA over SHA-256, the signature as JOSE wants it: r || s, 32 bytes each.
Bytes es256_sign(const Pkey& key, std::span<const std::uint8_t> data);

inline std::span<const std::uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

}  // namespace elgrande::notices::detail
