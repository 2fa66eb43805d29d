// request_target: an HTTP request target as the server maps it to a file of the web client
// (server/net/static_files.cpp, compiled in). Properties, for an absolute and a relative web
// root alike: a path given for a target stays lexically under the root: the root itself
// followed by plain names only, none empty, none starting with '.', none holding a NUL or a
// backslash; a target ending in '/' gets index.html; and every path has a content type.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include "check.hpp"
#include "net/static_files.hpp"

namespace {

namespace fs = std::filesystem;

void check_under(const fs::path& root, std::string_view target) {
  const std::optional<fs::path> file = elgrande::server::resolve_static_file(root, target);
  if (!file) return;

  auto part = file->begin();
  for (const fs::path& root_part : root) {
    FUZZ_REQUIRE(part != file->end() && *part == root_part);
    ++part;
  }
  FUZZ_REQUIRE(part != file->end());  // a file under the root, never the root itself
  for (; part != file->end(); ++part) {
    const std::string& name = part->native();
    FUZZ_REQUIRE(!name.empty() && name.front() != '.');
    FUZZ_REQUIRE(name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
                 name.find('\0') == std::string::npos);
  }
  const fs::path relative = file->lexically_normal().lexically_relative(root.lexically_normal());
  FUZZ_REQUIRE(!relative.empty() && *relative.begin() != "..");

  const std::string_view path = target.substr(0, target.find_first_of("?#"));
  if (path.ends_with('/')) FUZZ_REQUIRE(file->filename() == "index.html");
  FUZZ_REQUIRE(!elgrande::server::content_type_for(*file).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view target(reinterpret_cast<const char*>(data), size);
  check_under("/srv/elgrande/clients/web", target);
  check_under("clients/web", target);  // the default configuration's root
  return 0;
}
