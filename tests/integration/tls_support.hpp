// The test CA and its certificates, for the tests of TLS (docs/deploy.md).

#pragma once

#include <catch2/catch.hpp>
#include <filesystem>

#include "server_process.hpp"
#include "ws_client.hpp"

namespace elgrande::test {

// The test CA and its certificates (tests/integration/make_certificates.py).
inline std::filesystem::path tls_files_in(const TempDir& dir) {
  const std::filesystem::path folder = dir.path() / "tls";
  std::filesystem::create_directories(folder);
  const Completed made =
      run_program("/usr/bin/python3", {ELGRANDE_SOURCE_DIR "/tests/integration/make_certificates.py", folder.string()});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  return folder;
}

// A client that trusts the test CA, for the host name its certificates are for.
inline ConnectOptions trusting(const std::filesystem::path& tls) {
  ConnectOptions options;
  options.tls = TlsOptions{.ca_file = (tls / "ca.pem").string(), .server_name = "localhost"};
  return options;
}

}  // namespace elgrande::test
