#include "elgrande/notices/mail.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "openssl.hpp"

namespace elgrande::notices {
namespace {

constexpr std::size_t max_address = 254;
constexpr std::size_t max_local = 64;
constexpr std::size_t max_label = 63;
constexpr std::size_t header_width = 78;
// A name or subject this long goes as encoded-words, which fold, rather than one long token.
constexpr std::size_t max_plain = 60;
// Bytes of UTF-8 per encoded-word: 52 base64 characters, 64 with "=?utf-8?B?" and "?=", so
// even the first one fits beside "Subject: " in 78 characters. A name gets 45 (72 characters,
// beside "From: "): a name is read back as one word by more readers (see phrase()).
constexpr std::size_t subject_word_bytes = 39;
constexpr std::size_t name_word_bytes = 45;
// Message-ID and List-Unsubscribe cannot be folded; this keeps their lines under 998.
constexpr std::size_t max_unfoldable = 900;

bool is_atext(char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos;
}

bool is_printable_ascii(std::string_view text) {
  for (char c : text) {
    if (c < 0x20 || c > 0x7e) return false;  // char may be signed: non-ASCII is negative
  }
  return true;
}

std::optional<std::string> why_not_local(std::string_view local) {
  if (local.empty()) return "the part before '@' is empty";
  if (local.size() > max_local) return "the part before '@' is over 64 bytes";
  if (local.front() == '.' || local.back() == '.') return "the part before '@' starts or ends with a dot";
  if (local.find("..") != std::string_view::npos) return "the part before '@' has two dots in a row";
  for (char c : local) {
    if (c != '.' && !is_atext(c)) return std::string("the part before '@' has a '") + c + "'";
  }
  return std::nullopt;
}

std::optional<std::string> why_not_domain(std::string_view domain) {
  if (domain.empty()) return "the domain is empty";
  if (domain.find('.') == std::string_view::npos) return "the domain has no dot";
  std::size_t start = 0;
  while (true) {
    std::size_t dot = domain.find('.', start);
    std::string_view label = domain.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty()) return "the domain has an empty label";
    if (label.size() > max_label) return "a label of the domain is over 63 bytes";
    if (label.front() == '-' || label.back() == '-') return "a label of the domain starts or ends with '-'";
    for (char c : label) {
      bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      if (!ok) return std::string("the domain has a '") + c + "'";
    }
    if (dot == std::string_view::npos) return std::nullopt;
    start = dot + 1;
  }
}

std::string base64(std::span<const std::uint8_t> bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int size = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes.data(), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(size));
  return out;
}

// RFC 2047 B encoded-words, each cut at a UTF-8 character boundary, after a space if there is
// one in the second half of the word.
std::vector<std::string> encoded_words(std::string_view text, std::size_t word_bytes) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = std::min(start + word_bytes, text.size());
    // Back off continuation bytes (10xxxxxx) so no character is split across words.
    while (end < text.size() && end > start + 1 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
    if (end < text.size()) {
      auto space = text.substr(start, end - start).rfind(' ');
      if (space != std::string_view::npos && space + 1 > (end - start) / 2) end = start + space + 1;
    }
    words.push_back("=?utf-8?B?" + base64(detail::bytes_of(text.substr(start, end - start))) + "?=");
    start = end;
  }
  return words;
}

std::string without_line_breaks(std::string text) {
  for (char& c : text) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return text;
}

std::vector<std::string> split_spaces(std::string_view text) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t space = text.find(' ', start);
    if (space == std::string_view::npos) space = text.size();
    words.emplace_back(text.substr(start, space - start));
    start = space + 1;
  }
  return words;
}

// Text that reads the same as plain words: printable ASCII, single inner spaces, nothing a
// reader would take for an encoded-word.
bool plain_words(std::string_view text) {
  return !text.empty() && text.size() <= max_plain && is_printable_ascii(text) &&
         text.find("=?") == std::string_view::npos && text.front() != ' ' && text.back() != ' ' &&
         text.find("  ") == std::string_view::npos;
}

