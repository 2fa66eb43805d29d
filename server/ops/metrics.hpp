#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/protocol/envelope.hpp"

namespace elgrande::server {

// A Prometheus histogram with fixed buckets, updated lock-free from any thread.
class LatencyHistogram {
 public:
  // Upper bounds in seconds; +Inf is implicit.
  static constexpr std::array<double, 14> kBounds{0.0001, 0.00025, 0.0005, 0.001, 0.0025,
                                                  0.005,  0.01,    0.025,  0.05,  0.1,
                                                  0.25,   0.5,     1,      2.5};

  void observe(std::chrono::nanoseconds elapsed);
  void render(std::string& out, std::string_view name, std::string_view help) const;

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> buckets_{};  // not cumulative
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_nanoseconds_{0};
};

inline constexpr std::size_t kErrorCodeCount =
    static_cast<std::size_t>(protocol::ErrorCode::unavailable) + 1;

// Counters for GET /metrics. Relaxed atomics: each figure is exact on its own, and a
// scrape need not be a consistent snapshot across figures.
struct Metrics {
  std::atomic<std::uint64_t> messages_in{0};
  std::atomic<std::uint64_t> messages_out{0};
  std::atomic<std::uint64_t> commands{0};  // game commands the engine accepted
  std::atomic<std::uint64_t> bot_commands{0};
  std::atomic<std::uint64_t> timeouts{0};  // decisions the server made for a late seat
  // Searching bots' decisions answered at random because too many waited for a thread.
  std::atomic<std::uint64_t> bot_decisions_refused{0};
  std::atomic<std::uint64_t> games_started{0};
  std::atomic<std::uint64_t> games_finished{0};
  std::atomic<std::uint64_t> connections_total{0};
  // Connections closed at once: over the connection limit, or out of file descriptors.
  std::atomic<std::uint64_t> connections_refused{0};
  // WebSocket upgrades refused because the page's origin is not allowed.
  std::atomic<std::uint64_t> origins_refused{0};
  std::atomic<std::uint64_t> tls_handshakes{0};         // begun and ended, either way
  std::atomic<std::uint64_t> tls_handshakes_failed{0};
  std::array<std::atomic<std::uint64_t>, kErrorCodeCount> errors{};
  std::atomic<std::uint64_t> db_commits{0};  // transactions committed
  std::atomic<std::uint64_t> db_writes{0};   // writes they carried (group commit)
  std::atomic<std::uint64_t> db_errors{0};   // failed attempts at a commit
  std::atomic<std::uint64_t> db_checkpoints{0};  // SQLite's log copied back (storage/checkpointer.hpp)
  // Scheduled backups (storage/backups.hpp): verified and kept, failed (the copy or its
  // verification), and when the last good one was taken (0: none yet).
  std::atomic<std::uint64_t> backups_taken{0};
  std::atomic<std::uint64_t> backups_failed{0};
  std::atomic<std::int64_t> last_backup_unix_seconds{0};
  std::atomic<std::uint64_t> webhooks_sent{0};
  std::atomic<std::uint64_t> webhooks_failed{0};  // given up after every attempt, or dropped
  // Notices (docs/notifications.md): mails the relay accepted, push messages a push service
  // accepted, failed attempts at either (each retried later), and notices given up.
  std::atomic<std::uint64_t> mails_sent{0};
  std::atomic<std::uint64_t> pushes_sent{0};
  std::atomic<std::uint64_t> notices_failed{0};
  std::atomic<std::uint64_t> notices_dropped{0};
  // Tables found at start that could not be restored (a damaged log, say) and stay out of
  // play until an operator looks (elgrande-server --check-table ID).
  std::atomic<std::uint64_t> tables_unrestorable{0};
  // Command logs found damaged at start, finished games' too (storage/start_checks.hpp).
  std::atomic<std::uint64_t> logs_damaged{0};
  // From reading a game.command to every seat's update being queued, the commit included.
  LatencyHistogram command_latency;
  LatencyHistogram commit_latency;  // one group commit, retries included
  LatencyHistogram checkpoint_latency;  // one checkpoint of SQLite's log, beside the commits
  LatencyHistogram bot_think_time;  // one searching bot's decision, on its worker thread

  void count_error(protocol::ErrorCode code) {
    errors[static_cast<std::size_t>(code)].fetch_add(1, std::memory_order_relaxed);
  }
};

// What the gauges show at the moment of a scrape.
struct Gauges {
  std::size_t connections = 0;       // WebSocket
  std::size_t open_sockets = 0;      // every client connection, HTTP ones included
  std::size_t connection_limit = 0;
  std::size_t players = 0;
  std::size_t open_tables = 0;
  std::size_t playing_tables = 0;
  std::size_t finished_tables = 0;
  std::span<const std::string_view> phases;  // of a game in play, as the game module names them
  std::vector<std::size_t> games_by_phase;   // per phase: games in play in it
};

// The Prometheus text exposition format (version 0.0.4).
std::string render_metrics(const Metrics& metrics, const Gauges& gauges);

}  // namespace elgrande::server
