#include "storage/commit_ledger.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace elgrande::server {
namespace {

constexpr std::string_view kMagic = "EGCOMMIT";
constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

std::uint64_t checksum(std::span<const std::byte> bytes) {
  std::uint64_t hash = kFnvOffset;
  for (const std::byte b : bytes) hash = (hash ^ static_cast<std::uint8_t>(b)) * kFnvPrime;
  return hash;
}

void put(std::span<std::byte> into, std::uint64_t value) {
  for (std::size_t i = 0; i < 8; ++i) into[i] = static_cast<std::byte>(value >> (8 * i));
}

std::uint64_t get(std::span<const std::byte> from) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(from[i]) << (8 * i);
  return value;
}

}  // namespace

std::array<std::byte, kLedgerBytes> encode_ledger(std::int64_t sequence) {
  std::array<std::byte, kLedgerBytes> bytes{};
  std::memcpy(bytes.data(), kMagic.data(), kMagic.size());
  put(std::span(bytes).subspan(8, 8), static_cast<std::uint64_t>(sequence));
  put(std::span(bytes).subspan(16, 8), checksum(std::span(bytes).first(16)));
  return bytes;
}

std::optional<std::int64_t> decode_ledger(std::span<const std::byte> bytes) {
  if (bytes.size() != kLedgerBytes || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) return std::nullopt;
  if (get(bytes.subspan(16, 8)) != checksum(bytes.first(16))) return std::nullopt;
  const auto sequence = static_cast<std::int64_t>(get(bytes.subspan(8, 8)));
  if (sequence < 0) return std::nullopt;
  return sequence;
}

LedgerVerdict judge_ledger(std::int64_t recorded, std::int64_t in_database, bool accept_lost) {
  if (in_database >= recorded) return LedgerVerdict::sound;
  return accept_lost ? LedgerVerdict::lost_accepted : LedgerVerdict::lost;
}

CommitLedger::CommitLedger(std::filesystem::path file) : file_(std::move(file)) {
  fd_ = ::open(file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open " + file_.string() + ": " + std::strerror(errno));
  char buffer[kLedgerBytes + 1];
  const ssize_t got = ::pread(fd_, buffer, sizeof buffer, 0);
  if (got < 0) {
    const int error = errno;
    ::close(fd_);
    throw std::runtime_error("cannot read " + file_.string() + ": " + std::strerror(error));
  }
  found_.assign(buffer, static_cast<std::size_t>(got));
}

CommitLedger::~CommitLedger() { ::close(fd_); }

void CommitLedger::record(std::int64_t sequence) noexcept {
  const auto bytes = encode_ledger(sequence);
  if (::pwrite(fd_, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size())) {
    if (failing_) spdlog::info("the commit sequence is written to {} again", file_.string());
    failing_ = false;
    return;
  }
  if (!failing_) {
    spdlog::warn("cannot write the commit sequence to {}: {}; commits lost before the next start may go unnoticed",
                 file_.string(), std::strerror(errno));
  }
  failing_ = true;
}

void CommitLedger::record_synced(std::int64_t sequence) {
  const auto bytes = encode_ledger(sequence);
  if (::pwrite(fd_, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size()) ||
      ::ftruncate(fd_, kLedgerBytes) != 0 || ::fdatasync(fd_) != 0) {
    throw std::runtime_error("cannot write the commit sequence to " + file_.string() + ": " + std::strerror(errno));
  }
  // A new file's name must outlive a power cut too.
  const std::filesystem::path directory = file_.has_parent_path() ? file_.parent_path() : ".";
  const int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace elgrande::server
