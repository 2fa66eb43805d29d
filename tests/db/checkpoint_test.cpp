// SQLite's checkpoints, run beside the commits rather than inside them: once they
// are handed off no commit copies the log, another connection does, the log then starts
// afresh, and past a ceiling the writer copies it after all. The server's Checkpointer
// keeps the log short while a writer commits.

#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>
#include <vector>

#include "elgrande/db/sqlite.hpp"
#include "storage/checkpointer.hpp"
#include "support/temp_dir.hpp"

using namespace elgrande;
using namespace std::chrono_literals;

namespace {

// A commit of a few pages: a blob that overflows onto pages of its own.
void commit_filler(db::SqliteDatabase& writer, int bytes = 6000) {
  writer.execute("INSERT INTO filler VALUES (randomblob(" + std::to_string(bytes) + "))");
}

std::int64_t rows(db::SqliteDatabase& database) {
  db::Statement count = database.prepare("SELECT count(*) FROM filler");
  count.step();
  return count.integer(0);
}

}  // namespace

TEST_CASE("with checkpoints handed off no commit copies the log back: another connection does, and the log "
          "then starts afresh",
          "[sqlite]") {
  test::TempDir dir;
  const auto file = dir.path() / "test.sqlite";
  db::SqliteDatabase writer(file);
  writer.execute("CREATE TABLE filler (bytes BLOB)");
  std::vector<int> reported;
  writer.hand_off_checkpoints([&](int pages) { reported.push_back(pages); }, 1'000'000);

  constexpr int kCommits = 600;
  for (int i = 0; i < kCommits; ++i) commit_filler(writer);
  REQUIRE(reported.size() == kCommits);
  // SQLite alone would have copied the log back at 1,000 pages and begun it again.
  CHECK(std::is_sorted(reported.begin(), reported.end()));
  CHECK(reported.back() > 1000);

  db::SqliteDatabase other(file, db::OpenOptions{.create = false});
  const auto done = other.checkpoint();
  CHECK(done.log_pages == reported.back());
  CHECK(done.copied_pages == done.log_pages);
  commit_filler(writer);
  CHECK(reported.back() < 10);  // the log begun again
  CHECK(rows(other) == kCommits + 1);
}

TEST_CASE("a checkpoint that cannot write fails with a typed error, and the log and all it holds stay", "[sqlite]") {
  test::TempDir dir;
  const auto file = dir.path() / "test.sqlite";
  db::SqliteDatabase writer(file);
  writer.execute("CREATE TABLE filler (bytes BLOB)");
  writer.hand_off_checkpoints([](int) {}, 1'000'000);
  for (int i = 0; i < 300; ++i) commit_filler(writer);

  // Past the file-size limit a write fails (EFBIG, the signal ignored): the database file
  // cannot grow to take the log's pages.
  db::SqliteDatabase other(file, db::OpenOptions{.create = false});
  const auto ignored = std::signal(SIGXFSZ, SIG_IGN);
  rlimit before{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &before) == 0);
  rlimit limited = before;
  limited.rlim_cur = std::filesystem::file_size(file);
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
  bool failed_transiently = false;
  try {
    other.checkpoint();
  } catch (const db::Error& error) {
    failed_transiently = error.transient();
  }
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &before) == 0);
  std::signal(SIGXFSZ, ignored);
  CHECK(failed_transiently);

  const auto done = other.checkpoint();  // the disk takes it again
  CHECK(done.log_pages > 0);
  CHECK(done.copied_pages == done.log_pages);
  CHECK(rows(other) == 300);
}

TEST_CASE("with checkpoints handed off and no one copying, the writer copies the log itself past the ceiling",
          "[sqlite]") {
  test::TempDir dir;
  db::SqliteDatabase writer(dir.path() / "test.sqlite");
  writer.execute("CREATE TABLE filler (bytes BLOB)");
  std::vector<int> reported;
  constexpr int kCeiling = 200;
  writer.hand_off_checkpoints([&](int pages) { reported.push_back(pages); }, kCeiling);
  for (int i = 0; i < 300; ++i) commit_filler(writer);
  CHECK(*std::max_element(reported.begin(), reported.end()) < kCeiling + 10);
  CHECK_FALSE(std::is_sorted(reported.begin(), reported.end()));  // begun again, more than once
  CHECK(rows(writer) == 300);
}

TEST_CASE("the checkpointer keeps SQLite's log short while the writer commits, and the writer outlives it",
          "[sqlite]") {
  test::TempDir dir;
  const auto file = dir.path() / "test.sqlite";
  auto writer = std::make_unique<db::SqliteDatabase>(file);
  writer->execute("CREATE TABLE filler (bytes BLOB)");
  auto metrics = std::make_shared<server::Metrics>();
  auto checkpointer = std::make_unique<server::Checkpointer>(*writer, file.string(), db::Durability::full, metrics);

  // Rounds of ~300 pages with a pause between them, as commits under load leave (the
  // commit delay): 6,000 pages in all, six times what the log holds before it is copied.
  constexpr int kRounds = 20;
  constexpr int kCommitsPerRound = 30;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kCommitsPerRound; ++i) commit_filler(*writer, 40'000);
    std::this_thread::sleep_for(50ms);
  }
  CHECK(metrics->db_checkpoints > 0);
  // The log's file never shrinks: its size is the most it ever held. Copied by no one, it
  // would hold all 6,000 pages; copied by SQLite inside the commits, about 1,000.
  const auto most_pages = std::filesystem::file_size(file.string() + "-wal") / 4096;
  INFO("the log held at most " << most_pages << " pages");
  CHECK(most_pages < 3 * server::Checkpointer::kLogPages);
  CHECK(most_pages < static_cast<std::uintmax_t>(server::Checkpointer::kCeiling));

  checkpointer.reset();
  commit_filler(*writer);  // the hook outlives the checkpointer
  CHECK(rows(*writer) == kRounds * kCommitsPerRound + 1);
}
