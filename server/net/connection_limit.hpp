#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <utility>

namespace elgrande::server {

// How many client connections are open against how many may be, so that the process
// never runs out of file descriptors: what it keeps back serves the database, the web
// client's files, the webhook and health checks. A connection beyond the limit is in the
// overflow: it is answered one probe (/healthz, /readyz, /metrics) or a 503, so a process
// manager still hears from a full server, and the listener keeps at most kOverflow of
// them, closing the oldest for each one more.
class ConnectionLimit : public std::enable_shared_from_this<ConnectionLimit> {
 public:
  static constexpr std::size_t kOverflow = 16;

  // Held by a connection while it is open; gives its place back when destroyed.
  class Slot {
   public:
    Slot(Slot&& other) noexcept = default;
    Slot& operator=(Slot&& other) = delete;
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot();

    bool overflow() const { return overflow_; }

   private:
    friend class ConnectionLimit;
    Slot(std::shared_ptr<ConnectionLimit> limit, bool overflow) : limit_(std::move(limit)), overflow_(overflow) {}

    std::shared_ptr<ConnectionLimit> limit_;
    bool overflow_;
  };

  explicit ConnectionLimit(std::size_t limit) : limit_(limit) {}

  // A place for a new connection: a full one while there are any, else one in the overflow.
  Slot admit();

  std::size_t open() const { return open_.load(std::memory_order_relaxed); }
  std::size_t limit() const { return limit_; }

 private:
  const std::size_t limit_;
  std::atomic<std::size_t> open_{0};  // overflow not included
};

// The connection limit a descriptor limit allows: what is left after a reserve of an
// eighth (at least 64) for everything else the server opens.
std::size_t connections_allowed(std::size_t descriptor_limit);

}  // namespace elgrande::server
