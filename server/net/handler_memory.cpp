#include "net/handler_memory.hpp"

#include <array>
#include <bit>
#include <mutex>

namespace elgrande::server::handler_memory {
namespace {

// Size classes of 256 bytes to 8 KB, in powers of two; larger blocks are not kept.
constexpr std::size_t kSmallestClass = 256;
constexpr int kClasses = 6;
// Each thread keeps up to kKept blocks a class. An operation often ends on another I/O
// thread than the one that started it, so one thread frees what the other takes: a full
// thread passes kBatch blocks to a pool both share, and an empty one takes them from there.
// The pool keeps a few batches a class: what a burst frees beyond them (a thousand hellos
// answered at once) goes back to the heap, where 1,024 blocks kept 1 MB for good.
constexpr int kKept = 32;
constexpr int kBatch = 16;
constexpr int kPooled = 128;

int size_class(std::size_t bytes) {
  if (bytes <= kSmallestClass) return 0;
  return std::bit_width(bytes - 1) - std::bit_width(kSmallestClass - 1);
}

std::size_t class_bytes(int size_class) { return kSmallestClass << size_class; }

struct FreeBlock {
  FreeBlock* next;
};

// A list of free blocks of one class.
struct FreeList {
  FreeBlock* head = nullptr;
  int count = 0;

  void push(void* memory) noexcept {
    head = new (memory) FreeBlock{head};
    ++count;
  }
  FreeBlock* pop() noexcept {
    FreeBlock* block = head;
    head = block->next;
    --count;
    return block;
  }
  // Moves up to n blocks to `to`.
  void move(FreeList& to, int n) noexcept {
    for (; n > 0 && head; --n) to.push(pop());
  }
  void release(int size_class) noexcept {
    while (head) ::operator delete(pop(), class_bytes(size_class));
  }
};

class SharedPool {
 public:
  SharedPool() = default;
  SharedPool(const SharedPool&) = delete;
  SharedPool& operator=(const SharedPool&) = delete;
  ~SharedPool() {
    for (int c = 0; c < kClasses; ++c) lists_[c].release(c);
  }

  void take(int c, FreeList& into) {
    const std::lock_guard guard(lock_);
    lists_[c].move(into, kBatch);
  }

  void give(int c, FreeList& from) {
    const std::lock_guard guard(lock_);
    if (lists_[c].count < kPooled) return from.move(lists_[c], kBatch);
    for (int n = 0; n < kBatch; ++n) ::operator delete(from.pop(), class_bytes(c));
  }

 private:
  std::mutex lock_;
  std::array<FreeList, kClasses> lists_;
};

// Destroyed after every thread's cache: a program's threads end before its statics.
SharedPool pool;

class ThreadCache {
 public:
  ThreadCache() = default;
  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;
  ~ThreadCache() {
    for (int c = 0; c < kClasses; ++c) lists_[c].release(c);
    gone_ = true;
  }

  void* take(int c) {
    FreeList& list = lists_[c];
    if (!list.head && !gone_) pool.take(c, list);
    if (!list.head) return ::operator new(class_bytes(c));
    return list.pop();
  }

  void give(int c, void* memory) noexcept {
    // A block freed on this thread after its cache is gone (an operation destroyed late
    // in the thread's exit) goes straight back to the heap.
    if (gone_) return ::operator delete(memory, class_bytes(c));
    FreeList& list = lists_[c];
    if (list.count == kKept) pool.give(c, list);
    list.push(memory);
  }

 private:
  std::array<FreeList, kClasses> lists_;
  bool gone_ = false;
};

// Under AddressSanitizer every block goes back to the heap, so a use after free is still
// caught rather than hidden by a block handed out again.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRecycle = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kRecycle = false;
#else
constexpr bool kRecycle = true;
#endif
#else
constexpr bool kRecycle = true;
#endif

thread_local ThreadCache cache;

}  // namespace

void* allocate(std::size_t bytes) {
  const int c = size_class(bytes);
  if (!kRecycle || c >= kClasses) return ::operator new(bytes);
  return cache.take(c);
}

void deallocate(void* block, std::size_t bytes) noexcept {
  const int c = size_class(bytes);
  if (!kRecycle || c >= kClasses) return ::operator delete(block, bytes);
  cache.give(c, block);
}

}  // namespace elgrande::server::handler_memory
