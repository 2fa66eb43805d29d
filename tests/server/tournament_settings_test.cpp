#include <catch2/catch.hpp>

#include "elgrande/el_grande/module.hpp"
#include "tournaments/tournament_settings.hpp"

using namespace elgrande;
using namespace elgrande::server;
using protocol::Json;

// A tournament's settings as the server reads them, for El Grande.
static protocol::Decoded<TournamentSettings> settings_of(const Json& payload) {
  return tournament_settings_from_json(payload, el_grande::module());
}

namespace {
std::string refusal(const Json& payload) {
  const auto settings = settings_of(payload);
  REQUIRE_FALSE(settings.ok());
  CHECK(settings.error().code == "bad_payload");
  return settings.error().message;
}
}  // namespace

TEST_CASE("Tournament settings: Swiss heats then an elimination final, read and written back the same") {
  const Json payload = Json::parse(R"({
    "stages": [
      {"format": "swiss", "rounds": 3, "table_sizes": {"preferred": 5, "minimum": 4}},
      {"format": "elimination", "advance_per_table": 2, "qualifiers": 10, "table_sizes": {"preferred": 5, "minimum": 5}}
    ],
    "placement_points": {"4": [8, 4, 2, 0], "5": [10, 7, 4.5, 2, 0]},
    "bye_points": 2.5,
    "tie_breaks": ["tournament_points", "percent_of_winner", "wins"],
    "game": {"short_game": true, "turn_seconds": 86400, "on_timeout": "replace_seat", "replace_after": 2},
    "max_players": 64,
    "starts_at": 1795000000000,
    "check_in_minutes": 30,
    "round_time_seconds": 604800,
    "withdraw_replaced": false,
    "seeding": "lot"
  })");
  const auto settings = settings_of(payload);
  REQUIRE(settings.ok());
  const TournamentSettings& s = settings.value();
  REQUIRE(s.stages.size() == 2);
  CHECK(s.stages[0].format == competition::Format::swiss);
  CHECK(s.stages[0].rounds == 3);
  CHECK(s.stages[1].qualifiers == 10);
  CHECK(s.stages[1].sizes.minimum == 5);
  CHECK(s.scoring.placement.of(5, 2).value() == 4.5);
  CHECK(s.scoring.placement.of(3, 0).value() == 6);  // the default for a size not given
  CHECK(s.scoring.bye.value() == 2.5);
  CHECK(s.scoring.order.size() == 3);
  CHECK(s.game.options.at("short_game") == true);
  CHECK(s.game.turn_seconds == 86400);
  CHECK(s.game.on_timeout == OnTimeout::replace_seat);
  CHECK(s.game.replace_after == 2);
  CHECK(s.max_players == 64);
  CHECK(s.starts_at == 1795000000000);
  CHECK(s.round_time_seconds == 604800);
  CHECK_FALSE(s.withdraw_replaced);
  CHECK_FALSE(s.seed_by_rating);

  const auto again = settings_of(to_json(s));
  REQUIRE(again.ok());
  CHECK(to_json(again.value()) == to_json(s));
}

TEST_CASE("Tournament settings: a Swiss with nothing else chosen takes the documented defaults") {
  const auto settings = settings_of(Json::parse(R"({"stages": [{"format": "swiss"}]})"));
  REQUIRE(settings.ok());
  const TournamentSettings& s = settings.value();
  CHECK(s.stages[0].rounds == 3);
  CHECK(s.stages[0].sizes.preferred == 5);
  CHECK(s.stages[0].sizes.minimum == 4);
  CHECK(s.scoring.bye.value() == 3);
  CHECK(s.scoring.order.size() == 5);
  CHECK(s.game.turn_seconds == 0);
  CHECK(s.max_players == 0);
  CHECK_FALSE(s.starts_at);
  CHECK(s.round_time_seconds == 0);
  CHECK(s.withdraw_replaced);
  CHECK(s.seed_by_rating);
}

TEST_CASE("Tournament settings that cannot run are refused, naming the field") {
  CHECK(refusal(Json::parse(R"({"stages": []})")).starts_with("stages:"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "knockout"}]})")).starts_with("stages[0].format"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss", "table_sizes": {"preferred": 6}}]})"))
            .starts_with("stages[0].table_sizes.preferred"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss", "table_sizes": {"preferred": 3, "minimum": 4}}]})"))
            .find("minimum") != std::string::npos);
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "elimination", "advance_per_table": 2,
                                            "table_sizes": {"preferred": 3, "minimum": 3}}]})"))
            .find("advance") != std::string::npos);
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "placement_points": {"5": [6, 7, 3, 1, 0]}})"))
            .starts_with("placement_points"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "placement_points": {"5": [6, 4.25, 3, 1, 0]}})"))
            .starts_with("placement_points.5"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "tie_breaks": ["wins", "wins"]})"))
            .starts_with("tie_breaks"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "game": {"turn_seconds": -5}})"))
            .starts_with("game.turn_seconds"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "check_in_minutes": 30})"))
            .starts_with("check_in_minutes"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "max_players": 100000})"))
            .starts_with("max_players"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "round_time_seconds": 5000000})"))
            .starts_with("round_time_seconds"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "seeding": "age"})")).starts_with("seeding"));
}

TEST_CASE("Tournament settings with a key they do not have are refused, not dropped") {
  // A 2-player automa event or an event of 3 rounds would otherwise be created as something
  // else: the automa and a top-level rounds were silently ignored.
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "game": {"automa": true}})")).starts_with("game.automa"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "game": {"options": {"players": 2}}})"))
            .starts_with("game.options"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "rounds": 3})")).starts_with("rounds"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss"}], "max_player": 8})")).starts_with("max_player"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss", "pools": 2}]})")).starts_with("stages[0].pools"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "round_robin", "rounds": 2}]})")).starts_with("stages[0].rounds"));
  CHECK(refusal(Json::parse(R"({"stages": [{"format": "swiss", "table_sizes": {"preferred": 4, "most": 5}}]})"))
            .starts_with("stages[0].table_sizes.most"));
  // Every key the settings are written back with is one they read.
  const auto each = settings_of(Json::parse(R"({"stages": [{"format": "swiss"}, {"format": "round_robin"},
                                                                   {"format": "elimination"}],
                                                       "game": {"turn_seconds": 60, "on_timeout": "replace_seat"}})"));
  REQUIRE(each.ok());
  CHECK(settings_of(to_json(each.value())).ok());
}
