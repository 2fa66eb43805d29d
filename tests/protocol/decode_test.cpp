// The decoders for what the server sends: views and decisions come back exactly as the
// engine made them, hostile input is an error and never a crash, and a bot that only
// sees its decoded view plays legal commands.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/plain_json.hpp"

namespace {

using namespace elgrande;
using protocol::DecodeError;
using protocol::Json;

struct Table {
  const char* label;
  Options options;
};

const std::vector<Table>& tables() {
  static const std::vector<Table> all = {
      {"2 players", Options{2, false, false, false}},
      {"2 players with the automa", Options{2, false, true, false}},
      {"3 players", Options{3, false, false, false}},
      {"3 players, four stacks", Options{3, false, false, true}},
      {"4 players", Options{4, false, false, false}},
      {"5 players", Options{5, false, false, false}},
      {"4 players, short game", Options{4, true, false, false}},
      {"2 players with the automa, short game", Options{2, true, true, false}},
  };
  return all;
}

// Fewer games under the sanitizers, which run the same code ~20x slower.
std::uint64_t games_per_table(std::uint64_t normal) {
  return std::getenv("ELGRANDE_SANITIZED") ? normal / 10 : normal;
}

// A view as a client gets it: encoded, sent as text, parsed and decoded.
View through_text(const View& v) {
  const auto parsed = protocol::parse_json(protocol::to_json(v).dump());
  REQUIRE(parsed.ok());
  const auto decoded = protocol::view_from_json(*parsed);
  if (!decoded.ok()) FAIL(decoded.error().message);
  return *decoded;
}

// A view of a game in progress, for the hostile-input tests: the seat owing a decision
// in the middle of a game, so every kind of field is there.
Json sample_view(const Options& options, std::uint64_t seed, int steps) {
  GameState state = new_game(options, seed);
  Rng bots{seed};
  Events events;
  for (int i = 0; i < steps; ++i) {
    const Seat seat = pending(state)[0].seat;
    events.clear();
    REQUIRE_FALSE(apply(state, seat, random_command(state, seat, bots), events));
    REQUIRE_FALSE(is_over(state));
  }
  return protocol::to_json(view(state, pending(state)[0].seat));
}

// Every value in a document, by JSON pointer (the root excluded).
void collect_pointers(const Json& json, const Json::json_pointer& at,
                      std::vector<Json::json_pointer>& out) {
  if (json.is_object()) {
    for (const auto& [key, value] : json.items()) {
      out.push_back(at / key);
      collect_pointers(value, at / key, out);
    }
  } else if (json.is_array()) {
    for (std::size_t i = 0; i < json.size(); ++i) {
      out.push_back(at / i);
      collect_pointers(json[i], at / i, out);
    }
  }
}

// Replaces or removes every value of `json` in turn: each result decodes to an error or
// to a value that encodes and decodes to itself, and nothing throws.
template <typename T>
void mutate_everywhere(const Json& json,
                       const std::function<protocol::Decoded<T>(const Json&)>& decode,
                       const char* code, int& refused) {
  const std::vector<Json> replacements = {
      Json(nullptr), Json(true),  Json(-1),     Json(0),  Json(5),
      Json(256),     Json(2.5),   Json(1e30),   Json("galicia"),
      Json("castillo"), Json("x\xff"), Json::array(), Json::object(),
      Json::array({0, 0}), Json(std::numeric_limits<std::uint64_t>::max()),
      Json(std::numeric_limits<std::int64_t>::min())};
  std::vector<Json::json_pointer> pointers;
  collect_pointers(json, Json::json_pointer(), pointers);
  auto check = [&](const Json& mutated) {
    INFO(mutated.dump(-1, ' ', false, Json::error_handler_t::replace));
    protocol::Decoded<T> decoded = DecodeError{};
    REQUIRE_NOTHROW(decoded = decode(mutated));
    if (decoded.ok()) {
      const auto again = decode(protocol::to_json(*decoded));
      REQUIRE(again.ok());
      REQUIRE(*again == *decoded);
    } else {
      REQUIRE(decoded.error().code == code);
      REQUIRE_FALSE(decoded.error().message.empty());
      REQUIRE(decoded.error().message.size() < 200);
      ++refused;
    }
  };
  for (const auto& pointer : pointers) {
    for (const Json& replacement : replacements) {
      Json mutated = json;
      mutated[pointer] = replacement;
      check(mutated);
    }
    Json removed = json;
    const Json::json_pointer parent = pointer.parent_pointer();
    if (removed[parent].is_object()) {
      removed[parent].erase(pointer.back());
      check(removed);
    }
  }
}

std::string kind_of(const Decision& d) {
  return protocol::to_json(d).at("kind").get<std::string>();
}

}  // namespace

