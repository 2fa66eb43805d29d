#pragma once

#include <string>
#include <utility>
#include <variant>

namespace elgrande::protocol {

// Why untrusted input could not be decoded. `code` is a stable id for clients
// ("bad_json", "bad_command", "unknown_type", "bad_options", "bad_record"); `message` names
// the offending field, e.g. `moves[2].colour: must be an integer in 0..4`.
struct DecodeError {
  std::string code;
  std::string message;
  friend bool operator==(const DecodeError&, const DecodeError&) = default;
};

// A decoded value or the reason there is none. Decoders never throw on bad input.
template <typename T>
class Decoded {
 public:
  Decoded(T value) : result_(std::move(value)) {}
  Decoded(DecodeError error) : result_(std::move(error)) {}

  bool ok() const { return result_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  const T& value() const& { return std::get<0>(result_); }
  T& value() & { return std::get<0>(result_); }
  T&& value() && { return std::get<0>(std::move(result_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

  // Precondition: !ok().
  const DecodeError& error() const { return std::get<1>(result_); }

 private:
  std::variant<T, DecodeError> result_;
};

}  // namespace elgrande::protocol
