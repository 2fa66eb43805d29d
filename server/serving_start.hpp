#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "app/services.hpp"
#include "common/net.hpp"
#include "ops/config.hpp"

namespace elgrande::server {

// What every serving process does the same way, whether it serves its clients itself or
// relays them (main.cpp, cluster_start.cpp).

// An endpoint as logs and the `leader` row show it: an IPv6 literal in brackets.
std::string describe(const tcp::endpoint& endpoint);
// Where other processes reach this one: a wildcard bind is reached on loopback.
std::string reachable(const tcp::endpoint& endpoint);
// Where this process tells the others to relay to, when known before it listens (with
// port 0 the kernel chooses the port then).
std::optional<std::string> own_address(const Config& config);

// The transport's part of the services (limits, origins, proxies, the web client's files,
// the sessions' registry), the same for a process that serves its clients and one that
// relays them to the leader; the caller adds the rest.
std::shared_ptr<Services> transport_services(const Config& config, Metrics* metrics);

// Runs the I/O thread's handlers; one that throws is a bug, but it should cost one
// connection, not the server.
void run_io(net::io_context& io);

// How many connections to serve at once. The soft descriptor limit is raised to the hard
// one first (distributions often set 1,024 soft beside far more hard), and the connections
// are what is left of it after the reserve; a configured max_connections above that is
// lowered to it, since running out of descriptors would stall the database and health checks.
std::size_t connection_limit(const Config& config);

}  // namespace elgrande::server
