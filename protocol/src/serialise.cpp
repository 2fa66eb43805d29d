#include <charconv>

#include "elgrande/protocol/envelope.hpp"

namespace elgrande::protocol {
namespace {

// Printable ASCII other than '"' and '\\' is written as it is; anything else (escapes,
// UTF-8, invalid bytes) goes through nlohmann, which knows the rules.
bool plain(std::string_view text) {
  for (const char c : text)
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
  return true;
}

void write_string(std::string& out, const std::string& text) {
  if (!plain(text)) {
    // Client text is echoed in messages (a name, an unknown type, a request id); nlohmann
    // has validated it while parsing, but a replaced byte is better than a throwing dump.
    out += Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  out += '"';
  out += text;
  out += '"';
}

template <class Number>
void write_number(std::string& out, Number n) {
  char digits[24];
  const auto [end, error] = std::to_chars(digits, digits + sizeof digits, n);
  out.append(digits, end);
}

void write(std::string& out, const Json& j) {
  switch (j.type()) {
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : j.items()) {
        if (!first) out += ',';
        first = false;
        write_string(out, key);
        out += ':';
        write(out, value);
      }
      out += '}';
      return;
    }
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const Json& value : j) {
        if (!first) out += ',';
        first = false;
        write(out, value);
      }
      out += ']';
      return;
    }
    case Json::value_t::string:
      return write_string(out, j.get_ref<const std::string&>());
    case Json::value_t::boolean:
      out += j.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_integer:
      return write_number(out, j.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return write_number(out, j.get<std::uint64_t>());
    case Json::value_t::null:
      out += "null";
      return;
    default:  // floating point and binary: nlohmann's own formatting
      out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

}  // namespace

std::string serialise(const Json& document) {
  std::string out;
  out.reserve(256);
  write(out, document);
  return out;
}

void append_serialised(std::string& out, const Json& document) { write(out, document); }

}  // namespace elgrande::protocol
