#include "ops/metrics.hpp"

#include <spdlog/fmt/fmt.h>

#include "elgrande/protocol/codec.hpp"

namespace elgrande::server {
namespace {

constexpr auto relaxed = std::memory_order_relaxed;

void header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

void single(std::string& out, std::string_view name, std::string_view type, std::string_view help,
            std::uint64_t value) {
  header(out, name, type, help);
  out += fmt::format("{} {}\n", name, value);
}

}  // namespace

void LatencyHistogram::observe(std::chrono::nanoseconds elapsed) {
  const double seconds = std::chrono::duration<double>(elapsed).count();
  std::size_t bucket = 0;
  while (bucket < kBounds.size() && seconds > kBounds[bucket]) ++bucket;
  buckets_[bucket].fetch_add(1, relaxed);
  count_.fetch_add(1, relaxed);
  sum_nanoseconds_.fetch_add(static_cast<std::uint64_t>(elapsed.count()), relaxed);
}

void LatencyHistogram::render(std::string& out, std::string_view name,
                              std::string_view help) const {
  header(out, name, "histogram", help);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    cumulative += buckets_[i].load(relaxed);
    out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, kBounds[i], cumulative);
  }
  cumulative += buckets_[kBounds.size()].load(relaxed);
  out += fmt::format("{}_bucket{{le=\"+Inf\"}} {}\n", name, cumulative);
  out += fmt::format("{}_sum {}\n", name, static_cast<double>(sum_nanoseconds_.load(relaxed)) / 1e9);
  out += fmt::format("{}_count {}\n", name, count_.load(relaxed));
}

