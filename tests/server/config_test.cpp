#include <catch2/catch.hpp>

#include <thread>

#include "ops/config.hpp"

namespace elgrande::server {
namespace {

TEST_CASE("left to the machine, the I/O threads leave a core to the storage thread", "[config]") {
  CHECK(io_threads_for(0) == 1);  // the core count unknown
  CHECK(io_threads_for(1) == 1);
  CHECK(io_threads_for(2) == 1);
  CHECK(io_threads_for(4) == 3);
  CHECK(io_threads_for(64) == 63);
}

TEST_CASE("threads set in the configuration are started as set, and 0 leaves it to the machine", "[config]") {
  Config config;
  config.threads = 2;
  CHECK(config.io_threads() == 2);
  config.threads = 0;
  CHECK(config.io_threads() == io_threads_for(std::thread::hardware_concurrency()));
}

}  // namespace
}  // namespace elgrande::server
