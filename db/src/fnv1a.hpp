#pragma once

// FNV-1a, 64 bits: the checksum of snapshot bytes and the command log's hash chain. It
// finds damage, not forgery.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

namespace elgrande::db::detail {

inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
inline constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

inline std::uint64_t fnv1a(std::uint64_t hash, std::span<const std::byte> bytes) {
  for (const std::byte b : bytes) hash = (hash ^ static_cast<std::uint8_t>(b)) * kFnvPrime;
  return hash;
}

template <class Value>
std::uint64_t fnv1a(std::uint64_t hash, const Value& value) {
  static_assert(std::is_integral_v<Value>);
  return fnv1a(hash, std::as_bytes(std::span(&value, 1)));
}

inline std::uint64_t fnv1a(std::uint64_t hash, std::string_view text) {
  return fnv1a(fnv1a(hash, static_cast<std::uint64_t>(text.size())), std::as_bytes(std::span(text.data(), text.size())));
}

}  // namespace elgrande::db::detail
