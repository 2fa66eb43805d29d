// The letters in the recipient's language: the catalogs' messages formatted by ICU. The
// catalogs here are tiny ones of the test's own beside the real English one; they are not
// translations (translators write clients/web/lang/<language>.json).
#include <catch2/catch.hpp>

#include <string>

#include "elgrande/notices/catalogs.hpp"
#include "elgrande/notices/letters.hpp"

using namespace elgrande::notices;
using nlohmann::json;

namespace {

const std::string kSite = "https://play.example.org";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string english_catalog() {
  for (const CatalogFile& file : embedded_catalog_files()) {
    if (file.language == "en") return std::string(file.json);
  }
  FAIL("no English catalog is embedded");
  return {};
}

// English as built in, and test catalogs for other languages.
Catalogs catalogs_with(const std::vector<std::pair<std::string, json>>& others) {
  static const std::string kEnglish = english_catalog();
  std::vector<std::string> texts;  // the views below point into these while the catalogs are read
  texts.reserve(others.size());
  std::vector<CatalogFile> files{{"en", kEnglish}};
  for (const auto& [language, messages] : others) {
    texts.push_back(messages.dump());
    files.push_back({language, texts.back()});
  }
  return Catalogs(files);
}

}  // namespace

TEST_CASE("The embedded catalogs hold English, whose messages all parse") {
  const Catalogs& embedded = Catalogs::embedded();
  CHECK(embedded.knows("en"));
  CHECK_FALSE(embedded.knows("xx"));
  CHECK(embedded.problems().empty());
  CHECK(embedded.format("en", "letters.turn.subject", {{"table_name", "Friday"}}) == "Your turn at Friday");
  CHECK(embedded.format("en", "letters.no_such_key") == "letters.no_such_key");
}

TEST_CASE("A letter is in the recipient's language where its catalog has the words, in English where not") {
  const Catalogs catalogs = catalogs_with({{"pl",
                                   {{"@note", "a translators' note, never a message"},
                                    {"letters.turn.subject", "Twój ruch przy stole {table_name}"},
                                    {"letters.turn.action", "Graj teraz"}}}});
  CHECK(catalogs.languages() == std::vector<std::string>{"en", "pl"});
  const auto turn = letter("turn", {{"table", 17}, {"table_name", "Piątek <gra>"}}, kSite, "pl", catalogs);
  REQUIRE(turn);
  CHECK(turn->subject == "Twój ruch przy stole Piątek <gra>");
  CHECK(contains(turn->text, "It is your turn at the El Grande table Piątek <gra>."));  // no Polish body: English
  CHECK(contains(turn->text, "Graj teraz: " + kSite + "/#/table/17"));
  CHECK(contains(turn->html, "Piątek &lt;gra&gt;"));  // names stay text, never markup
  CHECK_FALSE(contains(turn->html, "<gra>"));
  CHECK(contains(turn->html, ">Graj teraz</a>"));

  // A language without a catalog, and none at all, read English.
  CHECK(letter("turn", {{"table", 17}, {"table_name", "A"}}, kSite, "fr", catalogs)->subject == "Your turn at A");
  CHECK(letter("turn", {{"table", 17}, {"table_name", "A"}}, kSite, "", catalogs)->subject == "Your turn at A");
}

