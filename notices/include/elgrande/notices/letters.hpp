#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/notices/catalogs.hpp"

namespace elgrande::notices {

// What one notice says, in a mail or on a device: built when it is sent, from the kind and
// the payload written into the outbox with it.
struct Letter {
  std::string subject;  // a mail's subject, a push notification's title
  std::string text;     // the plain-text body; its first line is a notification's body
  std::string html;     // the HTML body
  std::string url;      // where a click goes
};

// The letter of a notice of `kind` (docs/notifications.md#letters), with links under
// `base_url` (the public_url setting, no trailing slash), in `language`: its words are the
// catalogs' "letters.<kind>.*" messages, English where that language has none. Nothing if
// the payload lacks what the kind needs. Payloads:
//   verify_email   {"username", "address", "token"}   to the address being added
//   reset_password {"username", "token"}              to each matching verified address
//   email_changed  {"username", "address"}            to the old address, naming the new one
//   turn           {"table", "table_name"}
//   game_ended     {"table", "table_name", "place", "seats": [{"name", "score"}]}
//   tournament     {"what": "paired", "tournament", "tournament_name", "round", "table", "table_name"}
//                  {"what": "ended", "tournament", "tournament_name", "place", "of"}
//                  {"what": "starts_soon", "tournament", "tournament_name", "starts_at", "check_in"}
std::optional<Letter> letter(std::string_view kind, const nlohmann::json& payload, std::string_view base_url,
                             std::string_view language = "en", const Catalogs& catalogs = Catalogs::embedded());

// One mail in place of several notices (the daily digest), its letters made in `language`.
Letter digest(const std::vector<Letter>& letters, std::string_view base_url, std::string_view language = "en",
              const Catalogs& catalogs = Catalogs::embedded());

// Whether mail of `kind` may be turned off by its List-Unsubscribe link: notices, not mail
// about the account itself.
bool unsubscribable(std::string_view kind);

}  // namespace elgrande::notices
