#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/engine/state.hpp"

namespace elgrande::db {

// A game state as a row of the snapshots table keeps it: the state's bytes in this build's
// layout, beside the version they were taken at and a checksum of the bytes themselves.
struct Snapshot {
  std::int64_t seq = 0;     // the state's version, i.e. the log row it was taken at
  std::int64_t format = 0;  // snapshot_format() of the build that wrote it
  std::vector<std::byte> state;
  std::int64_t checksum = 0;  // of `state`'s bytes
};

// The layout of GameState that snapshot bytes are in: a snapshot in another layout (an
// older or newer build) is ignored and its game rebuilt from the log.
std::int64_t snapshot_format();

Snapshot encode_snapshot(const GameState& state);

// The state a row holds, or nothing with the reason in `refused`: another build's layout,
// bytes that do not match their checksum, a version that does not match its row. No byte
// is taken for a state before the checksum of them all has matched: a damaged state could
// make the engine read anywhere.
std::optional<GameState> decode_snapshot(const Snapshot& snapshot, std::string& refused);

}  // namespace elgrande::db