TEST_CASE("Plurals and ordinals take each language's forms from ICU") {
  const Catalogs catalogs = catalogs_with(
      {{"pl",
        {{"letters.digest.subject_many",
          "El Grande: {count, plural, one {# sprawa} few {# sprawy} many {# spraw} other {# sprawy}}"}}},
       {"hu", {{"letters.game_ended.place", "{place, selectordinal, one {#-én} other {#-án}} végeztél."}}},
       {"de", {{"letters.game_ended.place", "Du bist {place, selectordinal, other {#.}} geworden."}}}});
  const auto turn = letter("turn", {{"table", 1}, {"table_name", "A"}}, kSite, "pl", catalogs);
  REQUIRE(turn);
  const auto subject = [&](std::size_t count) {
    return digest(std::vector<Letter>(count, *turn), kSite, "pl", catalogs).subject;
  };
  CHECK(subject(2) == "El Grande: 2 sprawy");
  CHECK(subject(5) == "El Grande: 5 spraw");
  CHECK(subject(22) == "El Grande: 22 sprawy");
  CHECK(subject(12) == "El Grande: 12 spraw");
  CHECK(catalogs.format("pl", "letters.digest.subject_many", {{"count", 1}}) == "El Grande: 1 sprawa");
  // One letter is named, in any language.
  CHECK(digest({*turn}, kSite, "pl", catalogs).subject == "El Grande: Your turn at A");

  const auto placed = [&](const std::string& language, int place) {
    return catalogs.format(language, "letters.game_ended.place", {{"place", place}});
  };
  CHECK(placed("hu", 1) == "1-én végeztél.");
  CHECK(placed("hu", 2) == "2-án végeztél.");
  CHECK(placed("hu", 5) == "5-én végeztél.");
  CHECK(placed("hu", 22) == "22-án végeztél.");
  CHECK(placed("de", 22) == "Du bist 22. geworden.");
  CHECK(placed("en", 1) == "You placed 1st.");
  CHECK(placed("en", 2) == "You placed 2nd.");
  CHECK(placed("en", 13) == "You placed 13th.");
  CHECK(placed("en", 22) == "You placed 22nd.");
  CHECK(placed("pl", 5) == "You placed 5th.");  // no Polish message: English
}

TEST_CASE("A date is written in the language's own words, in UTC") {
  const Catalogs catalogs = catalogs_with(
      {{"pl", {{"letters.tournament.starts_soon.body", "Turniej {tournament_name} zaczyna się {starts_at, date, ::yMMMMdHHmm} UTC."}}},
       {"de", {{"letters.tournament.starts_soon.body", "Das Turnier {tournament_name} beginnt am {starts_at, date, ::yMMMMdHHmm} UTC."}}}});
  const json payload{{"what", "starts_soon"}, {"tournament", 3}, {"tournament_name", "Puchar"}, {"starts_at", 1795870800000}};
  const auto polish = letter("tournament", payload, kSite, "pl", catalogs);
  REQUIRE(polish);
  INFO(polish->text);
  CHECK(contains(polish->text, "Turniej Puchar zaczyna się 28 listopada 2026"));
  CHECK(contains(polish->text, "13:00 UTC."));
  const auto german = letter("tournament", payload, kSite, "de", catalogs);
  REQUIRE(german);
  INFO(german->text);
  CHECK(contains(german->text, "28. November 2026"));
  CHECK(contains(german->text, "13:00 UTC."));
  CHECK(contains(letter("tournament", payload, kSite, "en", catalogs)->text, "starts at 2026-11-28 13:00 UTC."));
}

TEST_CASE("A message ICU cannot parse is left out, named, and said in English") {
  const Catalogs catalogs = catalogs_with({{"de",
                                   {{"letters.turn.subject", "Du bist dran an {table_name"},
                                    {"letters.turn.action", 7},
                                    {"letters.turn.body", "Du bist dran am Tisch {table_name}."}}},
                                  {"hu", json::array()}});
  REQUIRE(catalogs.problems().size() == 3);
  CHECK(contains(catalogs.problems()[0], "de, letters.turn.action"));
  CHECK(contains(catalogs.problems()[1], "de, letters.turn.subject"));
  CHECK(contains(catalogs.problems()[2], "hu"));
  const auto turn = letter("turn", {{"table", 1}, {"table_name", "A"}}, kSite, "de", catalogs);
  REQUIRE(turn);
  CHECK(turn->subject == "Your turn at A");
  CHECK(contains(turn->text, "Du bist dran am Tisch A."));
  CHECK(contains(turn->text, "Play now: "));
}

TEST_CASE("The unsubscribe page takes the language an Accept-Language header prefers") {
  const Catalogs catalogs = catalogs_with({{"pl", json::object()}, {"de", json::object()}});
  CHECK(catalogs.preferred("") == "en");
  CHECK(catalogs.preferred("pl-PL,pl;q=0.9,en-US;q=0.8") == "pl");
  CHECK(catalogs.preferred("fr-FR, de;q=0.7, en;q=0.9") == "en");
  CHECK(catalogs.preferred("fr, de-AT;q=0.5") == "de");
  CHECK(catalogs.preferred("PL") == "pl");
  CHECK(catalogs.preferred("pt-BR") == "en");
}
