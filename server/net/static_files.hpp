#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace elgrande::server {

// Maps a request target such as "/js/app.js?v=3" to a file under web_root. Returns
// nothing for targets that are malformed or could leave web_root: "..", dot-files,
// backslashes, NUL bytes and bad percent-escapes. A directory target gets index.html.
std::optional<std::filesystem::path> resolve_static_file(const std::filesystem::path& web_root,
                                                         std::string_view target);

// Content-Type for a file served from web_root, chosen by its extension.
std::string_view content_type_for(const std::filesystem::path& file);

}  // namespace elgrande::server
