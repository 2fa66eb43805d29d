#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "elgrande/notices/push.hpp"

using namespace elgrande::notices;

namespace {

// Also used before any test runs (the constants below), so it throws rather than REQUIREs.
Bytes b64(std::string_view text) { return from_base64url(text).value(); }

Bytes ascii(std::string_view text) { return Bytes(text.begin(), text.end()); }

// A P-256 public key for OpenSSL from its point: the fixed SubjectPublicKeyInfo prefix of a
// P-256 key, then the point. Independent of the library's own key building.
std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> public_key_of(const Bytes& point) {
  Bytes der = b64("MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgA");
  der.insert(der.end(), point.begin(), point.end());
  const unsigned char* cursor = der.data();
  return {d2i_PUBKEY(nullptr, &cursor, static_cast<long>(der.size())), EVP_PKEY_free};
}

// Verifies a JOSE ES256 signature (r || s) by converting it to DER for OpenSSL.
bool es256_verifies(const Bytes& point, std::string_view data, const Bytes& signature) {
  if (signature.size() != 64) return false;
  auto key = public_key_of(point);
  REQUIRE(key);
  ECDSA_SIG* sig = ECDSA_SIG_new();
  ECDSA_SIG_set0(sig, BN_bin2bn(signature.data(), 32, nullptr), BN_bin2bn(signature.data() + 32, 32, nullptr));
  unsigned char* der = nullptr;
  int der_size = i2d_ECDSA_SIG(sig, &der);
  ECDSA_SIG_free(sig);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key.get()) == 1 &&
            EVP_DigestVerify(ctx, der, static_cast<std::size_t>(der_size),
                             reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
  EVP_MD_CTX_free(ctx);
  OPENSSL_free(der);
  return ok;
}

// RFC 8291 Appendix A.
const PushKeys rfc8291_receiver{b64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
                                b64("BTBZMqHH6r4Tts7J_aSIgg")};

}  // namespace

