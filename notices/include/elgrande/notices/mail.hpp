#pragma once
// E-mail as text: checking an address a person typed, and the whole message as handed to
// SMTP. Pure: no sockets, no clock (the date is a parameter), the same mail gives the same bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace elgrande::notices {

struct Mailbox {
  std::string name;     // the display name, any UTF-8, may be empty
  std::string address;  // must pass why_not_an_address
};

// What is wrong with an address a person typed, or nothing. Deliberately narrower than RFC
// 5322: at most 254 bytes; a dot-atom local part of at most 64 bytes (atext and single inner
// dots); a domain of at least two labels of [A-Za-z0-9-], 1..63 bytes, no '-' at either end.
// No quoted local parts, IP literals, spaces, control characters or non-ASCII.
std::optional<std::string> why_not_an_address(std::string_view address);

struct Mail {
  Mailbox from;
  Mailbox to;
  std::string subject;     // UTF-8, any characters: CR and LF become spaces, never a header
  std::string text;        // the plain text body, UTF-8, '\n' line ends
  std::string html;        // the HTML body, UTF-8
  std::string message_id;  // without angle brackets, e.g. "notice-12.k3j@play.example.org"
  std::int64_t date = 0;   // Unix seconds, written as an RFC 5322 date in UTC (+0000)
  // Adds List-Unsubscribe: <url> and List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058).
  std::optional<std::string> unsubscribe_url;
};

// The message as handed to SMTP (before dot-stuffing, which is the transport's): CRLF line
// ends, ASCII headers folded to 78 characters where there is whitespace to fold at, no line
// over 998. Headers: Date, From, To, Subject, Message-ID, MIME-Version, Auto-Submitted:
// auto-generated, the List-Unsubscribe pair if asked, and Content-Type multipart/alternative
// with text/plain then text/html, both charset=utf-8 and quoted-printable. Names and the
// subject go plain, as a quoted-string, or as RFC 2047 encoded-words (UTF-8, B), at most 75
// characters each and never splitting a UTF-8 character. The boundary comes from message_id.
// Throws std::invalid_argument if an address fails why_not_an_address, or message_id or
// unsubscribe_url is empty, over 900 bytes, or has anything but printable ASCII without
// spaces, '<' and '>'.
std::string render(const Mail& mail);

// Text made safe inside HTML elements and quoted attributes: & < > " '.
std::string escape_html(std::string_view text);

}  // namespace elgrande::notices
