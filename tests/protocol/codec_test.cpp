#include "elgrande/protocol/codec.hpp"

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/undo.hpp"
#include "elgrande/engine/view.hpp"
#include "protocol/random_commands.hpp"
#include "elgrande/engine/bot.hpp"

namespace {

using namespace elgrande;
using protocol::Json;

AreaCounts counts(std::initializer_list<std::pair<Area, int>> entries) {
  AreaCounts c;
  for (auto [area, n] : entries) c[area] = static_cast<std::uint8_t>(n);
  return c;
}

// One sample of every Command alternative, with non-default values where there are any.
std::vector<Command> sample_commands() {
  MoveCaballeros moves;
  moves.moves.push_back(Move{1, Area::galicia, Area::castillo, 2});
  moves.moves.push_back(Move{4, Area::granada, Area::sevilla, 255});
  MoveCaballeros max_moves;
  for (int i = 0; i < kMaxMoves; ++i)
    max_moves.moves.push_back(Move{static_cast<Colour>(i % kMaxColours), area_at(i % 9),
                                   Area::castillo, static_cast<std::uint8_t>(i)});
  RemoveCaballeros picks;
  picks.picks.push_back(ColourRegion{2, Area::sevilla});
  picks.picks.push_back(ColourRegion{0, Area::pais_vasco});
  return {
      PlayPowerCard{9},
      PlayPowerCard{13},
      TakeCaballeros{3, counts({{Area::galicia, 1}})},
      TakeCaballeros{0, {}},
      TakeActionCard{12},
      TakeActionCard{kKingCard},
      PlaceCaballeros{counts({{Area::aragon, 2}, {Area::castillo, 1}})},
      SkipSpecialAction{},
      PerformSpecialAction{},
      moves,
      max_moves,
      MoveCaballeros{},
      PlaceExtraCaballeros{counts({{Area::cataluna, 2}})},
      ScoreArea{Area::castillo},
      picks,
      RemoveCaballeros{},
      PlaceScoreboard{Scoreboard::four_zero_zero, Area::castillo},
      MoveKing{Area::granada},
      Evict{Area::valencia},
      MoveGrande{Area::castilla_nueva},
      TakeBackPowerCard{1},
      AnswerVeto{true},
      AnswerVeto{false},
      ReturnCaballeros{2, counts({{Area::galicia, 1}})},
      SetDisk{Area::granada},
      Undo{},
  };
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string test_path(const std::string& name) {
  return std::string(ELGRANDE_TEST_DIR) + "/" + name;
}

std::string quoted(const std::string& word) {
  std::string out;
  out.reserve(word.size() + 2);
  out.append(1, '\'').append(word).append(1, '\'');
  return out;
}

// Runs the replay tool; returns its exit status and leaves stdout in `out`, stderr in
// `out`.err. With `stdin_path`, the tool reads that file as its standard input.
int run_tool(const std::vector<std::string>& args, const std::string& out,
             const std::string& stdin_path = {}) {
  std::string command = quoted(ELGRANDE_REPLAY_TOOL);
  for (const std::string& arg : args) command.append(" ").append(quoted(arg));
  if (!stdin_path.empty()) command.append(" < ").append(quoted(stdin_path));
  command.append(" > ").append(quoted(out)).append(" 2> ").append(quoted(out + ".err"));
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("every command alternative round-trips through JSON") {
  const auto samples = sample_commands();
  std::set<std::size_t> covered;
  for (const Command& command : samples) {
    covered.insert(command.index());
    const Json json = protocol::to_json(command);
    INFO(json.dump());
    CHECK(json.at("type") == std::string(command_name(command)));
    const auto decoded = protocol::command_from_json(json);
    REQUIRE(decoded.ok());
    CHECK(*decoded == command);
    // And through text, as it travels.
    const auto parsed = protocol::parse_json(json.dump());
    REQUIRE(parsed.ok());
    const auto again = protocol::command_from_json(*parsed);
    REQUIRE(again.ok());
    CHECK(*again == command);
  }
  CHECK(covered.size() == std::variant_size_v<Command>);
}

TEST_CASE("commands are written as text byte for byte as nlohmann writes their documents") {
  // Every alternative, empty lists and counts, and counts in every area (their keys sorted
  // by name, as nlohmann sorts an object's).
  std::vector<Command> commands = sample_commands();
  AreaCounts every;
  for (int i = 0; i < kAreaCount; ++i) every[area_at(i)] = static_cast<std::uint8_t>(i + 1);
  commands.push_back(TakeCaballeros{0, {}});
  commands.push_back(TakeCaballeros{2, every});
  commands.push_back(ReturnCaballeros{3, every});
  commands.push_back(MoveCaballeros{});
  commands.push_back(RemoveCaballeros{});
  commands.push_back(AnswerVeto{false});
  commands.push_back(AnswerVeto{true});
  for (const Command& command : commands) {
    INFO(protocol::to_json(command).dump());
    CHECK(protocol::command_text(command) == protocol::to_json(command).dump());
  }
  // And every command of random games of several variants, with one taken back now and then.
  std::set<std::size_t> kinds;
  for (const Command& command : testing::commands_of_random_games(4)) {
    kinds.insert(command.index());
    REQUIRE(protocol::command_text(command) == protocol::to_json(command).dump());
  }
  CHECK(kinds.size() > std::variant_size_v<Command> / 2);  // the samples cover the rest
}

TEST_CASE("command JSON has the documented shapes") {
  const std::vector<std::pair<Command, const char*>> cases = {
      {PlayPowerCard{9}, R"({"type":"play_power_card","value":9})"},
      {TakeCaballeros{3, counts({{Area::galicia, 1}})},
       R"({"type":"take_caballeros","from_province":3,"from_regions":{"galicia":1}})"},
      {TakeActionCard{12}, R"({"type":"take_action_card","card":12})"},
      {PlaceCaballeros{counts({{Area::aragon, 2}, {Area::castillo, 1}})},
       R"({"type":"place_caballeros","to":{"aragon":2,"castillo":1}})"},
      {SkipSpecialAction{}, R"({"type":"skip_special_action"})"},
      {PerformSpecialAction{}, R"({"type":"perform_special_action"})"},
      {MoveCaballeros{{Move{1, Area::galicia, Area::castillo, 2}}},
       R"({"type":"move_caballeros","moves":[{"colour":1,"from":"galicia","to":"castillo","count":2}]})"},
      {PlaceExtraCaballeros{counts({{Area::sevilla, 2}})},
       R"({"type":"place_extra_caballeros","to":{"sevilla":2}})"},
      {ScoreArea{Area::castillo}, R"({"type":"score_area","area":"castillo"})"},
      {RemoveCaballeros{{ColourRegion{2, Area::sevilla}}},
       R"({"type":"remove_caballeros","picks":[{"colour":2,"region":"sevilla"}]})"},
      {PlaceScoreboard{Scoreboard::eight_four_zero, Area::castillo},
       R"({"type":"place_scoreboard","board":"eight_four_zero","to":"castillo"})"},
      {MoveKing{Area::aragon}, R"({"type":"move_king","to":"aragon"})"},
      {Evict{Area::valencia}, R"({"type":"evict","region":"valencia"})"},
      {MoveGrande{Area::cataluna}, R"({"type":"move_grande","to":"cataluna"})"},
      {TakeBackPowerCard{4}, R"({"type":"take_back_power_card","value":4})"},
      {AnswerVeto{true}, R"({"type":"answer_veto","veto":true})"},
      {ReturnCaballeros{1, counts({{Area::granada, 2}})},
       R"({"type":"return_caballeros","from_court":1,"from_regions":{"granada":2}})"},
      {SetDisk{Area::granada}, R"({"type":"set_disk","region":"granada"})"},
      {Undo{}, R"({"type":"undo"})"},
  };
  std::set<std::size_t> covered;
  for (const auto& [command, text] : cases) {
    covered.insert(command.index());
    CHECK(protocol::to_json(command) == Json::parse(text));
  }
  CHECK(covered.size() == std::variant_size_v<Command>);
}

TEST_CASE("the command decoder ignores unknown fields and zero counts") {
  const auto decoded = protocol::command_from_json(Json::parse(
      R"({"type":"place_caballeros","to":{"aragon":2,"galicia":0},"comment":"hi","seq":7})"));
  REQUIRE(decoded.ok());
  CHECK(*decoded == Command(PlaceCaballeros{counts({{Area::aragon, 2}})}));
}

TEST_CASE("hostile commands are refused with a typed error and never crash") {
  const std::string eleven_moves = [] {
    std::string moves;
    for (int i = 0; i < kMaxMoves + 1; ++i)
      moves +=
          std::string(i ? "," : "") + R"({"colour":0,"from":"galicia","to":"aragon","count":1})";
    return R"({"type":"move_caballeros","moves":[)" + moves + "]}";
  }();
  const std::string six_picks = [] {
    std::string picks;
    for (int i = 0; i < kMaxColours + 1; ++i)
      picks += std::string(i ? "," : "") + R"({"colour":0,"region":"galicia"})";
    return R"({"type":"remove_caballeros","picks":[)" + picks + "]}";
  }();

  struct Case {
    const char* what;
    std::string text;
    const char* code;
  };
  const std::vector<Case> cases = {
      {"an array", "[]", "bad_command"},
      {"a string", R"("play_power_card")", "bad_command"},
      {"null", "null", "bad_command"},
      {"a number", "42", "bad_command"},
      {"no type", R"({"value":3})", "bad_command"},
      {"a numeric type", R"({"type":7})", "bad_command"},
      {"a null type", R"({"type":null,"value":3})", "bad_command"},
      {"an unknown type", R"({"type":"fly_away"})", "unknown_type"},
      {"a type in capitals", R"({"type":"PLAY_POWER_CARD","value":3})", "unknown_type"},
      {"a very long type", R"({"type":")" + std::string(100000, 'x') + R"("})", "unknown_type"},
      {"a missing field", R"({"type":"play_power_card"})", "bad_command"},
      {"a number as a string", R"({"type":"play_power_card","value":"9"})", "bad_command"},
      {"a float", R"({"type":"play_power_card","value":9.0})", "bad_command"},
      {"1e30", R"({"type":"play_power_card","value":1e30})", "bad_command"},
      {"a negative value", R"({"type":"play_power_card","value":-1})", "bad_command"},
      {"power value 0", R"({"type":"play_power_card","value":0})", "bad_command"},
      {"power value 14", R"({"type":"play_power_card","value":14})", "bad_command"},
      {"a boolean for a number", R"({"type":"play_power_card","value":true})", "bad_command"},
      {"a count above 255", R"({"type":"take_caballeros","from_province":256,"from_regions":{}})",
       "bad_command"},
      {"an unknown area key",
       R"({"type":"take_caballeros","from_province":3,"from_regions":{"atlantis":1}})",
       "bad_command"},
      {"counts as an array", R"({"type":"take_caballeros","from_province":3,"from_regions":[1,2]})",
       "bad_command"},
      {"a negative count",
       R"({"type":"take_caballeros","from_province":3,"from_regions":{"galicia":-2}})",
       "bad_command"},
      {"a float count",
       R"({"type":"take_caballeros","from_province":3,"from_regions":{"galicia":1e2}})",
       "bad_command"},
      {"nested garbage in counts",
       R"({"type":"take_caballeros","from_province":3,"from_regions":{"galicia":{"x":[[1]]}}})",
       "bad_command"},
      {"missing counts", R"({"type":"return_caballeros","from_court":3})", "bad_command"},
      {"null counts", R"({"type":"place_caballeros","to":null})", "bad_command"},
      {"card 45", R"({"type":"take_action_card","card":45})", "bad_command"},
      {"card 2^64-1", R"({"type":"take_action_card","card":18446744073709551615})", "bad_command"},
      {"card -2^63", R"({"type":"take_action_card","card":-9223372036854775808})", "bad_command"},
      {"a number beyond 64 bits", R"({"type":"take_back_power_card","value":99999999999999999999})",
       "bad_command"},
      {"too many moves", eleven_moves, "bad_command"},
      {"moves as an object", R"({"type":"move_caballeros","moves":{}})", "bad_command"},
      {"colour 5",
       R"({"type":"move_caballeros","moves":[{"colour":5,"from":"galicia","to":"aragon","count":1}]})",
       "bad_command"},
      {"a move without count",
       R"({"type":"move_caballeros","moves":[{"colour":0,"from":"galicia","to":"aragon"}]})",
       "bad_command"},
      {"a move as an array", R"({"type":"move_caballeros","moves":[[0,"galicia","aragon",1]]})",
       "bad_command"},
      {"a null move", R"({"type":"move_caballeros","moves":[null]})", "bad_command"},
      {"too many picks", six_picks, "bad_command"},
      {"colour -1", R"({"type":"remove_caballeros","picks":[{"colour":-1,"region":"sevilla"}]})",
       "bad_command"},
      {"an unknown scoreboard",
       R"({"type":"place_scoreboard","board":"nine_nine_nine","to":"castillo"})", "bad_command"},
      {"an area as a number", R"({"type":"place_scoreboard","board":"eight_four_zero","to":3})",
       "bad_command"},
      {"an area in capitals", R"({"type":"set_disk","region":"Granada"})", "bad_command"},
      {"an empty area", R"({"type":"set_disk","region":""})", "bad_command"},
      {"an area with a NUL", R"({"type":"evict","region":"\u0000galicia"})", "bad_command"},
      {"an area off the classic board", R"({"type":"move_king","to":"france"})", "bad_command"},
      {"an area in an array", R"({"type":"score_area","area":["castillo"]})", "bad_command"},
      {"a number for a boolean", R"({"type":"answer_veto","veto":1})", "bad_command"},
      {"a string for a boolean", R"({"type":"answer_veto","veto":"true"})", "bad_command"},
  };
  REQUIRE(cases.size() >= 25);
  for (const Case& c : cases) {
    INFO(c.what);
    const auto json = protocol::parse_json(c.text);
    REQUIRE(json.ok());
    const auto decoded = protocol::command_from_json(*json);
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().code == c.code);
    CHECK_FALSE(decoded.error().message.empty());
    CHECK(decoded.error().message.size() < 200);          // never echoes the input at length
    CHECK_NOTHROW(Json(decoded.error().message).dump());  // valid UTF-8
  }
}

TEST_CASE("mutated commands decode to an error or to a command that round-trips") {
  const std::vector<Json> garbage = {nullptr,
                                     true,
                                     -1,
                                     0,
                                     1,
                                     4,
                                     13,
                                     44,
                                     45,
                                     255,
                                     256,
                                     -9223372036854775807LL - 1,
                                     18446744073709551615ULL,
                                     1e30,
                                     2.5,
                                     "",
                                     "galicia",
                                     "castillo",
                                     "eight_four_zero",
                                     Json::array(),
                                     Json::object(),
                                     Json::parse(R"([{"colour":0}])"),
                                     Json::parse(R"({"galicia":300})"),
                                     Json::parse(R"({"castillo":1})")};
  Rng rng{2024};
  const auto pick = [&rng](std::size_t n) { return rng.below(static_cast<std::uint32_t>(n)); };
  int accepted = 0, refused = 0;
  for (int round = 0; round < 20000; ++round) {
    const auto samples = sample_commands();
    Json json = protocol::to_json(samples[pick(samples.size())]);
    // Mutate one place: a top-level field, or a field of a nested object.
    Json* target = &json;
    for (auto& [key, value] : json.items())
      if ((value.is_array() && !value.empty()) || value.is_object())
        if (pick(2) == 0) target = value.is_array() ? &value[pick(value.size())] : &value;
    if (!target->is_object()) target = &json;
    std::vector<std::string> keys;
    for (auto& [key, value] : target->items()) keys.push_back(key);
    switch (pick(3)) {
      case 0:
        if (!keys.empty()) (*target)[keys[pick(keys.size())]] = garbage[pick(garbage.size())];
        break;
      case 1:
        if (!keys.empty()) target->erase(keys[pick(keys.size())]);
        break;
      default:
        (*target)[std::string(name(area_at(static_cast<int>(pick(kAreaCount)))))] =
            garbage[pick(garbage.size())];
    }
    INFO(json.dump());
    const auto decoded = protocol::command_from_json(json);
    if (decoded.ok()) {
      ++accepted;
      const auto again = protocol::command_from_json(protocol::to_json(*decoded));
      REQUIRE(again.ok());
      REQUIRE(*again == *decoded);
    } else {
      ++refused;
      REQUIRE((decoded.error().code == "bad_command" || decoded.error().code == "unknown_type"));
    }
  }
  CHECK(accepted > 0);
  CHECK(refused > 0);
}

TEST_CASE("decode errors name the offending field") {
  const auto decoded = protocol::command_from_json(Json::parse(
      R"({"type":"move_caballeros","moves":[{"colour":0,"from":"galicia","to":"aragon","count":1},
          {"colour":9,"from":"galicia","to":"aragon","count":1}]})"));
  REQUIRE_FALSE(decoded.ok());
  CHECK(decoded.error().message == "moves[1].colour: must be an integer in 0..4");
  CHECK(protocol::to_json(decoded.error()) ==
        Json::parse(
            R"({"code":"bad_command","message":"moves[1].colour: must be an integer in 0..4"})"));
}

TEST_CASE("parse_json refuses malformed text and deep nesting") {
  CHECK(protocol::parse_json(R"({"type":"set_disk","region":"granada"})").ok());
  for (const std::string& text :
       {std::string(""), std::string("{"), std::string(R"({"type":})"), std::string("nul"),
        std::string("{\"a\":\"\xff\"}"), std::string(100000, '['),
        std::string(50, '[') + std::string(50, ']'), std::string("1e99999")}) {
    const auto parsed = protocol::parse_json(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().code == "bad_json");
  }
  // Brackets inside strings do not count as nesting.
  CHECK(protocol::parse_json(R"({"a":")" + std::string(1000, '[') + R"("})").ok());
}

TEST_CASE("options round-trip and are checked") {
  for (const Options& options : {Options{}, Options{2, true, true, true},
                                 Options{3, false, false, true}, Options{5, true, false, false},
                                 Options{4, false, false, false, 3}, Options{4, false, false, false, -1, Edition::y1995},
                                 Options{3, true, false, false, -1, Edition::y2023, 1}}) {
    const Json json = protocol::to_json(options);
    const auto decoded = protocol::options_from_json(json);
    REQUIRE(decoded.ok());
    CHECK(*decoded == options);
  }
  CHECK(protocol::to_json(Options{}) ==
        Json::parse(R"({"players":4,"short_game":false,"automa":false,"four_stacks":false,"rules_revision":3})"));
  // Written before revisions existed: those games began under the first.
  CHECK(protocol::options_from_json(Json::parse(R"({"players":4,"short_game":false,"automa":false,"four_stacks":false})"))
            ->rules_revision == 1);
  CHECK(protocol::options_from_json(
            Json::parse(R"({"players":4,"short_game":false,"automa":false,"four_stacks":false,"edition":"1995"})"))
            ->edition == Edition::y1995);
  // A record of a 1995 game with the automa, begun before revision 3 refused the mix, still reads.
  CHECK(protocol::options_from_json(Json::parse(
                                        R"({"players":2,"short_game":false,"automa":true,"four_stacks":false,"edition":"1995","rules_revision":2})"))
            .ok());
  for (const char* text :
       {R"({"players":6,"short_game":false,"automa":false,"four_stacks":false})",
        R"({"players":4,"short_game":false,"automa":true,"four_stacks":false})",
        R"({"players":4,"short_game":false,"automa":false,"four_stacks":true})",
        R"({"players":"4","short_game":false,"automa":false,"four_stacks":false})",
        R"({"players":4,"short_game":0,"automa":false,"four_stacks":false})", R"({"players":4})",
        R"({"players":3,"short_game":false,"automa":false,"four_stacks":false,"first_player":3})",
        R"({"players":3,"short_game":false,"automa":false,"four_stacks":false,"first_player":-1})",
        R"({"players":3,"short_game":false,"automa":false,"four_stacks":false,"edition":"1985"})",
        R"({"players":3,"short_game":false,"automa":false,"four_stacks":false,"rules_revision":4})",
        R"({"players":2,"short_game":false,"automa":true,"four_stacks":false,"edition":"1995","rules_revision":3})",
        R"({"players":3,"short_game":false,"automa":false,"four_stacks":true,"edition":"1995","rules_revision":3})",
        R"({"players":3,"short_game":false,"automa":false,"four_stacks":false,"rules_revision":0})",
        R"([4])"}) {
    INFO(text);
    const auto decoded = protocol::options_from_json(Json::parse(text));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().code == "bad_options");
  }
}

