#include <type_traits>

#include "elgrande/engine/events.hpp"

namespace elgrande {

Events visible_to(const Events& events, Seat viewer) {
  Events out;
  out.reserve(events.size());
  for (const Event& e : events)
    if (e.audience.includes(viewer)) out.push_back(e);
  return out;
}


std::string_view event_name(const EventBody& body) {
  static constexpr std::string_view kNames[] = {
      "game_started", "round_started", "automa_placed_caballeros", "automa_power_card_flipped",
      "power_card_played", "caballeros_taken", "action_card_taken", "caballeros_placed",
      "special_action_announced", "special_action_vetoed", "special_action_skipped",
      "caballeros_moved", "caballeros_returned", "caballeros_evicted", "scoreboard_placed",
      "king_moved", "grande_moved", "power_card_taken_back", "veto_laid", "veto_expired",
      "disk_set", "disks_revealed", "general_scoring_started", "area_scored",
      "castillo_emptied", "round_ended", "game_ended", "command_undone"};
  static_assert(std::size(kNames) == std::variant_size_v<EventBody>);
  return kNames[body.index()];
}

std::string_view command_name(const Command& command) {
  static constexpr std::string_view kNames[] = {
      "play_power_card", "take_caballeros", "take_action_card", "place_caballeros",
      "skip_special_action", "perform_special_action", "move_caballeros",
      "place_extra_caballeros", "score_area", "remove_caballeros", "place_scoreboard",
      "move_king", "evict", "move_grande", "take_back_power_card", "answer_veto",
      "return_caballeros", "set_disk", "undo"};
  static_assert(std::size(kNames) == std::variant_size_v<Command>);
  return kNames[command.index()];
}

}  // namespace elgrande
