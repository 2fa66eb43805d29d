#include "openssl.hpp"

#include <stdexcept>
#include <utility>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

namespace elgrande::notices::detail {
namespace {

template <typename T, void (*Free)(T*)>
struct Freer {
  void operator()(T* p) const { Free(p); }
};
using Bn = std::unique_ptr<BIGNUM, Freer<BIGNUM, BN_free>>;
using BnCtx = std::unique_ptr<BN_CTX, Freer<BN_CTX, BN_CTX_free>>;
using Group = std::unique_ptr<EC_GROUP, Freer<EC_GROUP, EC_GROUP_free>>;
using Point = std::unique_ptr<EC_POINT, Freer<EC_POINT, EC_POINT_free>>;
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, Freer<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, Freer<EVP_MD_CTX, EVP_MD_CTX_free>>;
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, Freer<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using Kdf = std::unique_ptr<EVP_KDF, Freer<EVP_KDF, EVP_KDF_free>>;
using KdfCtx = std::unique_ptr<EVP_KDF_CTX, Freer<EVP_KDF_CTX, EVP_KDF_CTX_free>>;
using ParamBld = std::unique_ptr<OSSL_PARAM_BLD, Freer<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using Params = std::unique_ptr<OSSL_PARAM, Freer<OSSL_PARAM, OSSL_PARAM_free>>;
using Sig = std::unique_ptr<ECDSA_SIG, Freer<ECDSA_SIG, ECDSA_SIG_free>>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("OpenSSL: ") + what + " failed");
}

Group p256_group() {
  Group group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1));
  check(group != nullptr, "EC_GROUP_new_by_curve_name");
  return group;
}

// A key from OSSL_PARAMs: the way OpenSSL 3 builds keys from raw parts.
Pkey pkey_from(OSSL_PARAM_BLD* builder, int selection) {
  check(OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1, "param");
  Params params(OSSL_PARAM_BLD_to_param(builder));
  check(params != nullptr, "OSSL_PARAM_BLD_to_param");
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  check(ctx != nullptr && EVP_PKEY_fromdata_init(ctx.get()) == 1, "EVP_PKEY_fromdata_init");
  EVP_PKEY* key = nullptr;
  if (EVP_PKEY_fromdata(ctx.get(), &key, selection, params.get()) != 1) return nullptr;
  return Pkey(key);
}

}  // namespace

Bytes sha256(std::span<const std::uint8_t> data) {
  Bytes out(32);
  unsigned int size = 0;
  check(EVP_Digest(data.data(), data.size(), out.data(), &size, EVP_sha256(), nullptr) == 1 && size == 32,
        "EVP_Digest");
  return out;
}

Bytes hmac_sha256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data) {
  Bytes out(32);
  std::size_t size = 0;
  check(EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(), data.data(), data.size(),
                  out.data(), out.size(), &size) != nullptr && size == 32,
        "EVP_Q_mac");
  return out;
}

Bytes hkdf_sha256(std::span<const std::uint8_t> salt, std::span<const std::uint8_t> ikm,
                  std::span<const std::uint8_t> info, std::size_t length) {
  Kdf kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  check(kdf != nullptr, "EVP_KDF_fetch");
  KdfCtx ctx(EVP_KDF_CTX_new(kdf.get()));
  check(ctx != nullptr, "EVP_KDF_CTX_new");
  char digest[] = "SHA256";
  // OSSL_PARAM wants non-const pointers; OpenSSL only reads them.
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(ikm.data()), ikm.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<std::uint8_t*>(salt.data()), salt.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<std::uint8_t*>(info.data()), info.size()),
      OSSL_PARAM_construct_end(),
  };
  Bytes out(length);
  check(EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) == 1, "EVP_KDF_derive");
  return out;
}

Bytes aes128gcm_seal(std::span<const std::uint8_t> key, std::span<const std::uint8_t> nonce,
                     std::span<const std::uint8_t> plaintext) {
  check(key.size() == 16 && nonce.size() == 12, "AES-128-GCM sizes");
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  check(ctx != nullptr, "EVP_CIPHER_CTX_new");
  check(EVP_EncryptInit_ex2(ctx.get(), EVP_aes_128_gcm(), key.data(), nonce.data(), nullptr) == 1,
        "EVP_EncryptInit_ex2");
  Bytes out(plaintext.size() + 16);
  int written = 0;
  check(EVP_EncryptUpdate(ctx.get(), out.data(), &written, plaintext.data(), static_cast<int>(plaintext.size())) == 1,
        "EVP_EncryptUpdate");
  int final_written = 0;
  check(EVP_EncryptFinal_ex(ctx.get(), out.data() + written, &final_written) == 1, "EVP_EncryptFinal_ex");
  check(static_cast<std::size_t>(written + final_written) == plaintext.size(), "AES-128-GCM length");
  check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, 16, out.data() + plaintext.size()) == 1, "GCM tag");
  return out;
}

