#pragma once

#include <cstddef>
#include <new>

namespace elgrande::server {

// Memory for the operations a WebSocket connection starts, reused within each thread.
//
// Asio keeps each thread's last two freed handler blocks for reuse, two slots shared by
// every handler, handed to the first request that fits: a small handler takes the large
// block, and the large request after it finds none. The operation behind one WebSocket
// write is large (1,272 bytes: Asio's socket operation holding Beast's frame as a 64-entry
// buffer array, and the chain of handlers around it), so nearly every frame sent cost a
// malloc and a free past glibc's per-thread cache, with its fast bins consolidated each
// time: 4.4% of the server's CPU under load (docs/performance.md). Bound to a completion
// handler (`net::bind_allocator`), this allocator serves the whole chain's operations
// from per-thread free lists by size class.
namespace handler_memory {
void* allocate(std::size_t bytes);
void deallocate(void* block, std::size_t bytes) noexcept;
}  // namespace handler_memory

template <typename T>
class HandlerAllocator {
 public:
  using value_type = T;

  HandlerAllocator() noexcept = default;
  template <typename U>
  HandlerAllocator(const HandlerAllocator<U>&) noexcept {}  // NOLINT: rebinding converts implicitly

  T* allocate(std::size_t n) {
    if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{alignof(T)}));
    } else {
      return static_cast<T*>(handler_memory::allocate(n * sizeof(T)));
    }
  }

  void deallocate(T* block, std::size_t n) noexcept {
    if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      ::operator delete(block, std::align_val_t{alignof(T)});
    } else {
      handler_memory::deallocate(block, n * sizeof(T));
    }
  }

  template <typename U>
  bool operator==(const HandlerAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace elgrande::server
