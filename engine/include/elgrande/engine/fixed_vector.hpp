#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>

namespace elgrande {

// A vector with its capacity inside: keeps GameState and commands trivially copyable,
// so a state copy is one memcpy and a command never allocates.
template <typename T, std::size_t Capacity>
class FixedVector {
 public:
  FixedVector() = default;
  FixedVector(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }

  static constexpr std::size_t capacity() { return Capacity; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == Capacity; }

  void push_back(const T& item) {
    if (size_ == Capacity) throw std::length_error("FixedVector: capacity exceeded");
    items_[size_++] = item;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void erase_at(std::size_t index) {
    std::copy(items_.begin() + static_cast<std::ptrdiff_t>(index) + 1, end(),
              items_.begin() + static_cast<std::ptrdiff_t>(index));
    --size_;
  }

  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T& back() { return items_[size_ - 1]; }
  const T& back() const { return items_[size_ - 1]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

  friend bool operator==(const FixedVector& a, const FixedVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::array<T, Capacity> items_{};
  std::uint8_t size_ = 0;
};

}  // namespace elgrande
