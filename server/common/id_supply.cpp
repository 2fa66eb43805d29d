#include "common/id_supply.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <utility>

namespace elgrande::server {

struct IdSupply::State {
  std::mutex mutex;
  db::IdBlock in_hand;
  std::optional<db::IdBlock> coming;
  bool asking = false;
  Reserve reserve;  // none: counting, with no end
  std::int64_t block = kBlock;

  // Whether to ask for the next block now; under the mutex.
  bool should_ask() const {
    return reserve && !asking && !coming && in_hand.end - in_hand.first <= block / 2;
  }
};

IdSupply IdSupply::after(std::int64_t highest) {
  auto state = std::make_shared<State>();
  state->in_hand = {highest + 1, std::numeric_limits<std::int64_t>::max()};
  return IdSupply(std::move(state));
}

IdSupply::IdSupply(db::IdBlock first, Reserve reserve, std::int64_t block) : state_(std::make_shared<State>()) {
  state_->in_hand = first;
  state_->reserve = std::move(reserve);
  state_->block = block;
}

std::optional<std::int64_t> IdSupply::take() {
  std::optional<std::int64_t> id;
  bool ask = false;
  {
    const std::lock_guard lock(state_->mutex);
    if (state_->in_hand.first == state_->in_hand.end && state_->coming) {
      state_->in_hand = *std::exchange(state_->coming, std::nullopt);
    }
    if (state_->in_hand.first < state_->in_hand.end) id = state_->in_hand.first++;
    ask = state_->should_ask();
    if (ask) state_->asking = true;
  }
  // Outside the lock: the reservation may answer at once, on this thread.
  if (ask) {
    state_->reserve(state_->block, [weak = std::weak_ptr<State>(state_)](std::optional<db::IdBlock> block) {
      const auto state = weak.lock();
      if (!state) return;
      const std::lock_guard lock(state->mutex);
      state->asking = false;
      state->coming = block;
    });
  }
  return id;
}

void IdSupply::skip_past(std::int64_t id) {
  const std::lock_guard lock(state_->mutex);
  state_->in_hand.first = std::clamp(id + 1, state_->in_hand.first, state_->in_hand.end);
}

}  // namespace elgrande::server
