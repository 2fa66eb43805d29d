#include "tables/table_chat.hpp"

#include <algorithm>

#include "moderation/block_lists.hpp"
#include "moderation/sanctions.hpp"

namespace elgrande::server {

using protocol::ErrorCode;
using protocol::Json;

TableChat::TableChat(Shared shared, std::vector<db::ChatLine> recent)
    : shared_(shared), recent_(recent.begin(), recent.end()) {}

std::optional<Refusal> TableChat::check_text(const Json* text) {
  if (!text || !text->is_string() || text->get_ref<const std::string&>().empty() ||
      text->get_ref<const std::string&>().size() > kMaxBytes) {
    return Refusal{ErrorCode::bad_payload, "text: must be a string of 1 to " + std::to_string(kMaxBytes) + " bytes"};
  }
  return std::nullopt;
}

std::variant<db::ChatLine, Refusal> TableChat::say(const Player& speaker, std::optional<int> seat, const Json& text,
                                                   ChatLimits::Clock::time_point received, std::int64_t now_ms) {
  if (shared_.sanctions) {
    if (const auto muted = shared_.sanctions->in_force(speaker.id, SanctionKind::mute, now_ms)) {
      return Refusal{ErrorCode::forbidden, "you are " + describe(SanctionKind::mute, *muted), facts_of(*muted)};
    }
  }
  switch (shared_.limits.say(speaker.id, text.get_ref<const std::string&>(), received)) {
    case ChatLimits::Verdict::said:
      break;
    case ChatLimits::Verdict::too_fast:
      return Refusal{ErrorCode::rate_limited,
                     "at most " + std::to_string(ChatLimits::kLines) + " chat lines in " +
                         std::to_string(ChatLimits::kWindow.count()) + " seconds; wait a moment",
                     {{"why", "too_fast"}, {"max", ChatLimits::kLines}}};
    case ChatLimits::Verdict::repeated:
      return Refusal{ErrorCode::rate_limited, "you said that just now", {{"why", "repeated"}}};
  }
  std::int64_t id = 0;
  if (shared_.line_ids) {
    const auto taken = shared_.line_ids->take();
    if (!taken) return Refusal{ErrorCode::unavailable, kNoIdAtHand};
    id = *taken;
  }
  db::ChatLine line{speaker.id, speaker.name, seat, text.get<std::string>(), now_ms, id};
  recent_.push_back(line);
  if (recent_.size() > static_cast<std::size_t>(db::kRecentChat)) recent_.pop_front();
  return line;
}

std::optional<db::ChatLine> TableChat::remove(std::int64_t id) {
  const auto line = std::find_if(recent_.begin(), recent_.end(), [id](const db::ChatLine& l) { return l.id == id; });
  if (line == recent_.end() || line->removed) return std::nullopt;
  db::ChatLine was = *line;
  line->removed = true;
  line->text.clear();
  return was;
}

bool TableChat::rename(const Player& player) {
  bool spoke = false;
  for (db::ChatLine& line : recent_) {
    if (line.player != player.id) continue;
    line.name = player.name;
    spoke = true;
  }
  return spoke;
}

Json TableChat::history_for(PlayerId player) const {
  Json lines = Json::array();
  for (const db::ChatLine& line : recent_) {
    if (!blocks(player, line.player)) lines.push_back(line_json(line));
  }
  return lines;
}

bool TableChat::blocks(PlayerId player, PlayerId other) const {
  return shared_.block_lists && shared_.block_lists->blocks(player, other);
}

Json TableChat::line_json(const db::ChatLine& line) {
  Json json = {{"id", line.id}, {"from", to_json(Player{line.player, line.name})}, {"time", line.time}};
  if (line.removed) {
    json["removed"] = true;
  } else {
    json["text"] = line.text;
  }
  if (line.seat) json["seat"] = *line.seat;
  return json;
}

}  // namespace elgrande::server
