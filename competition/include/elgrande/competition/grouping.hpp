#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "elgrande/competition/results.hpp"

// Grouping a round's players into tables: how many tables of which size, who sits out, who
// sits together, and in which seat order. Pure functions of the players' standing, what
// earlier rounds did, and the event's seed.
namespace elgrande::competition {

struct TableSizes {
  int preferred = 5;
  int minimum = 4;
  std::optional<std::string> problem() const;  // outside 2 ≤ minimum ≤ preferred ≤ 5
};

// How `players` split into tables: as few tables as fit, their sizes as even as possible
// (so never smaller than needed), larger tables first; the players who cannot be seated at
// all sit out with a bye. 7 players, preferring 5, at least 4: two tables would be 4 and 3,
// so one table of 5 and 2 byes.
struct Seating {
  std::vector<int> tables;
  int byes = 0;
};
Seating seating(int players, TableSizes sizes);

// What earlier rounds did: who met whom how often, who sat where, who had byes.
class History {
 public:
  void add_table(const std::vector<PlayerId>& seats);  // seat 0 began the game
  void add_bye(PlayerId player);

  int meetings(PlayerId a, PlayerId b) const;
  int starts(PlayerId player) const { return in_seat(player, 0); }
  int in_seat(PlayerId player, int seat) const;
  int byes(PlayerId player) const;
  // Everyone `player` met, with how often.
  const std::vector<std::pair<PlayerId, int>>& opponents(PlayerId player) const;

 private:
  struct Record {
    std::vector<std::pair<PlayerId, int>> met;
    std::array<int, 5> seats{};
    int byes = 0;
  };
  std::unordered_map<PlayerId, Record> records_;
};

// One round: its tables in board order (board 1 holds the leaders), each in seat order.
struct RoundPlan {
  std::vector<std::vector<PlayerId>> tables;
  std::vector<PlayerId> byes;
};

// Who sits out when not everyone can be seated: from the bottom of the standing, the
// players with the fewest byes so far.
std::vector<PlayerId> choose_byes(const std::vector<PlayerId>& standing, int count,
                                  const History& history);

// Tables for `players` (best first) of the given sizes: first as few repeated meetings as
// possible (the sum over every pair at a table of how often they met before), then tables
// as close in standing as possible (the sum over tables of the standing places between
// their best and worst player). Exhaustive while the ways to split are at most 200,000
// (every count up to 12 players, and up to 15 at tables of 5), a local search with
// swaps beyond. Tables come in board order, members in
// standing order; `seat_order` seats them.
std::vector<std::vector<PlayerId>> group(const std::vector<PlayerId>& players,
                                         const std::vector<int>& table_sizes,
                                         const History& history, std::uint64_t seed);

// The seat order of one table: the player who began the fewest games begins this one, and
// then each seat goes to who sat there least (the sum over seats of earlier games in that
// seat is smallest); what is still equal is drawn by lot.
std::vector<PlayerId> seat_order(std::vector<PlayerId> table, const History& history,
                                 std::uint64_t seed);

// A Swiss round: byes, grouping and seat order. `standing` holds the active players, best
// first (round 1: by rating, or shuffled by the seed).
RoundPlan swiss_round(const std::vector<PlayerId>& standing, TableSizes sizes,
                      const History& history, std::uint64_t seed);

// The sum over every pair at the same table of how often they met before.
int repeated_meetings(const std::vector<std::vector<PlayerId>>& tables, const History& history);

}  // namespace elgrande::competition
