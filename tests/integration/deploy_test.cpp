// deploy/ as an operator runs it: Debian's nginx with the shipped deploy/nginx.conf (only
// its ports, certificate paths and webroot replaced) terminating TLS in front of the
// server processes (two on PostgreSQL, [cluster]; one on SQLite otherwise), and
// --check-config on the shipped deploy/server.json and on broken ones. The systemd unit
// is checked by tests/deploy/systemd_verify.sh.

#include <catch2/catch.hpp>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "game_helpers.hpp"
#include "notice_peers.hpp"

namespace elgrande::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kDeployNginx = "/usr/sbin/nginx";
const std::string kDeployPublicName = "example.org";  // the shipped file's, kept

// Every `from` in the shipped file becomes `to`; one that is gone fails the test, so the
// file cannot drift away from what is tested.
void deploy_replace(std::string& text, const std::string& from, const std::string& to) {
  INFO("deploy/nginx.conf no longer has: " << from);
  REQUIRE(text.find(from) != std::string::npos);
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

void deploy_write(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

// nginx in the foreground with a prefix of its own, as in the docs but on free loopback
// ports, with a self-signed certificate for example.org where certbot would put one.
class DeployNginx {
 public:
  DeployNginx(const TempDir& dir, std::uint16_t first, std::uint16_t second)
      : prefix_(dir.path() / "nginx"), https_port_(free_port()), http_port_(free_port()) {
    std::filesystem::create_directories(prefix_ / "tls");
    std::filesystem::create_directories(webroot() / ".well-known" / "acme-challenge");
    const Completed made = run_program(
        "/usr/bin/openssl", {"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days",
                             "1", "-subj", "/CN=" + kDeployPublicName, "-addext", "subjectAltName=DNS:" + kDeployPublicName,
                             "-keyout", (prefix_ / "tls" / "privkey.pem").string(), "-out", ca_file()});
    REQUIRE(made.exit_code == 0);

    std::string site = text_of(ELGRANDE_SOURCE_DIR "/deploy/nginx.conf");
    deploy_replace(site, "server 127.0.0.1:8080;", "server 127.0.0.1:" + std::to_string(first) + ";");
    deploy_replace(site, "server 127.0.0.1:8081;", "server 127.0.0.1:" + std::to_string(second) + ";");
    deploy_replace(site, "listen 443 ssl http2;", "listen 127.0.0.1:" + std::to_string(https_port_) + " ssl http2;");
    deploy_replace(site, "listen [::]:443 ssl http2;", "");
    deploy_replace(site, "listen 80;", "listen 127.0.0.1:" + std::to_string(http_port_) + ";");
    deploy_replace(site, "listen [::]:80;", "");
    deploy_replace(site, "/etc/letsencrypt/live/example.org/", (prefix_ / "tls").string() + "/");
    deploy_replace(site, "/var/www/letsencrypt", webroot().string());
    deploy_write(prefix_ / "elgrande.conf", site);

    // What Debian's /etc/nginx/nginx.conf gives a site, with every path in the prefix.
    const std::string p = prefix_.string();
    deploy_write(prefix_ / "nginx.conf",
                 std::string(::geteuid() == 0 ? "user root;\n" : "") + "worker_processes 1;\npid " + p +
                     "/nginx.pid;\nevents { worker_connections 256; }\nhttp {\n  access_log " + p +
                     "/access.log;\n  client_body_temp_path " + p + "/body;\n  proxy_temp_path " + p +
                     "/proxy;\n  fastcgi_temp_path " + p + "/fastcgi;\n  uwsgi_temp_path " + p +
                     "/uwsgi;\n  scgi_temp_path " + p + "/scgi;\n  include " + p + "/elgrande.conf;\n}\n");
    const std::vector<std::string> args{"-p", p + "/", "-c", p + "/nginx.conf", "-e", p + "/error.log"};
    std::vector<std::string> test = args;
    test.push_back("-t");
    const Completed tested = run_program(kDeployNginx, test);
    INFO(tested.err);
    REQUIRE(tested.exit_code == 0);

    std::vector<std::string> run = args;
    run.insert(run.end(), {"-g", "daemon off;"});
    pid_ = detail::spawn(run, -1, -1, kDeployNginx);
    const auto deadline = Clock::now() + 10s;
    while (!accepting()) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        FAIL("nginx exited: " << text_of(prefix_ / "error.log"));
      }
      if (Clock::now() > deadline) FAIL("nginx did not listen: " << text_of(prefix_ / "error.log"));
      std::this_thread::sleep_for(20ms);
    }
  }
  ~DeployNginx() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
  }
  DeployNginx(const DeployNginx&) = delete;
  DeployNginx& operator=(const DeployNginx&) = delete;

  std::uint16_t https_port() const { return https_port_; }
  std::uint16_t http_port() const { return http_port_; }
  std::filesystem::path webroot() const { return prefix_ / "webroot"; }
  std::string ca_file() const { return (prefix_ / "tls" / "fullchain.pem").string(); }
  std::string public_origin() const { return "https://" + kDeployPublicName + ":" + std::to_string(https_port_); }

  // A client at `local` (any of 127/8), as a browser on the public origin would be.
  ConnectOptions from(const std::string& local, const std::string& origin = "") const {
    ConnectOptions options;
    options.tls = TlsOptions{ca_file(), kDeployPublicName};
    options.local_address = local;
    options.host = kDeployPublicName + ":" + std::to_string(https_port_);
    options.origin = origin;
    return options;
  }
  std::unique_ptr<WsClient> client(const std::string& local) const {
    return std::make_unique<WsClient>("127.0.0.1", https_port_, "/ws", 10s, from(local, public_origin()));
  }
  HttpResponse get(std::uint16_t port, const std::string& target, ConnectOptions options = {}) const {
    if (options.host.empty()) options.host = kDeployPublicName + ":" + std::to_string(port);
    return send_http("127.0.0.1", port, http::request<http::string_body>{http::verb::get, target, 11}, options);
  }
  // The status of a WebSocket upgrade, as a browser on `origin` sends it.
  unsigned upgrade_status(const std::string& origin) const {
    http::request<http::string_body> upgrade{http::verb::get, "/ws", 11};
    upgrade.set(http::field::upgrade, "websocket");
    upgrade.set(http::field::connection, "Upgrade");
    upgrade.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
    upgrade.set(http::field::sec_websocket_version, "13");
    upgrade.set(http::field::origin, origin);
    return send_http("127.0.0.1", https_port_, std::move(upgrade), from("127.0.0.1")).result_int();
  }

 private:
  bool accepting() const {
    try {
      get(http_port_, "/");
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }

  std::filesystem::path prefix_;
  std::uint16_t https_port_;
  std::uint16_t http_port_;
  pid_t pid_ = -1;
};

