// The server binary end to end: configuration, /healthz, static files, the database
// file, and a clean exit on SIGTERM.

#include <brotli/decode.h>
#include <zlib.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
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

std::string gunzip(const std::string& data) {
  z_stream stream{};
  REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
  std::string out(data.size() * 20 + 1024, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  CHECK(inflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  return out;
}

std::string unbrotli(const std::string& data) {
  std::string out(data.size() * 30 + 1024, '\0');
  std::size_t size = out.size();
  CHECK(BrotliDecoderDecompress(data.size(), reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                                reinterpret_cast<std::uint8_t*>(out.data())) == BROTLI_DECODER_RESULT_SUCCESS);
  out.resize(size);
  return out;
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

TEST_CASE("The web client's files go out compressed as the browser accepts, with an ETag that answers 304",
          "[no-storage][integration]") {
  TempDir dir;
  const std::filesystem::path web = ELGRANDE_SOURCE_DIR "/clients/web";
  ServerProcess server(server_args(dir, web.string()));
  const auto get = [&server](std::string_view target, std::string_view accept, std::string_view etag = {}) {
    http::request<http::string_body> request{http::verb::get, target, 11};
    if (!accept.empty()) request.set(http::field::accept_encoding, accept);
    if (!etag.empty()) request.set(http::field::if_none_match, etag);
    return send_http(server.address(), server.port(), request);
  };
  std::ifstream in(web / "js" / "main.js", std::ios::binary);
  const std::string main_js{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};

  const HttpResponse plain = get("/js/main.js", "");
  CHECK(plain[http::field::content_encoding] == "");
  CHECK(plain.body() == main_js);
  CHECK(plain[http::field::cache_control] == "no-cache");
  CHECK(plain[http::field::vary] == "Accept-Encoding");
  const HttpResponse gzipped = get("/js/main.js", "gzip, deflate");
  CHECK(gzipped[http::field::content_encoding] == "gzip");
  CHECK(gunzip(gzipped.body()) == main_js);
  CHECK(gzipped.body().size() * 3 < main_js.size());
  const HttpResponse brotli = get("/js/main.js", "gzip, deflate, br");
  CHECK(brotli[http::field::content_encoding] == "br");
  CHECK(unbrotli(brotli.body()) == main_js);
  CHECK(brotli.body().size() < gzipped.body().size());
  CHECK(get("/js/main.js", "br;q=0, gzip")[http::field::content_encoding] == "gzip");
  // Each representation has its own validator; the right one answers 304 without a body.
  const std::string etag(brotli[http::field::etag]);
  CHECK(etag != std::string(plain[http::field::etag]));
  const HttpResponse current = get("/js/main.js", "gzip, deflate, br", etag);
  CHECK(current.result() == http::status::not_modified);
  CHECK(current.body().empty());
  CHECK(current[http::field::etag] == etag);
  CHECK(get("/js/main.js", "gzip", etag).result() == http::status::ok);
  CHECK(get("/img/favicon.svg", "br")[http::field::content_encoding] == "br");  // SVG is text
  // A file changed on disk is served changed, under a new ETag, without a restart.
  TempDir other;
  const std::filesystem::path own = other.path() / "web";
  write_file(own / "app.js", "console.log('one');");
  ServerProcess second(server_args(other, own.string()));
  const auto fetch = [&second] {
    return send_http(second.address(), second.port(), http::request<http::string_body>{http::verb::get, "/app.js", 11});
  };
  const HttpResponse first = fetch();
  write_file(own / "app.js", "console.log('two, longer');");
  const HttpResponse changed = fetch();
  CHECK(changed.body() == "console.log('two, longer');");
  CHECK(changed[http::field::etag] != first[http::field::etag]);
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
