// elgrande-load: the load figures of docs/performance.md. It holds many WebSocket
// connections from one process (from several loopback source addresses, so that the
// ephemeral ports of one address do not run out), plays many tables at once with random
// legal moves (protocol 2: each seat holds its view and applies the patches), paces the
// tables to a target rate of commands or lets them answer at once, and prints one JSON
// object: commands per second, the latency from a command to every seat of its table
// holding the new version (p50, p99, p99.9), connections held, and, given the server's
// pid, its CPU time per command and its memory.
//
// Each thread owns an io_context and the tables (and idle connections) given to it, so a
// table's connections never need a lock.
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/plain_json.hpp"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace elgrande;

struct Arguments {
  std::string host = "127.0.0.1";
  std::vector<tcp::endpoint> servers;  // --url, once or more; 127.0.0.1:8080 if none
  bool tls = false;                    // wss:// URLs
  std::string ca_file;                 // the CA the server's certificate is checked against
  std::string server_name = "localhost";  // the name it must carry
  int tables = 50;
  int players = 4;
  int spectators = 0;  // per table
  int idle = 0;        // connections that only say hello and stay
  int threads = 1;
  int sources = 0;     // loopback source addresses 127.0.0.2...; 0: one per 10,000 connections
  double rate = 0;     // commands per second over all tables; 0: every seat answers at once
  double seconds = 30;
  double warmup = 3;   // not counted
  bool short_game = false;
  std::vector<int> server_pids;  // their CPU and memory are summed
  std::vector<int> database_pids;  // a database server's processes: their CPU, summed apart
  // Against elgrande-relay: the frame sizes a real run measured (its "frames").
  bool relay = false;
  std::size_t command_bytes = 0, ack_bytes = 0, update_bytes = 0;
};

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "elgrande-load: %s\n"
               "usage: elgrande-load [--url ws[s]://HOST:PORT/ws ...] [--ca-file PEM] [--server-name NAME]\n"
               "                     [--tables N] [--players N] [--spectators N]\n"
               "                     [--idle N] [--threads N] [--sources N] [--rate COMMANDS_PER_S]\n"
               "                     [--seconds S] [--warmup S] [--short] [--server-pid PID ...]\n"
               "                     [--database-pid PID ...]\n"
               "                     [--relay --command-bytes N --ack-bytes N --update-bytes N]\n",
               problem);
  std::exit(2);
}

Arguments parse(int argc, char** argv) {
  Arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage("a flag lacks its value");
      return argv[++i];
    };
    if (flag == "--url") {
      const std::string url = value();
      a.tls = url.starts_with("wss://");
      const auto start = url.find("://"), colon = url.rfind(':'), slash = url.find('/', start + 3);
      if (start == std::string::npos || colon == std::string::npos || colon < start + 3) usage("--url ws://HOST:PORT/ws");
      // Given again: more processes serving the same community (docs/scaling.md); each
      // table's seats are spread over them.
      a.host = url.substr(start + 3, colon - start - 3);
      a.servers.emplace_back(net::ip::make_address(a.host),
                             static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1, slash - colon - 1))));
    } else if (flag == "--ca-file") {
      a.ca_file = value();
    } else if (flag == "--server-name") {
      a.server_name = value();
    } else if (flag == "--tables") {
      a.tables = std::stoi(value());
    } else if (flag == "--players") {
      a.players = std::stoi(value());
    } else if (flag == "--spectators") {
      a.spectators = std::stoi(value());
    } else if (flag == "--idle") {
      a.idle = std::stoi(value());
    } else if (flag == "--threads") {
      a.threads = std::max(1, std::stoi(value()));
    } else if (flag == "--sources") {
      a.sources = std::stoi(value());
    } else if (flag == "--rate") {
      a.rate = std::stod(value());
    } else if (flag == "--seconds") {
      a.seconds = std::stod(value());
    } else if (flag == "--warmup") {
      a.warmup = std::stod(value());
    } else if (flag == "--short") {
      a.short_game = true;
    } else if (flag == "--server-pid") {
      a.server_pids.push_back(std::stoi(value()));
    } else if (flag == "--database-pid") {
      a.database_pids.push_back(std::stoi(value()));
    } else if (flag == "--relay") {
      a.relay = true;
    } else if (flag == "--command-bytes") {
      a.command_bytes = std::stoul(value());
    } else if (flag == "--ack-bytes") {
      a.ack_bytes = std::stoul(value());
    } else if (flag == "--update-bytes") {
      a.update_bytes = std::stoul(value());
    } else {
      usage("unknown flag");
    }
  }
  if (a.players < 2 || a.players > 5) usage("--players is 2 to 5");
  if (a.servers.empty()) a.servers.emplace_back(net::ip::make_address_v4("127.0.0.1"), 8080);
  if (a.tables < 0 || a.idle < 0 || a.spectators < 0) usage("counts are never negative");
  return a;
}

