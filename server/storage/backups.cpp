#include "storage/backups.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <system_error>
#include <utility>
#include <vector>

#include "elgrande/db/database.hpp"
#include "elgrande/db/log_check.hpp"
#include "common/wait_or_stop.hpp"

namespace elgrande::server {
namespace {

// "20261128T052000Z": UTC to the second, so that names sort by time.
std::string utc_stamp(std::chrono::system_clock::time_point when) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  const std::size_t length = std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return std::string(text, length);
}

// What fsync(2) keeps: the file's bytes, or a directory's entries (a rename).
void sync_path(const std::filesystem::path& path, bool directory) {
  const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot open " + path.string());
  const int synced = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (synced != 0) throw std::system_error(error, std::generic_category(), "cannot sync " + path.string());
}

}  // namespace

BackupCheck check_backup(const std::filesystem::path& file) {
  BackupCheck check;
  try {
    std::error_code missing;
    if (!std::filesystem::is_regular_file(file, missing)) {
      check.problem = "no such file";
      return check;
    }
    const std::unique_ptr<db::Database> database =
        db::open(file.string(), db::OpenOptions{.create = false, .read_only = true});
    check.schema_version = database->user_version();
    if (auto damage = database->integrity_problem()) {
      check.problem = "its pages are damaged: " + *damage;
      return check;
    }
    const std::vector<db::DamagedLog> damaged = db::damaged_logs(*database);
    if (!damaged.empty()) {
      check.problem = "the command log of table " + std::to_string(damaged.front().table) + " (" +
                      damaged.front().status + ") is damaged: " + damaged.front().damage;
      if (damaged.size() > 1) check.problem->append(", and " + std::to_string(damaged.size() - 1) + " more");
    }
  } catch (const std::exception& error) {
    check.problem = error.what();
  }
  return check;
}

Backups::Backups(BackupSchedule schedule, std::shared_ptr<Metrics> metrics)
    : schedule_(std::move(schedule)), metrics_(std::move(metrics)) {
  std::filesystem::create_directories(schedule_.folder);
  // A copy a crash cut short never counted; its name would never be written again.
  const std::string prefix = schedule_.database.stem().string() + "-";
  std::error_code failed;
  for (const auto& entry : std::filesystem::directory_iterator(schedule_.folder, failed)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with(prefix) && file.ends_with(".partial")) std::filesystem::remove(entry.path(), failed);
  }
  thread_ = std::jthread([this](std::stop_token stop) {
    while (wait_or_stop(stop, schedule_.every)) take();
  });
}

Backups::~Backups() { stop(); }

void Backups::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

void Backups::take() {
  const auto started = std::chrono::steady_clock::now();
  const std::string name = schedule_.database.stem().string() + "-" + utc_stamp(std::chrono::system_clock::now()) +
                           schedule_.database.extension().string();
  const std::filesystem::path target = schedule_.folder / name;
  const std::filesystem::path partial = schedule_.folder / (name + ".partial");
  std::error_code ignored;
  if (std::filesystem::exists(target, ignored)) return;  // one this second already
  std::optional<std::string> problem;
  try {
    std::filesystem::remove(partial, ignored);  // left by a crash
    {
      // A read connection of its own: VACUUM INTO reads one consistent snapshot while the
      // writer goes on committing (write-ahead logging).
      const std::unique_ptr<db::Database> database =
          db::open(schedule_.database.string(), db::OpenOptions{.create = false, .read_only = true});
      database->backup_to(partial);
    }
    sync_path(partial, false);
    problem = check_backup(partial).problem;
  } catch (const std::exception& error) {
    metrics_->backups_failed.fetch_add(1, std::memory_order_relaxed);
    std::filesystem::remove(partial, ignored);
    spdlog::error("backup {} failed: {}", target.string(), error.what());
    return;
  }
  if (problem) {
    metrics_->backups_failed.fetch_add(1, std::memory_order_relaxed);
    const std::filesystem::path bad = schedule_.folder / (name + ".bad");
    std::filesystem::rename(partial, bad, ignored);
    spdlog::error("backup {} failed verification and is kept aside as {}: {}; older backups are kept", name,
                  bad.string(), *problem);
    return;
  }
  try {
    std::filesystem::rename(partial, target);
    sync_path(schedule_.folder, true);
  } catch (const std::exception& error) {
    metrics_->backups_failed.fetch_add(1, std::memory_order_relaxed);
    std::filesystem::remove(partial, ignored);
    spdlog::error("backup {} failed: {}", target.string(), error.what());
    return;
  }
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  metrics_->backups_taken.fetch_add(1, std::memory_order_relaxed);
  metrics_->last_backup_unix_seconds.store(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count(),
      std::memory_order_relaxed);
  spdlog::info("backed up the database to {} ({} bytes, verified) in {} ms", target.string(),
               std::filesystem::file_size(target, ignored), took.count());
  prune();
}

// Only names this schedule writes count: "<stem>-YYYYMMDDTHHMMSSZ<extension>".
void Backups::prune() {
  const std::string prefix = schedule_.database.stem().string() + "-";
  const std::string suffix = schedule_.database.extension().string();
  const std::size_t length = prefix.size() + std::string("20261128T052000Z").size() + suffix.size();
  std::vector<std::filesystem::path> verified;
  std::error_code failed;
  for (const auto& entry : std::filesystem::directory_iterator(schedule_.folder, failed)) {
    const std::string file = entry.path().filename().string();
    if (file.size() == length && file.starts_with(prefix) && file.ends_with(suffix)) verified.push_back(entry.path());
  }
  if (failed) {
    spdlog::error("cannot list the backups in {}: {}", schedule_.folder.string(), failed.message());
    return;
  }
  std::sort(verified.begin(), verified.end());
  if (verified.size() <= schedule_.keep) return;
  for (std::size_t i = 0; i + schedule_.keep < verified.size(); ++i) {
    std::error_code ignored;
    if (std::filesystem::remove(verified[i], ignored)) spdlog::info("removed the old backup {}", verified[i].string());
  }
}

}  // namespace elgrande::server
