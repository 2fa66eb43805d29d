#include "moderation/block_lists.hpp"

namespace elgrande::server {

BlockLists::BlockLists(Storage& storage) : storage_(storage) {}

void BlockLists::restore(const std::vector<std::pair<PlayerId, PlayerId>>& blocks) {
  const std::lock_guard lock(mutex_);
  blocks_.insert(blocks.begin(), blocks.end());
}

bool BlockLists::blocks(PlayerId player, PlayerId other) const {
  const std::lock_guard lock(mutex_);
  return blocks_.contains({player, other});
}

std::vector<PlayerId> BlockLists::blocked_by(PlayerId player) const {
  std::vector<PlayerId> blocked;
  const std::lock_guard lock(mutex_);
  for (auto it = blocks_.lower_bound({player, 0}); it != blocks_.end() && it->first == player; ++it) {
    blocked.push_back(it->second);
  }
  return blocked;
}

void BlockLists::set(PlayerId player, PlayerId other, bool blocked, Storage::Done done) {
  storage_.write(
      [player, other, blocked](db::Store& store) {
        if (blocked) {
          store.moderation().block(player, other);
        } else {
          store.moderation().unblock(player, other);
        }
      },
      [this, player, other, blocked, done = std::move(done)](bool saved) {
        if (saved) {
          const std::lock_guard lock(mutex_);
          if (blocked) {
            blocks_.insert({player, other});
          } else {
            blocks_.erase({player, other});
          }
        }
        done(saved);
      });
}

}  // namespace elgrande::server