#include "connection.hpp"  // after Arguments: what the run measures, one connection

#include "runs.hpp"  // the tables, played or relayed

// --- The server's own figures (and this process's), from /proc. ---

double cpu_seconds(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  long long utime = 0, stime = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14) utime = std::stoll(field);
    if (i == 15) {
      stime = std::stoll(field);
      break;
    }
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

long rss_kb(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

double server_cpu_seconds(const std::vector<int>& pids) {
  double total = 0;
  for (const int pid : pids) total += cpu_seconds(pid);
  return total;
}

long server_rss_kb(const std::vector<int>& pids) {
  long total = 0;
  for (const int pid : pids) total += rss_kb(pid);
  return total;
}

double percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  const auto at = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size()))) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(std::min(at, values.size() - 1)), values.end());
  return values[std::min(at, values.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments args = parse(argc, argv);
  // As many connections as the hard limit on descriptors allows.
  rlimit descriptors{};
  if (::getrlimit(RLIMIT_NOFILE, &descriptors) == 0 && descriptors.rlim_cur < descriptors.rlim_max) {
    descriptors.rlim_cur = descriptors.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &descriptors);
  }
  const std::vector<tcp::endpoint>& servers = args.servers;
  const int connections = args.tables * (args.players + args.spectators) + args.idle;
  const int sources = args.sources > 0 ? args.sources : std::max(1, connections / 10000 + 1);

  Tally tally;
  if (args.tls) {
    tally.tls = std::make_shared<net::ssl::context>(net::ssl::context::tls_client);
    if (args.ca_file.empty()) {
      tally.tls->set_default_verify_paths();
    } else {
      tally.tls->load_verify_file(args.ca_file);
    }
    tally.tls->set_verify_mode(net::ssl::verify_peer);
    tally.server_name = args.server_name;
  }
  std::vector<std::unique_ptr<net::io_context>> ios;
  for (int t = 0; t < args.threads; ++t) ios.push_back(std::make_unique<net::io_context>(1));
  std::vector<std::unique_ptr<net::executor_work_guard<net::io_context::executor_type>>> keep;
  for (auto& io : ios) keep.push_back(std::make_unique<net::executor_work_guard<net::io_context::executor_type>>(io->get_executor()));

  const long rss_before = server_rss_kb(args.server_pids);
  std::atomic<int> next_address{0};
  const std::function<net::ip::address()> next_source = [&] {
    const int n = next_address++ % sources;
    return net::ip::make_address_v4(static_cast<std::uint32_t>((127u << 24) | (2u + static_cast<unsigned>(n))));
  };

  // Idle connections first: the memory they cost the server is measured before any game.
  std::vector<std::shared_ptr<Connection>> idle;
  for (int i = 0; i < args.idle; ++i) {
    auto connection = std::make_shared<Connection>(*ios[static_cast<std::size_t>(i % args.threads)], tally);
    idle.push_back(connection);
  }
  std::vector<std::thread> threads;
  for (auto& io : ios) threads.emplace_back([&io] { io->run(); });
  const auto setup_started = Clock::now();
  const double setup_cpu_start = server_cpu_seconds(args.server_pids);
  for (std::size_t i = 0; i < idle.size(); ++i) {
    net::post(*ios[i % ios.size()], [&, i] {
      idle[i]->start(servers[i % servers.size()], next_source(), args.host, [&tally](const std::string& text) {
        if (text.find("\"hello.ok\"") != std::string::npos) ++tally.ready;
      }, [&, i] {
        idle[i]->send(Json{{"type", "hello"}, {"payload", {{"protocol", 2}, {"name", "Idle " + std::to_string(i)}}}});
      });
    });
    // A few hundred at a time: the server's accept queue is finite.
    while (i > 0 && i % 500 == 0 && tally.ready + 1000 < i && Clock::now() - setup_started < std::chrono::seconds(120))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  while (tally.ready < static_cast<std::size_t>(args.idle) && Clock::now() - setup_started < std::chrono::seconds(300))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const long rss_idle = server_rss_kb(args.server_pids);
  const std::size_t idle_ready = tally.ready;
  // What a connection costs to open: over TLS, mostly the handshake.
  const double setup_seconds = std::chrono::duration<double>(Clock::now() - setup_started).count();
  const double setup_cpu = server_cpu_seconds(args.server_pids) - setup_cpu_start;

  const double interval = args.rate > 0 ? args.tables / args.rate : 0;
  std::vector<std::unique_ptr<Run>> tables;
  for (int t = 0; t < args.tables; ++t) {
    net::io_context& io = *ios[static_cast<std::size_t>(t % args.threads)];
    if (args.relay) {
      tables.push_back(std::make_unique<RelayRun>(io, tally, args, t, interval));
    } else {
      tables.push_back(std::make_unique<TableRun>(io, tally, args, t, interval));
    }
  }
  for (int t = 0; t < args.tables; ++t) {
    net::post(*ios[static_cast<std::size_t>(t % args.threads)], [&, t] { tables[static_cast<std::size_t>(t)]->start(servers, next_source); });
    if (t % 100 == 99) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(args.warmup));

  tally.measuring = true;
  const double cpu_start = server_cpu_seconds(args.server_pids);
  const double database_cpu_start = server_cpu_seconds(args.database_pids);
  const double own_cpu_start = cpu_seconds(getpid());
  const auto started = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(args.seconds));
  tally.measuring = false;
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  const double cpu_used = server_cpu_seconds(args.server_pids) - cpu_start;
  const double database_cpu_used = server_cpu_seconds(args.database_pids) - database_cpu_start;
  const double own_cpu_used = cpu_seconds(getpid()) - own_cpu_start;
  const long rss_end = server_rss_kb(args.server_pids);
  const std::size_t held = tally.open;

  tally.stopping = true;
  for (std::size_t t = 0; t < ios.size(); ++t) keep[t].reset();
  for (auto& io : ios) io->stop();
  for (std::thread& thread : threads) thread.join();

  // Tables that made no move over the last few seconds (or intervals) of the run.
  const auto quiet = std::max(std::chrono::duration<double>(5), std::chrono::duration<double>(3 * interval));
  const auto ended = started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(elapsed));
  const auto stalled = std::count_if(tables.begin(), tables.end(), [&](const auto& table) {
    return ended - table->last_progress() > quiet;
  });
  const std::size_t commands = tally.commands;
  Json report = {
      {"tables", args.tables},
      {"players", args.players},
      {"spectators_per_table", args.spectators},
      {"idle", args.idle},
      {"threads", args.threads},
      {"tls", args.tls},
      {"source_addresses", sources},
      {"target_rate", args.rate},
      {"seconds", elapsed},
      {"connections", connections},
      {"connections_held", held},
      {"commands", commands},
      {"commands_per_second", static_cast<double>(commands) / elapsed},
      {"games_finished", tally.games.load()},
      {"stalled_tables", stalled},
      // What the relay is to send alike (--command-bytes, --ack-bytes, --update-bytes).
      {"frames",
       {{"command_bytes", commands ? tally.command_bytes / commands : 0},
        {"ack_bytes", tally.ack_frames ? tally.ack_bytes / tally.ack_frames : 0},
        {"update_bytes", tally.other_frames ? tally.other_bytes / tally.other_frames : 0},
        {"frames_per_command",
         commands ? static_cast<double>(tally.ack_frames + tally.other_frames) / static_cast<double>(commands) : 0.0}}},
  };
  {
    const std::lock_guard guard(tally.lock);
    report["latency_us"] = {{"samples", tally.latency_us.size()},
                            {"p50", percentile(tally.latency_us, 0.5)},
                            {"p99", percentile(tally.latency_us, 0.99)},
                            {"p999", percentile(tally.latency_us, 0.999)}};
    report["errors"] = tally.errors;
    report["failures"] = tally.failures;
  }
  // This process's own share: on a machine it shares with the server, what it takes is
  // not there for the server.
  report["generator"] = {{"cpu_us_per_command", commands ? own_cpu_used * 1e6 / static_cast<double>(commands) : 0.0},
                         {"cpu_share", own_cpu_used / elapsed}};
  if (!args.database_pids.empty()) {
    report["database"] = {
        {"cpu_us_per_command", commands ? database_cpu_used * 1e6 / static_cast<double>(commands) : 0.0},
        {"cpu_share", database_cpu_used / elapsed}};
  }
  if (!args.server_pids.empty()) {
    report["server"] = {{"cpu_us_per_command", commands ? cpu_used * 1e6 / static_cast<double>(commands) : 0.0},
                        {"cpu_share", cpu_used / elapsed},
                        {"rss_kb_before", rss_before},
                        {"rss_kb_idle", rss_idle},
                        {"rss_kb_end", rss_end}};
    if (idle_ready > 0) {
      report["server"]["kb_per_idle_connection"] =
          static_cast<double>(rss_idle - rss_before) / static_cast<double>(idle_ready);
      report["server"]["cpu_us_per_idle_connection_opened"] = setup_cpu * 1e6 / static_cast<double>(idle_ready);
      report["idle_connections_opened_per_second"] = static_cast<double>(idle_ready) / setup_seconds;
    }
  }
  std::printf("%s\n", report.dump(2).c_str());
  return tally.failures.empty() && stalled == 0 ? 0 : 1;
}