TEST_CASE("every view and decision of random games decodes to itself") {
  std::set<std::string> kinds, limits;
  int views = 0, decisions = 0, announced = 0, games = 0, freed_first_veto = 0;
  for (const Table& table : tables()) {
    for (std::uint64_t seed = 1; seed <= games_per_table(15); ++seed) {
      INFO(table.label << ", seed " << seed);
      GameState state = new_game(table.options, seed);
      Rng bots{seed * 977};
      Events events;
      while (!is_over(state)) {
        INFO("version " << state.version);
        for (Seat viewer = kSpectator; viewer < table.options.players; ++viewer) {
          const View v = view(state, viewer);
          const auto decoded = protocol::view_from_json(protocol::to_json(v));
          if (!decoded.ok()) FAIL(decoded.error().message);
          REQUIRE(*decoded == v);
          ++views;
          announced += v.announced.has_value();
        }
        for (const Decision& d : pending(state)) {
          const auto decoded = protocol::decision_from_json(protocol::to_json(d));
          if (!decoded.ok()) FAIL(decoded.error().message);
          REQUIRE(*decoded == d);
          kinds.insert(kind_of(d));
          if (std::holds_alternative<ActionCardUse>(d.detail)) {
            const Json json = protocol::to_json(d);
            for (const auto& [key, value] : json.items()) limits.insert(key);
          }
          ++decisions;
        }
        freed_first_veto += state.vetoes[0].holder < 0 && state.vetoes[1].holder >= 0;
        const Decisions owing = pending(state);
        const Seat seat = owing[bots.below(static_cast<std::uint32_t>(owing.size()))].seat;
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, bots), events));
      }
      // The final views too, with their winners.
      for (Seat viewer = kSpectator; viewer < table.options.players; ++viewer)
        REQUIRE(through_text(view(state, viewer)) == view(state, viewer));
      ++games;
    }
  }
  CHECK(games == static_cast<int>(tables().size() * games_per_table(15)));
  CHECK(kinds.size() == std::variant_size_v<DecisionDetail>);
  if (!std::getenv("ELGRANDE_SANITIZED")) {  // situations the full run is known to meet
    CHECK(announced > 100);
    CHECK(freed_first_veto > 0);
    for (const char* limit : {"moves", "move_to", "extra_up_to", "take_up_to", "targets", "move_from",
                              "take_province", "take_regions", "remove_from", "scoreboard_to", "take_back"}) {
      INFO(limit);
      CHECK(limits.count(limit) == 1);
    }
  }
  CHECK(views > games * 400);
  CHECK(decisions > games * 100);
}

TEST_CASE("a view shows the veto cards held, not the slots they sit in") {
  // The JSON lists held cards only; the view does the same, so it decodes to itself.
  GameState state = new_game(Options{3, false, false, false}, 1);
  state.vetoes[0] = VetoCard{-1, 2};  // used or expired
  state.vetoes[1] = VetoCard{1, 5};
  const View v = view(state, 1);
  CHECK(v.vetoes[0] == VetoCard{1, 5});
  CHECK(v.vetoes[1] == VetoCard{});
  CHECK(protocol::to_json(v).at("vetoes") == Json::parse(R"([{"holder":1,"expires_after":5}])"));
  CHECK(through_text(v) == v);
}

TEST_CASE("a bot that sees only its decoded view plays legal commands") {
  int commands = 0;
  for (const Table& table : tables()) {
    for (std::uint64_t seed = 100; seed < 100 + games_per_table(10); ++seed) {
      INFO(table.label << ", seed " << seed);
      GameState state = new_game(table.options, seed);
      Rng bots{seed};
      Events events;
      while (!is_over(state)) {
        // Every seat that owes an answer decides from its view as a remote client sees it.
        for (const Decision& d : pending(state)) {
          const View seen = through_text(view(state, d.seat));
          REQUIRE(seen.decision == d);
          GameState trial = state;
          events.clear();
          const auto rejection = apply(trial, d.seat, random_command(seen, bots), events);
          if (rejection) FAIL("refused: " << rejection->reason);
          ++commands;
        }
        const Seat seat = pending(state)[0].seat;
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(through_text(view(state, seat)), bots), events));
      }
    }
  }
  CHECK(commands > static_cast<int>(tables().size() * games_per_table(10)) * 100);
}