// A display name as the tokens of a phrase. RFC 2047 readers join adjacent encoded-words
// without the whitespace between them; Python's email parser (3.11) keeps one space there
// in a phrase. So a name goes in one encoded-word when it can (45 bytes), and is otherwise
// cut after one of its spaces when it can, where the two readers differ least.
std::vector<std::string> phrase(const std::string& raw) {
  std::string name = without_line_breaks(raw);
  if (name.empty()) return {};
  if (plain_words(name)) {
    std::vector<std::string> atoms = split_spaces(name);
    bool all_atext = true;
    for (const auto& atom : atoms) {
      for (char c : atom) all_atext = all_atext && is_atext(c);
    }
    if (all_atext) return atoms;
  }
  if (name.size() <= max_plain && is_printable_ascii(name) && name.find("=?") == std::string::npos) {
    std::string quoted = "\"";
    for (char c : name) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    return {quoted + "\""};
  }
  return encoded_words(name, name_word_bytes);
}

std::vector<std::string> subject_tokens(const std::string& raw) {
  std::string subject = without_line_breaks(raw);
  if (subject.empty()) return {};
  if (is_printable_ascii(subject) && subject.find("=?") == std::string::npos && subject.front() != ' ' &&
      subject.back() != ' ' && subject.find("  ") == std::string::npos) {
    std::vector<std::string> words = split_spaces(subject);
    bool short_words = true;
    for (const auto& word : words) short_words = short_words && word.size() <= max_plain;
    if (short_words) return words;
  }
  return encoded_words(subject, subject_word_bytes);
}

// One header, folded before a token whenever the line would pass 78 characters.
std::string header(std::string_view name, const std::vector<std::string>& tokens) {
  std::string out(name);
  out += ':';
  std::size_t line = out.size();
  bool first = true;
  for (const auto& token : tokens) {
    if (!first && line + 1 + token.size() > header_width) {
      out += "\r\n";
      line = 0;
    }
    out += ' ';
    out += token;
    line += 1 + token.size();
    first = false;
  }
  return out + "\r\n";
}

std::string mailbox_header(std::string_view name, const Mailbox& box) {
  if (auto why = why_not_an_address(box.address)) {
    throw std::invalid_argument(std::string(name) + " address: " + *why);
  }
  std::vector<std::string> tokens = phrase(box.name);
  tokens.push_back(tokens.empty() ? box.address : "<" + box.address + ">");
  return header(name, tokens);
}

void check_unfoldable(std::string_view what, std::string_view value) {
  bool ok = !value.empty() && value.size() <= max_unfoldable;
  for (char c : value) ok = ok && c > 0x20 && c < 0x7f && c != '<' && c != '>';
  if (!ok) throw std::invalid_argument(std::string(what) + " is empty, too long or has a space, '<', '>' or non-ASCII");
}

std::string rfc5322_date(std::int64_t seconds) {
  using namespace std::chrono;
  static constexpr std::array<const char*, 7> weekdays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  sys_seconds time{std::chrono::seconds{seconds}};
  sys_days day = floor<days>(time);
  year_month_day date{day};
  hh_mm_ss clock{time - day};
  char out[64];
  std::snprintf(out, sizeof out, "%s, %02u %s %04d %02d:%02d:%02d +0000", weekdays[weekday{day}.c_encoding()],
                static_cast<unsigned>(date.day()), months[static_cast<unsigned>(date.month()) - 1],
                static_cast<int>(date.year()), static_cast<int>(clock.hours().count()),
                static_cast<int>(clock.minutes().count()), static_cast<int>(clock.seconds().count()));
  return out;
}

std::string hex(std::uint8_t byte) {
  static constexpr std::string_view digits = "0123456789ABCDEF";
  return {'=', digits[byte >> 4], digits[byte & 15]};
}