// A forwarding process serves once it knows where the leader is.
void deploy_wait_until_healthy(const ServerProcess& server) {
  const auto deadline = Clock::now() + 20s;
  for (;;) {
    try {
      if (http_request(server, http::verb::get, "/healthz").result() == http::status::ok) return;
    } catch (const std::exception&) {
    }
    REQUIRE(Clock::now() < deadline);
    std::this_thread::sleep_for(50ms);
  }
}

Completed deploy_check(const std::vector<std::string>& args) { return run_to_exit(args); }

// deploy/server.json as an operator would install it, its data_dir in the test's folder.
std::filesystem::path deploy_config(const TempDir& dir, const std::string& replace = "", const std::string& with = "") {
  std::string text = text_of(ELGRANDE_SOURCE_DIR "/deploy/server.json");
  deploy_replace(text, "/var/lib/elgrande-server", (dir.path() / "state").string());
  if (!replace.empty()) deploy_replace(text, replace, with);
  const std::filesystem::path file = dir.path() / "server.json";
  deploy_write(file, text);
  return file;
}

}  // namespace

TEST_CASE("Behind the shipped nginx site, games play over wss, each client's address counts, and foreign origins are refused",
          "[integration][nginx][cluster]") {
  if (!std::filesystem::exists(kDeployNginx)) {
    WARN("skipped: no " << kDeployNginx << " (apt install nginx-light)");
    return;
  }
  TempDir dir;
  std::vector<std::string> args = server_args(dir);
  // Only nginx (on loopback) is believed about the client's address.
  args.insert(args.end(), {"--trusted-proxies", "127.0.0.1", "--log-level", "debug",
                           "--new-identities-per-address-per-hour", "2"});
  // The servers must allow the public origin, which has nginx's port in it: nginx starts
  // first, on upstream ports reserved here, and the servers then listen on those.
  const std::uint16_t first_port = free_port();
  const std::uint16_t second_port = testing_postgresql() ? free_port() : first_port;
  const DeployNginx nginx(dir, first_port, second_port);
  args.insert(args.end(), {"--allowed-origins", nginx.public_origin()});
  std::vector<std::string> first_args = args;
  first_args.insert(first_args.end(), {"--port", std::to_string(first_port)});
  SpawnOptions first_log;
  first_log.log_file = dir.path() / "first.log";
  ServerProcess first(first_args, first_log);
  std::optional<ServerProcess> second;
  if (testing_postgresql()) {
    std::vector<std::string> second_args = args;
    second_args.insert(second_args.end(), {"--port", std::to_string(second_port)});
    SpawnOptions second_log;
    second_log.log_file = dir.path() / "second.log";
    second.emplace(second_args, second_log);
    deploy_wait_until_healthy(*second);  // it forwards once it knows the leader
  }

  // Through nginx over TLS, from two addresses: a whole game (with two processes, nginx
  // spreads the connections over them; a follower's reach the leader with a PROXY line
  // naming nginx, whose X-Forwarded-For the leader then believes).
  const auto ana = nginx.client("127.0.0.7");
  const auto ben = nginx.client("127.0.0.8");
  hello(*ana, "Ana");
  hello(*ben, "Ben");
  const std::int64_t table = create_table(*ana, kTwoPlayers)["id"];
  REQUIRE(request(*ben, "table.join", {{"table", table}})["type"] == "table.join.ok");
  std::vector<Json> pushes;
  REQUIRE(request(*ana, "table.start", {{"table", table}}, &pushes)["type"] == "table.start.ok");
  std::thread ben_plays([&] { play_to_end(*ben, table, 3); });
  const Json over = play_to_end(*ana, table, 4, pushes);
  ben_plays.join();
  CHECK(over.contains("result"));

  // The server saw the clients' own addresses, from X-Forwarded-For.
  const std::string logs = text_of(dir.path() / "first.log") +
                           (second ? text_of(dir.path() / "second.log") : std::string());
  CHECK(logs.find("websocket 127.0.0.7:") != std::string::npos);
  CHECK(logs.find("websocket 127.0.0.8:") != std::string::npos);
  // So the per-address limit on new identities (2 an hour here) counts each apart: Ana's
  // address has room for one more, then none; another address still has room.
  const auto again = nginx.client("127.0.0.7");
  hello(*again, "Ana again");
  const auto refused = nginx.client("127.0.0.7");
  CHECK(code_of(request(*refused, "hello", {{"protocol", 1}, {"name", "Ana thrice"}})) == "limit_reached");
  const auto cy = nginx.client("127.0.0.9");
  hello(*cy, "Cy");

  // Pages on the public origin may open WebSockets; pages elsewhere may not.
  CHECK(nginx.upgrade_status(nginx.public_origin()) == 101);
  CHECK(nginx.upgrade_status("https://elsewhere.example") == 403);

  // HTTPS reaches the server's HTTP side too.
  ConnectOptions tls = nginx.from("127.0.0.1");
  const HttpResponse health = nginx.get(nginx.https_port(), "/healthz", tls);
  CHECK(health.result() == http::status::ok);
  CHECK(Json::parse(health.body())["status"] == "ok");

  // Plain HTTP: a redirect to HTTPS, but for certbot's challenges, served from the webroot.
  const HttpResponse redirect = nginx.get(nginx.http_port(), "/games?x=1");
  CHECK(redirect.result() == http::status::moved_permanently);
  CHECK(std::string(redirect[http::field::location]) == "https://" + kDeployPublicName + "/games?x=1");
  deploy_write(nginx.webroot() / ".well-known" / "acme-challenge" / "token-42", "token-42.thumbprint");
  const HttpResponse challenge = nginx.get(nginx.http_port(), "/.well-known/acme-challenge/token-42");
  CHECK(challenge.result() == http::status::ok);
  CHECK(challenge.body() == "token-42.thumbprint");
}

