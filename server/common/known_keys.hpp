#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "elgrande/protocol/codec.hpp"

namespace elgrande::server {

// The first key of `object` that is not among `known`, if any. Settings a client sends are
// read strictly: a misspelt or misplaced key is refused rather than silently dropped, so a
// client never believes it chose something the server did not read.
inline std::optional<std::string> unknown_key(const protocol::Json& object,
                                              std::initializer_list<std::string_view> known) {
  if (!object.is_object()) return std::nullopt;
  for (const auto& [key, value] : object.items()) {
    bool listed = false;
    for (std::string_view k : known) listed = listed || k == key;
    if (!listed) return key;
  }
  return std::nullopt;
}

}  // namespace elgrande::server
