#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "elgrande/db/store.hpp"
#include "elgrande/games/module.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {

// When and what a table saves: its rows whenever they change, every command it applies,
// a snapshot of the game every kSnapshotEvery commands (so a restart replays few), and the
// result rows when the game ends. It decides only what to write; the table hands the work
// to Storage and holds its messages until the commit.
class TableSaver {
 public:
  static constexpr std::uint32_t kSnapshotEvery = 32;

  // `saved`: the rows as the database has them (none for a new table); `snapshot_version`:
  // the game's version at the last snapshot.
  TableSaver(std::optional<db::TableRecord> saved, std::uint32_t snapshot_version);

  void log(db::LoggedCommand command) { unsaved_.push_back(std::move(command)); }

  // The work that brings the database up to `now` (and `game`, once started), or none if
  // nothing changed; `game` is snapshotted when one is due and it gives one (none while a
  // move may still be taken back). `result` goes with the save that finishes the game.
  std::optional<Storage::Work> changes(const db::TableRecord& now, const games::Game* game,
                                       std::optional<db::GameResult> result);
  // Whether a game at `version` is due a snapshot: for a caller that has a game to hand
  // only then.
  bool snapshot_due(std::uint32_t version) const { return version >= snapshot_version_ + kSnapshotEvery; }

 private:
  std::optional<db::TableRecord> saved_;
  std::uint32_t snapshot_version_;
  std::vector<db::LoggedCommand> unsaved_;  // applied since the last save
};

}  // namespace elgrande::server
