#include "elgrande/protocol/envelope.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace elgrande::protocol {
namespace {

// Sized by its entries, so that the check below catches a code without a name.
constexpr auto kErrorNames = std::to_array<std::pair<ErrorCode, std::string_view>>({
    {ErrorCode::bad_json, "bad_json"},
    {ErrorCode::bad_envelope, "bad_envelope"},
    {ErrorCode::unknown_type, "unknown_type"},
    {ErrorCode::bad_payload, "bad_payload"},
    {ErrorCode::too_large, "too_large"},
    {ErrorCode::rate_limited, "rate_limited"},
    {ErrorCode::not_identified, "not_identified"},
    {ErrorCode::unknown_token, "unknown_token"},
    {ErrorCode::forbidden, "forbidden"},
    {ErrorCode::wrong_state, "wrong_state"},
    {ErrorCode::seat_taken, "seat_taken"},
    {ErrorCode::not_your_turn, "not_your_turn"},
    {ErrorCode::illegal_command, "illegal_command"},
    {ErrorCode::stale_version, "stale_version"},
    {ErrorCode::limit_reached, "limit_reached"},
    {ErrorCode::name_taken, "name_taken"},
    {ErrorCode::bad_credentials, "bad_credentials"},
    {ErrorCode::banned, "banned"},
    {ErrorCode::bad_token, "bad_token"},
    {ErrorCode::table_full, "table_full"},
    {ErrorCode::not_found, "not_found"},
    {ErrorCode::internal, "internal"},
    {ErrorCode::unavailable, "unavailable"},
});
static_assert(kErrorNames.size() == static_cast<std::size_t>(ErrorCode::unavailable) + 1,
              "every error code has a name");

Json with_id(Json message, const std::optional<RequestId>& id) {
  if (id) {
    std::visit([&](const auto& value) { message["id"] = value; }, *id);
  }
  return message;
}

// Reads "id" into `id`: absent, a short string or an integer that fits in 64 signed bits.
// Returns what is wrong with it, if anything.
std::optional<std::string> read_id(const Json& envelope, std::optional<RequestId>& id) {
  const auto found = envelope.find("id");
  if (found == envelope.end()) return std::nullopt;
  if (found->is_string()) {
    const auto& text = found->get_ref<const std::string&>();
    if (text.size() > kMaxRequestIdBytes) {
      return "id: must be at most " + std::to_string(kMaxRequestIdBytes) + " bytes";
    }
    id.emplace(std::in_place_type<std::string>, text);
    return std::nullopt;
  }
  if (found->is_number_unsigned()) {
    const auto value = found->get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return "id: integer out of range";
    }
    id.emplace(std::in_place_type<std::int64_t>, static_cast<std::int64_t>(value));
    return std::nullopt;
  }
  if (found->is_number_integer()) {
    id.emplace(std::in_place_type<std::int64_t>, found->get<std::int64_t>());
    return std::nullopt;
  }
  return "id: must be a string or an integer";
}

}  // namespace

std::string_view to_string(ErrorCode code) {
  const auto* found = std::find_if(kErrorNames.begin(), kErrorNames.end(),
                                   [&](const auto& entry) { return entry.first == code; });
  return found == kErrorNames.end() ? "internal" : found->second;
}

std::optional<ErrorCode> error_code_from_string(std::string_view name) {
  const auto* found = std::find_if(kErrorNames.begin(), kErrorNames.end(),
                                   [&](const auto& entry) { return entry.second == name; });
  if (found == kErrorNames.end()) return std::nullopt;
  return found->first;
}

DecodedEnvelope decode_envelope(std::string_view text, std::size_t max_depth) {
  Decoded<Json> parsed = parse_json(text, max_depth);
  if (!parsed) return EnvelopeError{ErrorCode::bad_json, parsed.error().message, std::nullopt};
  Json& json = parsed.value();
  if (!json.is_object()) {
    return EnvelopeError{ErrorCode::bad_envelope, "a message must be a JSON object", std::nullopt};
  }

  Envelope envelope;
  if (auto problem = read_id(json, envelope.id)) {
    return EnvelopeError{ErrorCode::bad_envelope, std::move(*problem), std::nullopt};
  }

  const auto type = json.find("type");
  if (type == json.end() || !type->is_string() || type->get_ref<const std::string&>().empty()) {
    return EnvelopeError{ErrorCode::bad_envelope, "type: must be a non-empty string", envelope.id};
  }
  envelope.type = type->get<std::string>();

  if (const auto payload = json.find("payload"); payload != json.end()) {
    if (!payload->is_object()) {
      return EnvelopeError{ErrorCode::bad_envelope, "payload: must be an object", envelope.id};
    }
    envelope.payload = std::move(*payload);  // the message is not needed after this
  }
  return envelope;
}

std::string reply_message(std::string_view request_type, const std::optional<RequestId>& id,
                          Json payload) {
  // The keys in nlohmann's (alphabetical) order, without building the envelope: every
  // command's acknowledgement is one of these.
  std::string text = "{";
  if (id) {
    text += "\"id\":";
    std::visit([&text](const auto& value) { text += serialise(Json(value)); }, *id);
    text += ',';
  }
  text += "\"payload\":";
  text += serialise(payload);
  text += ",\"type\":";
  text += serialise(Json(std::string(request_type) + ".ok"));
  text += '}';
  return text;
}

std::string error_message(ErrorCode code, std::string_view message,
                          const std::optional<RequestId>& id, std::string_view reason) {
  Json json = {{"type", "error"}};
  json = with_id(std::move(json), id);
  json["payload"] = {{"code", to_string(code)}, {"message", message}};
  if (!reason.empty()) json["payload"]["reason"] = reason;
  return serialise(json);
}

std::string error_message_with(ErrorCode code, std::string_view message, const std::optional<RequestId>& id,
                               const Json& facts) {
  Json json = with_id(Json{{"type", "error"}}, id);
  json["payload"] = {{"code", to_string(code)}, {"message", message}};
  if (facts.is_object()) {
    for (const auto& [key, value] : facts.items()) json["payload"][key] = value;
  }
  return serialise(json);
}

std::string rate_limited_message(std::string_view message, std::int64_t retry_after_ms,
                                 const std::optional<RequestId>& id) {
  Json json = with_id(Json{{"type", "error"}}, id);
  json["payload"] = {{"code", to_string(ErrorCode::rate_limited)}, {"message", message}, {"retry_after_ms", retry_after_ms}};
  return serialise(json);
}

std::string push_message(std::string_view type, const Json& payload) {
  // The keys in nlohmann's (alphabetical) order, without building the envelope.
  std::string text = "{\"payload\":";
  text += serialise(payload);
  text += ",\"type\":";
  text += serialise(Json(type));
  text += '}';
  return text;
}

std::string error_message(const EnvelopeError& error) {
  return error_message(error.code, error.message, error.id);
}

}  // namespace elgrande::protocol