TEST_CASE("a game record round-trips through JSON") {
  GameRecord record;
  record.options = Options{3, true, false, true};
  record.seed = 18446744073709551615ull;  // beyond a double's 53 bits: hence a string
  std::uint8_t seat = 0;
  for (const Command& command : sample_commands())
    record.commands.push_back(RecordedCommand{static_cast<Seat>(seat++ % 3), command});
  record.commands[1].played_for = true;  // by a bot or the turn clock

  const Json json = protocol::to_json(record);
  CHECK(json.at("commands").at(1).at("played_for") == true);
  CHECK_FALSE(json.at("commands").at(0).contains("played_for"));  // the seat's player's own
  CHECK(json.at("format") == "elgrande-record");
  CHECK(json.at("version") == 1);
  CHECK(json.at("seed") == "18446744073709551615");
  const auto decoded = protocol::record_from_json(Json::parse(json.dump()));
  REQUIRE(decoded.ok());
  CHECK(decoded->options == record.options);
  CHECK(decoded->seed == record.seed);
  CHECK(decoded->commands == record.commands);
}

TEST_CASE("bad game records are refused") {
  const Json good = Json::parse(R"({"format":"elgrande-record","version":1,
      "options":{"players":2,"short_game":false,"automa":false,"four_stacks":false},
      "seed":"42","commands":[{"seat":0,"command":{"type":"play_power_card","value":3}}]})");
  REQUIRE(protocol::record_from_json(good).ok());

  const std::vector<std::pair<const char*, Json>> patches = {
      {"/format", "elgrande-save"},
      {"/version", 2},
      {"/seed", 42},
      {"/seed", "-1"},
      {"/seed", ""},
      {"/seed", "18446744073709551616"},
      {"/seed", "0x2a"},
      {"/options/players", 1},
      {"/commands", Json::object()},
      {"/commands/0/seat", 5},
      {"/commands/0/seat", -1},
      {"/commands/0/command/value", 0},
      {"/commands/0/command", "play_power_card"},
      {"/commands/0/command/type", "fly_away"},
      {"/commands/0", Json::array()},
  };
  for (const auto& [pointer, value] : patches) {
    Json bad = good;
    bad[Json::json_pointer(pointer)] = value;
    INFO(bad.dump());
    const auto decoded = protocol::record_from_json(bad);
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().code == "bad_record");
  }
  const auto nested = [&] {
    Json bad = good;
    bad["commands"][0]["command"]["value"] = 99;
    return protocol::record_from_json(bad);
  }();
  REQUIRE_FALSE(nested.ok());
  CHECK(nested.error().message == "commands[0].command.value: must be an integer in 1..13");
  Json not_object = good;
  not_object["commands"][0]["command"] = 3;
  CHECK(protocol::record_from_json(not_object).error().message ==
        "commands[0].command: must be an object");
}

