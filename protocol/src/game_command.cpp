#include <vector>

#include "elgrande/protocol/envelope.hpp"
#include "elgrande/protocol/plain_json.hpp"
#include "reader.hpp"

namespace elgrande::protocol {

std::optional<GameCommand> read_game_command(std::string_view text) {
  // Each I/O thread reads into the same values: no allocation per message, and no more
  // kept than a command needs after a long message.
  constexpr std::size_t kKept = 256;
  thread_local std::vector<PlainValue> values;
  if (values.capacity() > kKept) values = std::vector<PlainValue>();
  if (!read_plain_json(text, values)) return std::nullopt;
  const PlainValue& message = values.front();
  if (!message.is_object()) return std::nullopt;

  // The envelope, as decode_envelope reads it.
  const PlainValue* type = message.member("type");
  if (!type || !type->is_string() || type->text != "game.command") return std::nullopt;
  GameCommand read;
  if (const PlainValue* id = message.member("id")) {
    if (id->is_string() && id->text.size() <= kMaxRequestIdBytes)
      read.id.emplace(std::in_place_type<std::string>, id->text);
    else if (id->is_number_integer())
      read.id.emplace(std::in_place_type<std::int64_t>, id->number);
    else
      return std::nullopt;
  }

  // The payload, as the router and the table read it.
  const PlainValue* payload = message.member("payload");
  if (!payload || !payload->is_object()) return std::nullopt;
  const PlainValue* table = payload->member("table");
  if (!table || !table->is_number_integer()) return std::nullopt;
  read.table = table->number;
  if (const PlainValue* version = payload->member("version")) {
    if (!version->is_number_integer() || version->number < 0) return std::nullopt;
    read.version = version->number;
  }
  const PlainValue* command = payload->member("command");
  if (!command) return std::nullopt;
  try {
    read.command = detail::read_command(detail::PlainReader(*command, ""));
  } catch (const detail::Failure&) {
    return std::nullopt;
  }
  return read;
}

}  // namespace elgrande::protocol
