#pragma once

#include <boost/asio/ssl/context.hpp>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace elgrande::server {

// A certificate file or key that cannot serve: unreadable, not PEM, expired or not yet
// valid, or a key that is not the certificate's. The message says which file and why.
class TlsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The server's certificate and key (PEM files, e.g. Let's Encrypt's fullchain.pem and
// privkey.pem) as a TLS context: TLS 1.2 and 1.3 only, with forward-secret AEAD ciphers
// (Mozilla's "intermediate" list). Reloading makes a new context for the connections that
// come after; each connection keeps the context it began with.
class TlsCertificate {
 public:
  // Throws TlsError.
  TlsCertificate(std::filesystem::path certificate, std::filesystem::path private_key);

  std::shared_ptr<boost::asio::ssl::context> current() const;
  // Reads both files again. On failure throws TlsError and keeps serving the previous one.
  void reload();
  // "CN=example.org, valid until 2027-02-25 12:00:00 UTC", for the log.
  std::string describe() const;

 private:
  struct Loaded {
    std::shared_ptr<boost::asio::ssl::context> context;
    std::string description;
  };
  Loaded load() const;

  std::filesystem::path certificate_;
  std::filesystem::path private_key_;
  mutable std::mutex mutex_;
  Loaded loaded_;
};

}  // namespace elgrande::server
