#include "elgrande/db/snapshot.hpp"

#include <cstring>
#include <span>
#include <type_traits>

#include "fnv1a.hpp"

namespace elgrande::db {
namespace {

// Bumped by hand when GameState changes without changing size; the size catches the rest.
// Layout 2: the hash beside the bytes is a checksum of the bytes themselves, checked before
// they are taken for a state (the engine's hash of a damaged state could read anywhere).
// Layout 3: Options::first_player. Layout 4: Options::edition and rules_revision.
constexpr std::int64_t kSnapshotLayout = 4;

static_assert(std::is_trivially_copyable_v<GameState>, "snapshots copy the state's bytes");

std::int64_t checksum(std::span<const std::byte> bytes) {
  return static_cast<std::int64_t>(detail::fnv1a(detail::kFnvOffset, bytes));
}

}  // namespace

std::int64_t snapshot_format() {
  return (kSnapshotLayout << 32) | static_cast<std::int64_t>(sizeof(GameState));
}

Snapshot encode_snapshot(const GameState& state) {
  const auto* first = reinterpret_cast<const std::byte*>(&state);
  Snapshot snapshot{static_cast<std::int64_t>(state.version), snapshot_format(), {first, first + sizeof state}, 0};
  snapshot.checksum = checksum(snapshot.state);
  return snapshot;
}

std::optional<GameState> decode_snapshot(const Snapshot& snapshot, std::string& refused) {
  if (snapshot.format != snapshot_format()) {
    refused = "the snapshot is in another build's layout";
    return std::nullopt;
  }
  GameState state;
  if (snapshot.state.size() != sizeof state || checksum(snapshot.state) != snapshot.checksum) {
    refused = "the snapshot's bytes do not match their checksum";
    return std::nullopt;
  }
  std::memcpy(&state, snapshot.state.data(), sizeof state);
  if (state.version != snapshot.seq) {
    refused = "the snapshot's version does not match its row";
    return std::nullopt;
  }
  return state;
}

}  // namespace elgrande::db