namespace {

// A use of an action card with every special-action limit set (no real card has them all).
ActionCardUse every_limit() {
  ActionCardUse use;
  use.card = 7;
  use.special = CardKind::place_two_or_move_all_own;
  use.may_place = true;
  use.place_up_to = 1;
  use.place_into = static_cast<AreaMask>(bit(Area::aragon) | bit(Area::castillo));
  use.may_act = true;
  use.moves = move_limits(use.special);
  use.move_to = static_cast<AreaMask>(bit(Area::galicia) | bit(Area::granada));
  use.extra_up_to = 2;
  use.take_up_to = 1;
  use.targets = bit(Area::sevilla);
  AreaCounts regions;
  regions[Area::valencia] = 3;
  use.move_from[1] = regions;
  use.move_from[4][Area::galicia] = 30;
  use.take_province = 1;
  use.take_regions = regions;
  use.remove_from[0][Area::aragon] = 1;
  use.remove_from[3] = regions;
  use.scoreboard_to[1] = static_cast<AreaMask>(bit(Area::galicia) | bit(Area::castillo));
  use.take_back = static_cast<PowerCards>(power_bit(2) | power_bit(12));
  return use;
}

}  // namespace

TEST_CASE("decisions decode every kind and constraint") {
  const ActionCardUse use = every_limit();
  AreaCounts regions;
  regions[Area::valencia] = 3;
  const std::vector<Decision> samples = {
      {0, PowerCardChoice{static_cast<PowerCards>(power_bit(1) | power_bit(13))}},
      {1, PowerCardChoice{0}},
      {2, CaballerosToTake{4, 2, regions}},
      {3, ActionCardChoice{{3, 14, 27, 38, 44}}},
      {4, ActionCardChoice{}},
      {0, use},
      {1, ActionCardUse{}},
      {2, VetoChoice{4, 20}},
      {3, CaballerosToReturn{3, 1, regions}},
      {4, DiskChoice{DiskPurpose::secret_scoring, static_cast<AreaMask>(kAllRegions)}},
  };
  for (const Decision& d : samples) {
    const Json json = protocol::to_json(d);
    INFO(json.dump());
    const auto decoded = protocol::decision_from_json(json);
    REQUIRE(decoded.ok());
    CHECK(*decoded == d);
  }
  // Limits the encoder leaves out when zero may also be written as zero.
  const auto zeros = protocol::decision_from_json(Json::parse(
      R"({"seat":0,"kind":"use_action_card","card":1,"special":"veto","may_place":false,
          "place_up_to":0,"place_into":[],"may_act":true,"move_to":[],"extra_up_to":0,
          "take_up_to":0,"targets":[],"move_from":[],"take_province":0,"take_regions":{},
          "remove_from":[{"colour":2,"regions":{}}],"scoreboard_to":{"four_zero_zero":[]},"take_back":[],
          "note":"unknown fields are ignored"})"));
  REQUIRE(zeros.ok());
  const auto& zero_use = std::get<ActionCardUse>(zeros->detail);
  CHECK(zero_use.special == CardKind::veto);
  CHECK_FALSE(zero_use.moves);
  CHECK(zero_use.move_to == 0);
  CHECK(zero_use.targets == 0);
  ActionCardUse nothing;  // every special-action limit zero
  nothing.card = 1;
  nothing.special = CardKind::veto;
  nothing.may_act = true;
  CHECK(zero_use == nothing);
}

