// elgrande-bot: plays random legal games against a running server, as many tables at
// once as asked, and prints what it measured. See docs/bot-client.md.

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <future>

#include "bot_client.hpp"
#include "sign_in_load.hpp"

namespace {

using elgrande::bot::Json;

constexpr std::string_view kUsage = R"(usage: elgrande-bot [options]
  --url ws://HOST:PORT/ws   the server (default ws://127.0.0.1:8080/ws); given again, more
                            processes of the same community, the clients spread over them
  --tables N                tables played at once (default 1)
  --players N               seats per table, 2..5 (default 4)
  --server-bots N           seats per table played by the server's bots (default 0)
  --server-bot-level LEVEL  how they play: random, easy, medium or strong (default: the
                            server's bot_level)
  --protocol 1|2            2 (the default) takes view patches, 1 whole views
  --short                   the short game
  --automa                  2 players with the automa
  --four-stacks             3 players with four stacks
  --turn-seconds N          per-decision time limit (default none)
  --seed N                  seed of this client's random choices (default 1)
  --think-ms N              pause before answering each decision (default 0)
  --time-limit SECONDS      give up after this long (default 600)
  --reconnect, --no-reconnect
                            after a lost connection (a server restarted or killed, a
                            cluster's leader taken over), connect again and carry on with
                            the token (default: on with more than one --url, off otherwise)
  --reconnect-pause-ms N    the pause before each new connection (default 200)
  --sign-ins-per-second R   meanwhile, sign in to an account at this rate, each on a new
                            connection (default 0: none); --tables 0 for sign-ins only
  --sign-in-connections N   sign-ins under way at once at most (default 8)
  --sign-in-seconds N       for this long (default 10)
  --seekers N               meanwhile, N accounts ask to play now (play.join) for the game
                            of --players, --short and --automa, and play where they are
                            seated (default 0); --tables 0 for seekers only
  --clock live|daily        the seekers' clock (default live)
  --bots-after SECONDS      the seekers let bots fill after this wait (default: never)
Prints one JSON object: games finished, commands, commands per second, and the time from
a command to every seat of its table having the update (median, p99); with sign-ins, how
many succeeded per second and their latency; with seekers, per table they were seated
at, the time from the last of them asking to play to the first of them being shown a
decision (median, p99). Exits 0 when every game ended without a failure and every
sign-in succeeded.
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
  bot::SignInSettings sign_ins;
  sign_ins.per_second = 0;
  bool url_given = false;
  std::optional<bool> reconnect;
  int tables = 1;
  long time_limit = 600;
  long seekers = 0;
  Json play_join = {{"clock", "live"}};
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
        // Repeated, the others are more processes serving the same community.
        (url_given ? settings.more_urls.emplace_back() : settings.url) = *url;
        url_given = true;
      } else if (flag == "--reconnect" || flag == "--no-reconnect") {
        reconnect = flag == "--reconnect";
      } else if (flag == "--reconnect-pause-ms") {
        settings.reconnect_pause = std::chrono::milliseconds(std::stol(value()));
      } else if (flag == "--tables") {
        tables = std::stoi(value());
      } else if (flag == "--players") {
        spec.options.players = std::stoi(value());
      } else if (flag == "--server-bots") {
        spec.server_bots = std::stoi(value());
      } else if (flag == "--server-bot-level") {
        spec.server_bot_level = value();
      } else if (flag == "--protocol") {
        settings.protocol = std::stoi(value());
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
      } else if (flag == "--sign-ins-per-second") {
        sign_ins.per_second = std::stod(value());
      } else if (flag == "--sign-in-connections") {
        sign_ins.connections = std::stoi(value());
      } else if (flag == "--sign-in-seconds") {
        sign_ins.duration = std::chrono::seconds(std::stol(value()));
      } else if (flag == "--seekers") {
        seekers = std::stol(value());
      } else if (flag == "--clock") {
        play_join["clock"] = value();
      } else if (flag == "--bots-after") {
        play_join["bots_after_seconds"] = std::stol(value());
      } else {
        throw std::invalid_argument("unknown option " + std::string(flag));
      }
    }
    // Several processes of one community are run to see failover: clients that give up at
    // the first lost connection would measure later takeovers under less load.
    settings.reconnect = reconnect.value_or(!settings.more_urls.empty());
    if (tables < 0 || seekers < 0 || (tables == 0 && sign_ins.per_second <= 0 && seekers == 0)) {
      throw std::invalid_argument("--tables must be at least 1, or 0 with sign-ins or seekers");
    }
    if (sign_ins.per_second < 0 || sign_ins.connections < 1) {
      throw std::invalid_argument("--sign-ins-per-second must be positive, --sign-in-connections at least 1");
    }
    if (spec.server_bots < 0 || spec.server_bots >= spec.options.players) {
      throw std::invalid_argument("--server-bots must leave at least one seat to this client");
    }
  } catch (const std::exception& error) {
    std::cerr << "elgrande-bot: " << error.what() << "\n" << kUsage;
    return 2;
  }

  std::future<bot::SignInReport> signing_in;
  if (sign_ins.per_second > 0) {
    sign_ins.url = settings.url;
    sign_ins.seed = settings.seed;
    signing_in = std::async(std::launch::async, [&sign_ins] { return bot::run_sign_ins(sign_ins); });
  }
  bot::Report report;
  bool seekers_done = true;
  if (tables > 0 || seekers > 0) {
    bot::Swarm swarm(settings);
    for (int t = 0; t < tables; ++t) swarm.add_table(spec);
    play_join["players"] = spec.options.players;
    play_join["short_game"] = spec.options.short_game;
    play_join["automa"] = spec.options.automa;
    swarm.add_seekers(static_cast<std::size_t>(seekers), play_join,
                      "seek" + std::to_string(settings.seed) + "_");
    report = swarm.run(std::chrono::seconds(time_limit));
    seekers_done = std::ranges::all_of(
        swarm.clients(), [](const auto& client) { return !client->entrant() || client->game_over(); });
  }

  Json errors = Json::object();
  for (const auto& [code, count] : report.errors) {
    errors[code] = {{"count", count}, {"first", report.error_examples.at(code)}};
  }
  Json summary = {
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
  if (seekers > 0) {
    summary["play_now"] = {{"seekers", seekers},
                           {"all_played_to_the_end", seekers_done},
                           {"join_to_first_decision_ms",
                            {{"median", percentile(report.join_to_decision_ms, 0.5)},
                             {"p99", percentile(report.join_to_decision_ms, 0.99)},
                             {"tables", report.join_to_decision_ms.size()}}}};
  }
  bool signed_in_all = true;
  if (signing_in.valid()) {
    try {
      const bot::SignInReport signed_in = signing_in.get();
      signed_in_all = signed_in.errors.empty();
      summary["sign_ins"] = {
          {"offered_per_second", sign_ins.per_second},
          {"signed_in", signed_in.signed_in},
          {"per_second", static_cast<double>(signed_in.signed_in) / signed_in.seconds},
          {"latency_ms", {{"median", percentile(signed_in.latencies_ms, 0.5)},
                          {"p99", percentile(signed_in.latencies_ms, 0.99)}}},
          {"errors", signed_in.errors},
      };
    } catch (const std::exception& error) {
      std::cerr << "elgrande-bot: sign-ins: " << error.what() << "\n";
      signed_in_all = false;
    }
  }
  std::cout << summary.dump(2) << std::endl;
  const bool all_played = report.games_finished == report.tables && seekers_done;
  return all_played && report.failures.empty() && signed_in_all ? 0 : 1;
}
