#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

#include "common/sliding_window.hpp"

namespace elgrande::server {

// Failed sign-ins, counted per username and per client address over a sliding window, so
// that nobody can guess a password at speed: past either cap, sign-ins are refused until
// the oldest failure leaves the window, whatever the password. A name's failures are
// forgiven when its password is given. Internally locked; the time comes from the caller.
class SignInThrottle {
 public:
  using Clock = SlidingWindow::Clock;
  struct Limits {
    std::size_t per_username = 10;
    std::size_t per_address = 200;
    Clock::duration window = std::chrono::minutes(10);
  };

  explicit SignInThrottle(const Limits& limits);

  // How long `username` from `address` must wait before its password is even checked;
  // zero: it may try now.
  Clock::duration wait(std::string_view username, std::string_view address, Clock::time_point now);
  void failed(std::string_view username, std::string_view address, Clock::time_point now);
  void succeeded(std::string_view username);

  // Sign-ups: a username found taken counts against the address as a failed sign-in does,
  // so that nobody learns at speed which usernames exist. `wait` for the address alone.
  Clock::duration wait(std::string_view address, Clock::time_point now);
  void name_taken(std::string_view address, Clock::time_point now);

 private:
  Limits limits_;
  std::mutex mutex_;
  SlidingWindow by_username_;
  SlidingWindow by_address_;
};

}  // namespace elgrande::server