TEST_CASE("a taken-back power card that others see as value 0 decodes") {
  View v;
  v.options = Options{3, false, false, false};
  v.viewer = 2;
  v.phase = Phase::veto_window;
  v.active = 0;
  v.card = 30;
  v.announced = TakeBackPowerCard{0};
  v.vetoes[0] = VetoCard{2, 4};
  v.players[2].live_vetoes = 1;
  v.players[2].hand = static_cast<PowerCards>(power_bit(4) | power_bit(9));
  v.players[2].discards = power_bit(11);
  v.players[2].castillo = 3;
  v.players[2].disk = Area::cataluna;
  v.decision = Decision{2, VetoChoice{0, 30}};
  v.waiting_for = 0b100;
  const Json json = protocol::to_json(v);
  CHECK(json.at("announced") == Json::parse(R"({"type":"take_back_power_card","value":0})"));
  REQUIRE(through_text(v) == v);
  v.announced = TakeBackPowerCard{13};
  REQUIRE(through_text(v) == v);

  Json bad = json;
  bad["announced"]["value"] = 14;
  CHECK_FALSE(protocol::view_from_json(bad).ok());
  bad["announced"] = Json::parse(R"({"type":"fly_away"})");
  const auto unknown = protocol::view_from_json(bad);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().code == "bad_view");  // not the command decoder's "unknown_type"
  bad["announced"] = Json::parse(R"({"type":"play_power_card","value":0})");
  CHECK_FALSE(protocol::view_from_json(bad).ok());  // value 0 only for a taken-back card
}

