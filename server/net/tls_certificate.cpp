#include "net/tls_certificate.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <array>
#include <ctime>
#include <system_error>
#include <utility>

namespace elgrande::server {
namespace {

namespace ssl = boost::asio::ssl;

// Mozilla's "intermediate" configuration for TLS 1.2 (TLS 1.3's suites are OpenSSL's
// defaults, all of them sound): forward secrecy and AEAD only. DHE is left out, as it
// would need parameters of our own.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

std::string when(const ASN1_TIME* time) {
  std::tm tm{};
  if (ASN1_TIME_to_tm(time, &tm) != 1) return "an unreadable date";
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%d %H:%M:%S UTC", &tm);
  return text.data();
}

std::string subject(X509* certificate) {
  std::array<char, 256> name{};
  X509_NAME_oneline(X509_get_subject_name(certificate), name.data(), static_cast<int>(name.size()));
  return name.data();
}

}  // namespace

TlsCertificate::TlsCertificate(std::filesystem::path certificate, std::filesystem::path private_key)
    : certificate_(std::move(certificate)), private_key_(std::move(private_key)), loaded_(load()) {}

std::shared_ptr<ssl::context> TlsCertificate::current() const {
  const std::lock_guard lock(mutex_);
  return loaded_.context;
}

void TlsCertificate::reload() {
  Loaded fresh = load();
  const std::lock_guard lock(mutex_);
  loaded_ = std::move(fresh);
}

std::string TlsCertificate::describe() const {
  const std::lock_guard lock(mutex_);
  return loaded_.description;
}

TlsCertificate::Loaded TlsCertificate::load() const {
  const std::string certificate_file = "tls_certificate " + certificate_.string();
  const std::string key_file = "tls_private_key " + private_key_.string();
  for (const auto& [path, what] : {std::pair{certificate_, certificate_file}, std::pair{private_key_, key_file}}) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw TlsError(what + ": no such file");
  }
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  SSL_CTX* native = context->native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  SSL_CTX_set_options(native, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
  SSL_CTX_set_cipher_list(native, kTls12Ciphers);
  // Idle connections give their read and write buffers back to the allocator: most of a
  // day-long game's connection is waiting.
  SSL_CTX_set_mode(native, SSL_MODE_RELEASE_BUFFERS);

  boost::system::error_code ec;
  context->use_certificate_chain_file(certificate_.string(), ec);
  if (ec) throw TlsError(certificate_file + ": not a PEM certificate chain (" + ec.message() + ")");
  context->use_private_key_file(private_key_.string(), ssl::context::pem, ec);
  const bool mismatch = ec && ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == X509_R_KEY_VALUES_MISMATCH;
  if (ec && !mismatch) throw TlsError(key_file + ": not a PEM private key (" + ec.message() + ")");
  if (mismatch || SSL_CTX_check_private_key(native) != 1) {
    throw TlsError(key_file + " is not the key of the certificate in " + certificate_.string());
  }
  X509* leaf = SSL_CTX_get0_certificate(native);
  if (X509_cmp_current_time(X509_get0_notAfter(leaf)) <= 0) {
    throw TlsError(certificate_file + ": the certificate expired on " + when(X509_get0_notAfter(leaf)));
  }
  if (X509_cmp_current_time(X509_get0_notBefore(leaf)) >= 0) {
    throw TlsError(certificate_file + ": the certificate is not valid before " + when(X509_get0_notBefore(leaf)));
  }
  return {std::move(context), subject(leaf) + ", valid until " + when(X509_get0_notAfter(leaf))};
}

}  // namespace elgrande::server
