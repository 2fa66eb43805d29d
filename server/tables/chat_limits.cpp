#include "tables/chat_limits.hpp"

namespace elgrande::server {

ChatLimits::Verdict ChatLimits::say(PlayerId player, std::string_view text, Clock::time_point now) {
  const Clock::time_point start = now - kWindow;
  const std::lock_guard lock(mutex_);
  // Players silent for a window are forgotten now and then (their last text with them:
  // repeating it after a pause is no flood).
  if (now >= next_sweep_) {
    std::erase_if(players_, [start](const auto& entry) { return entry.second.said.empty() || entry.second.said.back() <= start; });
    next_sweep_ = now + kWindow;
  }
  Recent& recent = players_[player];
  while (!recent.said.empty() && recent.said.front() <= start) recent.said.pop_front();
  if (!recent.said.empty() && recent.last_text == text) return Verdict::repeated;
  if (recent.said.size() >= kLines) return Verdict::too_fast;
  recent.said.push_back(now);
  recent.last_text = text;
  return Verdict::said;
}

}  // namespace elgrande::server
