#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elgrande::notices {

// One language's message catalog as its file holds it: clients/web/lang/<language>.json, a
// flat JSON object of key → ICU MessageFormat pattern ("@" keys are translators' notes).
struct CatalogFile {
  std::string language;  // BCP 47, from the file's name: "en", "pl", "pt-BR"
  std::string_view json;
};

// The words the server writes itself (docs/notifications.md#languages): the letters'
// ("letters.*") and the unsubscribe page's ("unsubscribe.*") messages of every catalog,
// formatted by ICU for the language's plurals, ordinals, numbers and dates. English ("en")
// is the source: a key missing in a language, or a message that does not format there,
// is said in English. Immutable once made, so shared between threads.
class Catalogs {
 public:
  explicit Catalogs(const std::vector<CatalogFile>& files);

  // The catalogs built into the server from clients/web/lang/*.json (notices/CMakeLists.txt).
  static const Catalogs& embedded();

  // Every catalog's language, sorted: "de", "en", "hu", "pl".
  std::vector<std::string> languages() const;
  bool knows(std::string_view language) const;
  // What was left out, each naming the language and the key: a message ICU cannot parse, a
  // value that is not a string, a file that is not a JSON object. For the server's log.
  const std::vector<std::string>& problems() const { return problems_; }

  // The message `key` in `language` (English if the language has none, or it fails), with
  // `arguments`, a JSON object: strings, integers, and times in Unix milliseconds under
  // names ending in "_at", shown in UTC. The key itself if even English lacks it.
  std::string format(std::string_view language, std::string_view key, const nlohmann::json& arguments = {}) const;

  // The language of these catalogs that an Accept-Language header prefers (RFC 9110:
  // quality values; "pl-PL" takes "pl"), English if none.
  std::string preferred(std::string_view accept_language) const;

 private:
  std::optional<std::string> formatted(const std::string& language, std::string_view key,
                                       const nlohmann::json& arguments) const;

  std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>> messages_;
  std::vector<std::string> problems_;
};

// The catalog files compiled in: generated at build time from clients/web/lang/*.json.
std::vector<CatalogFile> embedded_catalog_files();

}  // namespace elgrande::notices
