#pragma once

#include <optional>
#include <string>
#include <vector>

#include "elgrande/competition/elimination.hpp"
#include "elgrande/competition/grouping.hpp"
#include "elgrande/competition/pools.hpp"
#include "elgrande/competition/standings.hpp"

// A whole event: its stages in order (e.g. Swiss heats, then an elimination final), and
// what follows from the rounds played so far. The next round is a function of the event's
// seed and the stored results alone, so anyone can recompute and verify every round.
namespace elgrande::competition {

enum class Format { swiss, round_robin, elimination };
std::string_view name(Format format);
std::optional<Format> format_named(std::string_view name);

struct Stage {
  Format format = Format::swiss;
  TableSizes sizes;
  int rounds = 3;             // swiss: how many rounds
  int pools = 1;              // round_robin: how many pools
  int meetings = 1;           // round_robin: how often every pair in a pool meets
  int advance_per_table = 1;  // elimination: the top k of each table go on
  // Who enters this stage: the top n of the standings when it begins; 0: everyone still in.
  int qualifiers = 0;
  std::optional<std::string> problem() const;
};

// A round as planned, and board by board as played.
struct Round {
  int stage = 0;
  RoundPlan plan;
  std::vector<std::optional<TableResult>> results;  // per board; none while it is played
  bool finished() const;
};

struct Event {
  std::vector<Stage> stages;
  ScoringRules scoring;            // its seed is the event's
  std::vector<Entrant> entrants;   // withdrawn and disqualified ones play no more rounds
  std::vector<Round> rounds;       // in order
};

// Why these stages cannot run (none, or one that is wrong), if so.
std::optional<std::string> problem(const std::vector<Stage>& stages);

// The round to play next once every board of the last one has its result: its stage and
// its tables. Nothing once the event is over (its last stage has played out, or too few
// players are left to seat a table).
struct NextRound {
  int stage = 0;
  RoundPlan plan;
};
std::optional<NextRound> next_round(const Event& event);

// Standings over every round played. When an elimination stage has begun, its players rank
// above everyone else by the round they reached, and those of a finished final table by
// their place at it.
std::vector<Standing> event_standings(const Event& event);

// The seed of round `number` (from 1): every lot of the round is drawn from it.
std::uint64_t round_seed(std::uint64_t event_seed, int number);

}  // namespace elgrande::competition