std::string render_metrics(const Metrics& m, const Gauges& g) {
  std::string out;
  single(out, "elgrande_connections", "gauge", "Open WebSocket connections.", g.connections);
  single(out, "elgrande_connections_total", "counter", "WebSocket connections accepted.",
         m.connections_total.load(relaxed));
  single(out, "elgrande_open_sockets", "gauge", "Open client connections, HTTP and WebSocket.",
         g.open_sockets);
  single(out, "elgrande_connection_limit", "gauge",
         "Client connections served at once (max_connections, or what the descriptor limit allows).",
         g.connection_limit);
  single(out, "elgrande_connections_refused_total", "counter",
         "Connections closed at once: over the connection limit, or out of file descriptors.",
         m.connections_refused.load(relaxed));
  single(out, "elgrande_origins_refused_total", "counter",
         "WebSocket upgrades refused because the page's origin is not allowed.", m.origins_refused.load(relaxed));
  single(out, "elgrande_tls_handshakes_total", "counter", "TLS handshakes ended, whether or not they succeeded.",
         m.tls_handshakes.load(relaxed));
  single(out, "elgrande_tls_handshakes_failed_total", "counter",
         "TLS handshakes that failed: scanners, plain HTTP sent to the HTTPS port, untrusting clients.",
         m.tls_handshakes_failed.load(relaxed));
  single(out, "elgrande_players", "gauge", "Player identities known to the server.", g.players);

  header(out, "elgrande_tables", "gauge", "Tables by status.");
  out += fmt::format("elgrande_tables{{status=\"open\"}} {}\n", g.open_tables);
  out += fmt::format("elgrande_tables{{status=\"playing\"}} {}\n", g.playing_tables);
  out += fmt::format("elgrande_tables{{status=\"finished\"}} {}\n", g.finished_tables);

  single(out, "elgrande_tables_unrestorable", "gauge",
         "Tables found at start that could not be restored and stay out of play.",
         m.tables_unrestorable.load(relaxed));
  single(out, "elgrande_logs_damaged", "gauge",
         "Command logs found at start with a row that breaks their hash chain, a gap or a wrong end.",
         m.logs_damaged.load(relaxed));

  header(out, "elgrande_games", "gauge", "Games in progress by the phase they are in.");
  for (std::size_t p = 0; p < g.phases.size(); ++p) {
    out += fmt::format("elgrande_games{{phase=\"{}\"}} {}\n", g.phases[p],
                       p < g.games_by_phase.size() ? g.games_by_phase[p] : 0);
  }

  single(out, "elgrande_games_started_total", "counter", "Games started.",
         m.games_started.load(relaxed));
  single(out, "elgrande_games_finished_total", "counter", "Games played to the end.",
         m.games_finished.load(relaxed));
  single(out, "elgrande_messages_in_total", "counter", "WebSocket messages received.",
         m.messages_in.load(relaxed));
  single(out, "elgrande_messages_out_total", "counter", "WebSocket messages sent.",
         m.messages_out.load(relaxed));
  single(out, "elgrande_commands_total", "counter", "Game commands accepted from players.",
         m.commands.load(relaxed));
  single(out, "elgrande_bot_commands_total", "counter",
         "Game commands played by server bots, timeouts included.", m.bot_commands.load(relaxed));
  single(out, "elgrande_timeouts_total", "counter",
         "Decisions the server's bot made for a seat whose time ran out.", m.timeouts.load(relaxed));
  single(out, "elgrande_bot_decisions_refused_total", "counter",
         "Searching bots' decisions answered at random because too many waited for a thread.",
         m.bot_decisions_refused.load(relaxed));

  header(out, "elgrande_errors_total", "counter", "Error replies by code.");
  for (std::size_t c = 0; c < kErrorCodeCount; ++c) {
    out += fmt::format("elgrande_errors_total{{code=\"{}\"}} {}\n",
                       protocol::to_string(static_cast<protocol::ErrorCode>(c)),
                       m.errors[c].load(relaxed));
  }

  single(out, "elgrande_db_commits_total", "counter", "Database transactions committed.",
         m.db_commits.load(relaxed));
  single(out, "elgrande_db_writes_total", "counter",
         "Writes those transactions carried (several per commit under load).", m.db_writes.load(relaxed));
  single(out, "elgrande_db_errors_total", "counter", "Failed attempts at a database commit.",
         m.db_errors.load(relaxed));
  single(out, "elgrande_db_checkpoints_total", "counter",
         "Checkpoints of SQLite's write-ahead log, run beside the commits.", m.db_checkpoints.load(relaxed));
  single(out, "elgrande_backups_taken_total", "counter", "Scheduled backups taken and verified.",
         m.backups_taken.load(relaxed));
  single(out, "elgrande_backups_failed_total", "counter",
         "Scheduled backups that failed, in the copy or its verification.", m.backups_failed.load(relaxed));
  single(out, "elgrande_last_backup_timestamp_seconds", "gauge",
         "When the last verified scheduled backup was taken (Unix time; 0: none since the start).",
         static_cast<std::uint64_t>(m.last_backup_unix_seconds.load(relaxed)));
  single(out, "elgrande_webhooks_sent_total", "counter", "Turn notifications the webhook accepted.",
         m.webhooks_sent.load(relaxed));
  single(out, "elgrande_webhooks_failed_total", "counter",
         "Turn notifications given up after every attempt, or dropped from a full queue.",
         m.webhooks_failed.load(relaxed));
  single(out, "elgrande_mails_sent_total", "counter", "Notice and account mails the SMTP relay accepted.",
         m.mails_sent.load(relaxed));
  single(out, "elgrande_pushes_sent_total", "counter", "Web Push messages the push services accepted.",
         m.pushes_sent.load(relaxed));
  single(out, "elgrande_notices_failed_total", "counter",
         "Failed attempts at delivering a notice (the relay or a push service unreachable or refusing); each is "
         "tried again later.",
         m.notices_failed.load(relaxed));
  single(out, "elgrande_notices_dropped_total", "counter",
         "Notices given up after every attempt, or refused for good.", m.notices_dropped.load(relaxed));

  m.command_latency.render(out, "elgrande_command_latency_seconds",
                           "From reading a game command to every seat's update being queued, "
                           "its commit to the database included.");
  m.commit_latency.render(out, "elgrande_db_commit_seconds",
                          "One group commit to the database, retries included.");
  m.checkpoint_latency.render(out, "elgrande_db_checkpoint_seconds",
                              "One checkpoint of SQLite's write-ahead log, beside the commits.");
  m.bot_think_time.render(out, "elgrande_bot_think_seconds", "One searching bot's decision, on its worker thread.");
  return out;
}

}  // namespace elgrande::server
