#include "notices/mailer.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace elgrande::server {
namespace {

// libcurl reads the message through this, in pieces.
struct Reading {
  const std::string* message;
  std::size_t offset = 0;
};

std::size_t read_message(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto& reading = *static_cast<Reading*>(user);
  const std::size_t n = std::min(size * count, reading.message->size() - reading.offset);
  std::memcpy(buffer, reading.message->data() + reading.offset, n);
  reading.offset += n;
  return n;
}

}  // namespace

struct Mailer::Handle {
  CURL* curl = curl_easy_init();
  ~Handle() { curl_easy_cleanup(curl); }
};

Mailer::Mailer(SmtpSettings settings) : settings_(std::move(settings)), handle_(std::make_unique<Handle>()) {
  if (!handle_->curl) throw std::runtime_error("libcurl could not make a handle");
  const bool implicit_tls = settings_.security == SmtpSettings::Security::tls;
  url_ = std::string(implicit_tls ? "smtps://" : "smtp://") + settings_.host + ":" + std::to_string(settings_.port);
}

Mailer::~Mailer() = default;

std::optional<Mailer::Failure> Mailer::send(const std::string& from, const std::string& to,
                                            const std::string& message) {
  CURL* curl = handle_->curl;
  curl_easy_reset(curl);  // keeps the open connection, forgets the last message's options
  Reading reading{&message};
  curl_slist* recipients = curl_slist_append(nullptr, to.c_str());
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, settings_.timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, std::min(settings_.timeout_seconds, 10L));
  if (settings_.security == SmtpSettings::Security::starttls) curl_easy_setopt(curl, CURLOPT_USE_SSL, CURLUSESSL_ALL);
  if (!settings_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, settings_.ca_file.c_str());
  if (!settings_.user.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, settings_.user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, settings_.password.c_str());
  }
  curl_easy_setopt(curl, CURLOPT_MAIL_FROM, ("<" + from + ">").c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
  curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_message);
  curl_easy_setopt(curl, CURLOPT_READDATA, &reading);
  curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
  const CURLcode result = curl_easy_perform(curl);
  curl_slist_free_all(recipients);
  if (result == CURLE_OK) return std::nullopt;
  long code = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
  std::string reason = error[0] ? error : curl_easy_strerror(result);
  if (code != 0) reason += " (the relay answered " + std::to_string(code) + ")";
  return Failure{std::move(reason), code >= 500 && code < 600};
}

}  // namespace elgrande::server
