// The server on the internet's terms (docs/deploy.md): HTTPS and WSS with a certificate of
// a CA the test makes, plain HTTP that redirects and answers certbot's challenges, a
// certificate renewed with SIGHUP while games run, and files that cannot serve refused at
// start. The real binary on loopback; curl and openssl s_client as a browser's stand-ins.

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "game_helpers.hpp"
#include "notice_peers.hpp"
#include "tls_support.hpp"

using namespace elgrande::test;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> tls_server_args(const TempDir& dir, const fs::path& certificate, const fs::path& key) {
  return with(server_args(dir), {"--tls-certificate", certificate.string(), "--tls-private-key", key.string()});
}

Completed curl(const std::vector<std::string>& args) { return run_program("/usr/bin/curl", args, 10s); }

// The subject of the certificate a new connection is served, as openssl s_client prints it.
std::string served_subject(const ServerProcess& server, const fs::path& tls) {
  const Completed shown = run_program("/usr/bin/openssl", {"s_client", "-connect", "127.0.0.1:" + std::to_string(server.port()),
                                                          "-servername", "localhost", "-CAfile", (tls / "ca.pem").string(),
                                                          "-verify_return_error", "-brief"},
                                      10s);
  INFO(shown.out << shown.err);
  REQUIRE(shown.exit_code == 0);
  const std::string text = shown.out + shown.err;
  const std::size_t at = text.find("Peer certificate: ");
  REQUIRE(at != std::string::npos);
  return text.substr(at, text.find('\n', at) - at);
}

}  // namespace

TEST_CASE("over TLS a game plays through wss, plain HTTP redirects to https and answers certbot's challenges",
          "[tls][no-storage][integration]") {
  TempDir dir;
  const fs::path tls = tls_files_in(dir);
  const fs::path webroot = dir.path() / "acme";
  fs::create_directories(webroot / ".well-known" / "acme-challenge");
  const std::uint16_t http_port = free_port();
  ServerProcess server(with(tls_server_args(dir, tls / "server.pem", tls / "server.key"),
                            {"--http-port", std::to_string(http_port), "--acme-challenge-dir",
                             (webroot / ".well-known" / "acme-challenge").string(), "--web-root",
                             ELGRANDE_SOURCE_DIR "/clients/web"}));
  const std::string https = "https://localhost:" + std::to_string(server.port());

  WsClient ana(server.address(), server.port(), "/ws", 10s, trusting(tls));
  WsClient ben(server.address(), server.port(), "/ws", 10s, trusting(tls));
  hello(ana, "Ana");
  hello(ben, "Ben");
  const std::int64_t table = create_table(ana, kTwoPlayers)["id"];
  REQUIRE(request(ben, "table.join", {{"table", table}})["type"] == "table.join.ok");
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", table}}, &pushes)["type"] == "table.start.ok");
  std::thread ben_plays([&] { play_to_end(ben, table, 21); });
  const Json over = play_to_end(ana, table, 22, pushes);
  ben_plays.join();
  CHECK(over.contains("result"));

  // Plain WebSocket on the TLS port gets no game.
  CHECK_THROWS(WsClient(server.address(), server.port(), "/ws", 3s));

  // The page comes over TLS 1.2 or 1.3 only, and tells the browser to stay on HTTPS.
  const Completed page = curl({"-sS", "-D", "-", "-o", "/dev/null", "--cacert", (tls / "ca.pem").string(), https + "/"});
  INFO(page.err);
  CHECK(page.exit_code == 0);
  CHECK(page.out.find("Strict-Transport-Security: max-age=63072000") != std::string::npos);
  CHECK(curl({"-sS", "--tls-max", "1.1", "--cacert", (tls / "ca.pem").string(), https + "/healthz"}).exit_code != 0);

  // Plain HTTP: a permanent redirect to the same target over HTTPS ...
  const std::string http = "http://localhost:" + std::to_string(http_port);
  const Completed redirected = curl({"-sS", "-D", "-", "-o", "/dev/null", http + "/tables?from=mail"});
  INFO(redirected.out);
  CHECK(redirected.out.starts_with("HTTP/1.1 301"));
  CHECK(redirected.out.find("Location: " + https + "/tables?from=mail\r\n") != std::string::npos);
  // ... except certbot's challenge files, from its webroot (and nothing outside it).
  std::ofstream(webroot / ".well-known" / "acme-challenge" / "Tok3n_-x") << "Tok3n_-x.thumbprint";
  CHECK(curl({"-sS", http + "/.well-known/acme-challenge/Tok3n_-x"}).out == "Tok3n_-x.thumbprint");
  CHECK(curl({"-sS", "-o", "/dev/null", "-w", "%{http_code}", http + "/.well-known/acme-challenge/..%2Fsecret"}).out ==
        "404");
  CHECK(curl({"-sS", "-o", "/dev/null", "-w", "%{http_code}", http + "/.well-known/acme-challenge/missing"}).out ==
        "404");
}

