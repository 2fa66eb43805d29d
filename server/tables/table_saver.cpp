#include "tables/table_saver.hpp"

#include <string>
#include <utility>

#include "tables/table_config.hpp"

namespace elgrande::server {

TableSaver::TableSaver(std::optional<db::TableRecord> saved, std::uint32_t snapshot_version)
    : saved_(std::move(saved)), snapshot_version_(snapshot_version) {}

std::optional<Storage::Work> TableSaver::changes(const db::TableRecord& now, const games::Game* game,
                                                 std::optional<db::GameResult> result) {
  std::optional<db::TableRecord> changed;
  std::optional<db::TableRecord> before;  // as last saved: the save writes what differs
  if (now != saved_) {
    changed = now;
    before = std::exchange(saved_, now);
  }
  const bool finished = table_status_from(now.status) == TableStatus::finished;
  struct Snapshot {
    std::uint32_t version = 0;
    std::string bytes;
  };
  std::optional<Snapshot> snapshot;
  if (game && !finished && snapshot_due(game->version())) {
    if (std::optional<std::string> bytes = game->snapshot()) {
      snapshot = Snapshot{game->version(), std::move(*bytes)};
      snapshot_version_ = game->version();
    }
  }
  if (!changed && unsaved_.empty() && !snapshot && !result) return std::nullopt;
  return [id = now.id, changed = std::move(changed), before = std::move(before), commands = std::exchange(unsaved_, {}),
          snapshot = std::move(snapshot), result = std::move(result), finished](db::Store& store) {
    if (changed) store.save_table(*changed, before ? &*before : nullptr);
    store.append_commands(id, commands);
    if (snapshot) store.save_snapshot(id, snapshot->version, snapshot->bytes);
    if (result) store.save_result(*result);
    if (finished) store.delete_snapshot(id);  // the log is the record from now on
  };
}

}  // namespace elgrande::server
