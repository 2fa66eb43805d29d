#include "net/connection_limit.hpp"

#include <algorithm>

namespace elgrande::server {

ConnectionLimit::Slot::~Slot() {
  if (limit_ && !overflow_) limit_->open_.fetch_sub(1, std::memory_order_relaxed);  // limit_ is null once moved from
}

ConnectionLimit::Slot ConnectionLimit::admit() {
  // Only the listener admits, one connection at a time, so reading then adding is exact.
  if (open_.load(std::memory_order_relaxed) >= limit_) return Slot(shared_from_this(), true);
  open_.fetch_add(1, std::memory_order_relaxed);
  return Slot(shared_from_this(), false);
}

std::size_t connections_allowed(std::size_t descriptor_limit) {
  // The database (a writer, a reader, their journals), the web client's files, the webhook
  // and a backup use a few descriptors each: a thirty-second of the limit, at least 64.
  const std::size_t reserve = std::max<std::size_t>(64, descriptor_limit / 32) + ConnectionLimit::kOverflow;
  return descriptor_limit > reserve ? descriptor_limit - reserve : 1;
}

}  // namespace elgrande::server