TEST_CASE("hostile views are refused with a typed error and never crash") {
  const Json four = sample_view(Options{4, false, false, false}, 5, 40);
  REQUIRE(four.contains("decision"));
  const Json automa = sample_view(Options{2, false, true, false}, 6, 25);
  REQUIRE(automa.contains("automa"));

  struct Case {
    const char* what;
    const Json* base;
    std::function<void(Json&)> change;
    const char* message;  // the start of the error message
  };
  const std::vector<Case> cases = {
      {"not an object", &four, [](Json& j) { j = Json::array(); }, "(root): must be an object"},
      {"no phase", &four, [](Json& j) { j.erase("phase"); }, "phase: missing"},
      {"an unknown phase", &four, [](Json& j) { j["phase"] = "tea_time"; }, "phase: unknown phase"},
      {"a viewer beyond the table", &four, [](Json& j) { j["viewer"] = 4; }, "viewer: must be an integer in 0..3"},
      {"a negative viewer", &four, [](Json& j) { j["viewer"] = -1; }, "viewer: must be"},
      {"a string viewer", &four, [](Json& j) { j["viewer"] = "0"; }, "viewer: must be"},
      {"the king in the castillo", &four, [](Json& j) { j["king"] = "castillo"; }, "king: must be a region"},
      {"the king nowhere", &four, [](Json& j) { j["king"] = "atlantis"; }, "king: unknown area"},
      {"six players", &four, [](Json& j) { j["options"]["players"] = 6; }, "options.players:"},
      {"the automa with four", &four, [](Json& j) { j["options"]["automa"] = true; }, "options:"},
      {"a region missing", &four, [](Json& j) { j["regions"].erase("sevilla"); }, "regions.sevilla: missing"},
      {"the castillo as a region", &four, [](Json& j) { j["regions"]["castillo"] = {0, 0, 0, 0}; }, "regions: unknown region"},
      {"an unknown region", &four, [](Json& j) { j["regions"]["atlantis"] = {0, 0, 0, 0}; }, "regions: unknown region"},
      {"a colour short", &four, [](Json& j) { j["regions"]["aragon"] = {0, 0, 0}; }, "regions.aragon: must have one count per colour"},
      {"a count too big", &four, [](Json& j) { j["regions"]["aragon"][1] = 256; }, "regions.aragon[1]:"},
      {"a seat short", &four, [](Json& j) { j["players"].erase(3); }, "players: must have one entry per seat"},
      {"a seat too many", &four, [](Json& j) { j["players"].push_back(j["players"][0]); }, "players:"},
      {"another seat's hand", &four,
       [](Json& j) {
         const int other = (j["viewer"].get<int>() + 1) % 4;
         j["players"][other]["hand"] = {1, 2};
       },
       "players["},
      {"a grande in the castillo", &four, [](Json& j) { j["players"][0]["grande"] = "castillo"; }, "players[0].grande: must be a region"},
      {"a fractional score", &four, [](Json& j) { j["players"][0]["score"] = 1.5; }, "players[0].score:"},
      {"a score beyond int16", &four, [](Json& j) { j["players"][0]["score"] = 40000; }, "players[0].score:"},
      {"an unknown scoreboard", &four, [](Json& j) { j["scoreboards"]["ten"] = "aragon"; }, "scoreboards: unknown scoreboard"},
      {"three stack sizes", &four, [](Json& j) { j["stack_sizes"].erase(0); }, "stack_sizes: must have 4 entries"},
      {"six offered cards", &four, [](Json& j) { j["offered"] = {1, 2, 3, 4, 5, 6}; }, "offered: must have at most 5"},
      {"card 45 offered", &four, [](Json& j) { j["offered"] = {45}; }, "offered[0]:"},
      {"three vetoes", &four,
       [](Json& j) { j["vetoes"] = Json::parse(R"([{"holder":0,"expires_after":1},{"holder":1,"expires_after":1},{"holder":2,"expires_after":1}])"); },
       "vetoes: must have at most 2"},
      {"a veto holder beyond the table", &four,
       [](Json& j) { j["vetoes"] = Json::parse(R"([{"holder":4,"expires_after":1}])"); }, "vetoes[0].holder:"},
      {"a version beyond uint32", &four, [](Json& j) { j["version"] = 4294967296ull; }, "version:"},
      {"a negative round", &four, [](Json& j) { j["round"] = -1; }, "round:"},
      {"a repeated seat waiting", &four, [](Json& j) { j["waiting_for"] = {1, 1}; }, "waiting_for[1]: must be in ascending order"},
      {"seats waiting out of order", &four, [](Json& j) { j["waiting_for"] = {2, 1}; }, "waiting_for[1]:"},
      {"a winner beyond the table", &four, [](Json& j) { j["winners"] = {4}; }, "winners[0]:"},
      {"a colour beyond the table", &four, [](Json& j) { j["turn_order"] = {0, 4}; }, "turn_order[1]:"},
      {"an unknown disk purpose", &four, [](Json& j) { j["disk_purpose"] = "fun"; }, "disk_purpose: unknown"},
      {"eviction from the castillo", &four, [](Json& j) { j["evicted_from"] = "castillo"; }, "evicted_from: must be a region"},
      {"someone else's decision", &four,
       [](Json& j) { j["decision"]["seat"] = (j["viewer"].get<int>() + 1) % 4; }, "decision: must be the viewer's own"},
      {"a decision for a spectator", &four,
       [](Json& j) {
         j.erase("viewer");
         for (Json& player : j["players"])
           for (const char* secret : {"hand", "discards", "castillo", "disk"}) player.erase(secret);
       },
       "decision: must be the viewer's own"},
      {"a decision of no kind", &four, [](Json& j) { j["decision"]["kind"] = "dance"; }, "decision.kind: unknown decision kind"},
      {"a decision that is a string", &four, [](Json& j) { j["decision"] = "play"; }, "decision: must be an object"},
      {"a colour to move beyond the table", &four,
       [](Json& j) {
         j["decision"] = Json::parse(R"({"kind":"use_action_card","card":8,"special":"move_four_any","may_place":false,
                                         "place_up_to":0,"place_into":[],"may_act":true,
                                         "move_from":[{"colour":1,"regions":{"aragon":1}},{"colour":4,"regions":{"aragon":1}}]})");
         j["decision"]["seat"] = j["viewer"];
       },
       "decision: names a colour beyond the table's"},
      {"a colour to remove beyond the table", &automa,
       [](Json& j) {
         j["decision"] = Json::parse(R"({"kind":"use_action_card","card":13,"special":"remove_one_each","may_place":false,
                                         "place_up_to":0,"place_into":[],"may_act":true,
                                         "remove_from":[{"colour":3,"regions":{"aragon":1}}]})");
         j["decision"]["seat"] = j["viewer"];
       },
       "decision: names a colour beyond the table's"},
      {"an automa missing", &automa, [](Json& j) { j.erase("automa"); }, "automa: missing"},
      {"an automa without one", &four, [](Json& j) { j["automa"] = Json::parse(R"({"supply":1,"played":0,"power_cards_left":3})"); }, "automa: only in games"},
      {"an automa power card 14", &automa, [](Json& j) { j["automa"]["played"] = 14; }, "automa.played:"},
      {"the automa's colour beyond its count", &automa, [](Json& j) { j["turn_order"] = {3}; }, "turn_order[0]:"},
      {"an automa region count missing", &automa, [](Json& j) { j["regions"]["galicia"].erase(2); }, "regions.galicia:"},
  };
  for (const Case& c : cases) {
    Json json = *c.base;
    c.change(json);
    INFO(c.what << ": " << json.dump());
    protocol::Decoded<View> decoded = DecodeError{};
    REQUIRE_NOTHROW(decoded = protocol::view_from_json(json));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().code == "bad_view");
    CHECK(decoded.error().message.rfind(c.message, 0) == 0);
  }
  // The originals were fine.
  CHECK(protocol::view_from_json(four).ok());
  CHECK(protocol::view_from_json(automa).ok());
}

