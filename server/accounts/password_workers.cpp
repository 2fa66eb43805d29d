#include "accounts/password_workers.hpp"

#include <boost/asio/post.hpp>

namespace elgrande::server {

PasswordWorkers::PasswordWorkers(std::size_t threads, std::size_t max_waiting)
    : pool_(threads), max_waiting_(max_waiting) {}

PasswordWorkers::~PasswordWorkers() { stop(); }

bool PasswordWorkers::post(std::function<void()> job) {
  if (waiting_.fetch_add(1, std::memory_order_relaxed) >= max_waiting_) {
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  boost::asio::post(pool_, [this, job = std::move(job)] {
    job();
    waiting_.fetch_sub(1, std::memory_order_relaxed);
  });
  return true;
}

void PasswordWorkers::stop() {
  pool_.stop();
  pool_.join();
}

}  // namespace elgrande::server