TEST_CASE("parse_seed reads the whole uint64 range and nothing else") {
  CHECK(protocol::parse_seed("0") == 0u);
  CHECK(protocol::parse_seed("18446744073709551615") == 18446744073709551615ull);
  CHECK_FALSE(protocol::parse_seed("18446744073709551616"));
  CHECK_FALSE(protocol::parse_seed("99999999999999999999"));
  CHECK_FALSE(protocol::parse_seed("+1"));
  CHECK_FALSE(protocol::parse_seed(" 1"));
  CHECK_FALSE(protocol::parse_seed(""));
}

TEST_CASE("decisions encode their kind and constraints") {
  CHECK(protocol::to_json(
            Decision{1, PowerCardChoice{static_cast<PowerCards>(power_bit(1) | power_bit(13))}}) ==
        Json::parse(R"({"seat":1,"kind":"power_card","playable":[1,13]})"));
  CHECK(
      protocol::to_json(Decision{0, CaballerosToTake{4, 2, counts({{Area::sevilla, 3}})}}) ==
      Json::parse(
          R"({"seat":0,"kind":"take_caballeros","up_to":4,"province":2,"regions":{"sevilla":3}})"));
  CHECK(protocol::to_json(Decision{2, ActionCardChoice{{3, 14, 44}}}) ==
        Json::parse(R"({"seat":2,"kind":"action_card","offered":[3,14,44]})"));
  ActionCardUse use;
  use.card = 12;
  use.special = CardKind::veto;
  use.may_place = true;
  use.place_up_to = 2;
  use.place_into = static_cast<AreaMask>(bit(Area::aragon) | bit(Area::castillo));
  CHECK(protocol::to_json(Decision{0, use}) ==
        Json::parse(R"({"seat":0,"kind":"use_action_card","card":12,"special":"veto",
                        "may_place":true,"place_up_to":2,"place_into":["aragon","castillo"],
                        "may_act":false})"));
  use.special = CardKind::move_two_own_two_opposing;
  use.may_act = true;
  use.moves = move_limits(use.special);
  use.move_to = bit(Area::castillo);
  CHECK(protocol::to_json(Decision{0, use})["moves"] ==
        Json::parse(R"({"own":2,"opposing":2,"total":4,"single_source":false,"all_own":false})"));
  CHECK(protocol::to_json(Decision{0, use})["move_to"] == Json::parse(R"(["castillo"])"));
  CHECK_FALSE(protocol::to_json(Decision{0, use}).contains("move_from"));  // nobody's caballeros may move
  use.move_from[0] = counts({{Area::galicia, 3}});
  use.move_from[2] = counts({{Area::aragon, 1}, {Area::sevilla, 2}});
  CHECK(protocol::to_json(Decision{0, use})["move_from"] ==
        Json::parse(R"([{"colour":0,"regions":{"galicia":3}},{"colour":2,"regions":{"aragon":1,"sevilla":2}}])"));
  ActionCardUse court;
  court.special = CardKind::court;
  court.may_act = true;
  court.take_up_to = 2;
  court.take_province = 1;
  court.take_regions = counts({{Area::valencia, 2}});
  const Json court_json = protocol::to_json(Decision{0, court});
  CHECK(court_json["take_province"] == 1);
  CHECK(court_json["take_regions"] == Json::parse(R"({"valencia":2})"));
  ActionCardUse remove;
  remove.special = CardKind::remove_one_each;
  remove.may_act = true;
  remove.remove_from[3] = counts({{Area::cataluna, 1}});
  CHECK(protocol::to_json(Decision{0, remove})["remove_from"] ==
        Json::parse(R"([{"colour":3,"regions":{"cataluna":1}}])"));
  ActionCardUse board;
  board.special = CardKind::scoreboard;
  board.may_act = true;
  board.scoreboard_to[0] = static_cast<AreaMask>(bit(Area::galicia) | bit(Area::castillo));
  CHECK(protocol::to_json(Decision{0, board})["scoreboard_to"] ==
        Json::parse(R"({"eight_four_zero":["galicia","castillo"]})"));  // 4/0/0 stays
  ActionCardUse back;
  back.special = CardKind::power_cards;
  back.may_act = true;
  back.take_back = static_cast<PowerCards>(power_bit(3) | power_bit(11));
  CHECK(protocol::to_json(Decision{0, back})["take_back"] == Json::parse("[3,11]"));
  back.take_back = 0;
  CHECK_FALSE(protocol::to_json(Decision{0, back}).contains("take_back"));
  CHECK(protocol::to_json(Decision{3, VetoChoice{1, 20}}) ==
        Json::parse(R"({"seat":3,"kind":"veto","actor":1,"card":20})"));
  CHECK(
      protocol::to_json(Decision{1, CaballerosToReturn{3, 1, counts({{Area::galicia, 2}})}}) ==
      Json::parse(
          R"({"seat":1,"kind":"return_caballeros","count":3,"court":1,"regions":{"galicia":2}})"));
  CHECK(protocol::to_json(Decision{0, DiskChoice{DiskPurpose::eviction, bit(Area::granada)}}) ==
        Json::parse(R"({"seat":0,"kind":"disk","purpose":"eviction","allowed":["granada"]})"));
}

