#include "accounts/credentials.hpp"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>

namespace elgrande::server {
namespace {

// sodium_init is thread-safe and idempotent; it picks the fastest implementations.
void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
}

bool username_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

}  // namespace

std::optional<std::string> why_not_a_username(std::string_view username) {
  if (username.size() < kMinUsername || username.size() > kMaxUsername) {
    return "must be " + std::to_string(kMinUsername) + " to " + std::to_string(kMaxUsername) + " characters";
  }
  if (!std::all_of(username.begin(), username.end(), username_character)) {
    return "may hold only letters a-z and A-Z, digits, '_' and '-'";
  }
  return std::nullopt;
}

std::optional<std::string> why_not_a_password(std::string_view password) {
  if (password.size() < kMinPassword || password.size() > kMaxPassword) {
    return "must be " + std::to_string(kMinPassword) + " to " + std::to_string(kMaxPassword) + " bytes";
  }
  return std::nullopt;
}

std::string username_key(std::string_view username) {
  std::string key(username);
  std::transform(key.begin(), key.end(), key.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return key;
}

std::string hash_password(std::string_view password, const PasswordCost& cost) {
  ensure_sodium();
  char stored[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(stored, password.data(), password.size(), cost.passes, cost.memory_bytes,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw std::runtime_error("password hashing ran out of memory");
  }
  return stored;
}

bool verify_password(std::string_view stored, std::string_view password) {
  ensure_sodium();
  // libsodium wants a NUL-terminated string no longer than its buffer.
  if (stored.size() >= crypto_pwhash_STRBYTES) return false;
  const std::string terminated(stored);
  return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

bool needs_rehash(std::string_view stored, const PasswordCost& cost) {
  ensure_sodium();
  if (stored.size() >= crypto_pwhash_STRBYTES) return true;
  const std::string terminated(stored);
  return crypto_pwhash_str_needs_rehash(terminated.c_str(), cost.passes, cost.memory_bytes) != 0;
}

std::size_t min_password_memory_bytes() { return crypto_pwhash_argon2id_MEMLIMIT_MIN; }
unsigned long long min_password_passes() { return crypto_pwhash_argon2id_OPSLIMIT_MIN; }

}  // namespace elgrande::server
