#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

#include "common/sliding_window.hpp"

namespace elgrande::server {

// How many new guest identities one client address may make in a sliding hour, so that
// one client cannot fill the database with players. An IPv6 client usually holds a whole
// /64, so its address counts by that prefix. The time comes from the caller.
class NewIdentityQuota {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::hours kWindow{1};

  explicit NewIdentityQuota(std::size_t per_hour) : per_hour_(per_hour), made_(kWindow) {}

  // Takes one from `address`'s allowance, or says false when none is left. 0 per hour: no cap.
  bool take(std::string_view address, Clock::time_point now);

  std::size_t per_hour() const { return per_hour_; }

  // The key an address counts under: IPv4 as it is, IPv6 by its first 64 bits.
  static std::string key_of(std::string_view address);

 private:
  std::size_t per_hour_;
  std::mutex mutex_;
  SlidingWindow made_;
};

}  // namespace elgrande::server
