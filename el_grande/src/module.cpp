#include "elgrande/el_grande/module.hpp"

#include <algorithm>
#include <array>

#include "elgrande/engine/record.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "game.hpp"
#include "replay.hpp"
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

// The ladders rated games count on (docs/ratings.md): one per player count, one for two
// players with the automa, and the short game's apart from the full game's.
constexpr std::array<std::string_view, 10> kLadders{
    "2p", "3p", "4p", "5p", "2p-automa", "2p-short", "3p-short", "4p-short", "5p-short", "2p-automa-short"};

// What a play-now wish chooses of the game; the rest of a table's options are the defaults.
constexpr std::array<std::string_view, 3> kPlayFields{"players", "short_game", "automa"};

// The first key of `object` not among `known`, if any: options are read strictly.
std::optional<std::string> unknown_key(const games::Json& object, std::initializer_list<std::string_view> known) {
  if (!object.is_object()) return std::nullopt;
  for (const auto& [key, value] : object.items()) {
    if (std::ranges::find(known, std::string_view(key)) == known.end()) return key;
  }
  return std::nullopt;
}

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

  std::variant<games::Json, std::string> read_options(const games::Json& json) const override {
    if (const auto key = unknown_key(json, {"players", "short_game", "automa", "four_stacks", "first_player", "edition",
                                            "rules_revision"})) {
      return "options." + *key + ": not an option (players, short_game, automa, four_stacks, first_player, edition)";
    }
    protocol::Decoded<Options> options = protocol::options_from_json(json);
    if (!options) return "options: " + options.error().message;
    options.value().rules_revision = kRulesRevision;  // a new table plays today's rules
    if (const auto problem = check(options.value())) return "options: " + *problem;  // as today's rules have it
    return protocol::to_json(options.value());
  }

  std::span<const std::string_view> play_fields() const override { return kPlayFields; }

  std::variant<games::Json, std::string> read_play(const games::Json& wish) const override {
    Options options;
    const auto players = wish.find("players");
    if (players == wish.end() || !players->is_number_integer() || players->get<std::int64_t>() < 2 ||
        players->get<std::int64_t>() > 5) {
      return std::string("players: 2 to 5");
    }
    options.players = players->get<int>();
    for (auto [field, flag] : {std::pair{"short_game", &options.short_game}, std::pair{"automa", &options.automa}}) {
      if (const auto value = wish.find(field); value != wish.end()) {
        if (!value->is_boolean()) return std::string(field) + ": true or false";
        *flag = value->get<bool>();
      }
    }
    if (options.automa && options.players != 2) return std::string("automa: only with 2 players");
    return protocol::to_json(options);
  }

  int seats(const games::Json& options) const override { return options_of(options).players; }

  std::string ladder(const games::Json& json) const override {
    const Options options = options_of(json);
    std::string ladder = std::to_string(options.players) + "p";
    if (options.automa) ladder += "-automa";
    if (options.short_game) ladder += "-short";
    return ladder;
  }

  std::span<const std::string_view> ladders() const override { return kLadders; }

  games::Json seated(const games::Json& json, int seats, std::optional<int> first_seat) const override {
    Options options = options_of(json);
    options.players = seats;
    if (first_seat) options.first_player = *first_seat;
    return protocol::to_json(options);
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
    auto commands = read_log(log, start.version + 1);
    if (const auto* refused = std::get_if<std::string>(&commands)) return *refused;
    ReplayResult result = elgrande::replay(std::move(start), std::get<std::vector<RecordedCommand>>(commands));
    if (result.rejection) {
      return "the engine refuses command " + std::to_string(result.state.version + 1) + ": " + result.rejection->reason;
    }
    return std::make_unique<ElGrandeGame>(read, std::move(result.state), std::move(result.history));
  }

  std::variant<std::vector<games::ReplayFrame>, std::string> replay(const games::Json& options, std::uint64_t seed,
                                                                    std::span<const games::Recorded> log,
                                                                    std::int64_t table, bool secrets) const override {
    auto commands = read_log(log, 1);
    if (const auto* refused = std::get_if<std::string>(&commands)) return *refused;
    return replay_frames(options_of(options), seed, std::get<std::vector<RecordedCommand>>(commands), table, secrets);
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
