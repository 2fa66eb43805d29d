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
  const std::string key = key_of(address);
  const std::lock_guard lock(mutex_);
  if (made_.count(key, now) >= per_hour_) return false;
  made_.add(key, now);
  return true;
}

}  // namespace elgrande::server
