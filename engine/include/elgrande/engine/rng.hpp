#pragma once

#include <cstdint>

namespace elgrande {

// SplitMix64: small, fast, and the same on every platform and compiler, so a seed means
// the same game everywhere (std::uniform_int_distribution would not).
struct Rng {
  std::uint64_t state = 0;

  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound), bound > 0 (Lemire's multiply-and-reject).
  std::uint32_t below(std::uint32_t bound) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * bound;
    auto low = static_cast<std::uint32_t>(m);
    if (low < bound) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
      while (low < threshold) {
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * bound;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  template <typename Container>
  void shuffle(Container& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const std::size_t j = below(static_cast<std::uint32_t>(i));
      auto tmp = items[i - 1];
      items[i - 1] = items[j];
      items[j] = tmp;
    }
  }

  friend bool operator==(const Rng&, const Rng&) = default;
};

}  // namespace elgrande
