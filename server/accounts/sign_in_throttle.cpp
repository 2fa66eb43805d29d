#include "accounts/sign_in_throttle.hpp"

#include <algorithm>

#include "accounts/credentials.hpp"
#include "identity/new_identity_quota.hpp"

namespace elgrande::server {

SignInThrottle::SignInThrottle(const Limits& limits)
    : limits_(limits), by_username_(limits.window), by_address_(limits.window) {}

SignInThrottle::Clock::duration SignInThrottle::wait(std::string_view username, std::string_view address,
                                                      Clock::time_point now) {
  const std::string name = username_key(username);
  const std::string from = NewIdentityQuota::key_of(address);
  const std::lock_guard lock(mutex_);
  Clock::time_point until = now;
  if (by_username_.count(name, now) >= limits_.per_username) until = std::max(until, by_username_.oldest_leaves(name));
  if (by_address_.count(from, now) >= limits_.per_address) until = std::max(until, by_address_.oldest_leaves(from));
  return until - now;
}

void SignInThrottle::failed(std::string_view username, std::string_view address, Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  by_username_.add(username_key(username), now);
  by_address_.add(NewIdentityQuota::key_of(address), now);
}

SignInThrottle::Clock::duration SignInThrottle::wait(std::string_view address, Clock::time_point now) {
  const std::string from = NewIdentityQuota::key_of(address);
  const std::lock_guard lock(mutex_);
  if (by_address_.count(from, now) < limits_.per_address) return Clock::duration::zero();
  return by_address_.oldest_leaves(from) - now;
}

void SignInThrottle::name_taken(std::string_view address, Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  by_address_.add(NewIdentityQuota::key_of(address), now);
}

void SignInThrottle::succeeded(std::string_view username) {
  const std::lock_guard lock(mutex_);
  by_username_.forget(username_key(username));
}

}  // namespace elgrande::server
