#include "tables/table_feed.hpp"

#include <algorithm>

#include "ops/webhook.hpp"

namespace elgrande::server {
namespace {

// Erases `connection` (by address) and every expired entry; true if it was there.
bool erase(std::vector<WeakRecipient>& list, const Recipient* connection) {
  bool found = false;
  std::erase_if(list, [&](const WeakRecipient& weak) {
    const auto alive = weak.lock();
    if (alive && alive.get() == connection) found = true;
    return !alive || alive.get() == connection;
  });
  return found;
}

bool contains(const std::vector<WeakRecipient>& list, const Recipient* connection) {
  return std::any_of(list.begin(), list.end(), [&](const WeakRecipient& weak) {
    const auto alive = weak.lock();
    return alive && alive.get() == connection;
  });
}

}  // namespace

TableFeed::TableFeed(Metrics& metrics, Webhook* webhook, std::size_t max_waiting)
    : metrics_(metrics), webhook_(webhook), max_waiting_(max_waiting) {}

void TableFeed::connect(PlayerId player, const RecipientPtr& connection) {
  auto& list = players_[player];
  if (!contains(list, connection.get())) list.push_back(connection);
}

void TableFeed::disconnect(const Recipient* connection) {
  for (auto it = players_.begin(); it != players_.end();) {
    erase(it->second, connection);
    it = it->second.empty() ? players_.erase(it) : std::next(it);
  }
  erase(spectators_, connection);
  spectator_players_.erase(connection);
  holds_.erase(connection);
}

bool TableFeed::watch(const RecipientPtr& connection, PlayerId player) {
  if (contains(spectators_, connection.get())) return false;
  spectators_.push_back(connection);
  spectator_players_[connection.get()] = player;
  return true;
}

bool TableFeed::watching(const Recipient* connection) const { return contains(spectators_, connection); }

bool TableFeed::stop_watching(const Recipient* connection) {
  spectator_players_.erase(connection);
  holds_.erase(connection);
  return erase(spectators_, connection);
}

void TableFeed::forget(PlayerId player) {
  const auto found = players_.find(player);
  if (found == players_.end()) return;
  for (const auto& weak : found->second)
    if (const auto connection = weak.lock()) holds_.erase(connection.get());
  players_.erase(found);
}

void TableFeed::committed(std::uint64_t save) {
  committed_ = std::max(committed_, save);
  flush();
}

void TableFeed::abandon() {
  for (Outgoing& held : outbox_) {
    if (!held.to || !held.answering) continue;
    held.to->deliver(std::make_shared<const std::string>(protocol::error_message(
        protocol::ErrorCode::internal,
        "this table stopped on a server error before your request was saved; a restart brings it back as last saved",
        held.answering->id)));
  }
  outbox_.clear();
  waiting_.clear();
  commands_waiting_.clear();
  // Nothing waits for those saves any more: what the stopped table still says (its
  // refusals) goes out at once.
  committed_ = saves_;
}

void TableFeed::send(const RecipientPtr& to, Message message, std::optional<Answering> answering) {
  if (outbox_.empty() && committed_ == saves_) return dispatch(to, std::move(message));
  if (to) {
    // A connection this far behind (a flood of requests during an outage, say) is cut
    // off, as its own full queue would cut it off; it is told everything afresh when it
    // comes back. The count matches its entries in the outbox, which keep it alive.
    std::size_t& waiting = waiting_[to.get()];
    if (waiting == max_waiting_) return to->close();
    ++waiting;
  }
  outbox_.push_back(Outgoing{saves_, to, std::move(message), std::move(answering)});
}

void TableFeed::notify(std::string body) {
  if (webhook_) send(nullptr, std::make_shared<const std::string>(std::move(body)));
}

void TableFeed::dispatch(const RecipientPtr& to, Message message) {
  if (to) {
    to->deliver(std::move(message));
  } else if (webhook_) {
    webhook_->notify(std::move(message));
  }
}

void TableFeed::flush() {
  // An answer waits for the next message released to the same connection, to leave with
  // it in one write: a command's acknowledgement and the update it brought its seat.
  while (!outbox_.empty() && outbox_.front().after_save <= committed_) {
    Outgoing& next = outbox_.front();
    if (next.to) {
      const auto count = waiting_.find(next.to.get());
      if (count != waiting_.end() && --count->second == 0) waiting_.erase(count);
    }
    const auto answer = std::find_if(unpaired_.begin(), unpaired_.end(),
                                     [&](const Unpaired& held) { return next.to && held.to == next.to; });
    if (answer != unpaired_.end()) {
      next.to->deliver(std::move(answer->message), std::move(next.message));
      unpaired_.erase(answer);
    } else if (next.to && next.answering) {
      unpaired_.push_back({std::move(next.to), std::move(next.message)});
    } else {
      dispatch(next.to, std::move(next.message));
    }
    outbox_.pop_front();
  }
  for (Unpaired& answer : unpaired_) answer.to->deliver(std::move(answer.message));
  unpaired_.clear();
  const auto now = Clock::now();
  while (!commands_waiting_.empty() && commands_waiting_.front().first <= committed_) {
    metrics_.command_latency.observe(now - commands_waiting_.front().second);
    commands_waiting_.pop_front();
  }
}

void TableFeed::send_to_player(PlayerId player, const Message& message) {
  const auto found = players_.find(player);
  if (found == players_.end()) return;
  // Copied: sending may cut a connection off, and its disconnect comes back to this list.
  const std::vector<WeakRecipient> connections = found->second;
  for (const auto& weak : connections) {
    if (auto connection = weak.lock()) send(connection, message);
  }
}

void TableFeed::send_to_members(const Seating& seating, std::string text,
                                const std::function<bool(PlayerId)>& wants) {
  const auto message = std::make_shared<const std::string>(std::move(text));
  for (const PlayerId player : seating.members()) {
    if (!wants || wants(player)) send_to_player(player, message);
  }
  std::erase_if(spectators_, [](const WeakRecipient& weak) { return weak.expired(); });
  const std::vector<WeakRecipient> spectators = spectators_;
  for (const auto& weak : spectators) {
    auto connection = weak.lock();
    if (!connection) continue;
    const auto player = spectator_players_.find(connection.get());
    if (wants && player != spectator_players_.end() && !wants(player->second)) continue;
    send(connection, message);
  }
}

void TableFeed::send_view(const RecipientPtr& to, int viewer, std::string message) {
  holds_[to.get()] = viewer;
  send(to, std::move(message));
}

void TableFeed::send_update(const Seating& seating,
                            const std::function<Update(int viewer, bool whole, bool patch)>& update) {
  auto send_to = [&](int viewer, const std::vector<RecipientPtr>& connections) {
    auto patched = [&](const RecipientPtr& connection) {
      const auto held = holds_.find(connection.get());
      return connection->takes_view_patches() && held != holds_.end() && held->second == viewer;
    };
    bool whole = false, patch = false;
    for (const auto& connection : connections) (patched(connection) ? patch : whole) = true;
    if (!whole && !patch) return;
    Update built = update(viewer, whole, patch);
    const auto shared = [](std::string& text, bool wanted) {
      return wanted ? std::make_shared<const std::string>(std::move(text)) : nullptr;
    };
    const auto whole_message = shared(built.whole, whole);
    const auto patch_message = shared(built.patch, patch);
    for (const auto& connection : connections) {
      if (patched(connection)) {
        send(connection, patch_message);
      } else {
        holds_[connection.get()] = viewer;
        send(connection, whole_message);
      }
    }
  };
  std::vector<RecipientPtr> watching;
  for (int s = 0; s < seating.size(); ++s) {
    const Seat& seat = seating[s];
    if (!seat.player || seat.left) continue;
    const auto found = players_.find(seat.player->id);
    if (found == players_.end()) continue;  // nobody to serialise it for
    std::vector<RecipientPtr> connections;
    for (const auto& weak : found->second) {
      if (auto connection = weak.lock()) connections.push_back(std::move(connection));
    }
    if (seat.kind != Seat::Kind::human) {  // resigned or replaced: a spectator now
      watching.insert(watching.end(), connections.begin(), connections.end());
      continue;
    }
    send_to(s, connections);
  }
  for (const auto& weak : spectators_) {
    if (auto connection = weak.lock()) watching.push_back(std::move(connection));
  }
  send_to(kSpectator, watching);
}

}  // namespace elgrande::server
