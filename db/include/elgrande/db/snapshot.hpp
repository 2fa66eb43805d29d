#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace elgrande::db {

// A snapshot as a row of the snapshots table keeps it: a game's bytes as its module wrote
// them (games::Game::snapshot(), the layout the module's to check), beside the version they
// were taken at and a checksum of the bytes themselves.
struct SnapshotRow {
  std::int64_t seq = 0;
  std::int64_t format = 0;
  std::string state;
  std::int64_t checksum = 0;
};

// The format column of the rows written since the module owns the bytes: the layout tag
// travels inside them. A row of before holds the engine's bare state under another format;
// it is not told apart here but by the module, which refuses its bytes.
inline constexpr std::int64_t kModuleSnapshot = 5;

SnapshotRow snapshot_row(std::int64_t seq, std::string bytes);

// The bytes a row holds, or nothing with the reason in `refused`: they do not match their
// checksum. No byte goes to the module before the checksum of them all has matched: damaged
// bytes could make it read anywhere.
std::optional<std::string> snapshot_bytes(const SnapshotRow& row, std::string& refused);

}  // namespace elgrande::db
