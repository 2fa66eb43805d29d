#include "common/display_name.hpp"

#include <array>
#include <utility>

namespace elgrande::server {
namespace {

// The next code point of valid UTF-8 (shortest form, no surrogates), advancing `at`; or
// nothing, for bytes that are not UTF-8.
std::optional<char32_t> next_code_point(std::string_view text, std::size_t& at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  char32_t point = 0;
  if (lead < 0x80) {
    ++at;
    return lead;
  }
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    point = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    point = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    point = lead & 0x07;
  } else {
    return std::nullopt;
  }
  if (at + length > text.size()) return std::nullopt;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return std::nullopt;
    point = (point << 6) | (byte(at + i) & 0x3F);
  }
  constexpr std::array<char32_t, 5> kShortest{0, 0, 0x80, 0x800, 0x10000};
  if (point < kShortest[length] || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF)) return std::nullopt;
  at += length;
  return point;
}

bool in(char32_t point, char32_t first, char32_t last) { return point >= first && point <= last; }

bool is_control(char32_t point) { return point < 0x20 || in(point, 0x7F, 0x9F) || in(point, 0x2028, 0x2029); }

// Marks that change the direction of the text around them (Trojan Source, CVE-2021-42574).
bool is_bidi_control(char32_t point) {
  return point == 0x061C || point == 0x200E || point == 0x200F || in(point, 0x202A, 0x202E) ||
         in(point, 0x2066, 0x2069);
}

// Characters that take no room or show nothing, so that "Ana" and "An\u200Ba" look the same.
bool is_invisible(char32_t point) {
  return point == 0x00AD || point == 0x034F || point == 0x115F || point == 0x1160 || point == 0x17B4 ||
         point == 0x17B5 || in(point, 0x180B, 0x180F) || in(point, 0x200B, 0x200D) || in(point, 0x2060, 0x2064) ||
         in(point, 0x206A, 0x206F) || point == 0x3164 || point == 0xFEFF || point == 0xFFA0 ||
         in(point, 0xFFF9, 0xFFFB) || in(point, 0xE0000, 0xE007F);
}

bool is_space(char32_t point) {
  return point == 0x20 || point == 0xA0 || point == 0x1680 || in(point, 0x2000, 0x200A) || point == 0x202F ||
         point == 0x205F || point == 0x3000;
}

}  // namespace

std::optional<std::string> why_not_a_name(std::string_view name, std::size_t max_bytes) {
  if (name.empty() || name.size() > max_bytes) return "must be 1 to " + std::to_string(max_bytes) + " bytes";
  bool first = true;
  bool last_is_space = false;
  for (std::size_t at = 0; at < name.size();) {
    const std::optional<char32_t> point = next_code_point(name, at);
    if (!point) return "must be UTF-8 text";
    if (is_control(*point)) return "may not contain control characters such as line breaks";
    if (is_bidi_control(*point)) return "may not contain marks that change the direction of the text";
    if (is_invisible(*point)) return "may not contain invisible characters";
    last_is_space = is_space(*point);
    if (first && last_is_space) return "may not begin or end with a space";
    first = false;
  }
  if (last_is_space) return "may not begin or end with a space";
  return std::nullopt;
}

}  // namespace elgrande::server