Pkey p256_public(std::span<const std::uint8_t> point) {
  if (point.size() != 65 || point[0] != 0x04) return nullptr;
  ParamBld builder(OSSL_PARAM_BLD_new());
  check(builder != nullptr, "OSSL_PARAM_BLD_new");
  check(OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) == 1,
        "param");
  Pkey key = pkey_from(builder.get(), EVP_PKEY_PUBLIC_KEY);
  if (!key) return nullptr;
  // Decoding checks the point is on the curve; the public check says so explicitly.
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  check(ctx != nullptr, "EVP_PKEY_CTX_new_from_pkey");
  if (EVP_PKEY_public_check(ctx.get()) != 1) return nullptr;
  return key;
}

Bytes p256_public_of(std::span<const std::uint8_t> scalar) {
  if (scalar.size() != 32) return {};
  Group group = p256_group();
  Bn k(BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr));
  check(k != nullptr, "BN_bin2bn");
  if (BN_is_zero(k.get()) || BN_cmp(k.get(), EC_GROUP_get0_order(group.get())) >= 0) return {};
  BnCtx bn_ctx(BN_CTX_new());
  Point point(EC_POINT_new(group.get()));
  check(bn_ctx != nullptr && point != nullptr, "EC_POINT_new");
  // OpenSSL 3 does not derive the public half when a key is built from its scalar alone.
  check(EC_POINT_mul(group.get(), point.get(), k.get(), nullptr, nullptr, bn_ctx.get()) == 1, "EC_POINT_mul");
  Bytes out(65);
  check(EC_POINT_point2oct(group.get(), point.get(), POINT_CONVERSION_UNCOMPRESSED, out.data(), out.size(),
                           bn_ctx.get()) == 65,
        "EC_POINT_point2oct");
  return out;
}

Pkey p256_private(std::span<const std::uint8_t> scalar) {
  Bytes point = p256_public_of(scalar);
  if (point.empty()) return nullptr;
  Bn k(BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr));
  ParamBld builder(OSSL_PARAM_BLD_new());
  check(k != nullptr && builder != nullptr, "OSSL_PARAM_BLD_new");
  check(OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_PRIV_KEY, k.get()) == 1 &&
            OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) == 1,
        "param");
  Pkey key = pkey_from(builder.get(), EVP_PKEY_KEYPAIR);
  check(key != nullptr, "EVP_PKEY_fromdata");
  return key;
}

std::pair<Bytes, Bytes> p256_generate() {
  Pkey key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  check(key != nullptr, "EVP_PKEY_Q_keygen");
  BIGNUM* raw = nullptr;
  check(EVP_PKEY_get_bn_param(key.get(), OSSL_PKEY_PARAM_PRIV_KEY, &raw) == 1, "EVP_PKEY_get_bn_param");
  Bn k(raw);
  Bytes scalar(32);
  check(BN_bn2binpad(k.get(), scalar.data(), 32) == 32, "BN_bn2binpad");
  Bytes point = p256_public_of(scalar);
  check(point.size() == 65, "public point");
  return {std::move(scalar), std::move(point)};
}

Bytes ecdh(const Pkey& mine, const Pkey& theirs) {
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, mine.get(), nullptr));
  check(ctx != nullptr && EVP_PKEY_derive_init(ctx.get()) == 1, "EVP_PKEY_derive_init");
  check(EVP_PKEY_derive_set_peer(ctx.get(), theirs.get()) == 1, "EVP_PKEY_derive_set_peer");
  std::size_t size = 0;
  check(EVP_PKEY_derive(ctx.get(), nullptr, &size) == 1, "EVP_PKEY_derive");
  Bytes out(size);
  check(EVP_PKEY_derive(ctx.get(), out.data(), &size) == 1 && size == 32, "EVP_PKEY_derive");
  return out;
}

Bytes es256_sign(const Pkey& key, std::span<const std::uint8_t> data) {
  MdCtx ctx(EVP_MD_CTX_new());
  check(ctx != nullptr, "EVP_MD_CTX_new");
  check(EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) == 1, "EVP_DigestSignInit");
  std::size_t size = 0;
  check(EVP_DigestSign(ctx.get(), nullptr, &size, data.data(), data.size()) == 1, "EVP_DigestSign");
  Bytes der(size);
  check(EVP_DigestSign(ctx.get(), der.data(), &size, data.data(), data.size()) == 1, "EVP_DigestSign");
  // OpenSSL signs in DER; JOSE wants the two integers side by side, 32 bytes each.
  const unsigned char* cursor = der.data();
  Sig sig(d2i_ECDSA_SIG(nullptr, &cursor, static_cast<long>(size)));
  check(sig != nullptr, "d2i_ECDSA_SIG");
  Bytes out(64);
  check(BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), out.data(), 32) == 32 &&
            BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), out.data() + 32, 32) == 32,
        "BN_bn2binpad");
  return out;
}

}  // namespace elgrande::notices::detail