TEST_CASE("views omit what is empty and add nothing") {
  View v;
  v.options = Options{3, false, false, false};
  v.regions[index(Area::aragon)] = {1, 2, 3, 9, 9};  // colours beyond the game are not shown
  v.players[1].hand = static_cast<PowerCards>(power_bit(2) | power_bit(5));
  v.players[1].castillo = 4;
  v.vetoes[1] = VetoCard{2, 5};
  v.scoreboards[1] = Area::castillo;
  v.waiting_for = 0b101;
  const Json spectator = protocol::to_json(v);
  CHECK_FALSE(spectator.contains("viewer"));
  CHECK_FALSE(spectator.contains("decision"));
  CHECK_FALSE(spectator.contains("automa"));
  CHECK_FALSE(spectator.contains("card"));
  CHECK_FALSE(spectator.contains("disk_purpose"));
  CHECK_FALSE(spectator.contains("power_seat"));
  CHECK(spectator.at("players").size() == 3);
  CHECK_FALSE(spectator.at("players")[0].contains("hand"));
  CHECK(spectator.at("players")[1].at("hand") == Json::parse("[2,5]"));
  CHECK(spectator.at("players")[1].at("castillo") == 4);
  CHECK(spectator.at("regions").size() == kRegionCount);
  CHECK(spectator.at("regions").at("aragon") == Json::parse("[1,2,3]"));
  CHECK(spectator.at("vetoes") == Json::parse(R"([{"holder":2,"expires_after":5}])"));
  CHECK(spectator.at("scoreboards") == Json::parse(R"({"four_zero_zero":"castillo"})"));
  CHECK(spectator.at("waiting_for") == Json::parse("[0,2]"));
  CHECK(spectator.at("phase") == "power_cards");

  v.viewer = 1;
  v.decision = Decision{1, PowerCardChoice{power_bit(5)}};
  v.automa = AutomaView{4, 7, 6};
  v.options.players = 2;
  v.options.automa = true;
  const Json seat = protocol::to_json(v);
  CHECK(seat.at("viewer") == 1);
  CHECK(seat.at("decision").at("kind") == "power_card");
  CHECK(seat.at("automa") == Json::parse(R"({"supply":4,"played":7,"power_cards_left":6})"));
  CHECK(seat.at("regions").at("aragon") == Json::parse("[1,2,3]"));  // the automa's colour
}

