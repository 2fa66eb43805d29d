// game.command's fast path (protocol::read_game_command): whatever it reads, the server's
// general path (decode_envelope, then the payload's fields as the router and the table read
// them) reads the same; whatever it leaves, the general path reads or refuses as before.

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "protocol/random_commands.hpp"

namespace {

using namespace elgrande;
using protocol::GameCommand;
using protocol::Json;

// The message as the server read every game.command before the fast path: nullopt for
// anything it refuses.
std::optional<GameCommand> read_generally(std::string_view text) {
  const protocol::DecodedEnvelope decoded = protocol::decode_envelope(text);
  const auto* envelope = std::get_if<protocol::Envelope>(&decoded);
  if (!envelope || envelope->type != "game.command") return std::nullopt;
  const Json& payload = envelope->payload;
  GameCommand read;
  read.id = envelope->id;
  const auto table = payload.find("table");
  if (table == payload.end() || !table->is_number_integer()) return std::nullopt;
  read.table = table->get<std::int64_t>();
  if (const auto version = payload.find("version"); version != payload.end()) {
    if (!version->is_number_integer() || version->get<std::int64_t>() < 0) return std::nullopt;
    read.version = version->get<std::int64_t>();
  }
  const auto command = payload.find("command");
  if (command == payload.end()) return std::nullopt;
  protocol::Decoded<Command> command_read = protocol::command_from_json(*command);
  if (!command_read) return std::nullopt;
  read.command = command_read.value();
  return read;
}

// A message as clients write it, the id and version in one of several forms.
Json message(const Command& command, std::size_t n) {
  Json payload = {{"table", static_cast<std::int64_t>(n % 1000)}, {"command", protocol::to_json(command)}};
  if (n % 3 != 0) payload["version"] = n;
  if (n % 5 == 0) payload["note"] = {{"from", "a client"}, {"at", {1, 2, 3}}, {"ok", nullptr}};
  Json json = {{"type", "game.command"}, {"payload", std::move(payload)}};
  if (n % 4 == 1) json["id"] = n;
  if (n % 4 == 2) json["id"] = "req-" + std::to_string(n);
  if (n % 4 == 3) json["id"] = -static_cast<std::int64_t>(n);
  return json;
}

}  // namespace

TEST_CASE("every command of random games is read on the fast path as the general path reads it",
          "[protocol][envelope]") {
  const std::vector<Command> commands = testing::commands_of_random_games(3);
  REQUIRE(commands.size() > 1000);
  for (std::size_t n = 0; n < commands.size(); ++n) {
    const Json json = message(commands[n], n);
    // As nlohmann writes it, and spread out with spaces, tabs and line breaks.
    for (const std::string& text : {json.dump(), json.dump(1, '\t'), json.dump(2) + "\r\n"}) {
      INFO(text);
      const std::optional<GameCommand> fast = protocol::read_game_command(text);
      REQUIRE(fast.has_value());
      REQUIRE(fast == read_generally(text));
      CHECK(fast->command == commands[n]);
      CHECK(fast->version.has_value() == (n % 3 != 0));
    }
  }
}