TEST_CASE("base64url has no padding and reads back with or without it") {
  CHECK(base64url(Bytes{}) == "");
  CHECK(base64url(ascii("f")) == "Zg");
  CHECK(base64url(ascii("fo")) == "Zm8");
  CHECK(base64url(ascii("foo")) == "Zm9v");
  CHECK(base64url(ascii("foob")) == "Zm9vYg");
  CHECK(base64url(Bytes{0xfb, 0xff, 0xfe}) == "-__-");
  CHECK(from_base64url("") == Bytes{});
  CHECK(from_base64url("Zg") == ascii("f"));
  CHECK(from_base64url("Zg==") == ascii("f"));
  CHECK(from_base64url("Zm8=") == ascii("fo"));
  CHECK(from_base64url("Zm9v") == ascii("foo"));
  CHECK(from_base64url("-__-") == Bytes{0xfb, 0xff, 0xfe});
  for (std::string_view bad : std::vector<std::string_view>{"Z", "Zg=", "Zg===", "Zm8==", "Zh", "Zm9", "Zm+v", "Zm/v", "Zm9v=", "Zm 9v", "=", "====",
                               "Zg==Zg==", "Zm\n9v", std::string_view("Zm9v\0", 5)}) {
    INFO(bad);
    CHECK_FALSE(from_base64url(bad));
  }
  Bytes all(256);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint8_t>(i);
  for (std::size_t n = 0; n <= all.size(); ++n) {
    Bytes part(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    REQUIRE(from_base64url(base64url(part)) == part);
  }
}

TEST_CASE("RFC 8291's example message is reproduced byte for byte") {
  Bytes body = encrypt(ascii("When I grow up, I want to be a watermelon"), rfc8291_receiver,
                       b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"), b64("DGv6ra1nlYgDCS1FRnbzlw"), 4096);
  CHECK(base64url(body) ==
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl"
        "7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN");
}

TEST_CASE("A push body has the aes128gcm header and one record, fresh keys each time") {
  Bytes payload = ascii("Your turn at table 12");
  Bytes first = encrypt(payload, rfc8291_receiver);
  Bytes second = encrypt(payload, rfc8291_receiver);
  REQUIRE(first.size() == 86 + payload.size() + 1 + 16);
  CHECK(Bytes(first.begin() + 16, first.begin() + 21) == Bytes{0, 0, 0x10, 0, 65});
  CHECK(first[21] == 0x04);
  CHECK(first != second);
  CHECK(encrypt(Bytes(max_push_payload, 'x'), rfc8291_receiver).size() == 4096);
  CHECK_THROWS_AS(encrypt(Bytes(max_push_payload + 1, 'x'), rfc8291_receiver), std::invalid_argument);
  Bytes sender = b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw");
  Bytes salt(16, 7);
  CHECK_THROWS_AS(encrypt(payload, rfc8291_receiver, sender, salt, 20), std::invalid_argument);
  CHECK_THROWS_AS(encrypt(Bytes{}, rfc8291_receiver, sender, salt, 17), std::invalid_argument);
  CHECK(encrypt(Bytes{}, rfc8291_receiver, sender, salt, 18).size() == 86 + 17);
  CHECK_THROWS_AS(encrypt(payload, rfc8291_receiver, sender, Bytes(15, 7)), std::invalid_argument);
  CHECK_THROWS_AS(encrypt(payload, rfc8291_receiver, Bytes(32, 0), salt), std::invalid_argument);
  CHECK_THROWS_AS(encrypt(payload, rfc8291_receiver, Bytes(32, 0xff), salt), std::invalid_argument);
  CHECK_THROWS_AS(encrypt(payload, PushKeys{rfc8291_receiver.p256dh, Bytes(15, 1)}), std::invalid_argument);
}

TEST_CASE("Push keys must be a point on P-256 and a 16-byte secret") {
  CHECK_FALSE(why_not_push_keys(rfc8291_receiver));
  PushKeys short_auth{rfc8291_receiver.p256dh, Bytes(15, 1)};
  CHECK(why_not_push_keys(short_auth));
  PushKeys compressed{Bytes(33, 2), rfc8291_receiver.auth};
  CHECK(why_not_push_keys(compressed));
  PushKeys off_curve = rfc8291_receiver;
  off_curve.p256dh[64] ^= 1;
  CHECK(why_not_push_keys(off_curve));
  PushKeys zero{Bytes(65, 0), rfc8291_receiver.auth};
  zero.p256dh[0] = 4;
  CHECK(why_not_push_keys(zero));
  CHECK(why_not_push_keys(PushKeys{}));
}

TEST_CASE("A VAPID key's public half is derived from its private half") {
  VapidKey key = make_vapid_key();
  CHECK(key.private_key.size() == 32);
  CHECK(key.public_key.size() == 65);
  auto again = vapid_key_from_private(key.private_key);
  REQUIRE(again);
  CHECK(again->public_key == key.public_key);
  // RFC 8291's sender key pair.
  auto rfc = vapid_key_from_private(b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"));
  REQUIRE(rfc);
  CHECK(base64url(rfc->public_key) ==
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8");
  CHECK_FALSE(vapid_key_from_private(Bytes(32, 0)));
  CHECK_FALSE(vapid_key_from_private(Bytes(32, 0xff)));
  CHECK_FALSE(vapid_key_from_private(Bytes(31, 1)));
}

TEST_CASE("The push audience is the endpoint's scheme and authority") {
  CHECK(push_audience("https://fcm.googleapis.com/fcm/send/abc:def") == "https://fcm.googleapis.com");
  CHECK(push_audience("https://updates.push.services.mozilla.com/wpush/v2/gAAA") == "https://updates.push.services.mozilla.com");
  CHECK(push_audience("HTTPS://Push.Example.org:8443/x?y#z") == "https://push.example.org:8443");
  CHECK(push_audience("http://localhost:9000") == "http://localhost:9000");
  CHECK(push_audience("https://push.example.org?x") == "https://push.example.org");
  CHECK(push_audience("ftp://push.example.org/x") == "");
  CHECK(push_audience("push.example.org/x") == "");
  CHECK(push_audience("https:///x") == "");
  CHECK(push_audience("https://user@push.example.org/x") == "");
  CHECK(push_audience("") == "");
}

TEST_CASE("The VAPID JWT is signed ES256 over its header and claims") {
  VapidKey key = make_vapid_key();
  std::string jwt = vapid_jwt(key, "https://push.example.org", "mailto:admin@play.example.org", 1767225600);
  auto dot1 = jwt.find('.');
  auto dot2 = jwt.rfind('.');
  REQUIRE(dot1 != dot2);
  auto header = from_base64url(jwt.substr(0, dot1));
  auto claims = from_base64url(jwt.substr(dot1 + 1, dot2 - dot1 - 1));
  auto signature = from_base64url(jwt.substr(dot2 + 1));
  REQUIRE(header);
  REQUIRE(claims);
  REQUIRE(signature);
  CHECK(std::string(header->begin(), header->end()) == R"({"typ":"JWT","alg":"ES256"})");
  CHECK(std::string(claims->begin(), claims->end()) ==
        R"({"aud":"https://push.example.org","exp":1767225600,"sub":"mailto:admin@play.example.org"})");
  CHECK(es256_verifies(key.public_key, jwt.substr(0, dot2), *signature));

  Bytes flipped = *signature;
  flipped[10] ^= 0x01;
  CHECK_FALSE(es256_verifies(key.public_key, jwt.substr(0, dot2), flipped));
  std::string other_data = jwt.substr(0, dot2);
  other_data[5] ^= 0x01;
  CHECK_FALSE(es256_verifies(key.public_key, other_data, *signature));
  CHECK_FALSE(es256_verifies(make_vapid_key().public_key, jwt.substr(0, dot2), *signature));

  std::string authorization = vapid_authorization(key, "https://push.example.org", "mailto:a@b.org", 1);
  CHECK(authorization.starts_with("vapid t=ey"));
  CHECK(authorization.ends_with(", k=" + base64url(key.public_key)));

  VapidKey mismatched = key;
  mismatched.public_key = make_vapid_key().public_key;
  CHECK_THROWS_AS(vapid_jwt(mismatched, "https://push.example.org", "mailto:a@b.org", 1), std::invalid_argument);
}
