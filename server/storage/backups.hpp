#pragma once

// Backups of a SQLite database on a schedule, each verified before it counts
// (docs/persistence.md#backups), and the verification on its own for --verify-backup.

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "ops/metrics.hpp"

namespace elgrande::server {

// What a backup file was found to be: sound (no problem) or damaged, and why.
struct BackupCheck {
  std::optional<std::string> problem;  // none: sound
  int schema_version = 0;
};

// Opens `file` read-only and checks every page (SQLite's quick_check) and every table's
// command log against its hash chain, as the server's start does. Never throws.
BackupCheck check_backup(const std::filesystem::path& file);

struct BackupSchedule {
  std::filesystem::path database;  // the SQLite file being served
  std::filesystem::path folder;    // where backups go; made if missing
  std::chrono::seconds every{0};
  unsigned keep = 7;  // verified backups kept; older ones are removed
};

// Takes a backup every `every` on a thread and a read connection of its own, so that no
// I/O thread, strand or the storage writer ever waits for one: written as NAME.partial,
// verified (check_backup), then renamed to `<stem>-<UTC time>Z<extension>`, which sorts by
// time; only then are verified backups beyond `keep` removed. One that fails verification
// is kept as NAME.bad and logged; it never causes a good one to be removed.
class Backups {
 public:
  Backups(BackupSchedule schedule, std::shared_ptr<Metrics> metrics);
  ~Backups();  // stop()
  Backups(const Backups&) = delete;
  Backups& operator=(const Backups&) = delete;

  // Ends the thread; a backup under way finishes first. Idempotent.
  void stop();

 private:
  void take();
  void prune();

  BackupSchedule schedule_;
  std::shared_ptr<Metrics> metrics_;
  std::jthread thread_;
};

}  // namespace elgrande::server
