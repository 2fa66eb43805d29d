#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/player.hpp"

namespace elgrande::server {

// What one player may say, across every table: at most kLines chat lines in any kWindow,
// and never the same text twice in a row. The time comes from the caller.
class ChatLimits {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kLines = 5;
  static constexpr std::chrono::seconds kWindow{10};

  enum class Verdict { said, too_fast, repeated };

  // Counts the line as said unless it is refused.
  Verdict say(PlayerId player, std::string_view text, Clock::time_point now);

 private:
  struct Recent {
    std::deque<Clock::time_point> said;  // within the window, oldest first
    std::string last_text;
  };

  std::mutex mutex_;
  std::unordered_map<PlayerId, Recent> players_;
  Clock::time_point next_sweep_{};
};

}  // namespace elgrande::server
