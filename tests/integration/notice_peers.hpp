#pragma once

// The real peers of the notice tests, on loopback: an SMTP server (Debian's aiosmtpd,
// keeping every mail it accepts in a Maildir, read back through Python's own MIME parser,
// read_maildir.py, never ours), and a push service (tests/fixtures/webpush/receiver.mjs:
// Node's crypto checks the VAPID signatures and http_ece decrypts the payloads).

#include <netinet/in.h>
#include <sys/socket.h>

#include <nlohmann/json.hpp>
#include <fstream>
#include <regex>

#include "server_process.hpp"

namespace elgrande::test {

// A loopback TCP port nothing listens on at the moment of asking.
inline std::uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    throw std::system_error(errno, std::generic_category(), "finding a free port");
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

inline bool accepts_connections(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return connected;
}

class SmtpServer {
 public:
  // How the relay talks: plain, STARTTLS required, or TLS from the first byte (SMTPS).
  enum class Tls { none, starttls, implicit };
  struct Certificate {
    std::filesystem::path cert;
    std::filesystem::path key;
  };

  // On `port` (a free one if 0), keeping mail under `maildir`.
  explicit SmtpServer(std::filesystem::path maildir, std::uint16_t port = 0, Tls tls = Tls::none,
                      const Certificate& certificate = {})
      : maildir_(std::move(maildir)), port_(port ? port : free_port()) {
    for (const char* part : {"tmp", "new", "cur"}) std::filesystem::create_directories(maildir_ / part);
    std::vector<std::string> args{"-m", "aiosmtpd", "-n", "-l", "127.0.0.1:" + std::to_string(port_)};
    if (tls == Tls::starttls) args.insert(args.end(), {"--tlscert", certificate.cert, "--tlskey", certificate.key});
    if (tls == Tls::implicit) args.insert(args.end(), {"--smtpscert", certificate.cert, "--smtpskey", certificate.key});
    args.insert(args.end(), {"-c", "aiosmtpd.handlers.Mailbox", maildir_.string()});
    pid_ = detail::spawn(args, -1, -1, "/usr/bin/python3");
    const auto deadline = Clock::now() + 20s;
    while (!accepts_connections(port_)) {
      if (Clock::now() > deadline) throw std::runtime_error("aiosmtpd did not start");
      std::this_thread::sleep_for(20ms);
    }
  }
  ~SmtpServer() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  SmtpServer(const SmtpServer&) = delete;
  SmtpServer& operator=(const SmtpServer&) = delete;

  std::uint16_t port() const { return port_; }

  // Every mail so far, oldest first, as read_maildir.py shows it.
  nlohmann::json mails() const {
    const Completed read = run_program("/usr/bin/python3", {ELGRANDE_SOURCE_DIR "/tests/integration/read_maildir.py",
                                                            maildir_.string()});
    if (read.exit_code != 0) throw std::runtime_error("read_maildir.py: " + read.err);
    return nlohmann::json::parse(read.out);
  }

  // Waits until at least `count` mails have come; all of them.
  nlohmann::json wait_for(std::size_t count, std::chrono::milliseconds timeout = 20s) const {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      nlohmann::json all = mails();
      if (all.size() >= count || Clock::now() > deadline) return all;
      std::this_thread::sleep_for(100ms);
    }
  }

 private:
  std::filesystem::path maildir_;
  std::uint16_t port_;
  pid_t pid_ = -1;
};

// A push service with one subscription per script of answers ("429,201": Too Many Requests,
// then accepted; "410": gone), each message it received a line of its log.
class PushService {
 public:
  PushService(const std::filesystem::path& log, const std::vector<std::string>& scripts) : log_(log) {
    detail::Pipe out = detail::make_pipe();
    std::vector<std::string> args{ELGRANDE_SOURCE_DIR "/tests/fixtures/webpush/receiver.mjs", log.string()};
    args.insert(args.end(), scripts.begin(), scripts.end());
    pid_ = detail::spawn(args, out.write.get(), -1, ELGRANDE_NODE);
    out.write.reset();
    std::string line;
    const auto deadline = Clock::now() + 20s;
    while (line.find('\n') == std::string::npos) {
      if (!detail::read_some(out.read.get(), line, deadline)) throw std::runtime_error("the push service did not start");
    }
    const nlohmann::json started = nlohmann::json::parse(line.substr(0, line.find('\n')));
    subscriptions_ = started["subscriptions"];
  }
  ~PushService() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  PushService(const PushService&) = delete;
  PushService& operator=(const PushService&) = delete;

  // As PushSubscription.toJSON() gives them: {"endpoint", "keys": {"p256dh", "auth"}}.
  const nlohmann::json& subscriptions() const { return subscriptions_; }

  nlohmann::json received() const {
    nlohmann::json all = nlohmann::json::array();
    std::ifstream in(log_);
    for (std::string line; std::getline(in, line);) all.push_back(nlohmann::json::parse(line));
    return all;
  }
  nlohmann::json wait_for(std::size_t count, std::chrono::milliseconds timeout = 20s) const {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      nlohmann::json all = received();
      if (all.size() >= count || Clock::now() > deadline) return all;
      std::this_thread::sleep_for(50ms);
    }
  }

 private:
  std::filesystem::path log_;
  pid_t pid_ = -1;
  nlohmann::json subscriptions_;
};

// The server's arguments for mail through `smtp` (a relay on loopback, no TLS), links under
// http://play.example.org, a turn worth a notice after 1 s away, and retries after 1 s.
inline std::vector<std::string> mail_args(std::vector<std::string> args, std::uint16_t smtp_port) {
  args.insert(args.end(), {"--smtp-host", "127.0.0.1", "--smtp-port", std::to_string(smtp_port), "--smtp-security",
                           "none", "--smtp-from", "El Grande <elgrande@example.org>", "--public-url",
                           "http://play.example.org", "--notice-turn-after-seconds", "1", "--notice-retry-seconds",
                           "1"});
  return args;
}

// The token at the end of a link under http://play.example.org/#/PAGE/.
inline std::string token_in(const nlohmann::json& mail, const std::string& page) {
  const std::regex link("http://play\\.example\\.org/#/" + page + "/([0-9a-f]+)");
  std::smatch found;
  const std::string text = mail["text"];
  if (!std::regex_search(text, found, link)) return {};
  return found[1];
}

}  // namespace elgrande::test
