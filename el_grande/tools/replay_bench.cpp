// The replay figures (docs/replays.md, docs/performance.md): through games::GameModule, as
// the server's reader connections call it. Plays GAMES random full games of PLAYERS seats;
// then, for VERSIONS random versions of each, the time to build the view at that version
// from the log (restore of the log's prefix, then the spectator's whole update: what a
// viewer asking for one position costs), and per game the time to build every frame of its
// replay with secrets (GET /api/games/ID/replay). Prints p50 and p99 of each.
//   elgrande-replay-bench [GAMES] [PLAYERS] [VERSIONS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "elgrande/el_grande/module.hpp"
#include "elgrande/engine/rng.hpp"
#include "elgrande/protocol/codec.hpp"
#include "random_games.hpp"

namespace {

using namespace elgrande;
using Clock = std::chrono::steady_clock;

double microseconds(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

using bench::quantile;

}  // namespace

int main(int argc, char** argv) {
  const int games_wanted = argc > 1 ? std::atoi(argv[1]) : 20;
  const int players = argc > 2 ? std::atoi(argv[2]) : 5;
  const int versions = argc > 3 ? std::atoi(argv[3]) : 50;
  const games::GameModule& module = el_grande::module();
  Options options;
  options.players = players;
  const games::Json json = protocol::to_json(options);
  const games::Frame frame{1, false, std::nullopt, false};

  std::vector<double> view_us, replay_us;
  std::size_t moves = 0, bytes = 0;
  Rng pick{7};
  for (int g = 0; g < games_wanted; ++g) {
    const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(g);
    const std::vector<games::Recorded> log = bench::random_game(module, json, seed).log;
    moves += log.size();
    for (int i = 0; i < versions; ++i) {
      const auto version = static_cast<std::size_t>(pick.below(static_cast<std::uint32_t>(log.size()) + 1));
      const auto start = Clock::now();
      auto restored = module.restore(json, seed, std::nullopt, std::span(log).first(version));
      const std::string view =
          std::get<std::unique_ptr<games::Game>>(restored)->update(games::kSpectator, frame, nullptr, true, false).whole;
      view_us.push_back(microseconds(Clock::now() - start));
      bytes += view.size();
    }
    const auto start = Clock::now();
    const auto frames = module.replay(json, seed, log, 1, true);
    replay_us.push_back(microseconds(Clock::now() - start));
    for (const auto& f : std::get<std::vector<games::ReplayFrame>>(frames)) bytes += f.update.size() + f.secrets.size();
  }
  std::printf("%d games of %d players, %.0f moves each on average\n", games_wanted, players,
              static_cast<double>(moves) / games_wanted);
  std::printf("the view at a version, from the log: p50 %.0f us, p99 %.0f us (%zu versions)\n", quantile(view_us, 0.5),
              quantile(view_us, 0.99), view_us.size());
  std::printf("a whole replay with secrets: p50 %.1f ms, p99 %.1f ms (checksum %zu)\n", quantile(replay_us, 0.5) / 1000,
              quantile(replay_us, 0.99) / 1000, bytes);
  return 0;
}
