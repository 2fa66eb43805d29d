// Settings a client sends, against the real binary: the 1995 edition refuses the 2023
// variants (the automa, four stacks), and a key that table.create, play.join or
// tournament.create's settings do not have is refused with bad_payload instead of dropped.

#include "game_helpers.hpp"

namespace elgrande::test {

TEST_CASE("The 1995 edition refuses the automa and four stacks at table creation, and unknown settings are refused",
          "[no-storage][integration][settings]") {
  TempDir dir;
  ServerProcess server(server_args(dir));
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");

  // The 1995 book has neither: a table that asks is refused with the reason, and nothing is made.
  const Json automa_1995 = {{"players", 2}, {"short_game", true}, {"automa", true}, {"four_stacks", false}, {"edition", "1995"}};
  const Json refused = request(ana, "table.create", {{"options", automa_1995}});
  CHECK(code_of(refused) == "bad_payload");
  CHECK(refused["payload"]["message"].get<std::string>().find("1995 edition has no automa") != std::string::npos);
  const Json four_1995 = {{"players", 3}, {"short_game", true}, {"automa", false}, {"four_stacks", true}, {"edition", "1995"}};
  CHECK(code_of(request(ana, "table.create", {{"options", four_1995}})) == "bad_payload");
  CHECK(request(ana, "player.games", Json::object())["payload"]["games"].empty());
  // Either alone is fine: 1995 without them, the automa in 2023.
  Json plain_1995 = kThreePlayers;
  plain_1995["edition"] = "1995";
  CHECK(create_table(ana, plain_1995)["options"]["edition"] == "1995");
  Json automa_2023 = automa_1995;
  automa_2023.erase("edition");
  CHECK(create_table(ana, automa_2023)["options"]["automa"] == true);

  // Misspelt or misplaced keys.
  const Json typo = bad_request(ana, "table.create", {{"options", kTwoPlayers}, {"turn_second", 60}});
  CHECK(code_of(typo) == "bad_payload");
  CHECK(typo["payload"]["message"].get<std::string>().starts_with("turn_second:"));
  Json short_typo = kTwoPlayers;
  short_typo["short"] = true;
  CHECK(code_of(bad_request(ana, "table.create", {{"options", short_typo}})) == "bad_payload");
  CHECK(code_of(bad_request(ana, "play.join", {{"players", 3}, {"four_stacks", true}})) == "bad_payload");

  // Tournaments are made by accounts.
  REQUIRE(request(ana, "account.sign_up", {{"username", "Ana_P"}, {"password", "a long password"}, {"device", "test"}})["type"] ==
          "account.sign_up.ok");
  const Json swiss = {{{"format", "swiss"}, {"rounds", 2}}};
  const auto create_event = [&](Json settings) {
    return bad_request(ana, "tournament.create", {{"name", "Cup"}, {"settings", std::move(settings)}});
  };
  const Json automa_event = create_event({{"stages", swiss}, {"game", {{"automa", true}}}});
  CHECK(code_of(automa_event) == "bad_payload");
  CHECK(automa_event["payload"]["message"].get<std::string>().starts_with("settings.game.automa:"));
  const Json rounds_event = create_event({{"stages", {{{"format", "swiss"}}}}, {"rounds", 5}});
  CHECK(code_of(rounds_event) == "bad_payload");
  CHECK(rounds_event["payload"]["message"].get<std::string>().starts_with("settings.rounds:"));
  CHECK(request(ana, "tournament.create", {{"name", "Cup"}, {"settings", {{"stages", swiss}}}})["type"] ==
        "tournament.create.ok");
}

}  // namespace elgrande::test