TEST_CASE("events encode their type and fields but not the audience") {
  const Options four{};
  CHECK(protocol::to_json(Event{{Audience::Kind::all_but, 2}, PowerCardTakenBack{2, 0}}, four) ==
        Json::parse(R"({"type":"power_card_taken_back","seat":2})"));
  CHECK(protocol::to_json(EventBody{PowerCardTakenBack{2, 7}}, four) ==
        Json::parse(R"({"type":"power_card_taken_back","seat":2,"value":7})"));
  CHECK(protocol::to_json(EventBody{DiskSet{1, std::nullopt}}, four) ==
        Json::parse(R"({"type":"disk_set","seat":1})"));
  AreaScored scored{Area::castillo, {3, 1, 0, 2, 0}, {5, 0, 0, 3, 0}, 0, -1};
  CHECK(protocol::to_json(EventBody{scored}, four) ==
        Json::parse(R"({"type":"area_scored","area":"castillo","caballeros":[3,1,0,2],
                        "points":[5,0,0,3],"king_bonus":0})"));
  DisksRevealed revealed{DiskPurpose::general_scoring,
                         {Area::galicia, std::nullopt, Area::sevilla, Area::granada, std::nullopt}};
  CHECK(protocol::to_json(EventBody{revealed}, four) ==
        Json::parse(R"({"type":"disks_revealed","purpose":"general_scoring",
                        "disks":["galicia",null,"sevilla","granada"]})"));
  CHECK(protocol::to_json(EventBody{CaballerosEvicted{1, Area::aragon, std::nullopt, 3}}, four) ==
        Json::parse(R"({"type":"caballeros_evicted","seat":1,"from":"aragon","count":3})"));
  CHECK(protocol::to_json(EventBody{GameEnded{{30, 41, 41, 12, 0}, 0b0110}}, four) ==
        Json::parse(R"({"type":"game_ended","scores":[30,41,41,12],"winners":[1,2]})"));
  CHECK(protocol::to_json(EventBody{CommandUndone{3}}, four) == Json::parse(R"({"type":"command_undone","seat":3})"));
}

