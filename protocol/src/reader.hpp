#pragma once

// Strict reading of untrusted JSON, from nlohmann's documents or plain ones
// (elgrande/protocol/plain_json.hpp). Field readers throw Failure, which never leaves the library: each
// public decoder catches it and returns a DecodeError.

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "elgrande/engine/board.hpp"
#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/commands.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/plain_json.hpp"

namespace elgrande::protocol::detail {

struct Failure {
  std::string code;  // empty: the decoder's default code
  std::string message;
};

// A JSON value and where it sits in the input, for error messages. `Value` is Json or
// PlainValue; both are instantiated in reader.cpp.
template <class Value>
class BasicReader {
 public:
  BasicReader(const Value& json, std::string path) : json_(json), path_(std::move(path)) {}

  [[noreturn]] void fail(std::string_view what, std::string code = {}) const;

  void expect_object() const;
  BasicReader field(std::string_view key) const;  // required member of an object
  std::optional<BasicReader> optional_field(std::string_view key) const;  // absent: nullopt
  BasicReader element(std::size_t index) const;   // precondition: an array
  std::size_t array_size(std::size_t max) const;  // an array of at most `max` elements

  std::int64_t integer(std::int64_t lo, std::int64_t hi) const;
  std::uint8_t byte() const { return static_cast<std::uint8_t>(integer(0, 255)); }
  bool boolean() const;
  std::string_view string() const;

  Area area() const;
  Scoreboard scoreboard() const;
  CardId card() const;
  Colour colour() const;
  Seat seat() const;
  std::uint8_t power_value() const;
  AreaCounts area_counts() const;

  const Value& json() const { return json_; }
  const std::string& path() const { return path_; }

 private:
  const Value& json_;
  std::string path_;
};

using Reader = BasicReader<Json>;
using PlainReader = BasicReader<PlainValue>;

// Reads a whole document with `read`, which throws Failure; a failure becomes a DecodeError
// with `code` (the failure's own code is not used: a record or a view that holds a bad
// command is a bad record or view).
template <typename Read>
auto decode(const Json& json, const char* code, Read read) -> Decoded<decltype(read(Reader(json, "")))> {
  try {
    return read(Reader(json, ""));
  } catch (const Failure& failure) {
    return DecodeError{code, failure.message};
  } catch (const std::exception& e) {
    // A safety net: the readers check before they touch, so this is not expected.
    return DecodeError{code, e.what()};
  }
}

// `text` in quotes if it is short printable ASCII, else a placeholder: error messages must
// stay valid UTF-8 and small whatever the input was.
std::string quote_if_safe(std::string_view text);

// A command at any place in a document (a record holds many). Throws Failure.
template <class Value>
Command read_command(const BasicReader<Value>& reader);

// Options at any place in a document, checked with elgrande::check. Throws Failure.
Options read_options(const Reader& reader);

// Shared by the command and record encoders.
Json area_counts_json(const AreaCounts& counts);

}  // namespace elgrande::protocol::detail
