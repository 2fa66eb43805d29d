#pragma once

// Checks protocol messages against the JSON Schemas in protocol/schema/ (draft 7), with
// valijson. Test-only: the server never validates with it. Link the CMake target
// elgrande_schema_validator, which also defines ELGRANDE_SCHEMA_DIR:
//
//   const elgrande::testing::SchemaValidator schemas(ELGRANDE_SCHEMA_DIR);
//   if (auto problem = schemas.check(message, "server")) FAIL(*problem);
//
// check() picks the definition by the message's "type" and validates against it. That is
// the root schema's oneOf, made fast and precise: the constructor verifies that the oneOf
// lists one definition per type, each pinning "type" to a distinct constant.

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace elgrande::testing {

class SchemaValidator {
 public:
  // Loads every *.schema.json in `schema_dir`; throws std::runtime_error if a file is
  // missing or unreadable, or a root schema is not a oneOf over typed messages.
  explicit SchemaValidator(std::filesystem::path schema_dir);
  ~SchemaValidator();
  SchemaValidator(const SchemaValidator&) = delete;
  SchemaValidator& operator=(const SchemaValidator&) = delete;

  // Nothing if `message` is a valid message of `direction` ("client": client to server,
  // "server": server to client); otherwise what is wrong, with the failing paths.
  std::optional<std::string> check(const nlohmann::json& message, std::string_view direction) const;

 private:
  // valijson's templates are compiled once, in schema_validator.cpp.
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace elgrande::testing
