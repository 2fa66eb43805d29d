#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "elgrande/engine/events.hpp"
#include "elgrande/engine/options.hpp"
#include "elgrande/engine/view.hpp"

// The text of a game.update (docs/protocol.md#gameupdate), the message the server sends
// most: every viewer of a table gets one after every command.
namespace elgrande::protocol {

// What an update says besides the view and the events.
struct UpdateHeader {
  std::int64_t table = 0;
  std::uint32_t version = 0;             // the game's, once the command is applied
  bool can_undo = false;                 // a seated player who may take back their last command
  std::optional<std::int64_t> deadline;  // when the receiver's decision times out, Unix ms
};

// One command's events, each written once for all the viewers it is shown to.
class EventTexts {
 public:
  EventTexts() = default;
  EventTexts(const Events& events, const Options& options);
  // The JSON array of those `viewer` may see (elgrande::visible_to), in order.
  void append_for(std::string& out, Seat viewer) const;
  // The events as a replay with its secrets open reads them, to anyone: each hidden one as
  // its owner read it (the others' redacted copy of it left out).
  EventTexts unredacted() const;

 private:
  std::vector<std::pair<Audience, std::string>> events_;
};

// With the whole view, or with the patch from the view the receiver holds (`base`, the one
// sent to it last); the receiver is the view's viewer.
std::string update_with_view(const UpdateHeader& header, const EventTexts& events, const View& view);
std::string update_with_patch(const UpdateHeader& header, const EventTexts& events, const View& base,
                              const View& view);

}  // namespace elgrande::protocol
