#include "elgrande/notices/letters.hpp"

#include <ctime>

#include "elgrande/notices/mail.hpp"

namespace elgrande::notices {
namespace {

using nlohmann::json;

std::optional<std::string> text_of(const json& payload, std::string_view key) {
  const auto found = payload.find(key);
  if (found == payload.end() || !found->is_string()) return std::nullopt;
  return found->get<std::string>();
}

std::optional<std::int64_t> number_of(const json& payload, std::string_view key) {
  const auto found = payload.find(key);
  if (found == payload.end() || !found->is_number_integer()) return std::nullopt;
  return found->get<std::int64_t>();
}

// The HTML body around paragraphs already escaped, with one button-like link.
std::string page(const std::vector<std::string>& paragraphs, const std::string& url, std::string_view action) {
  std::string html = "<!DOCTYPE html>\n<html><body style=\"font-family:sans-serif;line-height:1.5\">\n";
  for (const auto& paragraph : paragraphs) html += "<p>" + paragraph + "</p>\n";
  html += "<p><a href=\"" + escape_html(url) + "\">" + escape_html(action) + "</a></p>\n</body></html>\n";
  return html;
}

Letter made(std::string subject, const std::vector<std::string>& lines, std::string url, std::string_view action) {
  Letter letter;
  letter.subject = std::move(subject);
  std::vector<std::string> escaped;
  for (const auto& line : lines) {
    letter.text += line + "\n\n";
    escaped.push_back(escape_html(line));
  }
  letter.text += std::string(action) + ": " + url + "\n";
  letter.html = page(escaped, url, action);
  letter.url = std::move(url);
  return letter;
}

// "2026-11-28 14:00 UTC": mails go to people anywhere, and the letter has no time zone of theirs.
std::string utc_time(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

std::string ordinal(std::int64_t n) {
  const std::int64_t tens = n % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

}  // namespace

bool unsubscribable(std::string_view kind) { return kind == "turn" || kind == "game_ended" || kind == "tournament"; }

std::optional<Letter> letter(std::string_view kind, const json& payload, std::string_view base_url) {
  const std::string base(base_url);
  if (kind == "verify_email") {
    const auto username = text_of(payload, "username");
    const auto address = text_of(payload, "address");
    const auto token = text_of(payload, "token");
    if (!username || !address || !token) return std::nullopt;
    return made("Confirm your e-mail address for El Grande",
                {"Someone, probably you, asked to receive El Grande's notices for the account " + *username +
                     " at " + *address + ".",
                 "The link works once, for 24 hours. If it was not you, ignore this mail: nothing changes."},
                base + "/#/verify-email/" + *token, "Confirm the address");
  }
  if (kind == "reset_password") {
    const auto username = text_of(payload, "username");
    const auto token = text_of(payload, "token");
    if (!username || !token) return std::nullopt;
    return made("Choose a new El Grande password",
                {"Someone, probably you, asked to reset the password of the account " + *username + ".",
                 "The link works once, for one hour; a new password signs every device out. If it was not you, "
                 "ignore this mail: the password stays as it is."},
                base + "/#/reset-password/" + *token, "Choose a new password");
  }
  if (kind == "email_changed") {
    const auto username = text_of(payload, "username");
    const auto address = text_of(payload, "address");
    if (!username || !address) return std::nullopt;
    return made("Your El Grande e-mail address changed",
                {"The account " + *username + " now receives its mail at " + *address +
                     ", no longer at this address.",
                 "If you did not ask for this, sign in and change your password."},
                base + "/#/account", "Open your account");
  }
  if (kind == "tournament") {
    const auto what = text_of(payload, "what");
    const auto tournament = number_of(payload, "tournament");
    const auto name = text_of(payload, "tournament_name");
    if (!what || !tournament || !name) return std::nullopt;
    if (*what == "paired") {
      const auto round = number_of(payload, "round");
      const auto table = number_of(payload, "table");
      const auto table_name = text_of(payload, "table_name");
      if (!round || !table || !table_name) return std::nullopt;
      return made("Round " + std::to_string(*round) + " of " + *name + ": your table",
                  {"Round " + std::to_string(*round) + " of the tournament " + *name + " is paired: you play at " +
                   *table_name + "."},
                  base + "/#/table/" + std::to_string(*table), "Go to your table");
    }
    if (*what == "starts_soon") {
      const auto starts_at = number_of(payload, "starts_at");
      if (!starts_at) return std::nullopt;
      std::vector<std::string> lines{"The tournament " + *name + " starts at " + utc_time(*starts_at) + "."};
      const auto check_in = payload.find("check_in");
      if (check_in != payload.end() && check_in->is_boolean() && check_in->get<bool>()) {
        lines.push_back("Check in now: only those who check in are paired for the first round.");
      }
      return made(*name + " starts soon", lines, base + "/#/tournament/" + std::to_string(*tournament),
                  "Open the tournament");
    }
    if (*what == "ended") {
      const auto place = number_of(payload, "place");
      const auto of = number_of(payload, "of");
      std::vector<std::string> lines{"The tournament " + *name + " is over."};
      if (place && of) lines.push_back("You placed " + ordinal(*place) + " of " + std::to_string(*of) + ".");
      return made(*name + " is over", lines, base + "/#/tournament/" + std::to_string(*tournament), "See the standings");
    }
    return std::nullopt;
  }
  const auto table = number_of(payload, "table");
  const auto table_name = text_of(payload, "table_name");
  if (!table || !table_name) return std::nullopt;
  const std::string url = base + "/#/table/" + std::to_string(*table);
  if (kind == "turn") {
    return made("Your turn at " + *table_name, {"It is your turn at the El Grande table " + *table_name + "."}, url,
                "Play now");
  }
  if (kind == "game_ended") {
    std::vector<std::string> lines{"The game at " + *table_name + " is over."};
    if (const auto place = number_of(payload, "place")) lines.push_back("You placed " + ordinal(*place) + ".");
    if (const auto seats = payload.find("seats"); seats != payload.end() && seats->is_array()) {
      std::string scores = "Scores:";
      for (const auto& seat : *seats) {
        const auto seat_name = text_of(seat, "name");
        const auto score = number_of(seat, "score");
        if (seat_name && score) scores += " " + *seat_name + " " + std::to_string(*score) + ",";
      }
      if (scores.back() == ',') scores.back() = '.';
      lines.push_back(scores);
    }
    return made("The game at " + *table_name + " is over", lines, url, "See the final scores");
  }
  return std::nullopt;
}

Letter digest(const std::vector<Letter>& letters, std::string_view base_url) {
  Letter out;
  out.subject = letters.size() == 1 ? "El Grande: " + letters.front().subject
                                    : "El Grande: " + std::to_string(letters.size()) + " things happened today";
  out.url = std::string(base_url) + "/";
  out.html = "<!DOCTYPE html>\n<html><body style=\"font-family:sans-serif;line-height:1.5\">\n<ul>\n";
  for (const Letter& letter : letters) {
    out.text += "- " + letter.subject + ": " + letter.url + "\n";
    out.html += "<li><a href=\"" + escape_html(letter.url) + "\">" + escape_html(letter.subject) + "</a></li>\n";
  }
  out.html += "</ul>\n</body></html>\n";
  return out;
}

}  // namespace elgrande::notices
