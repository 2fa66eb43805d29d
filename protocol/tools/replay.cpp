// elgrande-replay: replays a game record, or plays a random one. See docs/game-record.md.

#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/engine/game.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/engine/bot.hpp"

namespace {

using elgrande::protocol::Json;

constexpr int kExitOk = 0;
constexpr int kExitRejected = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitEngineFailure = 3;

// Records are small; this only keeps a wrong file from eating the memory.
constexpr std::size_t kMaxInputBytes = 64u << 20;

constexpr std::string_view kUsage =
    R"(Usage:
  elgrande-replay [--pretty] RECORD       replay RECORD (a file, or - for stdin)
  elgrande-replay [--pretty] --generate SEED PLAYERS [--short] [--automa] [--four-stacks]
                                          play a random game and print its record
  elgrande-replay --help

Replay prints {"final": summary, "views": {"spectator": view, "0": view, ...},
"rejected_at": index or null, "rejection": {"code", "reason"} or null}.
--generate plays every seat with elgrande::random_command (bots draw from Rng{SEED}, the
lowest waiting seat answers first) and prints the game record.

Exit status: 0 success, 1 a command was rejected, 2 unreadable or invalid input,
3 the engine failed (a bug).
)";

int bad_input(const std::string& message) {
  std::cerr << "elgrande-replay: " << message << "\n";
  return kExitBadInput;
}

std::optional<std::string> read_input(const std::string& path, std::string& error) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (std::cin.bad()) {
      error = "cannot read stdin";
      return std::nullopt;
    }
  } else {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      error = "cannot open " + path;
      return std::nullopt;
    }
    text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (file.bad()) {
      error = "cannot read " + path;
      return std::nullopt;
    }
  }
  if (text.size() > kMaxInputBytes) {
    error = "input larger than " + std::to_string(kMaxInputBytes) + " bytes";
    return std::nullopt;
  }
  return text;
}

void print(const Json& json, bool pretty) {
  std::cout << (pretty ? json.dump(2) : json.dump()) << "\n";
}

int replay_file(const std::string& path, bool pretty) {
  std::string error;
  const auto text = read_input(path, error);
  if (!text) return bad_input(error);
  const auto json = elgrande::protocol::parse_json(*text);
  if (!json) return bad_input(json.error().code + ": " + json.error().message);
  const auto record = elgrande::protocol::record_from_json(*json);
  if (!record) return bad_input(record.error().code + ": " + record.error().message);

  const elgrande::ReplayResult result = elgrande::replay(*record);
  Json views = Json::object();
  views["spectator"] =
      elgrande::protocol::to_json(elgrande::view(result.state, elgrande::kSpectator));
  for (int seat = 0; seat < record->options.players; ++seat)
    views[std::to_string(seat)] = elgrande::protocol::to_json(
        elgrande::view(result.state, static_cast<elgrande::Seat>(seat)));

  Json out = Json::object();
  out["final"] = elgrande::protocol::summary_json(result.state);
  out["views"] = std::move(views);
  out["rejected_at"] = result.rejected_at ? Json(*result.rejected_at) : Json(nullptr);
  out["rejection"] =
      result.rejection ? elgrande::protocol::to_json(*result.rejection) : Json(nullptr);
  print(out, pretty);
  return result.rejected_at ? kExitRejected : kExitOk;
}

int generate(const std::vector<std::string>& args, bool pretty) {
  // args: SEED PLAYERS [flags...]
  if (args.size() < 2) return bad_input("--generate needs SEED and PLAYERS (see --help)");
  const auto seed = elgrande::protocol::parse_seed(args[0]);
  if (!seed) return bad_input("SEED must be a decimal number below 2^64");
  elgrande::Options options;
  if (args[1].size() != 1 || args[1][0] < '0' || args[1][0] > '9')
    return bad_input("PLAYERS must be 2 to 5");
  options.players = args[1][0] - '0';
  for (std::size_t i = 2; i < args.size(); ++i) {
    if (args[i] == "--short")
      options.short_game = true;
    else if (args[i] == "--automa")
      options.automa = true;
    else if (args[i] == "--four-stacks")
      options.four_stacks = true;
    else
      return bad_input("unknown option " + args[i] + " (see --help)");
  }
  if (const auto problem = elgrande::check(options)) return bad_input(*problem);
  print(elgrande::protocol::to_json(elgrande::play_random_game(options, *seed)), pretty);
  return kExitOk;
}

int run(const std::vector<std::string>& all) {
  bool pretty = false;
  std::vector<std::string> args;
  for (const std::string& arg : all) {
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return kExitOk;
    }
    if (arg == "--pretty")
      pretty = true;
    else
      args.push_back(arg);
  }
  if (!args.empty() && args[0] == "--generate")
    return generate(std::vector<std::string>(args.begin() + 1, args.end()), pretty);
  if (args.size() != 1 || (args[0].starts_with("--")))
    return bad_input("expected one RECORD argument (see --help)");
  return replay_file(args[0], pretty);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "elgrande-replay: engine failure: " << e.what() << "\n";
    return kExitEngineFailure;
  }
}
