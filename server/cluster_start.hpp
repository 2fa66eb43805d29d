#pragma once

#include <functional>
#include <string>

#include "cluster/leadership.hpp"
#include "ops/config.hpp"

namespace elgrande::server {

// Serves as one of several processes on a PostgreSQL database (docs/scaling.md): relays
// its clients to the leader while another process leads, and takes over when it is gone,
// then runs `lead`, which calls `listening` with the address the others reach it at once
// it listens. Every process is in the processes' list (cluster/membership.hpp) from its
// first listen to its stop; the leader coordinates it.
using Listening = std::function<void(const std::string& address)>;
using Lead = std::function<int(const Config& config, Leadership& leadership, const Listening& listening)>;
int serve_cluster(const Config& config, const Lead& lead);

}  // namespace elgrande::server
