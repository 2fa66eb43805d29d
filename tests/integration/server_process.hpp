#pragma once

// Runs the real elgrande-server binary as a child process and talks HTTP to it. Every
// wait is bounded, so a broken server fails a test instead of hanging the suite.

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "support/temp_dir.hpp"

namespace elgrande::test {

namespace http = boost::beast::http;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// How to start the program beyond its arguments. The limit and the user are set in the
// child before exec, so the test itself keeps its own.
struct SpawnOptions {
  std::optional<rlim_t> open_files_limit;  // RLIMIT_NOFILE (ulimit -n), soft and hard
  struct User {
    uid_t uid;
    gid_t gid;
  };
  std::optional<User> user;  // run as this user (needs a test run as root)
  std::string standard_input;  // what the program reads on its standard input (run_program)
  // Where the server's log (stderr) goes; empty: shared with the test (ServerProcess).
  std::filesystem::path log_file;
};

namespace detail {

// Owns one file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

struct Pipe {
  Fd read;
  Fd write;
};

// Close-on-exec, so a child only inherits the ends it is explicitly given.
inline Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe2");
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

// Starts a program (the server binary unless told); -1 for an output leaves it shared
// with this process.
inline pid_t spawn(const std::vector<std::string>& args, int stdout_fd, int stderr_fd,
                   const std::string& binary = ELGRANDE_SERVER_BINARY, const SpawnOptions& options = {},
                   int stdin_fd = -1) {
  // argv is built before fork(): the child may only make async-signal-safe calls.
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(binary.c_str()));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    if (stdin_fd >= 0) ::dup2(stdin_fd, STDIN_FILENO);
    if (stdout_fd >= 0) ::dup2(stdout_fd, STDOUT_FILENO);
    if (stderr_fd >= 0) ::dup2(stderr_fd, STDERR_FILENO);
    if (options.open_files_limit) {
      const rlimit limit{*options.open_files_limit, *options.open_files_limit};
      if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) ::_exit(126);
    }
    if (options.user) {
      // Groups first: once the user is dropped, they can no longer be changed.
      if (::setgroups(0, nullptr) != 0 || ::setgid(options.user->gid) != 0 || ::setuid(options.user->uid) != 0) {
        ::_exit(126);
      }
    }
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

// The exit code, or 128 + the signal number if a signal ended the process (as a shell
// reports it), so a crash or sanitizer abort never looks like success.
inline int exit_code(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return -1;
}

inline std::optional<int> wait_until(pid_t pid, Clock::time_point deadline) {
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return exit_code(status);
    if (done < 0 && errno != EINTR)
      throw std::system_error(errno, std::generic_category(), "waitpid");
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(10ms);
  }
}

inline int milliseconds_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::max<std::chrono::milliseconds::rep>(left.count(), 0));
}

// Appends what is readable on fd within the deadline; false at end of file or timeout.
inline bool read_some(int fd, std::string& into, Clock::time_point deadline) {
  pollfd ready{fd, POLLIN, 0};
  const int polled = ::poll(&ready, 1, milliseconds_until(deadline));
  if (polled < 0 && errno == EINTR) return true;
  if (polled <= 0) return false;
  char chunk[4096];
  const ssize_t got = ::read(fd, chunk, sizeof chunk);
  if (got < 0 && errno == EINTR) return true;
  if (got <= 0) return false;
  into.append(chunk, static_cast<std::size_t>(got));
  return true;
}

}  // namespace detail

// How a short-lived run of the server ended.
struct Completed {
  int exit_code;
  std::string out;
  std::string err;
};

// Runs a program to completion with these arguments and collects its output. Throws if it
// has not finished within the timeout.
inline Completed run_program(const std::string& binary, const std::vector<std::string>& args,
                             std::chrono::milliseconds timeout = 10s, const SpawnOptions& options = {}) {
  const auto deadline = Clock::now() + timeout;
  detail::Pipe out = detail::make_pipe();
  detail::Pipe err = detail::make_pipe();
  // Standard input is written whole before the start: it fits the pipe's buffer.
  detail::Pipe in = detail::make_pipe();
  if (::write(in.write.get(), options.standard_input.data(), options.standard_input.size()) !=
      static_cast<ssize_t>(options.standard_input.size())) {
    throw std::system_error(errno, std::generic_category(), "write standard input");
  }
  in.write.reset();
  const pid_t pid = detail::spawn(args, out.write.get(), err.write.get(), binary, options, in.read.get());
  out.write.reset();
  err.write.reset();
  in.read.reset();

  Completed completed{-1, {}, {}};
  // Both pipes are drained together so a chatty child cannot block on a full one.
  bool out_open = true;
  bool err_open = true;
  while ((out_open || err_open) && Clock::now() < deadline) {
    pollfd fds[2] = {{out_open ? out.read.get() : -1, POLLIN, 0},
                     {err_open ? err.read.get() : -1, POLLIN, 0}};
    if (::poll(fds, 2, detail::milliseconds_until(deadline)) <= 0) continue;
    if (out_open && fds[0].revents != 0) {
      out_open = detail::read_some(out.read.get(), completed.out, deadline);
    }
    if (err_open && fds[1].revents != 0) {
      err_open = detail::read_some(err.read.get(), completed.err, deadline);
    }
  }

  const std::optional<int> code = detail::wait_until(pid, deadline);
  if (!code) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw std::runtime_error(binary + " did not exit within the timeout");
  }
  completed.exit_code = *code;
  return completed;
}

