#include "elgrande/notices/catalogs.hpp"

#include <unicode/datefmt.h>
#include <unicode/fmtable.h>
#include <unicode/locid.h>
#include <unicode/msgfmt.h>
#include <unicode/timezone.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace elgrande::notices {
namespace {

using nlohmann::json;

constexpr std::string_view kSource = "en";
// The server's own messages; the client's many others are not kept.
constexpr std::string_view kServerPrefixes[] = {"letters.", "unsubscribe."};

bool for_the_server(std::string_view key) {
  return std::ranges::any_of(kServerPrefixes, [key](std::string_view prefix) { return key.starts_with(prefix); });
}

icu::Locale locale_of(const std::string& language) {
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale locale = icu::Locale::forLanguageTag(language, status);
  return U_FAILURE(status) ? icu::Locale::getEnglish() : locale;
}

// The message, parsed for `language`, with its dates and times in UTC: a letter goes to
// people anywhere and knows no time zone of theirs. Nothing if ICU cannot parse it.
std::unique_ptr<icu::MessageFormat> parsed(const std::string& language, const std::string& pattern) {
  UErrorCode status = U_ZERO_ERROR;
  UParseError where{};
  auto message = std::make_unique<icu::MessageFormat>(icu::UnicodeString::fromUTF8(pattern), locale_of(language),
                                                      where, status);
  if (U_FAILURE(status)) return nullptr;
  // Only an argument outside plural and select can be reached here: the catalogs' dates are.
  int32_t count = 0;
  const icu::Format** formats = message->getFormats(count);
  for (int32_t i = 0; formats && i < count; ++i) {
    if (const auto* date = dynamic_cast<const icu::DateFormat*>(formats[i])) {
      icu::DateFormat* utc = date->clone();
      if (!utc) return nullptr;
      utc->adoptTimeZone(icu::TimeZone::createTimeZone("UTC"));
      message->adoptFormat(i, utc);
    }
  }
  return message;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return std::string(text);
}

}  // namespace

Catalogs::Catalogs(const std::vector<CatalogFile>& files) {
  for (const CatalogFile& file : files) {
    const json document = json::parse(file.json, nullptr, false);
    if (!document.is_object()) {
      problems_.push_back(file.language + ": the catalog is not a JSON object");
      continue;
    }
    auto& messages = messages_[file.language];
    for (const auto& [key, value] : document.items()) {
      if (key.starts_with('@') || !for_the_server(key)) continue;
      if (!value.is_string()) {
        problems_.push_back(file.language + ", " + key + ": not a string");
        continue;
      }
      if (!parsed(file.language, value.get<std::string>())) {
        problems_.push_back(file.language + ", " + key + ": ICU cannot parse the message; English is used");
        continue;
      }
      messages.emplace(key, value.get<std::string>());
    }
  }
}

const Catalogs& Catalogs::embedded() {
  static const Catalogs kEmbedded(embedded_catalog_files());
  return kEmbedded;
}

std::vector<std::string> Catalogs::languages() const {
  std::vector<std::string> languages;
  for (const auto& [language, messages] : messages_) languages.push_back(language);
  return languages;
}

bool Catalogs::knows(std::string_view language) const { return messages_.find(language) != messages_.end(); }

std::optional<std::string> Catalogs::formatted(const std::string& language, std::string_view key,
                                               const json& arguments) const {
  const auto catalog = messages_.find(language);
  if (catalog == messages_.end()) return std::nullopt;
  const auto pattern = catalog->second.find(key);
  if (pattern == catalog->second.end()) return std::nullopt;
  const auto message = parsed(language, pattern->second);
  if (!message) return std::nullopt;
  std::vector<icu::UnicodeString> names;
  std::vector<icu::Formattable> values;
  if (arguments.is_object()) {
    for (const auto& [name, value] : arguments.items()) {
      names.push_back(icu::UnicodeString::fromUTF8(name));
      if (value.is_string()) {
        values.emplace_back(icu::UnicodeString::fromUTF8(value.get_ref<const std::string&>()));
      } else if (value.is_number_integer() && name.ends_with("_at")) {
        values.emplace_back(static_cast<UDate>(value.get<std::int64_t>()), icu::Formattable::kIsDate);
      } else if (value.is_number_integer()) {
        values.emplace_back(static_cast<int64_t>(value.get<std::int64_t>()));
      } else if (value.is_number()) {
        values.emplace_back(value.get<double>());
      } else {
        values.emplace_back(icu::UnicodeString::fromUTF8(value.dump()));
      }
    }
  }
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString out;
  message->format(names.data(), values.data(), static_cast<int32_t>(values.size()), out, status);
  if (U_FAILURE(status)) return std::nullopt;
  std::string text;
  out.toUTF8String(text);
  return text;
}

std::string Catalogs::format(std::string_view language, std::string_view key, const json& arguments) const {
  if (auto text = formatted(std::string(language), key, arguments)) return std::move(*text);
  if (auto english = formatted(std::string(kSource), key, arguments)) return std::move(*english);
  return std::string(key);
}

std::string Catalogs::preferred(std::string_view accept_language) const {
  std::string best(kSource);
  double best_quality = 0;
  while (!accept_language.empty()) {
    const std::string_view item = accept_language.substr(0, accept_language.find(','));
    accept_language.remove_prefix(std::min(accept_language.size(), item.size() + 1));
    const std::string_view range = item.substr(0, item.find(';'));
    double quality = 1;
    if (const auto q = item.find(";q="); q != std::string_view::npos) {
      try {
        quality = std::stod(std::string(item.substr(q + 3)));
      } catch (const std::exception&) {
        quality = 0;
      }
    }
    const std::string tag = lower(trimmed(range));
    if (tag.empty() || quality <= best_quality) continue;
    for (const auto& [language, messages] : messages_) {
      const std::string ours = lower(language);
      if (tag == ours || tag.starts_with(ours + "-")) {
        best = language;
        best_quality = quality;
        break;
      }
    }
  }
  return best;
}

}  // namespace elgrande::notices
