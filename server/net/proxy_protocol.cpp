#include "net/proxy_protocol.hpp"

#include "common/net.hpp"

namespace elgrande::server {

std::optional<std::string> proxied_client(std::string_view line) {
  // PROXY TCP4|TCP6 <source> <destination> <source port> <destination port>
  if (!line.starts_with("PROXY TCP4 ") && !line.starts_with("PROXY TCP6 ")) return std::nullopt;
  line.remove_prefix(11);
  const std::string_view source = line.substr(0, line.find(' '));
  boost::system::error_code ec;
  const auto address = net::ip::make_address(source, ec);
  if (ec) return std::nullopt;
  return address.to_string();
}

}  // namespace elgrande::server
