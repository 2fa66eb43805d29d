// Several server processes on one PostgreSQL database, for the tests of docs/scaling.md.

#pragma once

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "elgrande/db/postgres.hpp"
#include "game_helpers.hpp"

namespace elgrande::test {

using namespace std::chrono_literals;

// Processes on the database of one directory, each restarted on the port it first had.
class Cluster {
 public:
  Cluster(const TempDir& dir, std::size_t size, std::vector<std::string> extra = {})
      : dir_(dir), extra_(std::move(extra)) {
    for (std::size_t i = 0; i < size; ++i) {
      processes_.push_back(std::make_unique<ServerProcess>(args(0)));
      ports_.push_back(processes_.back()->port());
      // The first leads before the others start, so that it is known which one does.
      if (i == 0) REQUIRE(wait_for_leader() == ports_[0]);
    }
  }

  ServerProcess& operator[](std::size_t i) { return *processes_[i]; }
  std::size_t size() const { return processes_.size(); }
  std::uint16_t port(std::size_t i) const { return ports_[i]; }

  // The port of the process that leads and has said where, once one does (0 after the timeout).
  std::uint16_t wait_for_leader(std::chrono::milliseconds timeout = 20s) {
    db::PostgresDatabase database(database_args(dir_)[3]);
    const auto until = Clock::now() + timeout;
    while (Clock::now() < until) {
      db::Statement row = database.prepare("SELECT address FROM leader");
      if (row.step() && !row.text(0).empty()) {
        const std::string address = row.text(0);
        const auto port = static_cast<std::uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
        // A leader that was just killed still has its row until the next one takes over.
        for (std::size_t i = 0; i < processes_.size(); ++i) {
          if (ports_[i] == port && processes_[i]) return port;
        }
      }
      std::this_thread::sleep_for(50ms);
    }
    return 0;
  }
  std::size_t leader() {
    const std::uint16_t port = wait_for_leader();
    for (std::size_t i = 0; i < ports_.size(); ++i) {
      if (ports_[i] == port) return i;
    }
    FAIL("no process leads");
    return 0;
  }

  void kill(std::size_t i) {
    processes_[i]->signal(SIGKILL);
    REQUIRE(processes_[i]->wait_for_exit(5s) == 128 + SIGKILL);
    processes_[i].reset();
  }
  void start(std::size_t i) { processes_[i] = std::make_unique<ServerProcess>(args(ports_[i])); }
  void stop(std::size_t i) {
    processes_[i]->signal(SIGTERM);
    REQUIRE(processes_[i]->wait_for_exit(10s) == 0);
    processes_[i].reset();
  }

  // Bots that reconnect after a process dies, thinking `think` a move, each command and
  // acknowledgement recorded in `log`.
  bot::SwarmSettings watched_swarm_settings(std::uint64_t seed, std::chrono::milliseconds think,
                                            Acknowledgements& log) {
    bot::SwarmSettings settings = swarm_settings(seed);
    settings.reconnect = true;
    settings.think = think;
    log.watch(settings);
    return settings;
  }
  bot::SwarmSettings swarm_settings(std::uint64_t seed) {
    bot::SwarmSettings settings = test::swarm_settings(*processes_[0], seed);
    for (std::size_t i = 1; i < processes_.size(); ++i) {
      settings.more_urls.push_back(*bot::parse_url("ws://127.0.0.1:" + std::to_string(ports_[i]) + "/ws"));
    }
    return settings;
  }

 private:
  std::vector<std::string> args(std::uint16_t port) const {
    std::vector<std::string> args = server_args(dir_);
    args.insert(args.end(), extra_.begin(), extra_.end());
    args.insert(args.end(), {"--port", std::to_string(port)});
    return args;
  }

  const TempDir& dir_;
  const std::vector<std::string> extra_;
  std::vector<std::unique_ptr<ServerProcess>> processes_;
  std::vector<std::uint16_t> ports_;
};

}  // namespace elgrande::test
