#pragma once

#include <memory>
#include <optional>
#include <string>

namespace elgrande::server {

// How to reach the mail relay (the smtp_* settings, docs/configuration.md#notices).
struct SmtpSettings {
  std::string host;  // empty: no mail is sent
  unsigned port = 587;
  enum class Security { starttls, tls, none } security = Security::starttls;
  std::string user;
  std::string password;
  std::string ca_file;  // CA certificates (PEM) for the relay's; empty: the system's
  long timeout_seconds = 30;  // per delivery: connect, talk, hand over
};

// Hands finished messages (notices::render's bytes) to the relay over SMTP, through
// libcurl: STARTTLS or implicit TLS with the system's CAs and the relay's name checked,
// AUTH when a user is set. One connection is kept open between deliveries while libcurl
// finds it alive. Not thread-safe: the sender's thread owns it.
class Mailer {
 public:
  explicit Mailer(SmtpSettings settings);
  ~Mailer();
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;

  struct Failure {
    std::string reason;  // for the log: libcurl's words and the relay's code
    bool permanent;      // the relay refused the message or the recipient (5xx): retrying will not help
  };
  // Nothing once the relay has accepted the message for `to`.
  std::optional<Failure> send(const std::string& from, const std::string& to, const std::string& message);

 private:
  SmtpSettings settings_;
  std::string url_;
  struct Handle;
  std::unique_ptr<Handle> handle_;
};

}  // namespace elgrande::server
