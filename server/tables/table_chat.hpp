#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <variant>
#include <vector>

#include "common/id_supply.hpp"
#include "common/player.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "tables/chat_limits.hpp"
#include "tables/seating.hpp"

namespace elgrande::server {

class BlockLists;
class Sanctions;

// A table's chat: its last lines, who may say what, and what each member is shown of it.
// Used on the table's strand; the table saves the lines and sends them.
class TableChat {
 public:
  // What every table's chat shares: a player's lines count wherever they are said; lines
  // are numbered across tables before they are saved, so that a moderator can name one.
  struct Shared {
    ChatLimits& limits;
    const Sanctions* sanctions = nullptr;     // who is muted; none: nobody
    const BlockLists* block_lists = nullptr;  // whom each player blocks; none: nobody blocks
    IdSupply* line_ids = nullptr;  // none: the database numbers them
  };
  static constexpr std::size_t kMaxBytes = 500;

  // `recent`: the last lines saved, oldest first (a table brought back).
  TableChat(Shared shared, std::vector<db::ChatLine> recent = {});

  // Why a line's text (none: missing) cannot be said, if it cannot: not a string, empty or
  // longer than kMaxBytes.
  static std::optional<Refusal> check_text(const protocol::Json* text);
  // `speaker`'s new line (from `seat`, none for a spectator) with `text` (checked), kept
  // among the last lines; or why not: a mute, too many lines or the same line again.
  std::variant<db::ChatLine, Refusal> say(const Player& speaker, std::optional<int> seat, const protocol::Json& text,
                                          ChatLimits::Clock::time_point received, std::int64_t now_ms);
  // Removes a line's text for good (a moderator's): the line as it was, or none if it is
  // not among the last lines or is gone already.
  std::optional<db::ChatLine> remove(std::int64_t line);
  // The player's new name on their lines; whether they had any.
  bool rename(const Player& player);

  // The last lines as table.chat_history carries them, without those of whom `player`
  // blocks; an empty array if none is left.
  protocol::Json history_for(PlayerId player) const;
  // Whether `player` blocks `other`.
  bool blocks(PlayerId player, PlayerId other) const;
  // A line as table.chat and table.chat_history carry it (without the table).
  static protocol::Json line_json(const db::ChatLine& line);

 private:
  Shared shared_;
  std::deque<db::ChatLine> recent_;  // the last db::kRecentChat lines, oldest first
};

}  // namespace elgrande::server
