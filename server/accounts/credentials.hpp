#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace elgrande::server {

// Usernames are what players sign in with and what nobody else may take: 3 to 20 ASCII
// letters, digits, '_' or '-', unique ignoring case. Display names are separate and free.
inline constexpr std::size_t kMinUsername = 3;
inline constexpr std::size_t kMaxUsername = 20;
// Passwords are bytes, any bytes: long passphrases are welcome, huge ones only cost work.
inline constexpr std::size_t kMinPassword = 8;
inline constexpr std::size_t kMaxPassword = 256;

std::optional<std::string> why_not_a_username(std::string_view username);
std::optional<std::string> why_not_a_password(std::string_view password);
// The form usernames are compared in: ASCII lower case.
std::string username_key(std::string_view username);

// What one Argon2id hash costs: OWASP's advice is at least 19 MiB and 2 passes (one lane,
// which is all libsodium offers).
struct PasswordCost {
  std::size_t memory_bytes = 19 * 1024 * 1024;
  unsigned long long passes = 2;
};

// libsodium's Argon2id string (parameters, a random salt and the hash). Blocks for the
// whole cost: call it off the I/O threads. Throws std::runtime_error if the memory cannot
// be had.
std::string hash_password(std::string_view password, const PasswordCost& cost);
// Whether `password` is the one `stored` was made from; false for a malformed `stored`.
bool verify_password(std::string_view stored, std::string_view password);
// Whether `stored` was made with other parameters than `cost`: rehash at the next sign-in.
bool needs_rehash(std::string_view stored, const PasswordCost& cost);

// The bounds libsodium accepts for a cost, for the configuration's checks.
std::size_t min_password_memory_bytes();
unsigned long long min_password_passes();

}  // namespace elgrande::server
