#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bot_client.hpp"

namespace elgrande::bot {

// Sign-ins as players coming back on new devices make them: each on a new connection, the
// password checked by the server's workers. For the accounts' figures (docs/accounts.md).
struct SignInSettings {
  Url url;
  double per_second = 10;  // offered: sign-ins started per second, spread over `connections`
  int connections = 8;     // at most this many sign-ins under way at once
  std::chrono::seconds duration{10};
  std::uint64_t seed = 1;
};

struct SignInReport {
  std::size_t signed_in = 0;
  std::map<std::string, std::size_t> errors;  // by code, and "connection" for a failed connection
  double seconds = 0;
  std::vector<double> latencies_ms;  // from sending account.sign_in to its answer
};

// Makes one account (a guest signing up), then signs in to it at the offered rate until
// the duration is over.
SignInReport run_sign_ins(const SignInSettings& settings);

}  // namespace elgrande::bot
