#include "cluster/placement.hpp"

#include <tuple>

namespace elgrande::server {

bool takes_tables(const ProcessLoad& process) { return process.live && !process.draining; }

std::optional<std::size_t> place_new_table(std::span<const ProcessLoad> processes) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < processes.size(); ++i) {
    if (!takes_tables(processes[i])) continue;
    const auto key = [&](std::size_t k) { return std::tie(processes[k].tables, processes[k].registered); };
    if (!best || key(i) < key(*best)) best = i;
  }
  return best;
}

std::vector<Move> plan_moves(std::span<const ProcessLoad> processes, std::size_t leaving,
                             std::span<const std::int64_t> tables) {
  std::vector<ProcessLoad> after(processes.begin(), processes.end());
  after[leaving].draining = true;  // none goes back to it
  std::vector<Move> moves;
  for (const std::int64_t table : tables) {
    const std::optional<std::size_t> to = place_new_table(after);
    if (!to) return {};
    ++after[*to].tables;
    moves.push_back({table, *to});
  }
  return moves;
}

}  // namespace elgrande::server
