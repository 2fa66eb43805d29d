#include <catch2/catch.hpp>

#include <array>
#include <string>

#include "elgrande/notices/unsubscribe.hpp"

using namespace elgrande::notices;

namespace {
const std::array<std::uint8_t, 32> unsubscribe_key = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                                      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
const std::array<std::uint8_t, 32> other_unsubscribe_key = {9, 9, 9};
}  // namespace

TEST_CASE("An unsubscribe token reads back as its player and kind") {
  for (std::int64_t player : {std::int64_t{0}, std::int64_t{1}, std::int64_t{42}, std::int64_t{9223372036854775807}}) {
    std::string token = unsubscribe_token(unsubscribe_key, player, "turn_reminder");
    INFO(token);
    CHECK(token.starts_with(std::to_string(player) + ".turn_reminder."));
    CHECK(token.size() == std::to_string(player).size() + 1 + 13 + 1 + 22);
    CHECK(read_unsubscribe_token(unsubscribe_key, token) == Unsubscribe{player, "turn_reminder"});
  }
  // The same inputs give the same link: it can be made again for every mail.
  CHECK(unsubscribe_token(unsubscribe_key, 7, "digest") == unsubscribe_token(unsubscribe_key, 7, "digest"));
  CHECK(unsubscribe_token(unsubscribe_key, 7, "digest") != unsubscribe_token(unsubscribe_key, 8, "digest"));
}

TEST_CASE("A forged or foreign unsubscribe token is refused") {
  std::string token = unsubscribe_token(unsubscribe_key, 12, "digest");
  CHECK_FALSE(read_unsubscribe_token(other_unsubscribe_key, token));
  CHECK_FALSE(read_unsubscribe_token({}, token));
  // Another player or kind under the first one's MAC.
  std::string mac = token.substr(token.rfind('.') + 1);
  CHECK_FALSE(read_unsubscribe_token(unsubscribe_key, "13.digest." + mac));
  CHECK_FALSE(read_unsubscribe_token(unsubscribe_key, "12.turn_reminder." + mac));
  // Every character of the MAC matters.
  for (std::size_t i = token.rfind('.') + 1; i < token.size(); ++i) {
    std::string forged = token;
    forged[i] = forged[i] == 'A' ? 'B' : 'A';
    INFO(forged);
    CHECK_FALSE(read_unsubscribe_token(unsubscribe_key, forged));
  }
}

TEST_CASE("Malformed unsubscribe tokens are refused") {
  std::string token = unsubscribe_token(unsubscribe_key, 12, "digest");
  std::string mac = token.substr(token.rfind('.') + 1);
  for (std::string bad : {std::string(), std::string("."), std::string(".."), std::string("12.digest"),
                          "12.digest." + mac + ".", "12.digest." + mac + "=", "12.digest." + mac + "AA",
                          "12.digest.." + mac, "12..digest." + mac, ".12.digest." + mac, "012.digest." + mac,
                          "+12.digest." + mac, "-12.digest." + mac, " 12.digest." + mac, "12.Digest." + mac,
                          "12.di-gest." + mac, "12." + std::string(65, 'a') + "." + mac,
                          "99999999999999999999.digest." + mac, "9223372036854775808.digest." + mac,
                          "1e3.digest." + mac, "12.digest." + mac.substr(1), "12.digest.!" + mac.substr(1)}) {
    INFO(bad);
    CHECK_FALSE(read_unsubscribe_token(unsubscribe_key, bad));
  }
}

TEST_CASE("Unsubscribe tokens are only made for a key, a non-negative player and a kind of [a-z_]") {
  CHECK_THROWS_AS(unsubscribe_token({}, 1, "digest"), std::invalid_argument);
  CHECK_THROWS_AS(unsubscribe_token(unsubscribe_key, -1, "digest"), std::invalid_argument);
  CHECK_THROWS_AS(unsubscribe_token(unsubscribe_key, 1, ""), std::invalid_argument);
  CHECK_THROWS_AS(unsubscribe_token(unsubscribe_key, 1, "a.b"), std::invalid_argument);
  CHECK_THROWS_AS(unsubscribe_token(unsubscribe_key, 1, "Digest"), std::invalid_argument);
  CHECK_THROWS_AS(unsubscribe_token(unsubscribe_key, 1, std::string(65, 'a')), std::invalid_argument);
  CHECK_NOTHROW(unsubscribe_token(unsubscribe_key, 1, std::string(64, 'a')));
}