TEST_CASE("hostile decisions are refused with a typed error and never crash") {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"[]", "(root): must be an object"},
      {R"({"kind":"power_card","playable":[1]})", "seat: missing"},
      {R"({"seat":5,"kind":"power_card","playable":[1]})", "seat: must be an integer in 0..4"},
      {R"({"seat":"0","kind":"power_card","playable":[1]})", "seat:"},
      {R"({"seat":0,"kind":3})", "kind: must be a string"},
      {R"({"seat":0,"kind":"power_card","playable":[13,1]})", "playable[1]: must be in ascending order"},
      {R"({"seat":0,"kind":"power_card","playable":[0]})", "playable[0]: must be an integer in 1..13"},
      {R"({"seat":0,"kind":"power_card","playable":"all"})", "playable: must be an array"},
      {R"({"seat":0,"kind":"take_caballeros","up_to":2,"province":1,"regions":{"mars":1}})", "regions: unknown area"},
      {R"({"seat":0,"kind":"take_caballeros","up_to":-2,"province":1,"regions":{}})", "up_to:"},
      {R"({"seat":0,"kind":"action_card","offered":[1,2,3,4,5,6]})", "offered: must have at most 5"},
      {R"({"seat":0,"kind":"action_card","offered":[45]})", "offered[0]:"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"nap","may_place":true,"place_up_to":1,"place_into":[],"may_act":true})", "special: unknown card kind"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"veto","may_place":1,"place_up_to":1,"place_into":[],"may_act":true})", "may_place: must be true or false"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"veto","may_place":true,"place_up_to":1,"place_into":["castillo","aragon"],"may_act":true})", "place_into[1]: must be in ascending order"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"move_four_any","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"moves":{"own":4}})", "moves.opposing: missing"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"king","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"targets":null})", "targets: must be an array"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"move_four_any","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"move_from":{"1":{"aragon":1}}})", "move_from: must be an array"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"move_four_any","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"move_from":[{"colour":5,"regions":{}}]})", "move_from[0].colour: must be an integer in 0..4"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"move_four_any","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"move_from":[{"colour":1,"regions":{}},{"colour":1,"regions":{}}]})", "move_from[1].colour: must be in ascending order"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"move_four_any","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"move_from":[{"colour":1}]})", "move_from[0].regions: missing"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"move_four_any","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"move_from":[{"colour":1,"regions":{"aragon":-1}}]})", "move_from[0].regions.aragon:"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"court","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"take_province":2.0})", "take_province: must be an integer"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"court","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"take_regions":{"mars":1}})", "take_regions: unknown area"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"remove_one_each","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"remove_from":[{"colour":2,"regions":{}},{"colour":1,"regions":{}}]})", "remove_from[1].colour: must be in ascending order"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"remove_one_each","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"remove_from":[1,2,3,4,5,6]})", "remove_from: must have at most 5"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"scoreboard","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"scoreboard_to":{"ten":["aragon"]}})", "scoreboard_to: unknown scoreboard"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"scoreboard","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"scoreboard_to":{"four_zero_zero":["castillo","aragon"]}})", "scoreboard_to.four_zero_zero[1]: must be in ascending order"},
      {R"({"seat":0,"kind":"use_action_card","card":1,"special":"power_cards","may_place":true,"place_up_to":1,"place_into":[],"may_act":true,"take_back":[0]})", "take_back[0]: must be an integer in 1..13"},
      {R"({"seat":0,"kind":"veto","actor":7,"card":1})", "actor:"},
      {R"({"seat":0,"kind":"return_caballeros","count":3,"court":1})", "regions: missing"},
      {R"({"seat":0,"kind":"disk","purpose":"fun","allowed":["aragon"]})", "purpose: unknown disk purpose"},
      {R"({"seat":0,"kind":"disk","purpose":"eviction","allowed":["aragon","aragon"]})", "allowed[1]:"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    protocol::Decoded<Decision> decoded = DecodeError{};
    REQUIRE_NOTHROW(decoded = protocol::decision_from_json(Json::parse(text)));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().code == "bad_decision");
    CHECK(decoded.error().message.rfind(message, 0) == 0);
  }
}

