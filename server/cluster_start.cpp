#include "cluster_start.hpp"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <chrono>
#include <cstdint>
#include <csignal>
#include <exception>
#include <iostream>
#include <optional>
#include <stop_token>
#include <thread>
#include <utility>
#include <vector>

#include "cluster/membership.hpp"
#include "common/wait_or_stop.hpp"
#include "database_start.hpp"
#include "net/listener.hpp"
#include "net/peer_relay.hpp"
#include "net/session_registry.hpp"
#include "ops/metrics.hpp"
#include "ops/log_throttle.hpp"
#include "serving_start.hpp"
#include "tls_start.hpp"

namespace elgrande::server {
namespace {

enum class Followed : std::uint8_t { took_over, stopped };

// How long a follower waits for the leader's lock at a time, between looks at where the
// leader is: a new leader's address is known to the others within this.
constexpr std::chrono::milliseconds kWaitForLead{100};

// How long a follower that stops or takes over waits for its clients' close handshakes.
constexpr std::chrono::seconds kCloseGrace{2};

PeerRelay::Leader to_follow(const db::LeaderLease::Leader& leader) { return {leader.address, leader.peer_key}; }

// Serves while another process leads: holds its clients' connections and relays their
// messages and requests to the leader over a peer link (net/peer_relay.hpp), and waits for
// the leader's lock, which PostgreSQL grants the moment the leader's connection ends, so
// the first follower in line takes over at once. The waits run on a thread of their own:
// a database that is slow to answer must not hold up the relaying. With port 0,
// `config.port` becomes the port the kernel chose, for the leader to keep.
Followed follow(Config& config, Leadership& leadership, Membership& membership,
                const std::shared_ptr<TlsCertificate>& certificate) {
  const unsigned threads = config.io_threads();
  net::io_context io(static_cast<int>(threads));
  Metrics metrics;
  const std::shared_ptr<Services> services = transport_services(config, &metrics);
  serve_tls(*services, config, certificate);
  const auto relay = std::make_shared<PeerRelay>(io);
  services->relay = relay;
  const auto listener = std::make_shared<Listener>(
      io, tcp::endpoint(net::ip::make_address(config.bind_address), config.port), services);
  std::atomic<bool> stopped = false;
  net::steady_timer grace(io);
  // Its clients go (1001: going away) and reconnect, to whichever process they reach.
  const auto close_all = [&] {
    relay->stop();
    listener->stop([&] {
      grace.expires_after(kCloseGrace);
      grace.async_wait([&io](beast::error_code ec) {
        if (!ec) io.stop();
      });
      services->sessions->close_all([&io] { io.stop(); });
    });
  };
  net::signal_set signals(io, SIGINT, SIGTERM);
  net::signal_set hangup(io, SIGHUP);
  reload_on_hangup(hangup, certificate);
  signals.async_wait([&](beast::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("received signal {}, shutting down", signal);
    stopped = true;
    hangup.cancel();
    close_all();
  });
  config.port = listener->local_endpoint().port();
  if (const auto leader = leadership.leader()) relay->follow(to_follow(*leader));  // before anyone connects
  const std::string where = describe(listener->local_endpoint());
  spdlog::info("listening on {}; another process leads this database, and clients are relayed to it", where);
  std::cout << "listening on " << where << std::endl;
  membership.join(config.cluster_address.empty() ? reachable(listener->local_endpoint()) : config.cluster_address);
  std::jthread looking([&](std::stop_token stop) {
    LogThrottle failures(std::chrono::seconds(10));
    while (!stop.stop_requested()) {
      try {
        if (leadership.try_lead(kWaitForLead)) {
          spdlog::info("the leader is gone: taking over (epoch {})", leadership.epoch());
          net::post(io, [&] {
            signals.cancel();
            hangup.cancel();
            close_all();
          });
          return;
        }
        const auto leader = leadership.leader();
        relay->follow(leader ? std::optional(to_follow(*leader)) : std::nullopt);
      } catch (const std::exception& error) {
        if (failures.occurred(std::chrono::steady_clock::now())) spdlog::error("looking for the leader: {}", error.what());
        wait_or_stop(stop, std::chrono::milliseconds(250));
      }
    }
  });
  listener->run();
  std::vector<std::thread> workers;
  for (unsigned i = 1; i < threads; ++i) workers.emplace_back([&io] { run_io(io); });
  run_io(io);
  for (std::thread& worker : workers) worker.join();
  looking.request_stop();
  looking.join();
  return stopped ? Followed::stopped : Followed::took_over;
}

}  // namespace

int serve_cluster(const Config& config, const Lead& lead) {
  open_database(config);  // migrated before any process leads
  // A follower serves TLS itself, and leads with the certificate later (read again then).
  const std::shared_ptr<TlsCertificate> certificate = load_certificate(config);
  const std::string process = process_name();
  Leadership leadership(config.database, process, true);
  Membership membership(config.database, process);
  // Drained, it stops as on SIGTERM: a leader lets a follower take over at once, a
  // follower closes the connections it relays; their clients reconnect to the others.
  membership.on_drain([] { ::kill(::getpid(), SIGTERM); });
  Config serving = config;
  bool restarted_in_place = false;
  while (!leadership.try_lead()) {
    // The leader named is this very address: this process restarts in place of one that
    // ended (kill -9, a crash) and whose lock PostgreSQL has not let go of yet. Relaying
    // to itself would loop; it waits for the lock, not listening meanwhile.
    const std::optional<std::string> own = own_address(serving);
    if (own && leadership.leader_address() == own) {
      if (!std::exchange(restarted_in_place, true))
        spdlog::info("the leader's address is this process's own ({}): waiting for its lock to be let go", *own);
      if (leadership.try_lead(kWaitForLead)) break;
      continue;
    }
    if (follow(serving, leadership, membership, certificate) == Followed::stopped) return 0;
  }
  spdlog::info("leading the server processes on this database (epoch {})", leadership.epoch());
  membership.coordinate();
  // From now on, once a second: is the lock still held? One whose connection to PostgreSQL
  // was lost may have been replaced, and stops (its commits would be refused by the fence
  // anyway). The question also keeps the lock's connection from falling silent, during
  // the restore too.
  std::jthread watchdog([&leadership](std::stop_token stop) {
    while (wait_or_stop(stop, std::chrono::seconds(1))) {
      if (!leadership.still_leading()) step_down("the connection that held the leader's lock was lost");
    }
  });
  const int status = lead(serving, leadership, [&](const std::string& address) {
    leadership.announce(address);
    membership.join(address);
  });
  watchdog.request_stop();
  watchdog.join();
  leadership.resign();
  return status;
}

}  // namespace elgrande::server
