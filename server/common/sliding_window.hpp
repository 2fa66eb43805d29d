#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>

namespace elgrande::server {

// Events per key within the last `window`, for caps such as "10 failed sign-ins per name
// per 10 minutes". Keys without an event in the window are forgotten now and then, so the
// map stays as small as the window's distinct keys. The time comes from the caller; not
// locked: its owner locks.
class SlidingWindow {
 public:
  using Clock = std::chrono::steady_clock;

  explicit SlidingWindow(Clock::duration window) : window_(window) {}

  // Events of `key` within the window ending at `now`.
  std::size_t count(const std::string& key, Clock::time_point now) {
    sweep(now);
    const auto found = events_.find(key);
    if (found == events_.end()) return 0;
    drop_before(found->second, now - window_);
    return found->second.size();
  }
  void add(const std::string& key, Clock::time_point now) { events_[key].push_back(now); }
  // When the oldest of `key`'s events leaves the window (the past if it has none).
  Clock::time_point oldest_leaves(const std::string& key) const {
    const auto found = events_.find(key);
    return found == events_.end() || found->second.empty() ? Clock::time_point{} : found->second.front() + window_;
  }
  void forget(const std::string& key) { events_.erase(key); }
  Clock::duration window() const { return window_; }

 private:
  static void drop_before(std::deque<Clock::time_point>& events, Clock::time_point start) {
    while (!events.empty() && events.front() <= start) events.pop_front();
  }
  void sweep(Clock::time_point now) {
    if (now < next_sweep_) return;
    const Clock::time_point start = now - window_;
    std::erase_if(events_, [start](const auto& entry) { return entry.second.empty() || entry.second.back() <= start; });
    next_sweep_ = now + std::chrono::minutes(1);
  }

  Clock::duration window_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> events_;  // per key, oldest first
  Clock::time_point next_sweep_{};
};

}  // namespace elgrande::server
