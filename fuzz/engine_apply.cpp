// engine_apply: a decoded command applied to a state reached by random play.
// Input: the game (games.hpp, 4 bytes), the seat (1 byte), then a command's JSON as a
// game.command carries it. Properties: a refused command changes nothing; an accepted one
// came from a seat that owed a decision, keeps the engine's invariants, is deterministic,
// leaves a game that goes on, and every seat's view and events of the new state can be built,
// encoded and decoded back.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <string_view>

#include "check.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/events.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/codec.hpp"
#include "games.hpp"

namespace {

using namespace elgrande;
using elgrande::fuzz::valid_utf8;

// Below 0xF0: the (byte mod n)-th of the n seats that owe a decision, the useful case;
// from 0xF0: seat byte - 0xF1 (-1 to 14), owing or not, at the table or not.
Seat choose_seat(const GameState& state, std::uint8_t byte) {
  const Decisions owing = pending(state);
  if (byte < 0xF0 && !owing.empty()) return owing[byte % owing.size()].seat;
  return static_cast<Seat>(byte - 0xF1);
}

// What the server does with the state after an accepted command: each party's view and
// events, encoded; a client's decoder reads the view back exactly.
void check_views(const GameState& state, const Events& events) {
  const std::uint8_t owing = waiting_for(state);
  for (Seat viewer = kSpectator; viewer < state.options.players; ++viewer) {
    const View seen = view(state, viewer);
    FUZZ_REQUIRE(seen.viewer == viewer);
    FUZZ_REQUIRE(seen.decision.has_value() == (viewer >= 0 && (owing >> viewer & 1)));
    const protocol::Json json = protocol::to_json(seen);
    const protocol::Decoded<View> decoded = protocol::view_from_json(protocol::Json::parse(json.dump()));
    FUZZ_REQUIRE(decoded.ok());
    FUZZ_REQUIRE(decoded.value() == seen);
    for (const Event& event : visible_to(events, viewer)) {
      FUZZ_REQUIRE(event.audience.includes(viewer));
      // The text the server sends is the codec's document, byte for byte.
      std::string text;
      protocol::append_event_text(text, event.body, state.options);
      FUZZ_REQUIRE(text == protocol::to_json(event, state.options).dump());
    }
  }
}

void check_apply(const GameState& before, Seat seat, const Command& command) {
  GameState state = before;
  Events events;
  const std::optional<Rejection> rejection = apply(state, seat, command, events);
  if (rejection) {
    FUZZ_REQUIRE(state == before);
    FUZZ_REQUIRE(hash(state) == hash(before));
    FUZZ_REQUIRE(events.empty());
    FUZZ_REQUIRE(!rejection->reason.empty() && valid_utf8(rejection->reason));
    return;
  }
  FUZZ_REQUIRE(!is_over(before));
  FUZZ_REQUIRE(seat >= 0 && seat < before.options.players && (waiting_for(before) >> seat & 1));
  FUZZ_REQUIRE(state.version == before.version + 1);
  check_invariants(state);

  GameState again = before;
  Events events_again;
  FUZZ_REQUIRE(!apply(again, seat, command, events_again));
  FUZZ_REQUIRE(again == state && events_again == events);

  check_views(state, events);

  // No dead end: someone owes a decision, and the bot's answer to it is accepted.
  if (!is_over(state)) {
    const Decisions owing = pending(state);
    FUZZ_REQUIRE(!owing.empty());
    Rng rng{hash(state)};
    GameState next = state;
    Events next_events;
    FUZZ_REQUIRE(!apply(next, owing[0].seat, random_command(next, owing[0].seat, rng), next_events));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> input(data, size);
  const std::optional<fuzz::GameChoice> choice = fuzz::take_game_choice(input);
  if (!choice || input.empty()) return -1;
  const std::uint8_t seat_byte = input[0];
  input = input.subspan(1);

  // Decoded first: most inputs stop here, before any game is played.
  const std::string_view text(reinterpret_cast<const char*>(input.data()), input.size());
  const protocol::Decoded<protocol::Json> json = protocol::parse_json(text);
  if (!json) return 0;
  const protocol::Decoded<Command> command = protocol::command_from_json(json.value());
  if (!command) {
    FUZZ_REQUIRE(valid_utf8(command.error().message));
    return 0;
  }
  const protocol::Decoded<Command> again = protocol::command_from_json(protocol::to_json(command.value()));
  FUZZ_REQUIRE(again.ok() && again.value() == command.value());

  try {
    const GameState& before = fuzz::state_after(*choice);
    check_apply(before, choose_seat(before, seat_byte), command.value());
  } catch (const std::exception& error) {
    // The server would freeze the game: a command from the network must never get here.
    std::fprintf(stderr, "exception: %s\n", error.what());
    std::abort();
  }
  return 0;
}