TEST_CASE("events are written as text byte for byte as nlohmann writes their documents") {
  const auto text = [](const EventBody& body, const Options& options) {
    std::string out;
    protocol::append_event_text(out, body, options);
    return out;
  };
  // Each optional field present and absent, and arrays sized by the options.
  const Options four{}, three_with_automa{3, false, true, false};
  std::vector<EventBody> made = {
      PowerCardTakenBack{2, 0}, PowerCardTakenBack{2, 7}, DiskSet{1, std::nullopt}, DiskSet{1, Area::granada},
      AreaScored{Area::castillo, {3, 1, 0, 2, 0}, {5, 0, 0, 3, 0}, 0, -1},
      AreaScored{Area::aragon, {3, 1, 0, 2, 0}, {5, 0, 0, 3, 0}, -1, 2},
      DisksRevealed{DiskPurpose::general_scoring, {Area::galicia, std::nullopt, Area::sevilla, Area::granada, std::nullopt}},
      CaballerosEvicted{1, Area::aragon, std::nullopt, 3}, CaballerosEvicted{1, Area::aragon, Area::valencia, 3},
      ScoreboardPlaced{Scoreboard::eight_four_zero, std::nullopt, Area::sevilla},
      ScoreboardPlaced{Scoreboard::eight_four_zero, Area::galicia, Area::sevilla},
      CastilloEmptied{0, 4, std::nullopt}, CastilloEmptied{3, 2, Area::cataluna},
      GameEnded{{30, 41, 41, 12, 0}, 0b0110}, CommandUndone{3}, AutomaPowerCardFlipped{11}};
  AreaCounts counts;
  for (int i = 0; i < kAreaCount; ++i) counts[area_at(i)] = static_cast<std::uint8_t>(i + 1);  // every key
  made.push_back(CaballerosPlaced{0, counts});
  made.push_back(CaballerosReturned{3, 2, counts});
  for (const Options& options : {four, three_with_automa})
    for (const EventBody& body : made) {
      INFO(protocol::to_json(body, options).dump());
      CHECK(text(body, options) == protocol::to_json(body, options).dump());
    }

  // And every event of random games of several variants, with a command taken back now and
  // then: every kind of event.
  std::set<std::size_t> kinds;
  for (const Options& options : {Options{2, true, true, true}, Options{3, false, false, true}, Options{4, false, false, false},
                                 Options{5, true, false, false}, Options{4, false, false, false, -1, Edition::y1995}}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      Events events;
      GameState state = new_game(options, seed, &events);
      UndoHistory history;
      Rng rng{seed};
      for (;;) {
        for (const Event& event : events) {
          kinds.insert(event.body.index());
          REQUIRE(text(event.body, options) == protocol::to_json(event, options).dump());
        }
        if (is_over(state)) break;
        const Seat seat = pending(state)[0].seat;
        const Command command = history.can_undo(seat) && rng.below(4) == 0 ? Command{Undo{}}
                                                                              : random_command(state, seat, rng);
        events.clear();
        REQUIRE_FALSE(apply(state, history, seat, command, events));
      }
    }
  }
  CHECK(kinds.size() == std::variant_size_v<EventBody>);
}

