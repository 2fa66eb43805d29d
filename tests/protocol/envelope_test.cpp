// The WebSocket envelope: decoding untrusted text and building replies and errors.

#include "elgrande/protocol/envelope.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <string>

namespace {

using namespace elgrande::protocol;

EnvelopeError error_of(std::string_view text) {
  DecodedEnvelope decoded = decode_envelope(text);
  REQUIRE(std::holds_alternative<EnvelopeError>(decoded));
  return std::get<EnvelopeError>(decoded);
}

Envelope envelope_of(std::string_view text) {
  DecodedEnvelope decoded = decode_envelope(text);
  REQUIRE(std::holds_alternative<Envelope>(decoded));
  return std::get<Envelope>(decoded);
}

}  // namespace

TEST_CASE("Envelope: a full message decodes", "[protocol][envelope]") {
  const Envelope hello = envelope_of(R"({"type":"hello","id":7,"payload":{"protocol":1}})");
  CHECK(hello.type == "hello");
  CHECK(hello.id == std::optional<RequestId>(std::int64_t{7}));
  CHECK(hello.payload == Json{{"protocol", 1}});

  const Envelope ping = envelope_of(R"({"type":"ping","id":"abc","extra":true})");
  CHECK(ping.id == std::optional<RequestId>(std::string("abc")));
  CHECK(ping.payload == Json::object());

  CHECK_FALSE(envelope_of(R"({"type":"ping"})").id.has_value());
}

TEST_CASE("Envelope: bad input gets typed errors", "[protocol][envelope]") {
  CHECK(error_of("{").code == ErrorCode::bad_json);
  CHECK(error_of("").code == ErrorCode::bad_json);
  CHECK(error_of(std::string(40, '[') + std::string(40, ']')).code == ErrorCode::bad_json);

  for (const char* bad : {"[]", "3", "null", R"({})", R"({"type":1})", R"({"type":""})",
                          R"({"type":"x","payload":[]})", R"({"type":"x","payload":null})",
                          R"({"type":"x","id":true})", R"({"type":"x","id":1.5})",
                          R"({"type":"x","id":18446744073709551615})"}) {
    INFO(bad);
    CHECK(error_of(bad).code == ErrorCode::bad_envelope);
  }

  const std::string long_id(kMaxRequestIdBytes + 1, 'i');
  CHECK(error_of(R"({"type":"x","id":")" + long_id + "\"}").code == ErrorCode::bad_envelope);

  // Once the id is readable it is kept, so the client can match the error.
  const EnvelopeError untyped = error_of(R"({"id":"r1"})");
  CHECK(untyped.id == std::optional<RequestId>(std::string("r1")));
}

TEST_CASE("Envelope: replies and errors echo the id", "[protocol][envelope]") {
  CHECK(Json::parse(reply_message("ping", std::int64_t{3}, {{"time", 1}})) ==
        Json{{"type", "ping.ok"}, {"id", 3}, {"payload", {{"time", 1}}}});
  CHECK(Json::parse(reply_message("hello", std::nullopt)) ==
        Json{{"type", "hello.ok"}, {"payload", Json::object()}});
  // Written as text, byte for byte as nlohmann writes the same envelope.
  CHECK(reply_message("ping", std::int64_t{-3}, {{"time", 1}}) ==
        Json{{"type", "ping.ok"}, {"id", -3}, {"payload", {{"time", 1}}}}.dump());
  CHECK(reply_message("game.command", std::string("q\"\\\u00e9"), Json::object()) ==
        Json{{"type", "game.command.ok"}, {"id", "q\"\\\u00e9"}, {"payload", Json::object()}}.dump());
  CHECK(reply_message("hello", std::nullopt) == Json{{"type", "hello.ok"}, {"payload", Json::object()}}.dump());
  CHECK(Json::parse(error_message(ErrorCode::unknown_type, "no", std::string("q"))) ==
        Json{{"type", "error"},
             {"id", "q"},
             {"payload", {{"code", "unknown_type"}, {"message", "no"}}}});
  // A stale command is refused by the server, not by the engine: no reason.
  CHECK(Json::parse(error_message(ErrorCode::stale_version, "the game is at version 5", std::int64_t{8})) ==
        Json{{"type", "error"},
             {"id", 8},
             {"payload", {{"code", "stale_version"}, {"message", "the game is at version 5"}}}});
}

TEST_CASE("Envelope: every error code has a distinct name that reads back",
          "[protocol][envelope]") {
  for (const ErrorCode code :
       {ErrorCode::bad_json, ErrorCode::bad_envelope, ErrorCode::unknown_type,
        ErrorCode::bad_payload, ErrorCode::too_large, ErrorCode::rate_limited,
        ErrorCode::not_identified, ErrorCode::unknown_token, ErrorCode::forbidden,
        ErrorCode::wrong_state, ErrorCode::seat_taken, ErrorCode::not_your_turn,
        ErrorCode::illegal_command, ErrorCode::stale_version, ErrorCode::limit_reached, ErrorCode::table_full,
        ErrorCode::not_found, ErrorCode::internal, ErrorCode::unavailable}) {
    CHECK(error_code_from_string(to_string(code)) == code);
  }
  CHECK(to_string(ErrorCode::rate_limited) == "rate_limited");
  CHECK(to_string(ErrorCode::stale_version) == "stale_version");
  CHECK(error_code_from_string("stale_version") == ErrorCode::stale_version);
  CHECK_FALSE(error_code_from_string("nope").has_value());
}

TEST_CASE("Envelope: messages are written byte for byte as nlohmann writes them", "[protocol][envelope]") {
  const Json document = {
      {"name", "Zo\u00e9 \"the\" \\ \n\t\x01 \xf0\x9f\x8f\xb0"},  // escapes, UTF-8, a control character
      {"invalid", std::string("a\xff\xc3")},                      // not UTF-8: replaced
      {"numbers", {0, -1, 42, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::uint64_t>::max()}},
      {"floats", {0.5, 25.0, -1e-7, 1e300}},
      {"nested", {{"empty", Json::object()}, {"none", Json::array()}, {"null", nullptr}, {"yes", true}, {"no", false}}},
      {"k\u00e9y \"quoted\"", 1}};
  CHECK(serialise(document) == document.dump(-1, ' ', false, Json::error_handler_t::replace));
  CHECK(push_message("game.update", document) ==
        Json{{"type", "game.update"}, {"payload", document}}.dump(-1, ' ', false, Json::error_handler_t::replace));
}
