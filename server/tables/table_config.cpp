#include "tables/table_config.hpp"

#include "common/display_name.hpp"
#include "common/known_keys.hpp"

namespace elgrande::server {
namespace {

using protocol::DecodeError;
using protocol::Json;

DecodeError bad(std::string message) { return DecodeError{"bad_payload", std::move(message)}; }

}  // namespace

std::string_view name(TableStatus status) {
  switch (status) {
    case TableStatus::open:
      return "open";
    case TableStatus::playing:
      return "playing";
    case TableStatus::finished:
      return "finished";
  }
  return "open";
}

std::optional<TableStatus> table_status_from(std::string_view name) {
  for (const TableStatus status : {TableStatus::open, TableStatus::playing, TableStatus::finished}) {
    if (server::name(status) == name) return status;
  }
  return std::nullopt;
}

std::string_view name(OnTimeout policy) {
  return policy == OnTimeout::replace_seat ? "replace_seat" : "bot_answers";
}

std::optional<OnTimeout> on_timeout_from(std::string_view name) {
  if (name == "bot_answers") return OnTimeout::bot_answers;
  if (name == "replace_seat") return OnTimeout::replace_seat;
  return std::nullopt;
}

protocol::Decoded<TableConfig> table_config_from_json(const Json& payload, const games::GameModule& game) {
  TableConfig config;
  if (!payload.is_object()) return bad("must be an object");
  if (const auto key = unknown_key(payload, {"name", "options", "turn_seconds", "on_timeout", "replace_after", "rated",
                                              "secrets_after_end"})) {
    return bad(*key + ": not a table setting (name, options, turn_seconds, on_timeout, replace_after, rated, "
                      "secrets_after_end)");
  }
  if (const auto field = payload.find("name"); field != payload.end()) {
    if (!field->is_string()) return bad("name: must be a string");
    if (const auto why_not = why_not_a_name(field->get_ref<const std::string&>(), kMaxTableNameBytes)) {
      return bad("name: " + *why_not);
    }
    config.name = field->get<std::string>();
  }
  const auto options_field = payload.find("options");
  if (options_field == payload.end()) return bad("options: missing");
  auto options = game.read_options(*options_field);  // a new table's: today's rules
  if (auto* why_not = std::get_if<std::string>(&options)) return bad(std::move(*why_not));
  config.options = std::move(std::get<games::Json>(options));
  if (const auto field = payload.find("turn_seconds"); field != payload.end()) {
    const bool valid = field->is_number_integer() &&
                       (field->get<std::int64_t>() == 0 || (field->get<std::int64_t>() >= kMinTurnSeconds &&
                                                            field->get<std::int64_t>() <= kMaxTurnSeconds));
    if (!valid) {
      return bad("turn_seconds: 0 (no limit) or " + std::to_string(kMinTurnSeconds) + " to " +
                 std::to_string(kMaxTurnSeconds));
    }
    config.turn_seconds = field->get<int>();
  }
  if (const auto field = payload.find("on_timeout"); field != payload.end()) {
    const auto policy = field->is_string() ? on_timeout_from(field->get<std::string>()) : std::nullopt;
    if (!policy) return bad("on_timeout: \"bot_answers\" or \"replace_seat\"");
    config.on_timeout = *policy;
  }
  if (config.on_timeout == OnTimeout::replace_seat) {
    config.replace_after = kDefaultReplaceAfter;
    if (const auto field = payload.find("replace_after"); field != payload.end()) {
      if (!field->is_number_integer() || field->get<std::int64_t>() < 1 ||
          field->get<std::int64_t>() > kMaxReplaceAfter) {
        return bad("replace_after: 1 to " + std::to_string(kMaxReplaceAfter));
      }
      config.replace_after = field->get<int>();
    }
  }
  if (const auto field = payload.find("rated"); field != payload.end()) {
    if (!field->is_boolean()) return bad("rated: true or false");
    config.rated = field->get<bool>();
  }
  if (const auto field = payload.find("secrets_after_end"); field != payload.end()) {
    if (*field != "open" && *field != "closed") return bad("secrets_after_end: \"open\" or \"closed\"");
    config.secrets_closed = *field == "closed";
  }
  return config;
}

TableSpec TableSpec::hosted_by(Player host, TableConfig config, int seats) {
  TableSpec spec;
  spec.host = host.id;
  spec.seats.resize(static_cast<std::size_t>(seats));
  spec.seats[0] = SeatSpec{SeatSpec::Kind::player, std::move(host)};
  spec.config = std::move(config);
  return spec;
}

}  // namespace elgrande::server
