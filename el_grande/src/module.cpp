#include "elgrande/el_grande/module.hpp"

#include <array>

#include "elgrande/engine/record.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "game.hpp"
#include "snapshot.hpp"

namespace elgrande::el_grande {
namespace {

// A game in play is in one of these (a game over is a finished table's).
constexpr std::size_t kPhaseCount = static_cast<std::size_t>(Phase::game_over);

// The engine's phases as the protocol names them, in the engine's order.
const std::array<std::string_view, kPhaseCount> kPhases = [] {
  std::array<std::string_view, kPhaseCount> names{};
  for (std::size_t p = 0; p < kPhaseCount; ++p) names[p] = protocol::phase_name(static_cast<Phase>(p));
  return names;
}();

class ElGrande final : public games::GameModule {
 public:
  std::string_view id() const override { return "el-grande"; }

  std::span<const std::string_view> phases() const override { return kPhases; }

  std::variant<games::MovePtr, std::string> read_move(const games::Json& command) const override {
    auto decoded = protocol::command_from_json(command);
    if (!decoded) return decoded.error().message;
    return move_of(std::move(decoded.value()));
  }

  std::optional<games::CommandMessage> read_command_message(std::string_view text) const override {
    auto read = protocol::read_game_command(text);
    if (!read) return std::nullopt;
    return games::CommandMessage{std::move(read->id), read->table, read->version, move_of(std::move(read->command))};
  }

  games::Started setup(const games::Json& options, std::uint64_t seed) const override {
    const Options read = options_of(options);
    Events events;
    GameState state = new_game(read, seed, &events);
    auto game = std::make_unique<ElGrandeGame>(read, std::move(state), UndoHistory{});
    games::Step step{game->said(events), game->owing()};
    return {std::move(game), std::move(step)};
  }

  std::variant<std::unique_ptr<games::Game>, std::string> restore(const games::Json& options, std::uint64_t seed,
                                                                  const std::optional<std::string>& snapshot,
                                                                  std::span<const games::Recorded> log) const override {
    const Options read = options_of(options);
    GameState start;
    if (snapshot) {
      std::string refused;
      auto state = decode_state(*snapshot, refused);
      if (!state) return refused;
      start = std::move(*state);
    } else {
      start = new_game(read, seed);
    }
    std::vector<RecordedCommand> commands;
    commands.reserve(log.size());
    for (const games::Recorded& recorded : log) {
      const auto json = protocol::parse_json(recorded.move);
      auto command = json ? protocol::command_from_json(json.value()) : protocol::Decoded<Command>(json.error());
      if (!command) {
        return "command " + std::to_string(start.version + commands.size() + 1) + " is not El Grande's: " +
               command.error().message;
      }
      commands.push_back(RecordedCommand{static_cast<Seat>(recorded.seat), std::move(command.value()), recorded.played_for});
    }
    ReplayResult result = replay(std::move(start), commands);
    if (result.rejection) {
      return "the engine refuses command " + std::to_string(result.state.version + 1) + ": " + result.rejection->reason;
    }
    return std::make_unique<ElGrandeGame>(read, std::move(result.state), std::move(result.history));
  }

 private:
  static Options options_of(const games::Json& json) {
    auto options = protocol::options_from_json(json);
    if (!options) throw std::invalid_argument("El Grande's options: " + options.error().message);
    return options.value();
  }
};

}  // namespace

const games::GameModule& module() {
  static const ElGrande el_grande;
  return el_grande;
}

const Command& command_of(const games::Move& move) { return static_cast<const ElGrandeMove&>(move).command(); }

std::unique_ptr<games::Game> resume(const Options& options, GameState state, UndoHistory undo) {
  return std::make_unique<ElGrandeGame>(options, std::move(state), std::move(undo));
}

games::MovePtr move_of(Command command) { return std::make_shared<const ElGrandeMove>(std::move(command)); }

const GameState& state_of(const games::Game& game) { return static_cast<const ElGrandeGame&>(game).state(); }

const UndoHistory& undo_of(const games::Game& game) { return static_cast<const ElGrandeGame&>(game).undo(); }

std::unique_ptr<games::Game> game_at(GameState state, UndoHistory undo) {
  const Options options = state.options;
  return std::make_unique<ElGrandeGame>(options, std::move(state), std::move(undo));
}

}  // namespace elgrande::el_grande
