#include "notices/push_client.hpp"

#include <curl/curl.h>

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace elgrande::server {
namespace {

// Reads Retry-After (seconds only; a date form is read as none) from the answer's headers.
std::size_t read_header(char* data, std::size_t size, std::size_t count, void* user) {
  const std::string_view line(data, size * count);
  constexpr std::string_view kName = "retry-after:";
  if (line.size() > kName.size()) {
    bool matches = true;
    for (std::size_t i = 0; i < kName.size() && matches; ++i) {
      matches = static_cast<char>(std::tolower(static_cast<unsigned char>(line[i]))) == kName[i];
    }
    if (matches) {
      std::string_view value = line.substr(kName.size());
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      long seconds = 0;
      if (std::from_chars(value.data(), value.data() + value.size(), seconds).ec == std::errc() && seconds >= 0) {
        static_cast<PushClient::Answer*>(user)->retry_after = std::chrono::seconds(seconds);
      }
    }
  }
  return size * count;
}

std::size_t ignore_body(char* /*data*/, std::size_t size, std::size_t count, void* /*user*/) { return size * count; }

}  // namespace

struct PushClient::Handle {
  CURL* curl = curl_easy_init();
  ~Handle() { curl_easy_cleanup(curl); }
};

PushClient::PushClient(long timeout_seconds) : timeout_seconds_(timeout_seconds), handle_(std::make_unique<Handle>()) {
  if (!handle_->curl) throw std::runtime_error("libcurl could not make a handle");
}

PushClient::~PushClient() = default;

PushClient::Answer PushClient::post(const std::string& endpoint, const std::vector<std::string>& headers,
                                    const std::vector<std::uint8_t>& body) {
  CURL* curl = handle_->curl;
  curl_easy_reset(curl);
  Answer answer;
  curl_slist* list = nullptr;
  for (const auto& header : headers) list = curl_slist_append(list, header.c_str());
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_URL, endpoint.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout_seconds_);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &answer);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ignore_body);
  const CURLcode result = curl_easy_perform(curl);
  curl_slist_free_all(list);
  if (result != CURLE_OK) {
    answer.failure = error[0] ? error : curl_easy_strerror(result);
    return answer;
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer.status);
  return answer;
}

}  // namespace elgrande::server
