#pragma once

#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "common/player.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {

// Each player's own block list: whom they no longer hear in chat, and who may not sit at
// the tables they host. Changes are in memory once saved (the callbacks run on the database
// thread). Internally locked; asked on every chat line, so the lookup is a set's.
class BlockLists {
 public:
  explicit BlockLists(Storage& storage);
  BlockLists(const BlockLists&) = delete;
  BlockLists& operator=(const BlockLists&) = delete;

  void restore(const std::vector<std::pair<PlayerId, PlayerId>>& blocks);

  bool blocks(PlayerId player, PlayerId other) const;  // whether `player` blocked `other`
  std::vector<PlayerId> blocked_by(PlayerId player) const;
  void set(PlayerId player, PlayerId other, bool blocked, Storage::Done done);

 private:
  Storage& storage_;
  mutable std::mutex mutex_;
  std::set<std::pair<PlayerId, PlayerId>> blocks_;
};

}  // namespace elgrande::server