TEST_CASE("The --check-config action passes the shipped configuration and names what is wrong in others, starting nothing",
          "[integration][settings][sqlite]") {
  TempDir dir;
  const std::filesystem::path good = deploy_config(dir);
  const Completed passed = deploy_check({"--check-config", good.string()});
  INFO(passed.err);
  CHECK(passed.exit_code == 0);
  CHECK(passed.out.find("configuration OK: " + good.string()) != std::string::npos);
  CHECK(passed.out.find("listening on") == std::string::npos);
  CHECK(deploy_check({"--config", good.string(), "--check-config"}).exit_code == 0);
  CHECK(deploy_check({"--check-config=" + good.string()}).exit_code == 0);
  // Nothing was made: no data folder, no database.
  CHECK_FALSE(std::filesystem::exists(dir.path() / "state"));

  const auto refused = [&](const std::string& replace, const std::string& with, int code, const std::string& named) {
    TempDir bad;
    const std::filesystem::path file = deploy_config(bad, replace, with);
    const Completed checked = deploy_check({"--check-config", file.string()});
    INFO(replace << " -> " << with << ": " << checked.out << checked.err);
    CHECK(checked.exit_code == code);
    CHECK(checked.err.find(named) != std::string::npos);
    CHECK(checked.out.find("configuration OK") == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(bad.path() / "state"));
  };
  refused("\"log_level\"", "\"log_levle\"", 2, "unknown key 'log_levle'");
  refused("\"port\": 8080", "\"port\": \"8080\"", 2, "port");
  refused("\"port\": 8080", "\"port\": 70000", 2, "port");
  refused("\"trusted_proxies\": [\"127.0.0.1\"]", "\"trusted_proxies\": 7", 2, "trusted_proxies");
  refused("\"log_level\": \"info\"", "\"smtp_ca_file\": \"/nonexistent/ca.pem\"", 1, "smtp_ca_file /nonexistent/ca.pem");

  // A data_dir that could not be made (a file is in its way).
  TempDir blocked;
  deploy_write(blocked.path() / "in-the-way", "");
  const std::filesystem::path file =
      deploy_config(blocked, "\"port\": 8080", "\"port\": 8080, \"database_file\": \"x.sqlite\"");
  const std::filesystem::path in_the_way = blocked.path() / "in-the-way" / "data";
  const Completed checked = deploy_check({"--check-config", file.string(), "--data-dir", in_the_way.string()});
  CHECK(checked.exit_code == 1);
  CHECK(checked.err.find("data_dir " + in_the_way.string()) != std::string::npos);

  // Two different files named at once is a mistake, not a choice.
  const Completed both = deploy_check({"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--check-config", good.string()});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("name different files") != std::string::npos);
}

}  // namespace elgrande::test
