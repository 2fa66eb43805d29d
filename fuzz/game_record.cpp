// game_record: a game record file as elgrande-replay imports it (docs/game-record.md).
// Properties: the reader refuses with bad_record and a short UTF-8 message, or gives a
// record that encodes and reads back to itself; its replay never throws, accepts the
// commands before the first refused one and no other, keeps the engine's invariants, and
// ends in a state whose summary and views encode, as the replay tool prints them.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "check.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/codec.hpp"

namespace {

using namespace elgrande;
using protocol::Json;

bool same(const GameRecord& a, const GameRecord& b) {
  return a.options == b.options && a.seed == b.seed && a.commands == b.commands;
}

void check_replay(const GameRecord& record) {
  const ReplayResult result = replay(record);
  const std::size_t accepted = result.rejected_at.value_or(record.commands.size());
  FUZZ_REQUIRE(accepted <= record.commands.size());
  FUZZ_REQUIRE(result.rejected_at.has_value() == result.rejection.has_value());
  FUZZ_REQUIRE(result.state.version == accepted);
  check_invariants(result.state);
  if (result.rejected_at) {
    GameRecord before = record;
    before.commands.resize(accepted);
    const ReplayResult prefix = replay(before);
    FUZZ_REQUIRE(!prefix.rejected_at && prefix.state == result.state);
  }
  FUZZ_REQUIRE(!protocol::summary_json(result.state).dump().empty());
  for (Seat viewer = kSpectator; viewer < result.state.options.players; ++viewer)
    FUZZ_REQUIRE(!protocol::to_json(view(result.state, viewer)).dump().empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const protocol::Decoded<Json> json = protocol::parse_json(text);
  if (!json) return 0;
  const protocol::Decoded<GameRecord> record = protocol::record_from_json(json.value());
  if (!record) {
    FUZZ_REQUIRE(record.error().code == "bad_record");
    FUZZ_REQUIRE(record.error().message.size() <= 256 && fuzz::valid_utf8(record.error().message));
    return 0;
  }
  const protocol::Decoded<GameRecord> again = protocol::record_from_json(Json::parse(protocol::to_json(record.value()).dump()));
  FUZZ_REQUIRE(again.ok() && same(again.value(), record.value()));
  try {
    check_replay(record.value());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "exception: %s\n", error.what());
    std::abort();
  }
  return 0;
}
