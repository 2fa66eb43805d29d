// What players may call themselves and their tables, and how much they may say: names
// that look like what they are (no control characters, no direction overrides, nothing
// invisible, no spaces at the ends), and chat at a speed a conversation has.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "common/display_name.hpp"
#include "tables/chat_limits.hpp"

using namespace elgrande::server;
using namespace std::chrono_literals;

TEST_CASE("Names: any language and emoji, within the length", "[server][names]") {
  for (const std::string& name : std::vector<std::string>{"Ana", "Ana María", "José_42", "Łucja", "Ἀριστοτέλης", "宮本 武蔵", "محمد", "🦁 León",
                                 "a", std::string(32, 'x')}) {
    INFO(name);
    CHECK_FALSE(why_not_a_name(name, 32).has_value());
  }
  CHECK(why_not_a_name("", 32) == "must be 1 to 32 bytes");
  CHECK(why_not_a_name(std::string(33, 'x'), 32) == "must be 1 to 32 bytes");
}

TEST_CASE("Names that could fool someone are refused, each with its reason", "[server][names]") {
  const std::string control = "may not contain control characters such as line breaks";
  CHECK(why_not_a_name(std::string("Ana\0Ben", 7), 32) == control);
  CHECK(why_not_a_name("Ana\x1b[31mBen", 32) == control);  // ESC: terminal colours in an operator's log
  CHECK(why_not_a_name("Ana\nServer: you won", 32) == control);
  CHECK(why_not_a_name("Ana\u2028Ben", 32) == control);   // line separator
  CHECK(why_not_a_name("Ana\u0085Ben", 32) == control);   // NEL, a C1 control

  const std::string bidi = "may not contain marks that change the direction of the text";
  CHECK(why_not_a_name("Ana\u202Enimda", 32) == bidi);  // shows as "Anaadmin"
  CHECK(why_not_a_name("\u2067Ana", 32) == bidi);
  CHECK(why_not_a_name("Ana\u200F", 32) == bidi);

  const std::string invisible = "may not contain invisible characters";
  CHECK(why_not_a_name("An\u200Ba", 32) == invisible);  // zero-width space: looks like "Ana"
  CHECK(why_not_a_name("Ana\u200D", 32) == invisible);
  CHECK(why_not_a_name("\uFEFFAna", 32) == invisible);
  CHECK(why_not_a_name("Ana\u00AD", 32) == invisible);  // soft hyphen
  CHECK(why_not_a_name("\u3164", 32) == invisible);     // Hangul filler, a blank name

  const std::string spaces = "may not begin or end with a space";
  CHECK(why_not_a_name(" ", 32) == spaces);
  CHECK(why_not_a_name("   ", 32) == spaces);
  CHECK(why_not_a_name("\u3000", 32) == spaces);  // ideographic space
  CHECK(why_not_a_name("Ana ", 32) == spaces);    // would pass for "Ana"
  CHECK(why_not_a_name("\u00A0Ana", 32) == spaces);

  const std::string not_utf8 = "must be UTF-8 text";
  CHECK(why_not_a_name("Ana\xff", 32) == not_utf8);
  CHECK(why_not_a_name("\xc0\xaf" "Ana", 32) == not_utf8);      // an overlong "/"
  CHECK(why_not_a_name("\xed\xa0\x80", 32) == not_utf8);     // a lone surrogate
  CHECK(why_not_a_name("Ana\xe2\x82", 32) == not_utf8);      // cut short
}

TEST_CASE("Chat: five lines in any ten seconds, each player on their own", "[server][chat]") {
  ChatLimits limits;
  const auto start = ChatLimits::Clock::time_point{} + 1h;
  for (int i = 0; i < 5; ++i) CHECK(limits.say(1, "line " + std::to_string(i), start + i * 100ms) == ChatLimits::Verdict::said);
  CHECK(limits.say(1, "line 5", start + 1s) == ChatLimits::Verdict::too_fast);
  CHECK(limits.say(2, "hello", start + 1s) == ChatLimits::Verdict::said);  // Ben is not Ana
  // Ten seconds after her first line, she has one more.
  CHECK(limits.say(1, "line 5", start + 10s + 1ms) == ChatLimits::Verdict::said);
  CHECK(limits.say(1, "line 6", start + 10s + 2ms) == ChatLimits::Verdict::too_fast);
}

TEST_CASE("Chat: never the same line twice in a row, though again after a pause", "[server][chat]") {
  ChatLimits limits;
  const auto start = ChatLimits::Clock::time_point{} + 1h;
  CHECK(limits.say(1, "gg", start) == ChatLimits::Verdict::said);
  CHECK(limits.say(1, "gg", start + 2s) == ChatLimits::Verdict::repeated);
  CHECK(limits.say(1, "well played", start + 3s) == ChatLimits::Verdict::said);
  CHECK(limits.say(1, "gg", start + 4s) == ChatLimits::Verdict::said);  // not in a row any more
  CHECK(limits.say(1, "gg", start + 30s) == ChatLimits::Verdict::said);  // after a quiet spell
}
