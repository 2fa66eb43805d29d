// The server binary end to end: configuration, /healthz, static files, the database
// file, and a clean exit on SIGTERM.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "server_process.hpp"
#include "support/test_database.hpp"

namespace {

using namespace elgrande::test;

void write_file(const std::filesystem::path& file, const std::string& content) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << content;
}

// The repository's own config file, with everything machine-specific overridden.
std::vector<std::string> server_args(const TempDir& dir, const std::string& web_root) {
  std::vector<std::string> args = database_args(dir);
  args.insert(args.end(), {"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--bind", "127.0.0.1", "--port", "0",
                           "--web-root", web_root, "--threads", "2", "--log-level", "debug"});
  return args;
}

}  // namespace

TEST_CASE("The server answers health checks and static files and stops on SIGTERM",
          "[no-storage][integration]") {
  TempDir dir;
  write_file(dir.path() / "web" / "index.html", "<!doctype html><title>El Grande</title>");
  write_file(dir.path() / "web" / "js" / "app.js", "console.log('hola');");
  write_file(dir.path() / "web" / "board.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>");
  write_file(dir.path() / "secret.txt", "outside the web root");

  ServerProcess server(server_args(dir, (dir.path() / "web").string()));
  REQUIRE(server.address() == "127.0.0.1");
  REQUIRE(server.port() != 0);

  const HttpResponse health = http_request(server, http::verb::get, "/healthz");
  CHECK(health.result() == http::status::ok);
  CHECK(health[http::field::content_type] == "application/json");
  CHECK(health.body() == R"({"status":"ok"})");

  CHECK(http_request(server, http::verb::get, "/nope").result() == http::status::not_found);

  const HttpResponse post = http_request(server, http::verb::post, "/healthz");
  CHECK(post.result() == http::status::method_not_allowed);
  CHECK(post[http::field::allow] == "GET, HEAD");

  const HttpResponse index = http_request(server, http::verb::get, "/");
  CHECK(index.result() == http::status::ok);
  CHECK(index[http::field::content_type] == "text/html; charset=utf-8");
  CHECK(index.body() == "<!doctype html><title>El Grande</title>");

  const HttpResponse script = http_request(server, http::verb::get, "/js/app.js?v=1");
  CHECK(script.result() == http::status::ok);
  CHECK(script[http::field::content_type] == "text/javascript; charset=utf-8");

  CHECK(http_request(server, http::verb::get, "/board.svg")[http::field::content_type] ==
        "image/svg+xml");

  for (const char* escape :
       {"/../secret.txt", "/%2e%2e/secret.txt", "/js/..%2f..%2fsecret.txt", "%2Fboard.svg"}) {
    INFO(escape);
    const HttpResponse refused = http_request(server, http::verb::get, escape);
    CHECK(refused.result() == http::status::bad_request);
    CHECK(refused.body() != "outside the web root");
  }

  // The game protocol is upgraded on /ws only (tests/integration/websocket_test.cpp);
  // an upgrade elsewhere is refused, not ignored.
  http::request<http::string_body> upgrade{http::verb::get, "/chat", 11};
  upgrade.set(http::field::connection, "Upgrade");
  upgrade.set(http::field::upgrade, "websocket");
  upgrade.set(http::field::sec_websocket_version, "13");
  upgrade.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  CHECK(send_http(server.address(), server.port(), upgrade).result() == http::status::not_found);

  if (!testing_postgresql()) CHECK(std::filesystem::is_regular_file(dir.path() / "data" / "elgrande.sqlite"));

  // An idle keep-alive connection must not delay shutdown or leak its session.
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket idle(io);
  idle.connect({boost::asio::ip::make_address(server.address()), server.port()});

  server.signal(SIGTERM);
  CHECK(server.wait_for_exit(15s) == std::optional<int>(0));
}

TEST_CASE("Without a web root every path but /healthz is 404", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(server_args(dir, (dir.path() / "no-such-dir").string()));

  CHECK(http_request(server, http::verb::get, "/healthz").result() == http::status::ok);
  CHECK(http_request(server, http::verb::get, "/").result() == http::status::not_found);
  CHECK(http_request(server, http::verb::get, "/index.html").result() == http::status::not_found);

  server.signal(SIGINT);
  CHECK(server.wait_for_exit(15s) == std::optional<int>(0));
}

TEST_CASE("--help prints the usage and exits 0", "[no-storage][integration]") {
  const Completed run = run_to_exit({"--help"});
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("Usage:") != std::string::npos);
  CHECK(run.out.find("--port") != std::string::npos);
}

TEST_CASE("Bad command lines exit 2 with a message", "[no-storage][integration]") {
  const std::vector<std::vector<std::string>> bad = {
      {"--port", "notanumber"},
      {"--port", "70000"},
      {"--threads", "-1"},
      {"--log-level", "loud"},
      {"--bind", "localhost:80"},
      {"--no-such-flag"},
      {"--port"},
      {"--config", "/nonexistent/server.json"},
      {"--allowed-origins", "example.org"},
      {"--allowed-origins", "https://example.org/lobby"},
      {"--trusted-proxies", "proxy.local"},
      {"--open-tables-per-player", "-1"},
  };
  for (const auto& args : bad) {
    INFO(args.front() << (args.size() > 1 ? " " + args.back() : ""));
    const Completed run = run_to_exit(args);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(args.back()) != std::string::npos);
  }
}
