// elgrande-bot: plays random legal games against a running server, as many tables at
// once as asked, and prints what it measured. See docs/bot-client.md.

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bot_client.hpp"

namespace {

using elgrande::bot::Json;

constexpr std::string_view kUsage = R"(usage: elgrande-bot [options]
  --url ws://HOST:PORT/ws   the server (default ws://127.0.0.1:8080/ws)
  --tables N                tables played at once (default 1)
  --players N               seats per table, 2..5 (default 4)
  --server-bots N           seats per table played by the server's bots (default 0)
  --short                   the short game
  --automa                  2 players with the automa
  --four-stacks             3 players with four stacks
  --turn-seconds N          per-decision time limit (default none)
  --seed N                  seed of this client's random choices (default 1)
  --think-ms N              pause before answering each decision (default 0)
  --time-limit SECONDS      give up after this long (default 600)
Prints one JSON object: games finished, commands, commands per second, and the time from
a command to every seat of its table having the update (median, p99). Exits 0 when every
game ended without a failure.
)";

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
  return values[rank];
}

}  // namespace

int main(int argc, char* argv[]) {
  namespace bot = elgrande::bot;
  bot::SwarmSettings settings;
  settings.url = *bot::parse_url("ws://127.0.0.1:8080/ws");
  bot::TableSpec spec;
  int tables = 1;
  long time_limit = 600;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string_view flag = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(std::string(flag) + " needs a value");
        return argv[++i];
      };
      if (flag == "--help") {
        std::cout << kUsage;
        return 0;
      } else if (flag == "--url") {
        const auto url = bot::parse_url(value());
        if (!url) throw std::invalid_argument("--url must look like ws://HOST:PORT/PATH");
        settings.url = *url;
      } else if (flag == "--tables") {
        tables = std::stoi(value());
      } else if (flag == "--players") {
        spec.options.players = std::stoi(value());
      } else if (flag == "--server-bots") {
        spec.server_bots = std::stoi(value());
      } else if (flag == "--short") {
        spec.options.short_game = true;
      } else if (flag == "--automa") {
        spec.options.automa = true;
      } else if (flag == "--four-stacks") {
        spec.options.four_stacks = true;
      } else if (flag == "--turn-seconds") {
        spec.turn_seconds = std::stoi(value());
      } else if (flag == "--think-ms") {
        settings.think = std::chrono::milliseconds(std::stoi(value()));
      } else if (flag == "--seed") {
        settings.seed = std::stoull(value());
      } else if (flag == "--time-limit") {
        time_limit = std::stol(value());
      } else {
        throw std::invalid_argument("unknown option " + std::string(flag));
      }
    }
    if (tables < 1) throw std::invalid_argument("--tables must be at least 1");
    if (spec.server_bots < 0 || spec.server_bots >= spec.options.players) {
      throw std::invalid_argument("--server-bots must leave at least one seat to this client");
    }
  } catch (const std::exception& error) {
    std::cerr << "elgrande-bot: " << error.what() << "\n" << kUsage;
    return 2;
  }

  bot::Swarm swarm(settings);
  for (int t = 0; t < tables; ++t) swarm.add_table(spec);
  const bot::Report report = swarm.run(std::chrono::seconds(time_limit));

  Json errors = Json::object();
  for (const auto& [code, count] : report.errors) {
    errors[code] = {{"count", count}, {"first", report.error_examples.at(code)}};
  }
  const Json summary = {
      {"tables", report.tables},
      {"games_finished", report.games_finished},
      {"commands", report.commands},
      {"seconds", report.seconds},
      {"commands_per_second", static_cast<double>(report.commands) / report.seconds},
      {"latency_us", {{"median", percentile(report.latencies_us, 0.5)},
                      {"p99", percentile(report.latencies_us, 0.99)},
                      {"samples", report.latencies_us.size()}}},
      {"errors", errors},
      {"failures", report.failures},
  };
  std::cout << summary.dump(2) << std::endl;
  return report.games_finished == report.tables && report.failures.empty() ? 0 : 1;
}
