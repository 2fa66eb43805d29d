#include "identity/new_identity_quota.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>

namespace elgrande::server {

std::string NewIdentityQuota::key_of(std::string_view address) {
  boost::system::error_code ec;
  const auto parsed = boost::asio::ip::make_address(address, ec);
  if (ec || !parsed.is_v6()) return std::string(address);
  auto bytes = parsed.to_v6().to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

bool NewIdentityQuota::take(std::string_view address, Clock::time_point now) {
  if (per_hour_ == 0) return true;
  const Clock::time_point start = now - kWindow;
  const std::lock_guard lock(mutex_);
  // Now and then the addresses that made nothing within the hour are forgotten, so the
  // map stays as small as the last hour's distinct addresses.
  if (now >= next_sweep_) {
    forget_older_than(start);
    next_sweep_ = now + std::chrono::minutes(1);
  }
  std::deque<Clock::time_point>& made = made_[key_of(address)];
  while (!made.empty() && made.front() <= start) made.pop_front();
  if (made.size() >= per_hour_) return false;
  made.push_back(now);
  return true;
}

void NewIdentityQuota::forget_older_than(Clock::time_point start) {
  std::erase_if(made_, [start](const auto& entry) { return entry.second.empty() || entry.second.back() <= start; });
}

}  // namespace elgrande::server
