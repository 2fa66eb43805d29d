// Settings a client sends (table.create, play.join) are read strictly: a key they do not have
// is refused with bad_payload, naming it, instead of being dropped.

#include <catch2/catch.hpp>

#include "elgrande/el_grande/module.hpp"
#include "matchmaking/matchmaker.hpp"
#include "tables/table_config.hpp"

using namespace elgrande;
using namespace elgrande::server;
using protocol::Json;

// A table config and a play-now wish as the server reads them, for El Grande.
static protocol::Decoded<TableConfig> config_of(const Json& payload) { return table_config_from_json(payload, el_grande::module()); }
static protocol::Decoded<PlayRequest> wish_of(const Json& payload) { return play_request_from_json(payload, el_grande::module()); }

namespace {

template <typename Decoded>
std::string refusal(const Decoded& decoded) {
  REQUIRE_FALSE(decoded.ok());
  CHECK(decoded.error().code == "bad_payload");
  return decoded.error().message;
}

const Json kFourPlayers = Json::parse(R"({"players": 4, "short_game": false, "automa": false, "four_stacks": false})");

}  // namespace

TEST_CASE("table.create: a key the table settings or their options do not have is refused") {
  CHECK(config_of(Json{{"options", kFourPlayers}, {"name", "Friday"}, {"turn_seconds", 60}}).ok());
  CHECK(refusal(config_of(Json{{"options", kFourPlayers}, {"turn_second", 60}})).starts_with("turn_second:"));
  CHECK(refusal(config_of(Json{{"options", kFourPlayers}, {"automa", true}})).starts_with("automa:"));
  Json options = kFourPlayers;
  options["short"] = true;
  CHECK(refusal(config_of(Json{{"options", options}})).starts_with("options.short:"));
}

TEST_CASE("table.create: a game's secrets after the end are open unless the host closes them") {
  CHECK_FALSE(config_of(Json{{"options", kFourPlayers}}).value().secrets_closed);
  CHECK_FALSE(config_of(Json{{"options", kFourPlayers}, {"secrets_after_end", "open"}}).value().secrets_closed);
  CHECK(config_of(Json{{"options", kFourPlayers}, {"secrets_after_end", "closed"}}).value().secrets_closed);
  CHECK(refusal(config_of(Json{{"options", kFourPlayers}, {"secrets_after_end", "sealed"}}))
            .starts_with("secrets_after_end:"));
  CHECK(refusal(config_of(Json{{"options", kFourPlayers}, {"secrets_after_end", false}}))
            .starts_with("secrets_after_end:"));
}

TEST_CASE("table.create: the 1995 edition with the automa or four stacks is refused, whatever revision is asked") {
  Json automa = Json::parse(R"({"players": 2, "short_game": false, "automa": true, "four_stacks": false, "edition": "1995"})");
  CHECK(refusal(config_of(Json{{"options", automa}})).find("1995") != std::string::npos);
  automa["rules_revision"] = 2;  // an old revision that allowed the mix: a new table plays today's
  CHECK(refusal(config_of(Json{{"options", automa}})).find("1995") != std::string::npos);
  const Json four = Json::parse(R"({"players": 3, "short_game": false, "automa": false, "four_stacks": true, "edition": "1995"})");
  CHECK(refusal(config_of(Json{{"options", four}})).find("1995") != std::string::npos);
  automa["edition"] = "2023";
  CHECK(config_of(Json{{"options", automa}}).ok());
}

TEST_CASE("play.join: a key a play-now wish does not have is refused") {
  CHECK(wish_of(Json{{"players", 3}, {"clock", "daily"}}).ok());
  CHECK(refusal(wish_of(Json{{"players", 3}, {"four_stacks", true}})).starts_with("four_stacks:"));
  CHECK(refusal(wish_of(Json{{"players", 2}, {"bots_after", 30}})).starts_with("bots_after:"));
}
