// envelope: one WebSocket text frame as the server reads it, then its payload through the
// decoders that the message type's handler uses. Properties: the envelope decoder refuses
// with bad_json or bad_envelope only, and its refusal, the "unknown type" refusal and the
// reply the server would send are each one JSON envelope that echoes the request id; the
// payload decoders (hello's name, table.create's table config with its name and options,
// game.command's command) accept only values in range, which encode and decode back to
// themselves, and refuse with a short UTF-8 message. game.command's fast path
// (read_game_command) reads only what the general path reads, and reads it the same.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "check.hpp"
#include "common/display_name.hpp"
#include "elgrande/el_grande/module.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "tables/table_config.hpp"

namespace {

using namespace elgrande;
using elgrande::fuzz::valid_utf8;
using protocol::Json;

// Decoders name the field at fault; they never echo much of the input.
constexpr std::size_t kLongestMessage = 256;

bool good_message(const std::string& message) { return message.size() <= kLongestMessage && valid_utf8(message); }

// A message the server sends back: one envelope of `type` with the request's id.
void check_sent(const std::string& text, std::string_view type, const std::optional<protocol::RequestId>& id) {
  const protocol::DecodedEnvelope decoded = protocol::decode_envelope(text);
  const auto* envelope = std::get_if<protocol::Envelope>(&decoded);
  FUZZ_REQUIRE(envelope != nullptr);
  FUZZ_REQUIRE(envelope->type == type);
  FUZZ_REQUIRE(envelope->id == id);
}

// hello's limit on a player's name (identity/hello.cpp).
constexpr std::size_t kMaxPlayerNameBytes = 32;

// A name others will see: whatever why_not_a_name lets through is UTF-8 without control
// characters, direction marks or invisible characters, and no space at either end.
void check_name(const std::string& name, std::size_t max_bytes) {
  FUZZ_REQUIRE(!name.empty() && name.size() <= max_bytes && valid_utf8(name));
  for (const char c : name) FUZZ_REQUIRE(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F);
  // Next line, zero width space, right-to-left override, left-to-right isolate, BOM.
  for (const std::string_view mark : {"\u0085", "\u200B", "\u202E", "\u2066", "\uFEFF"})
    FUZZ_REQUIRE(name.find(mark) == std::string::npos);
  for (const std::string_view space : {" ", "\u00A0", "\u3000"})
    FUZZ_REQUIRE(!name.starts_with(space) && !name.ends_with(space));
}

void check_hello(const Json& payload) {
  const auto field = payload.find("name");
  if (field == payload.end() || !field->is_string()) return;
  const std::string& name = field->get_ref<const std::string&>();
  if (const std::optional<std::string> why_not = server::why_not_a_name(name, kMaxPlayerNameBytes)) {
    FUZZ_REQUIRE(good_message(*why_not));
    return;
  }
  check_name(name, kMaxPlayerNameBytes);
}

void check_table_config(const Json& payload) {
  const games::GameModule& game = el_grande::module();
  const protocol::Decoded<server::TableConfig> config = server::table_config_from_json(payload, game);
  if (!config) {
    FUZZ_REQUIRE(config.error().code == "bad_payload");
    FUZZ_REQUIRE(good_message(config.error().message));
    return;
  }
  const server::TableConfig& c = config.value();
  // The module's options: El Grande's, normalised, playable, and read again as they are.
  const protocol::Decoded<Options> options = protocol::options_from_json(c.options);
  FUZZ_REQUIRE(options.ok() && !check(options.value()) && protocol::to_json(options.value()) == c.options);
  const auto again = game.read_options(c.options);
  FUZZ_REQUIRE(std::holds_alternative<games::Json>(again) && std::get<games::Json>(again) == c.options);
  if (payload.contains("name"))
    check_name(c.name, server::kMaxTableNameBytes);
  else
    FUZZ_REQUIRE(c.name.empty());
  FUZZ_REQUIRE(c.turn_seconds == 0 || (c.turn_seconds >= server::kMinTurnSeconds && c.turn_seconds <= server::kMaxTurnSeconds));
  if (c.on_timeout == server::OnTimeout::replace_seat)
    FUZZ_REQUIRE(c.replace_after >= 1 && c.replace_after <= server::kMaxReplaceAfter);
  else
    FUZZ_REQUIRE(c.replace_after == 0);
  const server::TableSpec spec = server::TableSpec::hosted_by(server::Player{1, "Ana"}, c, game.seats(c.options));
  FUZZ_REQUIRE(spec.seats.size() == static_cast<std::size_t>(options.value().players));
}

void check_command(const Json& payload) {
  const auto field = payload.find("command");
  if (field == payload.end()) return;
  const protocol::Decoded<Command> command = protocol::command_from_json(*field);
  if (!command) {
    FUZZ_REQUIRE(command.error().code == "bad_command" || command.error().code == "unknown_type");
    FUZZ_REQUIRE(good_message(command.error().message));
    return;
  }
  const Json encoded = protocol::to_json(command.value());
  FUZZ_REQUIRE(encoded.at("type").get<std::string>() == command_name(command.value()));
  const protocol::Decoded<Command> again = protocol::command_from_json(Json::parse(encoded.dump()));
  FUZZ_REQUIRE(again.ok() && again.value() == command.value());
}

void check_fast_path(std::string_view text, const protocol::DecodedEnvelope& decoded) {
  const std::optional<protocol::GameCommand> fast = protocol::read_game_command(text);
  if (!fast) return;
  const auto* envelope = std::get_if<protocol::Envelope>(&decoded);
  FUZZ_REQUIRE(envelope != nullptr && envelope->type == "game.command" && envelope->id == fast->id);
  const Json& payload = envelope->payload;
  const auto table = payload.find("table");
  FUZZ_REQUIRE(table != payload.end() && table->is_number_integer() && table->get<std::int64_t>() == fast->table);
  const auto version = payload.find("version");
  FUZZ_REQUIRE((version == payload.end()) == !fast->version);
  if (fast->version) FUZZ_REQUIRE(version->is_number_integer() && version->get<std::int64_t>() == *fast->version);
  const auto command = payload.find("command");
  FUZZ_REQUIRE(command != payload.end());
  const protocol::Decoded<Command> decoded_command = protocol::command_from_json(*command);
  FUZZ_REQUIRE(decoded_command.ok() && decoded_command.value() == fast->command);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const protocol::DecodedEnvelope decoded = protocol::decode_envelope(text);
  check_fast_path(text, decoded);
  if (const auto* error = std::get_if<protocol::EnvelopeError>(&decoded)) {
    FUZZ_REQUIRE(error->code == protocol::ErrorCode::bad_json || error->code == protocol::ErrorCode::bad_envelope);
    FUZZ_REQUIRE(good_message(error->message));
    check_sent(protocol::error_message(*error), "error", error->id);
    return 0;
  }
  const protocol::Envelope& envelope = std::get<protocol::Envelope>(decoded);
  FUZZ_REQUIRE(!envelope.type.empty() && valid_utf8(envelope.type));
  FUZZ_REQUIRE(envelope.payload.is_object());
  if (const auto* id = envelope.id ? std::get_if<std::string>(&*envelope.id) : nullptr)
    FUZZ_REQUIRE(id->size() <= protocol::kMaxRequestIdBytes);
  check_sent(protocol::reply_message(envelope.type, envelope.id), envelope.type + ".ok", envelope.id);
  check_sent(protocol::error_message(protocol::ErrorCode::unknown_type, "unknown message type '" + envelope.type + "'",
                                     envelope.id),
             "error", envelope.id);

  // The other types' handlers read their few fields inline (docs/fuzzing.md).
  if (envelope.type == "hello") check_hello(envelope.payload);
  if (envelope.type == "table.create") check_table_config(envelope.payload);
  if (envelope.type == "game.command") check_command(envelope.payload);
  return 0;
}
