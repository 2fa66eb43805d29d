// Prints Web Push bodies and a VAPID header as JSON for tests/fixtures/webpush/check.mjs,
// which decrypts and verifies them with http_ece and Node's crypto: a second implementation
// reading ours. A fresh receiver key pair each run. Usage: push_vectors EXPIRES
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <openssl/rand.h>

#include "elgrande/notices/push.hpp"

using namespace elgrande::notices;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: push_vectors EXPIRES\n";
    return 2;
  }
  const std::int64_t expires = std::stoll(argv[1]);
  // A receiver is a P-256 key pair like any other; the VAPID maker makes one.
  VapidKey receiver = make_vapid_key();
  Bytes auth(16);
  if (RAND_bytes(auth.data(), static_cast<int>(auth.size())) != 1) return 1;
  PushKeys keys{receiver.public_key, auth};

  std::vector<std::string> payloads = {
      "",
      "x",
      std::string(max_push_payload, 'a'),
      R"({"kind":"turn","table":12,"title":"Kolej na Ciebie — Zażółć gęślą jaźń 🏰"})",
  };
  std::string long_utf8;
  while (long_utf8.size() + 4 <= max_push_payload) long_utf8 += "🎲";
  payloads.push_back(long_utf8);

  nlohmann::json out;
  out["receiver_private"] = base64url(receiver.private_key);
  out["receiver_public"] = base64url(receiver.public_key);
  out["auth"] = base64url(auth);
  for (const auto& payload : payloads) {
    Bytes plain(payload.begin(), payload.end());
    out["bodies"].push_back({{"payload", base64url(plain)}, {"body", base64url(encrypt(plain, keys))}});
  }
  // The deterministic overload with a record size other than 4096.
  Bytes plain{'r', 's'};
  Bytes sender = make_vapid_key().private_key;
  Bytes salt(16, 0x5a);
  out["bodies"].push_back({{"payload", base64url(plain)}, {"body", base64url(encrypt(plain, keys, sender, salt, 100))}});

  VapidKey vapid = make_vapid_key();
  const std::string audience = push_audience("https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl");
  const std::string subject = "mailto:admin@play.example.org";
  out["vapid"] = {{"audience", audience},
                  {"subject", subject},
                  {"expires", expires},
                  {"private_key", base64url(vapid.private_key)},
                  {"authorization", vapid_authorization(vapid, audience, subject, expires)}};
  std::cout << out.dump() << "\n";
}