TEST_CASE("SIGHUP with a renewed certificate: new connections are served it, games in play go on",
          "[tls][no-storage][integration]") {
  TempDir dir;
  const fs::path tls = tls_files_in(dir);
  // Where certbot keeps the live files, replaced in place on each renewal.
  const fs::path live = dir.path() / "live";
  fs::create_directories(live);
  fs::copy_file(tls / "server.pem", live / "fullchain.pem");
  fs::copy_file(tls / "server.key", live / "privkey.pem");
  SpawnOptions options;
  options.log_file = dir.path() / "server.log";
  ServerProcess server(tls_server_args(dir, live / "fullchain.pem", live / "privkey.pem"), options);
  CHECK(served_subject(server, tls).find("CN = first.localhost") != std::string::npos);

  WsClient ana(server.address(), server.port(), "/ws", 10s, trusting(tls));
  hello(ana, "Ana");
  const std::int64_t table = create_table(ana, kTwoPlayers)["id"];
  REQUIRE(request(ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
  std::vector<Json> pushes;
  REQUIRE(request(ana, "table.start", {{"table", table}}, &pushes)["type"] == "table.start.ok");
  const Json midway = play_to_end(ana, table, 5, pushes, 12);

  // A renewal that leaves a key from elsewhere is refused, and the running certificate kept.
  fs::copy_file(tls / "stranger.key", live / "privkey.pem", fs::copy_options::overwrite_existing);
  server.signal(SIGHUP);
  REQUIRE(wait_for([&] { return text_of(options.log_file).find("still serving the certificate") != std::string::npos; }, 10s));
  CHECK(text_of(options.log_file).find("is not the key of the certificate") != std::string::npos);
  CHECK(served_subject(server, tls).find("CN = first.localhost") != std::string::npos);

  fs::copy_file(tls / "renewed.pem", live / "fullchain.pem", fs::copy_options::overwrite_existing);
  fs::copy_file(tls / "renewed.key", live / "privkey.pem", fs::copy_options::overwrite_existing);
  server.signal(SIGHUP);
  REQUIRE(wait_for([&] { return text_of(options.log_file).find("reloaded the TLS certificate") != std::string::npos; }, 10s));
  CHECK(served_subject(server, tls).find("CN = renewed.localhost") != std::string::npos);

  // The connection from before the renewal plays on to the end; a new one joins in.
  WsClient sam(server.address(), server.port(), "/ws", 10s, trusting(tls));
  hello(sam, "Sam");
  REQUIRE(request(sam, "table.spectate", {{"table", table}})["type"] == "table.spectate.ok");
  const Json over = play_to_end(ana, table, 5, {{{"type", "game.update"}, {"payload", midway}}});
  CHECK(over.contains("result"));
  server.signal(SIGTERM);
  CHECK(server.wait_for_exit(10s) == 0);
}

TEST_CASE("a certificate that cannot serve is refused at start, saying why", "[tls][no-storage][integration]") {
  TempDir dir;
  const fs::path tls = tls_files_in(dir);
  const auto refused = [&](const fs::path& certificate, const fs::path& key) {
    const Completed start = run_to_exit(tls_server_args(dir, certificate, key), 20s);
    CHECK(start.exit_code == 1);
    return start.err;
  };
  CHECK(refused(tls / "expired.pem", tls / "expired.key").find("the certificate expired on") != std::string::npos);
  CHECK(refused(tls / "server.pem", tls / "stranger.key").find("is not the key of the certificate in") !=
        std::string::npos);
  CHECK(refused(tls / "missing.pem", tls / "server.key").find("missing.pem: no such file") != std::string::npos);
  CHECK(refused(tls / "server.key", tls / "server.key").find("not a PEM certificate chain") != std::string::npos);
  // Nothing was served meanwhile: the database was never made.
  CHECK_FALSE(fs::exists(database_of(dir)));
  // --check-config (the unit's ExecStartPre) says so before a start is tried.
  const Completed checked =
      run_to_exit(with(tls_server_args(dir, tls / "expired.pem", tls / "expired.key"), {"--check-config"}));
  CHECK(checked.exit_code == 1);
  CHECK(checked.err.find("the certificate expired on") != std::string::npos);
  CHECK(run_to_exit(with(tls_server_args(dir, tls / "server.pem", tls / "server.key"), {"--check-config"})).exit_code == 0);

  const Completed half = run_to_exit(with(server_args(dir), {"--tls-certificate", (tls / "server.pem").string()}));
  CHECK(half.exit_code == 2);
  CHECK(half.err.find("tls_certificate and tls_private_key go together") != std::string::npos);
}
