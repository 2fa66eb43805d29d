#include "snapshot.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace elgrande::el_grande {
namespace {

// Bumped by hand when GameState changes without changing size; the size catches the rest.
// Layout 3: Options::first_player. Layout 4: Options::edition and rules_revision. Layout 5:
// the tag travels in the bytes (the module's), not beside them.
constexpr std::uint64_t kLayout = (std::uint64_t{5} << 32) | sizeof(GameState);

static_assert(std::is_trivially_copyable_v<GameState>, "snapshots copy the state's bytes");

}  // namespace

std::string encode_state(const GameState& state) {
  std::string bytes(sizeof kLayout + sizeof state, '\0');
  std::memcpy(bytes.data(), &kLayout, sizeof kLayout);
  std::memcpy(bytes.data() + sizeof kLayout, &state, sizeof state);
  return bytes;
}

std::optional<GameState> decode_state(const std::string& bytes, std::string& refused) {
  std::uint64_t layout = 0;
  if (bytes.size() >= sizeof layout) std::memcpy(&layout, bytes.data(), sizeof layout);
  GameState state;
  if (layout != kLayout || bytes.size() != sizeof layout + sizeof state) {
    refused = "the snapshot is in another build's layout";
    return std::nullopt;
  }
  std::memcpy(&state, bytes.data() + sizeof layout, sizeof state);
  return state;
}

}  // namespace elgrande::el_grande
