#include "elgrande/competition/draw.hpp"

#include <algorithm>

namespace elgrande::competition {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t lot(std::uint64_t seed, std::uint64_t key) { return splitmix64(splitmix64(seed) ^ key); }

std::vector<PlayerId> shuffled(std::vector<PlayerId> players, std::uint64_t seed) {
  std::sort(players.begin(), players.end(), [seed](PlayerId a, PlayerId b) {
    const auto la = lot(seed, static_cast<std::uint64_t>(a));
    const auto lb = lot(seed, static_cast<std::uint64_t>(b));
    return la != lb ? la < lb : a < b;
  });
  return players;
}

}  // namespace elgrande::competition
