#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace elgrande::server {

// Why `name` may not be shown to other players as a name (a player's or a table's), in
// words for the one who chose it; nothing if it may. A name is 1 to `max_bytes` bytes of
// UTF-8 that looks like what it is: no control characters (NUL, ESC, newlines),
// no bidirectional overrides or marks that reorder what follows, no zero-width or other
// invisible characters that make two names look alike, and no spaces at either end
// (so not only spaces).
std::optional<std::string> why_not_a_name(std::string_view name, std::size_t max_bytes);

}  // namespace elgrande::server
