#include "elgrande/protocol/updates.hpp"

#include <string_view>

#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/envelope.hpp"

namespace elgrande::protocol {

EventTexts::EventTexts(const Events& events, const Options& options) {
  events_.reserve(events.size());
  for (const Event& event : events) {
    std::string text;
    append_event_text(text, event.body, options);
    events_.emplace_back(event.audience, std::move(text));
  }
}

void EventTexts::append_for(std::string& out, Seat viewer) const {
  out += '[';
  bool first = true;
  for (const auto& [audience, text] : events_) {
    if (!audience.includes(viewer)) continue;
    if (!first) out += ',';
    first = false;
    out += text;
  }
  out += ']';
}

EventTexts EventTexts::unredacted() const {
  EventTexts open;
  for (const auto& [audience, text] : events_) {
    if (audience.kind == Audience::Kind::all_but) continue;  // the owner's own copy says it all
    open.events_.emplace_back(Audience{}, text);
  }
  return open;
}

namespace {

// {"payload":{"base"?,"can_undo"?,"deadline"?,"events","patch"|"view","table","version"},
// "type":"game.update"}: keys in the order nlohmann writes them, as every other message.
std::string update(const UpdateHeader& header, const EventTexts& events, const View* base, const View& view) {
  std::string out;
  out.reserve(512);
  out += "{\"payload\":{";
  if (base) out += "\"base\":" + std::to_string(base->version) + ',';
  if (header.can_undo) out += "\"can_undo\":true,";
  if (header.deadline) out += "\"deadline\":" + std::to_string(*header.deadline) + ',';
  out += "\"events\":";
  events.append_for(out, view.viewer);
  if (base) {
    out += ",\"patch\":";
    append_view_patch(out, *base, view);
  }
  out += ",\"table\":" + std::to_string(header.table);
  out += ",\"version\":" + std::to_string(header.version);
  if (!base) {
    out += ",\"view\":";
    append_view(out, view);
  }
  out += "},\"type\":\"game.update\"}";
  return out;
}

}  // namespace

std::string update_with_view(const UpdateHeader& header, const EventTexts& events, const View& view) {
  return update(header, events, nullptr, view);
}

std::string update_with_patch(const UpdateHeader& header, const EventTexts& events, const View& base,
                              const View& view) {
  return update(header, events, &base, view);
}

}  // namespace elgrande::protocol