TEST_CASE("views and decisions changed anywhere decode to an error or to themselves") {
  int refused = 0;
  const std::function<protocol::Decoded<View>(const Json&)> decode_view = protocol::view_from_json;
  const std::function<protocol::Decoded<Decision>(const Json&)> decode_decision =
      protocol::decision_from_json;
  for (const auto& [options, steps] :
       std::vector<std::pair<Options, int>>{{Options{4, false, false, false}, 40},
                                            {Options{2, false, true, false}, 25},
                                            {Options{3, true, false, true}, 60},
                                            {Options{5, false, false, false}, 150}}) {
    const Json v = sample_view(options, 11, steps);
    mutate_everywhere(v, decode_view, "bad_view", refused);
    mutate_everywhere(v.at("decision"), decode_decision, "bad_decision", refused);
  }
  mutate_everywhere(protocol::to_json(Decision{2, every_limit()}), decode_decision, "bad_decision", refused);
  CHECK(refused > 1000);
}

TEST_CASE("a client that applies every view patch holds exactly the view sent whole") {
  std::size_t whole_bytes = 0, patch_bytes = 0;
  int patches = 0, games = 0;
  for (const Table& table : tables()) {
    for (std::uint64_t seed = 1; seed <= games_per_table(20); ++seed) {
      INFO(table.label << ", seed " << seed);
      GameState state = new_game(table.options, seed);
      Rng bots{seed * 31};
      Events events;
      // Every seat and the spectators, each from the whole view of the first update on.
      std::vector<View> sent;
      std::vector<Json> held;
      for (Seat viewer = kSpectator; viewer < table.options.players; ++viewer) {
        sent.push_back(view(state, viewer));
        held.push_back(protocol::to_json(sent.back()));
      }
      std::string patch, whole;
      while (!is_over(state)) {
        const Decisions owing = pending(state);
        const Seat seat = owing[bots.below(static_cast<std::uint32_t>(owing.size()))].seat;
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, bots), events));
        for (Seat viewer = kSpectator; viewer < table.options.players; ++viewer) {
          const auto i = static_cast<std::size_t>(viewer + 1);
          const View now = view(state, viewer);
          // As a client gets them: the server's text, parsed.
          patch.clear();
          protocol::append_view_patch(patch, sent[i], now);
          const auto parsed = protocol::parse_json(patch);
          REQUIRE(parsed.ok());
          protocol::apply_merge_patch(held[i], *parsed);
          whole.clear();
          protocol::append_view(whole, now);
          INFO("viewer " << int(viewer) << ", version " << state.version << ", patch " << patch);
          REQUIRE(held[i] == Json::parse(whole));
          whole_bytes += whole.size();
          patch_bytes += patch.size();
          ++patches;
          sent[i] = now;
        }
      }
      ++games;
    }
  }
  CHECK(games == static_cast<int>(tables().size() * games_per_table(20)));
  // What the patches save: on average they are a small part of the whole view.
  INFO(patches << " patches, " << patch_bytes << " bytes against " << whole_bytes << " whole");
  CHECK(patch_bytes * 5 < whole_bytes);
}

