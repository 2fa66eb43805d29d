#include "elgrande/notices/letters.hpp"

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

// One language's words for one letter: its catalog keys are "letters.<kind>.<part>".
struct Words {
  const Catalogs& catalogs;
  std::string_view language;
  std::string prefix;
  std::string operator()(std::string_view part, const json& arguments = json::object()) const {
    return catalogs.format(language, prefix + std::string(part), arguments);
  }
};

}  // namespace

bool unsubscribable(std::string_view kind) { return kind == "turn" || kind == "game_ended" || kind == "tournament"; }

std::optional<Letter> letter(std::string_view kind, const json& payload, std::string_view base_url,
                             std::string_view language, const Catalogs& catalogs) {
  const std::string base(base_url);
  const Words say{catalogs, language, "letters." + std::string(kind) + "."};
  if (kind == "verify_email") {
    const auto username = text_of(payload, "username");
    const auto address = text_of(payload, "address");
    const auto token = text_of(payload, "token");
    if (!username || !address || !token) return std::nullopt;
    return made(say("subject"), {say("asked", {{"username", *username}, {"address", *address}}), say("once")},
                base + "/#/verify-email/" + *token, say("action"));
  }
  if (kind == "reset_password") {
    const auto username = text_of(payload, "username");
    const auto token = text_of(payload, "token");
    if (!username || !token) return std::nullopt;
    return made(say("subject"), {say("asked", {{"username", *username}}), say("once")},
                base + "/#/reset-password/" + *token, say("action"));
  }
  if (kind == "email_changed") {
    const auto username = text_of(payload, "username");
    const auto address = text_of(payload, "address");
    if (!username || !address) return std::nullopt;
    return made(say("subject"), {say("moved", {{"username", *username}, {"address", *address}}), say("not_you")},
                base + "/#/account", say("action"));
  }
  if (kind == "tournament") {
    const auto what = text_of(payload, "what");
    const auto tournament = number_of(payload, "tournament");
    const auto name = text_of(payload, "tournament_name");
    if (!what || !tournament || !name) return std::nullopt;
    const Words event{catalogs, language, "letters.tournament." + *what + "."};
    const json named{{"tournament_name", *name}};
    if (*what == "paired") {
      const auto round = number_of(payload, "round");
      const auto table = number_of(payload, "table");
      const auto table_name = text_of(payload, "table_name");
      if (!round || !table || !table_name) return std::nullopt;
      const json arguments{{"tournament_name", *name}, {"round", *round}, {"table_name", *table_name}};
      return made(event("subject", arguments), {event("body", arguments)}, base + "/#/table/" + std::to_string(*table),
                  event("action"));
    }
    if (*what == "starts_soon") {
      const auto starts_at = number_of(payload, "starts_at");
      if (!starts_at) return std::nullopt;
      std::vector<std::string> lines{event("body", {{"tournament_name", *name}, {"starts_at", *starts_at}})};
      const auto check_in = payload.find("check_in");
      if (check_in != payload.end() && check_in->is_boolean() && check_in->get<bool>()) lines.push_back(event("check_in"));
      return made(event("subject", named), lines, base + "/#/tournament/" + std::to_string(*tournament),
                  event("action"));
    }
    if (*what == "ended") {
      const auto place = number_of(payload, "place");
      const auto of = number_of(payload, "of");
      std::vector<std::string> lines{event("body", named)};
      if (place && of) lines.push_back(event("place", {{"place", *place}, {"of", *of}}));
      return made(event("subject", named), lines, base + "/#/tournament/" + std::to_string(*tournament),
                  event("action"));
    }
    return std::nullopt;
  }
  const auto table = number_of(payload, "table");
  const auto table_name = text_of(payload, "table_name");
  if (!table || !table_name) return std::nullopt;
  const std::string url = base + "/#/table/" + std::to_string(*table);
  const json named{{"table_name", *table_name}};
  if (kind == "turn") return made(say("subject", named), {say("body", named)}, url, say("action"));
  if (kind == "game_ended") {
    std::vector<std::string> lines{say("body", named)};
    if (const auto place = number_of(payload, "place")) lines.push_back(say("place", {{"place", *place}}));
    if (const auto seats = payload.find("seats"); seats != payload.end() && seats->is_array()) {
      std::string scores;
      for (const auto& seat : *seats) {
        const auto seat_name = text_of(seat, "name");
        const auto score = number_of(seat, "score");
        if (!seat_name || !score) continue;
        scores += (scores.empty() ? "" : ", ") + say("score", {{"name", *seat_name}, {"score", *score}});
      }
      if (!scores.empty()) lines.push_back(say("scores", {{"scores", scores}}));
    }
    return made(say("subject", named), lines, url, say("action"));
  }
  return std::nullopt;
}

Letter digest(const std::vector<Letter>& letters, std::string_view base_url, std::string_view language,
              const Catalogs& catalogs) {
  Letter out;
  out.subject = letters.size() == 1
                    ? catalogs.format(language, "letters.digest.subject_one", {{"subject", letters.front().subject}})
                    : catalogs.format(language, "letters.digest.subject_many", {{"count", letters.size()}});
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
