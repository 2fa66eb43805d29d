#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/view.hpp"

// An El Grande player for bot seats: information-set Monte Carlo tree search over the
// engine (docs/ai.md). It decides from its seat's view alone: every iteration draws a whole
// game consistent with that view (engine/determinize.hpp), so another seat's secrets can
// never reach the choice. Plain values and functions: no threads, no clock of its own.
namespace elgrande::ai {

// How hard a bot thinks. `random` answers with the engine's uniformly random legal command
// (the server's bot before there was a search: fast, and a fair stand-in for load tests).
enum class Level : std::uint8_t { random, easy, medium, strong };
std::string_view name(Level level);
std::optional<Level> level_from_name(std::string_view name);

struct Settings {
  int iterations = 0;    // determinised playouts per decision
  int width = 0;         // candidate answers compared at one decision, where there are more
  double exploration = 0.0;  // UCB1's constant, for rewards in [0, 1]
};
Settings settings(Level level);  // the searching levels' (random's are all 0)

// When to stop: after `iterations` (0: the level's), or earlier once `out_of_time` says so
// (polled between iterations; the caller owns the clock). With iterations only, a choice is
// a function of the view and the seed.
struct Budget {
  int iterations = 0;
  std::function<bool()> out_of_time;
};

struct Choice {
  Command command;
  int iterations = 0;   // playouts run
  int candidates = 0;   // answers compared at the root
  double value = 0.0;   // the chosen answer's mean reward, in [0, 1]
};

// The seat's answer to the decision its view shows (view.decision must be set).
Choice choose(const View& view, Level level, std::uint64_t seed, const Budget& budget = {});

// A second opinion on an answer a seat gave (docs/ai.md#second-opinion-review). A win share
// is the share of the playouts through an answer that the seat won, a shared win counting
// 1/winners: unlike a choice's value, the margin does not count.
struct Review {
  Command bot;                 // the search's answer
  double bot_win_share = 0.0;  // share of playouts through it that the seat won (a shared win counts 1/winners)
  int bot_visits = 0;
  Command played;
  double played_win_share = 0.0;
  int played_visits = 0;
  int iterations = 0;          // playouts run
  int candidates = 0;          // answers compared at the root
  bool same = false;           // the search's answer is the move played
};

// The search's opinion of `played`, the seat's answer to the decision its view shows: the
// level's search with `played` always among the answers compared at the root. Throws
// std::invalid_argument for the random level, a view that owes nothing, or a `played` the
// rules refuse. With one answer only, no search: it is both answers.
Review review(const View& view, const Command& played, Level level, std::uint64_t seed, const Budget& budget = {});

}  // namespace elgrande::ai
