#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace elgrande::server {

// Waits that long, or less if the thread is asked to stop: false then. For the threads
// that wake on a schedule (the watchdog, the followers' tries, backups).
inline bool wait_or_stop(const std::stop_token& stop, std::chrono::milliseconds how_long) {
  std::mutex mutex;
  std::condition_variable_any wake;
  std::unique_lock lock(mutex);
  wake.wait_for(lock, stop, how_long, [] { return false; });
  return !stop.stop_requested();
}

}  // namespace elgrande::server