TEST_CASE("messages outside plain JSON, and game commands with a fault, are left to the general path",
          "[protocol][envelope]") {
  const std::string command = R"("command":{"type":"play_power_card","value":7})";
  const std::string good = R"({"type":"game.command","id":1,"payload":{"table":3,)" + command + "}}";
  REQUIRE(protocol::read_game_command(good) == read_generally(good));
  REQUIRE(protocol::read_game_command(good).has_value());

  // Good JSON and good commands, outside the plain subset: the general path reads them.
  for (const std::string& text : std::vector<std::string>{
           R"({"type":"game\u002ecommand","payload":{"table":3,)" + command + "}}",  // an escape
           R"({"type":"game.command","id":"caf)" "\xC3\xA9" R"(","payload":{"table":3,)" + command + "}}",  // not ASCII
           R"({"type":"game.command","payload":{"table":3,"at":1.5,)" + command + "}}",  // a fraction
           R"({"type":"game.command","payload":{"table":3,"at":1e3,)" + command + "}}",  // an exponent
           R"({"type":"game.command","payload":{"table":-0,)" + command + "}}",
           R"({"type":"game.command","payload":{"table":1234567890123456789,)" + command + "}}",  // 19 digits
           R"({"type":"game.command","payload":{"table":3,"table":4,)" + command + "}}",  // the last wins
           "\xEF\xBB\xBF" + good,  // a byte order mark
       }) {
    INFO(text);
    CHECK_FALSE(protocol::read_game_command(text).has_value());
    CHECK(read_generally(text).has_value());
  }

  // Faults the general path refuses, each with its own error.
  for (const std::string& text : std::vector<std::string>{
           good.substr(0, good.size() - 1),                                                    // cut short
           good + "x",                                                                         // trailing text
           R"({"type":"game.command","id":1.0,"payload":{"table":3,)" + command + "}}",       // a bad id
           R"({"type":"game.command","id":18446744073709551615,"payload":{"table":3,)" + command + "}}",
           R"({"type":"game.command","id":")" + std::string(129, 'x') + R"(","payload":{"table":3,)" + command + "}}",
           R"({"type":"game.comman","payload":{"table":3,)" + command + "}}",                 // another type
           R"({"type":"game.command","payload":{)" + command + "}}",                          // no table
           R"({"type":"game.command","payload":{"table":"3",)" + command + "}}",
           R"({"type":"game.command","payload":{"table":3,"version":-1,)" + command + "}}",
           R"({"type":"game.command","payload":{"table":3,"version":true,)" + command + "}}",
           R"({"type":"game.command","payload":{"table":3}})",                                // no command
           R"({"type":"game.command","payload":{"table":3,"command":{"type":"play_power_card","value":14}}})",
           R"({"type":"game.command","payload":{"table":3,"command":{"type":"fly","value":7}}})",
           R"({"type":"game.command","payload":{"table":3,"command":{"type":"place_caballeros","to":{"atlantis":1}}}})",
           R"({"type":"game.command","payload":{"table":3,"command":{"type":"place_caballeros","to":{"galicia":256}}}})",
           R"({"type":"game.command","payload":{"table":03,)" + command + "}}",               // not JSON
           R"({"type":"game.command","payload":[]})",
           R"(["game.command"])",
           std::string(40, '[') + std::string(40, ']'),
       }) {
    INFO(text);
    CHECK_FALSE(protocol::read_game_command(text).has_value());
    CHECK_FALSE(read_generally(text).has_value());
  }
}

TEST_CASE("whatever the fast path reads of a mangled message, the general path reads the same",
          "[protocol][envelope]") {
  const std::vector<Command> commands = testing::commands_of_random_games(3);
  // Bytes that make or break JSON, numbers and names.
  const std::string bytes = "{}[]\",:0123456789-+.eE \\tfnu\x01\x7F\xC3\xFF";
  Rng rng{77};
  const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(n))); };
  int read_fast = 0, left = 0;
  for (int round = 0; round < 30000; ++round) {
    const std::size_t n = pick(commands.size());
    std::string text = message(commands[n], n).dump();
    for (int edits = 1 + static_cast<int>(pick(3)); edits > 0; --edits) {
      const std::size_t at = pick(text.size());
      switch (pick(4)) {
        case 0: text[at] = bytes[pick(bytes.size())]; break;
        case 1: text.erase(at, 1 + pick(4)); break;
        case 2: text.insert(at, 1, bytes[pick(bytes.size())]); break;
        default: text.insert(at, text.substr(pick(text.size()), 1 + pick(12))); break;
      }
      if (text.empty()) text = "{";
    }
    INFO(text);
    const std::optional<GameCommand> fast = protocol::read_game_command(text);
    if (fast) {
      ++read_fast;
      REQUIRE(fast == read_generally(text));
    } else {
      ++left;
    }
  }
  // Both paths well exercised: about 1,000 of the 30,000 mangled messages still read fast (it
  // varies with the random games' commands, which a rules revision changes).
  CHECK(read_fast > 800);
  CHECK(left > 1000);
}
