#include <catch2/catch.hpp>

#include <string>

#include "elgrande/notices/letters.hpp"
#include "elgrande/notices/preferences.hpp"

using namespace elgrande::notices;
using nlohmann::json;

namespace {
const std::string kBase = "https://play.example.org";
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("Each notice's letter names what happened and links where to act") {
  const auto verify = letter("verify_email", {{"username", "Ana_P"}, {"address", "ana@example.org"}, {"token", "ab12"}}, kBase);
  REQUIRE(verify);
  CHECK(verify->url == kBase + "/#/verify-email/ab12");
  CHECK(has(verify->text, "Ana_P"));
  CHECK(has(verify->text, "24 hours"));
  CHECK(has(verify->html, "href=\"" + kBase + "/#/verify-email/ab12\""));

  const auto reset = letter("reset_password", {{"username", "Ana_P"}, {"token", "cd34"}}, kBase);
  REQUIRE(reset);
  CHECK(reset->url == kBase + "/#/reset-password/cd34");
  CHECK(has(reset->text, "one hour"));

  const auto changed = letter("email_changed", {{"username", "Ana_P"}, {"address", "new@example.org"}}, kBase);
  REQUIRE(changed);
  CHECK(has(changed->text, "new@example.org"));

  const auto turn = letter("turn", {{"table", 17}, {"table_name", "Friday <game>"}}, kBase);
  REQUIRE(turn);
  CHECK(turn->subject == "Your turn at Friday <game>");
  CHECK(turn->url == kBase + "/#/table/17");
  CHECK(has(turn->html, "Friday &lt;game&gt;"));  // names are text, never markup
  CHECK_FALSE(has(turn->html, "<game>"));

  const auto ended = letter("game_ended",
                            {{"table", 17}, {"table_name", "Friday"}, {"place", 2},
                             {"seats", json::array({{{"name", "Ana"}, {"score", 88}}, {{"name", "Bob"}, {"score", 91}}})}},
                            kBase);
  REQUIRE(ended);
  CHECK(has(ended->text, "You placed 2nd."));
  CHECK(has(ended->text, "Ana 88, Bob 91."));
}

TEST_CASE("A payload without what its kind needs makes no letter") {
  CHECK_FALSE(letter("verify_email", {{"username", "Ana_P"}}, kBase));
  CHECK_FALSE(letter("turn", {{"table", "17"}, {"table_name", "Friday"}}, kBase));
  CHECK_FALSE(letter("turn", json::array(), kBase));
  CHECK_FALSE(letter("no_such_kind", {{"table", 1}, {"table_name", "x"}}, kBase));
}

TEST_CASE("A digest lists each letter with its link") {
  const auto one = letter("turn", {{"table", 1}, {"table_name", "A"}}, kBase);
  const auto two = letter("turn", {{"table", 2}, {"table_name", "B"}}, kBase);
  const Letter both = digest({*one, *two}, kBase);
  CHECK(both.subject == "El Grande: 2 things happened today");
  CHECK(has(both.text, "Your turn at A: " + kBase + "/#/table/1"));
  CHECK(has(both.text, "Your turn at B: " + kBase + "/#/table/2"));
  CHECK(digest({*one}, kBase).subject == "El Grande: Your turn at A");
}

TEST_CASE("Only notices, not mail about the account, can be unsubscribed from") {
  for (const char* kind : {"turn", "game_ended", "tournament"}) CHECK(unsubscribable(kind));
  for (const char* kind : {"verify_email", "reset_password", "email_changed"}) CHECK_FALSE(unsubscribable(kind));
}

TEST_CASE("Preferences: everything on by default, a game's own channels replace its kind's") {
  Preferences preferences;
  CHECK(preferences.wanted(Kind::turn) == Channels{true, true});
  preferences.kinds[Kind::turn] = {false, true};
  preferences.games[17] = {true, false};
  CHECK(preferences.wanted(Kind::turn) == Channels{false, true});
  CHECK(preferences.wanted(Kind::turn, 17) == Channels{true, false});
  CHECK(preferences.wanted(Kind::game_ended, 17) == Channels{true, false});
  CHECK(preferences.wanted(Kind::tournament, 17) == Channels{true, true});  // tournaments are not a game's
  CHECK(preferences.wanted(Kind::turn, 18) == Channels{false, true});
}

TEST_CASE("Preferences read back what they write, and keep defaults for what is left out") {
  Preferences preferences;
  preferences.kinds[Kind::game_ended] = {false, false};
  preferences.digest = true;
  preferences.games[5] = {false, true};
  const auto read = read_preferences(to_json(preferences));
  REQUIRE(std::holds_alternative<Preferences>(read));
  CHECK(std::get<Preferences>(read) == preferences);
  const auto partial = read_preferences({{"turn", {{"mail", false}}}});
  REQUIRE(std::holds_alternative<Preferences>(partial));
  CHECK(std::get<Preferences>(partial).wanted(Kind::turn) == Channels{false, true});
  CHECK(std::get<Preferences>(partial).wanted(Kind::game_ended) == Channels{true, true});
}

TEST_CASE("Preferences refuse what they do not know, saying where") {
  const auto wrong = [](const json& value) {
    const auto read = read_preferences(value);
    return std::holds_alternative<std::string>(read) ? std::get<std::string>(read) : std::string();
  };
  CHECK(wrong(json::array()) == "preferences: expected an object");
  CHECK(wrong({{"sms", true}}) == "preferences: unknown key 'sms'");
  CHECK(wrong({{"turn", {{"mail", "yes"}}}}) == "turn.mail: expected true or false");
  CHECK(wrong({{"turn", {{"pigeon", true}}}}) == "turn: unknown key 'pigeon'");
  CHECK(wrong({{"digest", 1}}) == "digest: expected true or false");
  CHECK(wrong({{"games", {{"abc", {{"mail", true}}}}}}) == "games: 'abc' is not a table id");
  CHECK(wrong({{"games", {{"-3", {{"mail", true}}}}}}) == "games: '-3' is not a table id");
  json many = json::object();
  for (int i = 1; i <= 201; ++i) many[std::to_string(i)] = {{"mail", false}};
  CHECK(wrong({{"games", many}}).starts_with("games: at most 200"));
}

TEST_CASE("A tournament's letters: the table of a round, and the final place") {
  const auto paired = letter("tournament",
                             {{"what", "paired"}, {"tournament", 3}, {"tournament_name", "Spring Cup"}, {"round", 2},
                              {"table", 41}, {"table_name", "Spring Cup · R2 B1"}},
                             kBase);
  REQUIRE(paired);
  CHECK(paired->subject == "Round 2 of Spring Cup: your table");
  CHECK(paired->url == kBase + "/#/table/41");
  const auto ended = letter(
      "tournament", {{"what", "ended"}, {"tournament", 3}, {"tournament_name", "Spring Cup"}, {"place", 3}, {"of", 12}}, kBase);
  REQUIRE(ended);
  CHECK(ended->url == kBase + "/#/tournament/3");
  CHECK(has(ended->text, "You placed 3rd of 12."));
  CHECK_FALSE(letter("tournament", {{"what", "paired"}, {"tournament", 3}, {"tournament_name", "Spring Cup"}}, kBase));
}

TEST_CASE("A tournament's reminder gives its start in UTC, and asks to check in when it must") {
  const json payload{{"what", "starts_soon"}, {"tournament", 3}, {"tournament_name", "Spring Cup"},
                     {"starts_at", 1795870800000}, {"check_in", true}};
  const auto reminder = letter("tournament", payload, kBase);
  REQUIRE(reminder);
  CHECK(reminder->subject == "Spring Cup starts soon");
  CHECK(has(reminder->text, "starts at 2026-11-28 13:00 UTC."));
  CHECK(has(reminder->text, "Check in now"));
  json without = payload;
  without["check_in"] = false;
  CHECK_FALSE(has(letter("tournament", without, kBase)->text, "Check in"));
}
