#include "net/static_files.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace elgrande::server {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string decoded;
  decoded.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      decoded += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = hex_digit(text[i + 1]);
    const int low = hex_digit(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    decoded += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return decoded;
}

}  // namespace

std::optional<std::filesystem::path> resolve_static_file(const std::filesystem::path& web_root,
                                                         std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  // A path begins with a literal '/'; an encoded one ("%2F...") is not a path.
  if (!target.starts_with('/')) return std::nullopt;
  // Decoding first means "%2e%2e" is checked as the ".." it stands for.
  const std::optional<std::string> path = percent_decode(target);
  if (!path || !path->starts_with('/')) return std::nullopt;
  if (path->find('\0') != std::string::npos || path->find('\\') != std::string::npos) {
    return std::nullopt;
  }

  std::filesystem::path file = web_root;
  std::size_t start = 1;
  while (start <= path->size()) {
    const std::size_t end = std::min(path->find('/', start), path->size());
    const std::string_view segment = std::string_view(*path).substr(start, end - start);
    // Segments starting with '.' cover "..", "." and hidden files such as .git.
    if (segment.starts_with('.')) return std::nullopt;
    if (!segment.empty()) file /= segment;
    start = end + 1;
  }
  if (path->ends_with('/')) file /= "index.html";
  return file;
}

std::string_view content_type_for(const std::filesystem::path& file) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
  }};
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& [suffix, type] : kTypes) {
    if (extension == suffix) return type;
  }
  return "application/octet-stream";
}

}  // namespace elgrande::server
