#include "support/schema_validator.hpp"

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/utils/nlohmann_json_utils.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>
#include <vector>

namespace elgrande::testing {

struct SchemaValidator::Impl {
  explicit Impl(const std::filesystem::path& schema_dir) {
    for (const auto& entry : std::filesystem::directory_iterator(schema_dir)) {
      const std::string file = entry.path().filename().string();
      if (!file.ends_with(".schema.json")) continue;
      nlohmann::json document;
      if (!valijson::utils::loadDocument(entry.path().string(), document))
        throw std::runtime_error("cannot read the JSON schema " + entry.path().string());
      documents_.emplace(file, std::move(document));
    }
    for (const char* direction : {"client", "server"}) load_direction(direction);
  }

  std::optional<std::string> check(const nlohmann::json& message, std::string_view direction) const {
    const auto found = directions_.find(direction);
    if (found == directions_.end())
      throw std::invalid_argument("direction must be \"client\" or \"server\"");
    const Direction& messages = found->second;

    if (!message.is_object()) return "a message must be a JSON object";
    const auto type = message.find("type");
    if (type == message.end() || !type->is_string()) return "type: must be a string";
    const auto schema = messages.by_type.find(type->get<std::string>());
    if (schema == messages.by_type.end()) {
      std::string known;
      for (const auto& [name, ignored] : messages.by_type) known += (known.empty() ? "" : ", ") + name;
      return "unknown " + std::string(direction) + " message type \"" + type->get<std::string>() +
             "\" (known: " + known + ")";
    }

    const valijson::adapters::NlohmannJsonAdapter target(message);
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    if (validator.validate(*schema->second, target, nullptr)) return std::nullopt;

    // Invalid: validate again, collecting every reason, and report the deepest ones (the
    // outer ones only say that an inner one failed).
    valijson::ValidationResults results;
    validator.validate(*schema->second, target, &results);
    std::vector<valijson::ValidationResults::Error> errors(results.begin(), results.end());
    std::size_t depth = 0;
    for (const auto& error : errors) depth = std::max(depth, error.context.size());
    std::ostringstream out;
    out << type->get<std::string>() << ":";
    int shown = 0;
    for (const auto& error : errors) {
      if (error.context.size() != depth) continue;
      if (shown++ == 5) break;
      out << "\n  " << path(error.context) << ": " << error.description;
    }
    return out.str();
  }

  struct Direction {
    std::map<std::string, std::unique_ptr<valijson::Schema>, std::less<>> by_type;
  };

  void load_direction(const std::string& direction) {
    const std::string file = direction + ".schema.json";
    const nlohmann::json& root = document(file);
    const auto one_of = root.find("oneOf");
    if (one_of == root.end() || !one_of->is_array())
      throw std::runtime_error(file + ": the root must be a oneOf over the messages");

    Direction& messages = directions_[direction];
    for (const nlohmann::json& alternative : *one_of) {
      const std::string ref = alternative.value("$ref", "");
      const std::string prefix = "#/definitions/";
      if (!ref.starts_with(prefix)) throw std::runtime_error(file + ": oneOf entries must be local $refs");
      const std::string name = ref.substr(prefix.size());
      const nlohmann::json::json_pointer pointer("/definitions/" + name + "/properties/type/const");
      if (!root.contains(pointer) || !root.at(pointer).is_string())
        throw std::runtime_error(file + ": " + name + " does not pin its type with const");
      const std::string type = root.at(pointer).get<std::string>();

      // A root that is a bare relative $ref is resolved in its own document by valijson 1.0,
      // so the reference sits inside an allOf.
      const nlohmann::json entry = {{"allOf", {{{"$ref", file + ref}}}}};
      auto schema = std::make_unique<valijson::Schema>();
      valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
      parser.populateSchema(
          valijson::adapters::NlohmannJsonAdapter(entry), *schema,
          [this](const std::string& uri) { return fetch(uri); },
          [](const nlohmann::json* fetched) { delete fetched; });
      if (!messages.by_type.emplace(type, std::move(schema)).second)
        throw std::runtime_error(file + ": two messages of type " + type);
    }
  }

  const nlohmann::json& document(const std::string& file) const {
    const auto found = documents_.find(file);
    if (found == documents_.end()) throw std::runtime_error("no JSON schema " + file);
    return found->second;
  }

  // $refs name the other files relatively ("common.schema.json#/definitions/Player"); an
  // absolute $id-based URI is resolved by its last segment too. valijson frees the copy.
  const nlohmann::json* fetch(const std::string& uri) const {
    const std::string file = uri.substr(uri.find_last_of('/') + 1);
    const auto found = documents_.find(file);
    return found == documents_.end() ? nullptr : new nlohmann::json(found->second);
  }

  // valijson's context, ["<root>", "[payload]", "[view]", "[players]", "[0]"], as
  // payload.view.players[0].
  static std::string path(const std::vector<std::string>& context) {
    std::string out;
    for (const std::string& part : context) {
      if (part == "<root>") continue;
      const std::string inner =
          part.size() >= 2 && part.front() == '[' && part.back() == ']' ? part.substr(1, part.size() - 2) : part;
      const bool index = !inner.empty() && std::all_of(inner.begin(), inner.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; });
      if (index) {
        out += "[" + inner + "]";
      } else {
        out += (out.empty() ? "" : ".") + inner;
      }
    }
    return out.empty() ? "(the message)" : out;
  }

  std::map<std::string, nlohmann::json, std::less<>> documents_;
  std::map<std::string, Direction, std::less<>> directions_;
};


SchemaValidator::SchemaValidator(std::filesystem::path schema_dir) : impl_(std::make_unique<Impl>(schema_dir)) {}

SchemaValidator::~SchemaValidator() = default;

std::optional<std::string> SchemaValidator::check(const nlohmann::json& message, std::string_view direction) const {
  return impl_->check(message, direction);
}

}  // namespace elgrande::testing
