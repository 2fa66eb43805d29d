#pragma once

// The plain JSON that clients send and the server writes, read without nlohmann's
// document of maps and strings: every game command arrives as text, and parsing it into a
// document was 4% of the server's CPU (docs/performance.md, step 18); a client's parsing
// of the updates was most of its own.

#include <cstdint>
#include <string_view>
#include <vector>

#include "elgrande/protocol/codec.hpp"

namespace elgrande::protocol {

// One value of a plain document. A container's members follow it in order, each with
// everything inside it; `span` counts the value and all inside it, so a member's next
// sibling is `span` values on. Named like nlohmann's accessors, so that the decoders read
// either kind of document.
struct PlainValue {
  enum class Kind : std::uint8_t { null, boolean, integer, string, array, object };

  Kind kind = Kind::null;
  bool truth = false;
  std::uint32_t size = 0;  // members or elements
  std::uint32_t span = 1;
  std::int64_t number = 0;
  std::string_view key;   // its name, if it is a member of an object
  std::string_view text;  // a string's characters

  bool is_null() const { return kind == Kind::null; }
  bool is_object() const { return kind == Kind::object; }
  bool is_array() const { return kind == Kind::array; }
  bool is_string() const { return kind == Kind::string; }
  bool is_boolean() const { return kind == Kind::boolean; }
  bool is_number_integer() const { return kind == Kind::integer; }
  bool is_number_unsigned() const { return kind == Kind::integer && number >= 0; }

  const PlainValue* first() const { return this + 1; }
  const PlainValue* next() const { return this + span; }
  // A member by name, or nullptr. Precondition: an object.
  const PlainValue* member(std::string_view name) const;
  // Precondition: an array of more than `index` elements.
  const PlainValue& at(std::size_t index) const;
};

// Reads `text` if it is plain JSON: strings of printable ASCII without escapes, integers
// of at most 18 digits without fraction or exponent (and not "-0"), objects of at most 64
// members with no name repeated, nesting at most 32 deep. Anything else, valid JSON or
// not, gives false and is left to nlohmann: what this reads, nlohmann reads alike. The
// values, the root first, replace those in `values` (whose capacity a caller may reuse)
// and view `text`, which must outlive them.
bool read_plain_json(std::string_view text, std::vector<PlainValue>& values);

// The document nlohmann would parse from the value's text.
Json to_json(const PlainValue& value);
// apply_merge_patch (codec.hpp) from a plain patch: the same document results, and the same
// std::invalid_argument for an index the array lacks.
void apply_merge_patch(Json& target, const PlainValue& patch);

}  // namespace elgrande::protocol
