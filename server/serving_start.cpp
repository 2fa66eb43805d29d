#include "serving_start.hpp"

#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <system_error>

#include "net/connection_limit.hpp"
#include "net/session_registry.hpp"
#include "net/web_files.hpp"

namespace elgrande::server {

std::string describe(const tcp::endpoint& endpoint) {
  const std::string address = endpoint.address().to_string();
  // An IPv6 literal is bracketed so that its colons are not read as the port's.
  return (endpoint.address().is_v6() ? "[" + address + "]" : address) + ":" +
         std::to_string(endpoint.port());
}

std::string reachable(const tcp::endpoint& endpoint) {
  if (!endpoint.address().is_unspecified()) return describe(endpoint);
  return describe(tcp::endpoint(endpoint.address().is_v6() ? net::ip::address(net::ip::address_v6::loopback())
                                                         : net::ip::address(net::ip::address_v4::loopback()),
                                endpoint.port()));
}

std::optional<std::string> own_address(const Config& config) {
  if (!config.cluster_address.empty()) return config.cluster_address;
  if (config.port == 0) return std::nullopt;
  return reachable(tcp::endpoint(net::ip::make_address(config.bind_address), config.port));
}

void run_io(net::io_context& io) {
  for (;;) {
    try {
      io.run();
      return;
    } catch (const std::exception& error) {
      spdlog::error("unhandled exception in an I/O thread: {}", error.what());
    }
  }
}

std::size_t connection_limit(const Config& config) {
  rlimit descriptors{};
  if (::getrlimit(RLIMIT_NOFILE, &descriptors) != 0) {
    spdlog::warn("cannot read the descriptor limit: {}", std::strerror(errno));
    return config.max_connections != 0 ? config.max_connections : 1000;
  }
  if (descriptors.rlim_cur < descriptors.rlim_max) {
    const rlim_t soft = descriptors.rlim_cur;
    descriptors.rlim_cur = descriptors.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &descriptors) != 0) descriptors.rlim_cur = soft;
  }
  const std::size_t allowed = connections_allowed(static_cast<std::size_t>(descriptors.rlim_cur));
  if (config.max_connections > allowed) {
    spdlog::warn("max_connections {} needs more file descriptors than the limit of {} allows; serving {} "
                 "(raise it with ulimit -n or LimitNOFILE=)",
                 config.max_connections, descriptors.rlim_cur, allowed);
  }
  const std::size_t limit = config.max_connections != 0 ? std::min<std::size_t>(config.max_connections, allowed) : allowed;
  spdlog::info("serving up to {} connections at once (file descriptor limit {})", limit, descriptors.rlim_cur);
  return limit;
}

std::shared_ptr<Services> transport_services(const Config& config, Metrics* metrics) {
  auto services = std::make_shared<Services>();
  services->sessions = std::make_shared<SessionRegistry>();
  services->metrics = metrics;
  std::error_code missing;
  if (std::filesystem::is_directory(config.web_root, missing)) {
    services->web_files = std::make_shared<WebFiles>(std::filesystem::absolute(config.web_root));
  }
  services->connections = std::make_shared<ConnectionLimit>(connection_limit(config));
  services->allowed_origins = config.allowed_origins;
  services->trusted_proxies = config.trusted_proxies;
  services->ws_limits = WsLimits{
      .max_message_bytes = config.max_message_bytes,
      .max_queued_messages = config.max_queued_messages,
      .messages_per_second = static_cast<double>(config.messages_per_second),
      .message_burst = static_cast<double>(config.message_burst),
  };
  return services;
}

}  // namespace elgrande::server
