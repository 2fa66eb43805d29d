#include <string>

#include "elgrande/protocol/codec.hpp"

namespace elgrande::protocol {
namespace {

// Deepest nesting of arrays and objects, brackets inside strings excepted. Stops early
// once past `limit`.
std::size_t nesting_depth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) break;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

Decoded<Json> parse_json(std::string_view text, std::size_t max_depth) {
  if (nesting_depth(text, max_depth) > max_depth)
    return DecodeError{"bad_json", "nested deeper than " + std::to_string(max_depth) + " levels"};
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // e.what() quotes the input, which may not be valid UTF-8: report the offset only.
    return DecodeError{"bad_json", "not valid JSON (at byte " + std::to_string(e.byte) + ")"};
  } catch (const Json::exception&) {
    return DecodeError{"bad_json", "not valid JSON (a number out of range)"};
  }
}

}  // namespace elgrande::protocol
