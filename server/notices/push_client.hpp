#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elgrande::server {

// POSTs encrypted Web Push messages to the browsers' push services (RFC 8030) through
// libcurl, over TLS with the system's CAs (or plain http to a loopback receiver in tests).
// Not thread-safe: the sender's thread owns it; connections to a push service are kept
// open between messages.
class PushClient {
 public:
  explicit PushClient(long timeout_seconds = 30);
  ~PushClient();
  PushClient(const PushClient&) = delete;
  PushClient& operator=(const PushClient&) = delete;

  struct Answer {
    long status = 0;  // 0: no answer (the network failed)
    std::string failure;  // libcurl's words when there was no answer
    std::optional<std::chrono::seconds> retry_after;
  };
  Answer post(const std::string& endpoint, const std::vector<std::string>& headers, const std::vector<std::uint8_t>& body);

 private:
  long timeout_seconds_;
  struct Handle;
  std::unique_ptr<Handle> handle_;
};

}  // namespace elgrande::server
