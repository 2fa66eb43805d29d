#include "replay.hpp"

#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/updates.hpp"

namespace elgrande::el_grande {
namespace {

// What only each seat knew (its hand, discards, caballeros in the castillo, disk) and the
// whole of a special action announced, each as that seat's own view wrote it: the view's
// codec stays the only writer of a player's secrets.
std::string secrets_of(const GameState& state) {
  protocol::Json seats = protocol::Json::array();
  for (Seat seat = 0; seat < state.options.players; ++seat) {
    const protocol::Json own = protocol::to_json(view(state, seat));
    const protocol::Json& player = own["players"][static_cast<std::size_t>(seat)];
    protocol::Json& known = seats.emplace_back(protocol::Json::object());
    for (const char* key : {"hand", "discards", "castillo", "disk"}) {
      if (const auto field = player.find(key); field != player.end()) known[key] = *field;
    }
  }
  protocol::Json secrets = {{"seats", std::move(seats)}};
  if (active_seat(state) >= 0 && state.turn.announced) secrets["announced"] = protocol::to_json(*state.turn.announced);
  return secrets.dump();
}

}  // namespace

std::variant<std::vector<RecordedCommand>, std::string> read_log(std::span<const games::Recorded> log,
                                                                 std::uint32_t first_version) {
  std::vector<RecordedCommand> commands;
  commands.reserve(log.size());
  for (const games::Recorded& recorded : log) {
    const auto json = protocol::parse_json(recorded.move);
    auto command = json ? protocol::command_from_json(json.value()) : protocol::Decoded<Command>(json.error());
    if (!command) {
      return "command " + std::to_string(first_version + commands.size()) + " is not El Grande's: " +
             command.error().message;
    }
    commands.push_back(RecordedCommand{static_cast<Seat>(recorded.seat), std::move(command.value()), recorded.played_for});
  }
  return commands;
}

std::variant<std::vector<games::ReplayFrame>, std::string> replay_frames(const Options& options, std::uint64_t seed,
                                                                         std::span<const RecordedCommand> commands,
                                                                         std::int64_t table, bool secrets) {
  std::vector<games::ReplayFrame> frames;
  frames.reserve(commands.size() + 1);
  std::optional<View> before;  // the spectator's view of the frame before: the next is its patch
  const auto add_frame = [&](const GameState& state, const Events& events) {
    protocol::EventTexts said(events, options);
    if (secrets) said = said.unredacted();
    View now = view(state, kSpectator);
    const protocol::UpdateHeader header{table, state.version, false, std::nullopt};
    games::ReplayFrame& frame = frames.emplace_back();
    frame.update = before ? protocol::update_with_patch(header, said, *before, now)
                          : protocol::update_with_view(header, said, now);
    if (secrets) frame.secrets = secrets_of(state);
    before = std::move(now);
  };
  Events setup;
  GameState start = new_game(options, seed, &setup);
  add_frame(start, setup);
  const ReplayResult result = replay(std::move(start), commands,
                                     [&](const GameState& state, std::size_t, const Events& events) { add_frame(state, events); });
  if (result.rejection) {
    return "the engine refuses command " + std::to_string(result.state.version + 1) + ": " + result.rejection->reason;
  }
  return frames;
}

}  // namespace elgrande::el_grande