TEST_CASE("the deck lists the 45 classic cards") {
  const Json deck = protocol::deck_json();
  REQUIRE(deck.size() == kActionCardCount);
  CHECK(deck[kKingCard] == Json::parse(R"({"id":44,"stack":5,"kind":"king"})"));
}

TEST_CASE("random games encode everything and their records replay exactly") {
  const std::vector<Options> tables = {
      Options{2, false, false, false}, Options{2, true, true, true}, Options{3, false, false, true},
      Options{4, false, false, false}, Options{5, true, false, false}};
  for (const Options& options : tables) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      INFO("players " << options.players << " seed " << seed);
      GameState live;
      const GameRecord record = play_random_game(options, seed, &live);
      REQUIRE(is_over(live));

      const auto decoded =
          protocol::record_from_json(Json::parse(protocol::to_json(record).dump()));
      REQUIRE(decoded.ok());
      REQUIRE(decoded->commands == record.commands);
      const ReplayResult replayed = replay(*decoded);
      REQUIRE_FALSE(replayed.rejected_at);
      CHECK(hash(replayed.state) == hash(live));
      CHECK(protocol::summary_json(replayed.state) == protocol::summary_json(live));

      // Replay again, encoding everything a client could be sent along the way.
      Events events;
      GameState state = new_game(options, seed, &events);
      for (const RecordedCommand& entry : record.commands) {
        for (Seat viewer = kSpectator; viewer < options.players; ++viewer) {
          std::string text;
          protocol::append_view(text, view(state, viewer));
          CHECK(Json::accept(text));
          for (const Event& e : visible_to(events, viewer))
            CHECK(protocol::to_json(e, options).at("type").get<std::string>() ==
                  event_name(e.body));
        }
        events.clear();
        REQUIRE_FALSE(apply(state, entry.seat, entry.command, events));
      }
    }
  }
}