// The server run to completion (for --help, bad command lines, --backup-to).
inline Completed run_to_exit(const std::vector<std::string>& args, std::chrono::milliseconds timeout = 10s,
                             const SpawnOptions& options = {}) {
  return run_program(ELGRANDE_SERVER_BINARY, args, timeout, options);
}

// A running server. The constructor returns once the server has announced its port;
// the destructor kills it if a test ended without stopping it.
class ServerProcess {
 public:
  explicit ServerProcess(const std::vector<std::string>& args,
                         std::chrono::milliseconds startup_timeout = 20s)
      : ServerProcess(args, SpawnOptions{}, startup_timeout) {}

  ServerProcess(const std::vector<std::string>& args, const SpawnOptions& options,
                std::chrono::milliseconds startup_timeout = 20s) {
    detail::Pipe out = detail::make_pipe();
    // Unless told otherwise, stderr (the log) stays shared with the test, so ctest shows
    // it on failure.
    detail::Fd log;
    if (!options.log_file.empty()) {
      log = detail::Fd(::open(options.log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
      if (log.get() < 0) throw std::system_error(errno, std::generic_category(), "open " + options.log_file.string());
    }
    pid_ = detail::spawn(args, out.write.get(), log.get(), ELGRANDE_SERVER_BINARY, options);
    out.write.reset();
    log.reset();
    stdout_ = std::move(out.read);
    try {
      wait_for_listening(Clock::now() + startup_timeout);
    } catch (...) {
      kill_and_reap();
      throw;
    }
  }

  ~ServerProcess() { kill_and_reap(); }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const std::string& address() const { return address_; }
  std::uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }

  void signal(int number) {
    if (pid_ > 0) ::kill(pid_, number);
  }

  // The exit code (128 + signal if killed), or nothing if still running at the timeout.
  std::optional<int> wait_for_exit(std::chrono::milliseconds timeout) {
    if (pid_ <= 0) return exit_code_;
    exit_code_ = detail::wait_until(pid_, Clock::now() + timeout);
    if (exit_code_) pid_ = -1;
    return exit_code_;
  }

 private:
  void wait_for_listening(Clock::time_point deadline) {
    static constexpr std::string_view kPrefix = "listening on ";
    std::string output;
    for (;;) {
      const std::size_t newline = output.find('\n');
      if (newline != std::string::npos) {
        const std::string line = output.substr(0, newline);
        output.erase(0, newline + 1);
        if (!line.starts_with(kPrefix)) continue;
        const std::string where = line.substr(kPrefix.size());
        const std::size_t colon = where.rfind(':');
        if (colon == std::string::npos) throw std::runtime_error("unexpected line: " + line);
        address_ = where.substr(0, colon);
        port_ = static_cast<std::uint16_t>(std::stoul(where.substr(colon + 1)));
        return;
      }
      if (!detail::read_some(stdout_.get(), output, deadline)) {
        throw std::runtime_error("elgrande-server exited or timed out before listening; stdout: " +
                                 output);
      }
    }
  }

  void kill_and_reap() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  pid_t pid_ = -1;
  detail::Fd stdout_;
  std::string address_;
  std::uint16_t port_ = 0;
  std::optional<int> exit_code_;
};

using HttpResponse = http::response<http::string_body>;

// Sends one request on a fresh connection and reads the answer, failing after timeout.
// (net_support.cpp)
HttpResponse send_http(const std::string& address, std::uint16_t port, http::request<http::string_body> request,
                       std::chrono::milliseconds timeout = 10s);

inline HttpResponse http_request(const ServerProcess& server, http::verb method,
                                 std::string_view target) {
  return send_http(server.address(), server.port(),
                   http::request<http::string_body>{method, target, 11});
}

}  // namespace elgrande::test