TEST_CASE("a view's decision is written as to_json writes it, and patched from any decision to any other") {
  // Every kind, every limit, and nested limits that gain, lose or change a key.
  AreaCounts few, other;
  few[Area::valencia] = 3;
  other[Area::valencia] = 2;
  other[Area::galicia] = 1;
  const ActionCardUse use = every_limit();
  ActionCardUse changed = use;
  changed.take_regions = other;
  changed.move_from[1] = other;
  changed.scoreboard_to = {};
  changed.scoreboard_to[0] = bit(Area::aragon);
  changed.moves->own = 5;
  changed.moves->single_source = !changed.moves->single_source;
  ActionCardUse placed = changed;
  placed.may_place = false;
  placed.moves.reset();
  placed.take_regions = {};
  std::vector<std::optional<Decision>> decisions = {
      std::nullopt,
      Decision{0, PowerCardChoice{static_cast<PowerCards>(power_bit(1) | power_bit(13))}},
      Decision{0, PowerCardChoice{static_cast<PowerCards>(power_bit(13))}},
      Decision{2, CaballerosToTake{4, 2, few}},
      Decision{2, CaballerosToTake{4, 0, other, 2}},
      Decision{3, ActionCardChoice{{3, 14, 27, 38, 44}}},
      Decision{0, use},
      Decision{0, changed},
      Decision{1, placed},
      Decision{1, ActionCardUse{}},
      Decision{2, VetoChoice{4, 20}},
      Decision{3, CaballerosToReturn{3, 1, few}},
      Decision{3, CaballerosToReturn{2, 0, other}},
      Decision{4, DiskChoice{DiskPurpose::secret_scoring, static_cast<AreaMask>(kAllRegions)}},
  };
  // And the decisions of a few random games, as they follow one another.
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    GameState state = new_game(Options{4, false, false, false}, seed);
    Rng bots{seed};
    Events events;
    while (!is_over(state)) {
      const Decisions owing = pending(state);
      if (state.version % 12 == 0) decisions.push_back(owing[0]);
      events.clear();
      REQUIRE_FALSE(apply(state, owing[0].seat, random_command(state, owing[0].seat, bots), events));
    }
  }
  const View base = view(new_game(Options{4, false, false, false}, 1), 0);
  std::vector<View> views;
  std::vector<Json> wholes;
  for (const auto& decision : decisions) {
    views.push_back(base);
    views.back().decision = decision;
    wholes.push_back(protocol::to_json(views.back()));
    if (decision) REQUIRE(wholes.back().at("decision") == protocol::to_json(*decision));
  }
  for (std::size_t i = 0; i < views.size(); ++i) {
    for (std::size_t j = 0; j < views.size(); ++j) {
      Json held = wholes[i];
      const Json patch = protocol::view_patch(views[i], views[j]);
      INFO(wholes[i].value("decision", Json()).dump() << " -> " << wholes[j].value("decision", Json()).dump() << ": "
                                                      << patch.dump());
      protocol::apply_merge_patch(held, patch);
      REQUIRE(held == wholes[j]);
    }
  }
  CHECK(decisions.size() > 50);
}

TEST_CASE("a view patch replaces values, merges objects key by key, removes a key with null, and patches array elements by index") {
  Json doc = Json::parse(R"({"a": 1, "b": {"c": [1, 2], "d": "x"}, "e": true, "p": [{"x": 1}, {"x": 2}]})");
  protocol::apply_merge_patch(doc, Json::parse(R"({"a": null, "b": {"c": [3], "f": 4}, "g": {"h": 5}, "p": {"1": {"x": 3}}})"));
  CHECK(doc == Json::parse(R"({"b": {"c": [3], "d": "x", "f": 4}, "e": true, "g": {"h": 5}, "p": [{"x": 1}, {"x": 3}]})"));
  CHECK_THROWS_AS(protocol::apply_merge_patch(doc, Json::parse(R"({"p": {"2": {"x": 0}}})")), std::invalid_argument);
  // The same from the plain reading of the texts (plain_json.hpp).
  std::vector<protocol::PlainValue> patch;
  Json plain = Json::parse(R"({"a": 1, "b": {"c": [1, 2], "d": "x"}, "e": true, "p": [{"x": 1}, {"x": 2}]})");
  REQUIRE(protocol::read_plain_json(R"({"a": null, "b": {"c": [3], "f": 4}, "g": {"h": -5}, "p": {"1": {"x": 3}}})", patch));
  protocol::apply_merge_patch(plain, patch.front());
  CHECK(plain == Json::parse(R"({"b": {"c": [3], "d": "x", "f": 4}, "e": true, "g": {"h": -5}, "p": [{"x": 1}, {"x": 3}]})"));
  REQUIRE(protocol::read_plain_json(R"({"p": {"2": {"x": 0}}})", patch));
  CHECK_THROWS_AS(protocol::apply_merge_patch(plain, patch.front()), std::invalid_argument);
  // A decision that loses a constraint: the key goes, not just the changed ones.
  View before = view(new_game(Options{}, 3), 0), after = before;
  before.decision.reset();
  after.announced.reset();
  Json held = protocol::to_json(before);
  protocol::apply_merge_patch(held, protocol::view_patch(before, after));
  CHECK(held == protocol::to_json(after));
  protocol::apply_merge_patch(held, protocol::view_patch(after, before));
  CHECK(held == protocol::to_json(before));
  CHECK(protocol::view_patch(before, before) == Json::object());
}
