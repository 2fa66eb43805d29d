#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace elgrande::server {

// The commit sequence (db::CommitSequence) kept beside a SQLite database as well, in
// `<database>.commits`, rewritten after each commit. SQLite drops a damaged frame of its
// write-ahead log and every frame after it without a word, and with them every commit they
// held; the database then holds fewer commits than the file recorded, which the start
// refuses (docs/persistence.md#lost-commits).
//
// Ordering: the file is written after the commit returned, so with `durability` full (the
// log synced at every commit) it never records a commit the disk does not hold. It is not
// synced on the way: after a power cut it may lag behind by the commits of the last few
// seconds, which can only hide a loss among them, never report one that did not happen.
// With `durability` normal a power cut may lose the last commits for real, and the file
// then says so.

// 32 bytes: "EGCOMMIT", the sequence (64 bits, little-endian), an FNV-1a checksum of both,
// and zeros: one write of one sector.
inline constexpr std::size_t kLedgerBytes = 32;
std::array<std::byte, kLedgerBytes> encode_ledger(std::int64_t sequence);
// Nothing for bytes that are not a ledger (too short, another magic, a bad checksum).
std::optional<std::int64_t> decode_ledger(std::span<const std::byte> bytes);

// What the start makes of the database's sequence against the file's.
enum class LedgerVerdict : std::uint8_t {
  sound,          // the database holds every commit the file recorded (or more: the file lagged)
  lost,           // fewer: committed data disappeared; the start is refused
  lost_accepted,  // fewer, and the operator accepts it (--accept-lost-commits)
};
LedgerVerdict judge_ledger(std::int64_t recorded, std::int64_t in_database, bool accept_lost);

class CommitLedger {
 public:
  // Opens the file, or makes it empty.
  explicit CommitLedger(std::filesystem::path file);
  ~CommitLedger();
  CommitLedger(const CommitLedger&) = delete;
  CommitLedger& operator=(const CommitLedger&) = delete;

  const std::filesystem::path& file() const { return file_; }
  // The file's bytes when opened: empty for a new file.
  const std::string& found() const { return found_; }

  // After each commit, on the storage thread: one write, no sync. A failed write is
  // logged (once until one succeeds) and otherwise ignored: the file then lags, which
  // hides losses but never invents one.
  void record(std::int64_t sequence) noexcept;
  // At start: written and synced, with the directory that holds it. Throws if it cannot be.
  void record_synced(std::int64_t sequence);

 private:
  std::filesystem::path file_;
  int fd_ = -1;
  std::string found_;
  bool failing_ = false;
};

}  // namespace elgrande::server
