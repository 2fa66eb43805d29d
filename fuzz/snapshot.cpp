// snapshot: a row of the snapshots table as the server reads it back at start: storage's
// checksum over the bytes (db/snapshot.hpp), then El Grande's decoding of them, its own
// layout tag first (el_grande/src/snapshot.hpp, what the module's restore runs). Two kinds
// of input, by the first byte's lowest bit:
//   0: a row as it may be found on disk: seq, format and checksum (8 bytes each,
//      little-endian), then the bytes. Accepted only when the checksum, the layout tag and
//      the size all match, and then the bytes are exactly those the module writes for the
//      state, under the checksum storage writes for them.
//   1: a real snapshot (a game from games.hpp), then damage: a byte of row flags (bit 0: one
//      byte short, bit 1: one byte more, bit 2: another seq, bit 3: another format, both of
//      which are the row's and not the bytes') and (offset, offset, xor) triples on its
//      bytes. Accepted exactly when the bytes did not change, and then it is the state saved.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "check.hpp"
#include "elgrande/db/snapshot.hpp"
#include "elgrande/engine/game.hpp"
#include "games.hpp"
#include "src/snapshot.hpp"

namespace {

using namespace elgrande;

std::int64_t take_integer(std::span<const std::uint8_t>& input) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8 && i < input.size(); ++i) value |= static_cast<std::uint64_t>(input[i]) << (8 * i);
  input = input.subspan(std::min<std::size_t>(8, input.size()));
  return static_cast<std::int64_t>(value);
}

bool reason_is_one_we_know(const std::string& refused) {
  return refused == "the snapshot is in another build's layout" || refused == "the snapshot's bytes do not match their checksum";
}

// The state a row holds as the restore reads it: storage's checksum first, then the module.
std::optional<GameState> read_row(const db::SnapshotRow& row, std::string& refused) {
  const std::optional<std::string> bytes = db::snapshot_bytes(row, refused);
  if (!bytes) return std::nullopt;
  return el_grande::decode_state(*bytes, refused);
}

void check_row_from_disk(std::span<const std::uint8_t> input) {
  db::SnapshotRow row;
  row.seq = take_integer(input);
  row.format = take_integer(input);
  row.checksum = take_integer(input);
  row.state.assign(reinterpret_cast<const char*>(input.data()), input.size());
  std::string refused;
  const std::optional<GameState> state = read_row(row, refused);
  if (!state) {
    FUZZ_REQUIRE(reason_is_one_we_know(refused));
    return;
  }
  // Only the bytes are compared: a state from made-up bytes may hold values (a bool of 7)
  // that no C++ code may read, which is why the checksum comes first.
  const db::SnapshotRow again = db::snapshot_row(row.seq, el_grande::encode_state(*state));
  FUZZ_REQUIRE(again.checksum == row.checksum);
  FUZZ_REQUIRE(again.state == row.state);
}

void check_damaged_snapshot(std::span<const std::uint8_t> input) {
  const std::optional<fuzz::GameChoice> choice = fuzz::take_game_choice(input);
  if (!choice) return;
  const GameState& saved = fuzz::state_after(*choice);
  const db::SnapshotRow original = db::snapshot_row(saved.version, el_grande::encode_state(saved));
  db::SnapshotRow row = original;
  const std::uint8_t flags = input.empty() ? 0 : input[0];
  if (!input.empty()) input = input.subspan(1);
  for (; input.size() >= 3; input = input.subspan(3)) {
    const std::size_t offset = static_cast<std::size_t>(input[0] | (input[1] << 8)) % row.state.size();
    row.state[offset] = static_cast<char>(row.state[offset] ^ static_cast<char>(input[2]));
  }
  if (flags & 1) row.state.pop_back();
  if (flags & 2) row.state.push_back('\0');
  if (flags & 4) row.seq += 1;
  if (flags & 8) row.format += 1;

  std::string refused;
  const std::optional<GameState> state = read_row(row, refused);
  FUZZ_REQUIRE(state.has_value() == (row.state == original.state));
  if (state) {
    FUZZ_REQUIRE(*state == saved);
    FUZZ_REQUIRE(hash(*state) == hash(saved));
  } else {
    FUZZ_REQUIRE(reason_is_one_we_know(refused));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return -1;
  const std::span<const std::uint8_t> input(data + 1, size - 1);
  if (data[0] & 1)
    check_damaged_snapshot(input);
  else
    check_row_from_disk(input);
  return 0;
}
