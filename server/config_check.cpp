#include "config_check.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "database_start.hpp"
#include "net/tls_certificate.hpp"

namespace elgrande::server {
namespace {

std::string because(int error) { return std::string(": ") + std::strerror(error); }

// A start makes data_dir with its parents: the nearest folder that exists must let this
// user write, and what exists must be a folder.
void check_data_dir(const std::filesystem::path& data_dir, std::vector<std::string>& faults) {
  std::filesystem::path existing = std::filesystem::absolute(data_dir);
  std::error_code error;
  while (!std::filesystem::exists(existing, error) && existing.has_relative_path()) existing = existing.parent_path();
  if (!std::filesystem::is_directory(existing, error)) {
    faults.push_back("data_dir " + data_dir.string() + ": " + existing.string() + " is not a folder");
  } else if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    faults.push_back("data_dir " + data_dir.string() + ": " + existing.string() + " cannot be written by uid " +
                     std::to_string(::geteuid()) + because(errno));
  }
}

void check_database_file(const std::filesystem::path& database, std::vector<std::string>& faults) {
  std::error_code error;
  if (std::filesystem::exists(database, error) && ::access(database.c_str(), R_OK | W_OK) != 0) {
    faults.push_back("database " + database.string() + " cannot be written by uid " + std::to_string(::geteuid()) +
                     because(errno));
  }
  try {
    refuse_lone_write_ahead_log(database);  // looks at the files' sizes only
  } catch (const std::exception& fault) {
    faults.push_back(fault.what());
  }
}

void check_readable(std::string_view key, const std::string& file, std::vector<std::string>& faults) {
  if (file.empty()) return;
  if (::access(file.c_str(), R_OK) != 0) faults.push_back(std::string(key) + " " + file + " cannot be read" + because(errno));
}

}  // namespace

int check_config(const Config& config, const std::optional<std::filesystem::path>& file) {
  const std::string name = file ? file->string() : std::string("built-in defaults (no config file)");
  std::vector<std::string> faults;
  if (!config.postgresql()) {
    check_data_dir(config.data_dir, faults);
    check_database_file(config.database_path(), faults);
  }
  check_readable("webhook_ca_file", config.webhook_ca_file, faults);
  check_readable("smtp_ca_file", config.smtp_ca_file, faults);
  if (config.tls()) {
    try {
      TlsCertificate(config.tls_certificate, config.tls_private_key);  // as a start would load it
    } catch (const TlsError& fault) {
      faults.push_back(fault.what());
    }
  }
  for (const std::string& fault : faults) std::cerr << "configuration error: " << name << ": " << fault << "\n";
  if (!faults.empty()) return 1;

  std::error_code error;
  if (!std::filesystem::is_directory(config.web_root, error)) {
    std::cout << "note: web_root " << config.web_root.string() << " is not a folder: no web client will be served\n";
  }
  if (config.postgresql()) std::cout << "note: the PostgreSQL database was not connected to\n";
  std::cout << "configuration OK: " << name << std::endl;
  return 0;
}

}  // namespace elgrande::server