TEST_CASE("summary JSON") {
  GameState final_state;
  play_random_game(Options{3, true, false, false}, 7, &final_state);
  const Json summary = protocol::summary_json(final_state);
  CHECK(summary.at("over") == true);
  CHECK(summary.at("phase") == "game_over");
  CHECK(summary.at("scores").size() == 3);
  CHECK_FALSE(summary.at("winners").empty());
  CHECK(summary.at("hash").get<std::string>().size() == 16);
  CHECK(summary.at("hash") == protocol::hash_hex(hash(final_state)));
  CHECK(protocol::hash_hex(0x1234) == "0000000000001234");
}

TEST_CASE("the replay tool replays a generated record to its final hash") {
  GameState live;
  const GameRecord record =
      play_random_game(Options{4, false, false, false}, 2024, &live);
  const std::string record_path = test_path("tool-record.json");
  const std::string out = test_path("tool-replay.out");
  write_file(record_path, protocol::to_json(record).dump(2));

  REQUIRE(run_tool({record_path}, out) == 0);
  const Json result = Json::parse(read_file(out));
  CHECK(result.at("final").at("hash") == protocol::hash_hex(hash(live)));
  CHECK(result.at("final").at("over") == true);
  CHECK(result.at("rejected_at").is_null());
  CHECK(result.at("rejection").is_null());
  CHECK(result.at("views").size() == 5);
  CHECK(result.at("views").at("2").at("viewer") == 2);
  CHECK_FALSE(result.at("views").at("spectator").contains("viewer"));

  // From stdin too.
  REQUIRE(run_tool({"-"}, out, record_path) == 0);
  CHECK(Json::parse(read_file(out)).at("final").at("hash") == protocol::hash_hex(hash(live)));
}

TEST_CASE("the replay tool generates the same record as the library") {
  const std::string out = test_path("tool-generate.out");
  REQUIRE(run_tool({"--generate", "99", "2", "--automa"}, out) == 0);
  const GameRecord expected = play_random_game(Options{2, false, true, false}, 99);
  CHECK(Json::parse(read_file(out)) == protocol::to_json(expected));
}

TEST_CASE("the replay tool reports a rejected command and bad input") {
  GameRecord record = play_random_game(Options{3, false, false, false}, 5);
  record.commands.insert(record.commands.begin() + 1, record.commands.front());
  const std::string record_path = test_path("tool-rejected.json");
  const std::string out = test_path("tool-rejected.out");
  write_file(record_path, protocol::to_json(record).dump());
  REQUIRE(run_tool({record_path}, out) == 1);
  const Json result = Json::parse(read_file(out));
  CHECK(result.at("rejected_at") == 1);
  CHECK(result.at("rejection").at("code").is_string());
  CHECK(result.at("final").at("over") == false);

  const std::string bad_path = test_path("tool-bad.json");
  write_file(bad_path, R"({"format":"elgrande-record","version":1})");
  CHECK(run_tool({bad_path}, out) == 2);
  CHECK(read_file(out + ".err").find("bad_record") != std::string::npos);
  write_file(bad_path, "not json");
  CHECK(run_tool({bad_path}, out) == 2);
  CHECK(run_tool({test_path("no-such-file.json")}, out) == 2);
  CHECK(run_tool({"--generate", "1", "7"}, out) == 2);
  CHECK(run_tool({"--generate", "x", "2"}, out) == 2);
  CHECK(run_tool({}, out) == 2);
  CHECK(run_tool({"--help"}, out) == 0);
  CHECK(read_file(out).find("Usage") != std::string::npos);
}
