#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

namespace elgrande::server {

// Lets a repeated warning be logged at most once per interval, saying how often it
// happened meanwhile, so a flood of the same fault cannot flood the log too.
class LogThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LogThrottle(Clock::duration interval) : interval_(interval) {}

  // Counts one occurrence. Returns how many there were since the last line (this one
  // included) when a line is due now, and 0 when this one stays quiet.
  std::uint64_t occurred(Clock::time_point now) {
    const std::lock_guard lock(mutex_);
    ++pending_;
    if (logged_once_ && now - last_ < interval_) return 0;
    logged_once_ = true;
    last_ = now;
    const std::uint64_t count = pending_;
    pending_ = 0;
    return count;
  }

 private:
  std::mutex mutex_;
  Clock::duration interval_;
  Clock::time_point last_{};
  bool logged_once_ = false;
  std::uint64_t pending_ = 0;
};

}  // namespace elgrande::server
