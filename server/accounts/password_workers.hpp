#pragma once

#include <atomic>
#include <boost/asio/thread_pool.hpp>
#include <cstddef>
#include <functional>

namespace elgrande::server {

// Threads of their own for password hashing: an Argon2id hash takes tens of milliseconds
// and megabytes by design, far too long for an I/O thread or a table's strand. A burst of
// sign-ins waits here, in order; past `max_waiting` jobs, more are refused at once
// instead of queueing for minutes.
class PasswordWorkers {
 public:
  PasswordWorkers(std::size_t threads, std::size_t max_waiting);
  ~PasswordWorkers();  // stop()
  PasswordWorkers(const PasswordWorkers&) = delete;
  PasswordWorkers& operator=(const PasswordWorkers&) = delete;

  // Queues `job`; false if too many wait already.
  bool post(std::function<void()> job);
  // Finishes the jobs under way, drops the rest, joins the threads. Idempotent.
  void stop();

 private:
  boost::asio::thread_pool pool_;
  const std::size_t max_waiting_;
  std::atomic<std::size_t> waiting_{0};
};

}  // namespace elgrande::server
