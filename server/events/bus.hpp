#pragma once

#include <functional>
#include <memory>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace elgrande::server {

// The domain's events, published once and heard by every capability that cares (lila's Bus
// is the model): "a game finished" reaches ratings and tournaments, "a player renamed"
// reaches the tables, and a third listener (notices, replays) is one more subscription in
// main, not another closure threaded through the publisher. The events are plain structs
// (events/events.hpp).
//
// Listeners subscribe at startup, before anything is published; from then on the bus is
// only read, so publishing takes no lock. A listener runs on the publisher's thread (a
// table's strand, or the database's writer for what must be in a transaction) and must be
// quick and safe there: a capability with its own strand posts to it.
class Bus {
 public:
  template <class Event>
  void subscribe(std::function<void(const Event&)> listener) {
    auto& slot = channels_[std::type_index(typeid(Event))];
    if (!slot) slot = std::make_shared<Channel<Event>>();
    static_cast<Channel<Event>&>(*slot).listeners.push_back(std::move(listener));
  }

  // Every listener of Event, in the order they subscribed.
  template <class Event>
  void publish(const Event& event) const {
    const auto found = channels_.find(std::type_index(typeid(Event)));
    if (found == channels_.end()) return;
    for (const auto& listener : static_cast<const Channel<Event>&>(*found->second).listeners) listener(event);
  }

 private:
  struct AnyChannel {
    virtual ~AnyChannel() = default;
  };
  template <class Event>
  struct Channel : AnyChannel {
    std::vector<std::function<void(const Event&)>> listeners;
  };
  std::unordered_map<std::type_index, std::shared_ptr<AnyChannel>> channels_;
};

}  // namespace elgrande::server