// Quoted-printable (RFC 2045 §6.7): '\n' (or CRLF) becomes a hard CRLF, lines stay within 76
// characters by soft breaks. A '.' or "From " opening a line is encoded too, so no relay
// along the way can read it as the end of the message or mangle it.
std::string quoted_printable(std::string_view text) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    std::size_t newline = text.find('\n', start);
    std::string_view line = text.substr(start, newline == std::string_view::npos ? newline : newline - start);
    if (!line.empty() && line.back() == '\r' && newline != std::string_view::npos) line.remove_suffix(1);
    std::size_t column = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      auto c = static_cast<std::uint8_t>(line[i]);
      bool last = i + 1 == line.size();
      bool literal = (c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !last);
      std::size_t width = literal ? 1 : 3;
      // Room for the piece and a soft break's '=' after it, unless it ends the line.
      if (column + width > (last ? 76 : 75)) {
        out += "=\r\n";
        column = 0;
      }
      bool opens = column == 0 && (c == '.' || line.substr(i).starts_with("From "));
      std::string piece = literal && !opens ? std::string(1, static_cast<char>(c)) : hex(c);
      out += piece;
      column += piece.size();
    }
    if (newline == std::string_view::npos) break;
    out += "\r\n";
    start = newline + 1;
  }
  return out;
}

std::string boundary_for(std::string_view message_id, std::string_view plain, std::string_view html) {
  detail::Bytes digest = detail::sha256(detail::bytes_of(message_id));
  std::string base = "=_";
  static constexpr std::string_view digits = "0123456789abcdef";
  for (std::size_t i = 0; i < 16; ++i) {
    base += digits[digest[i] >> 4];
    base += digits[digest[i] & 15];
  }
  // "=_" never occurs in quoted-printable; the check below guards the rule, not a real case.
  std::string boundary = base;
  for (int n = 1; plain.find(boundary) != std::string_view::npos || html.find(boundary) != std::string_view::npos; ++n) {
    boundary = base + "_" + std::to_string(n);
  }
  return boundary;
}

}  // namespace

std::optional<std::string> why_not_an_address(std::string_view address) {
  if (address.empty()) return "the address is empty";
  if (address.size() > max_address) return "the address is over 254 bytes";
  for (char c : address) {
    if (c <= 0x20 || c >= 0x7f) return "the address has a space, a control character or a non-ASCII character";
  }
  auto at = address.rfind('@');
  if (at == std::string_view::npos) return "the address has no '@'";
  if (auto why = why_not_local(address.substr(0, at))) return why;
  return why_not_domain(address.substr(at + 1));
}

std::string render(const Mail& mail) {
  check_unfoldable("message_id", mail.message_id);
  if (mail.unsubscribe_url) check_unfoldable("unsubscribe_url", *mail.unsubscribe_url);
  std::string plain = quoted_printable(mail.text);
  std::string html = quoted_printable(mail.html);
  std::string boundary = boundary_for(mail.message_id, plain, html);

  std::string out;
  out += "Date: " + rfc5322_date(mail.date) + "\r\n";
  out += mailbox_header("From", mail.from);
  out += mailbox_header("To", mail.to);
  out += header("Subject", subject_tokens(mail.subject));
  out += "Message-ID: <" + mail.message_id + ">\r\n";
  out += "MIME-Version: 1.0\r\n";
  out += "Auto-Submitted: auto-generated\r\n";
  if (mail.unsubscribe_url) {
    out += "List-Unsubscribe: <" + *mail.unsubscribe_url + ">\r\n";
    out += "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n";
  }
  out += "Content-Type: multipart/alternative;\r\n boundary=\"" + boundary + "\"\r\n";
  out += "\r\n";
  for (const auto& [type, body] : {std::pair{"text/plain", &plain}, std::pair{"text/html", &html}}) {
    out += "--" + boundary + "\r\n";
    out += std::string("Content-Type: ") + type + "; charset=utf-8\r\n";
    out += "Content-Transfer-Encoding: quoted-printable\r\n\r\n";
    out += *body + "\r\n";
  }
  out += "--" + boundary + "--\r\n";
  return out;
}

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace elgrande::notices
