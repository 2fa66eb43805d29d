#include "ratings/ladders.hpp"

#include <algorithm>

namespace elgrande::server {

std::string ladder_of(const Options& options) {
  std::string ladder = std::to_string(options.players) + "p";
  if (options.automa) ladder += "-automa";
  if (options.short_game) ladder += "-short";
  return ladder;
}

bool is_ladder(std::string_view name) { return std::ranges::find(kLadders, name) != kLadders.end(); }

}  // namespace elgrande::server
