#include "net/origin.hpp"

#include <algorithm>
#include <cctype>

namespace elgrande::server {
namespace {

std::string lower(std::string_view text) {
  std::string lowered(text);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lowered;
}

// "host:80" for http and "host:443" for https are "host": browsers leave default ports out
// of Origin, and clients may or may not put them in Host.
std::string without_default_port(std::string authority, std::string_view scheme) {
  const std::string_view port = scheme == "https" ? ":443" : ":80";
  if (authority.ends_with(port)) authority.resize(authority.size() - port.size());
  return authority;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed) {
  if (origin.empty()) return true;
  if (std::find(allowed.begin(), allowed.end(), "*") != allowed.end()) return true;
  const std::string seen = lower(origin);
  const std::size_t separator = seen.find("://");
  if (separator == std::string::npos) return false;  // "null" (a sandboxed frame, a file) among others
  const std::string scheme = seen.substr(0, separator);
  if (scheme != "http" && scheme != "https") return false;
  const std::string authority = without_default_port(seen.substr(separator + 3), scheme);
  if (authority.empty() || authority.find('/') != std::string::npos) return false;

  if (!host.empty() && authority == without_default_port(lower(host), scheme)) return true;
  return std::any_of(allowed.begin(), allowed.end(), [&](const std::string& listed) {
    return listed.starts_with(scheme + "://") &&
           without_default_port(listed.substr(separator + 3), scheme) == authority;
  });
}

std::string client_address(const boost::asio::ip::address& peer, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_proxies) {
  std::string address = peer.is_v6() && peer.to_v6().is_v4_mapped()
                            ? boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, peer.to_v6()).to_string()
                            : peer.to_string();
  if (forwarded_for.empty() ||
      std::find(trusted_proxies.begin(), trusted_proxies.end(), address) == trusted_proxies.end()) {
    return address;
  }
  // Earlier entries are whatever the client claimed; only the proxy's own addition counts.
  const std::size_t comma = forwarded_for.rfind(',');
  const std::string_view last = trimmed(comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1));
  boost::system::error_code ec;
  const auto named = boost::asio::ip::make_address(last, ec);
  return ec ? address : named.to_string();
}

}  // namespace elgrande::server
