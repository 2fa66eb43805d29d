// What the start checks beside the restore: every row of every command log against its
// hash chain (a damaged row before a game's snapshot, or in a finished game's log, which
// a restore never reads), and the commit sequence counted with every commit and kept in a
// file beside the database.

#include <catch2/catch.hpp>
#include <array>
#include <cstddef>
#include <future>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "elgrande/db/commit_sequence.hpp"
#include "elgrande/db/log_check.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/protocol/codec.hpp"
#include "storage/commit_ledger.hpp"
#include "storage/storage.hpp"
#include "support/temp_dir.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TempDir;
using elgrande::test::TestDatabase;

namespace {

// Rows of a log as the server chains them: seq, seat, command, source, time.
struct Row {
  std::int64_t seq;
  int seat;
  std::string command;
  std::int64_t time;
};

std::vector<Row> rows(int count) {
  std::vector<Row> made;
  for (int i = 1; i <= count; ++i) made.push_back({i, i % 3, "{\"pass\":" + std::to_string(i) + "}", 1000 + i});
  return made;
}

// The chain stored with each row, and the head after the last.
std::vector<std::int64_t> chains(const std::vector<Row>& log) {
  std::vector<std::int64_t> chain;
  std::int64_t previous = 0;
  for (const Row& row : log) {
    previous = db::log_chain(previous, row.seq, row.seat, row.command, "player", row.time);
    chain.push_back(previous);
  }
  return chain;
}

std::optional<std::string> damage(const std::vector<Row>& log, const std::vector<std::int64_t>& stored,
                                  std::optional<std::int64_t> length, std::int64_t head) {
  db::LogChainCheck check(length, head);
  for (std::size_t i = 0; i < log.size(); ++i) {
    check.row(log[i].seq, log[i].seat, log[i].command, "player", log[i].time, stored[i]);
  }
  return check.damage();
}

db::TableRecord table(std::int64_t id, const Options& options, std::string status) {
  db::TableRecord record;
  record.id = id;
  record.name = "Table " + std::to_string(id);
  record.host = 1;
  record.status = std::move(status);
  record.options = protocol::to_json(options);
  record.seed = 5;
  record.seats.resize(static_cast<std::size_t>(options.players));
  record.seats[0].kind = "human";
  record.seats[0].player = 1;
  for (std::size_t s = 1; s < record.seats.size(); ++s) record.seats[s].kind = "bot";
  return record;
}

}  // namespace

TEST_CASE("a log's chain check names the first missing command, the first damaged row, or a wrong end", "[db]") {
  const std::vector<Row> log = rows(10);
  const std::vector<std::int64_t> stored = chains(log);
  // GIVEN a sound log THEN nothing is wrong
  CHECK_FALSE(damage(log, stored, 10, stored.back()));
  // GIVEN a row whose bytes changed (its time) THEN that row is named, wherever it is
  for (std::size_t changed : {0u, 4u, 9u}) {
    std::vector<Row> damaged = log;
    damaged[changed].time += 1;
    CHECK(damage(damaged, stored, 10, stored.back()) ==
          "command " + std::to_string(changed + 1) + " does not match the log's hash chain");
  }
  // GIVEN a row lost THEN the first missing command is named
  std::vector<Row> gap = log;
  std::vector<std::int64_t> gap_stored = stored;
  gap.erase(gap.begin() + 3);
  gap_stored.erase(gap_stored.begin() + 3);
  CHECK(damage(gap, gap_stored, 10, stored.back()) == "command 4 is missing");
  // GIVEN the end cut off THEN the recorded length tells
  const std::vector<Row> cut(log.begin(), log.begin() + 7);
  CHECK(damage(cut, stored, 10, stored.back()) == "the log ends at command 7 but the table recorded 10 commands");
  // GIVEN the recorded head changed THEN the end does not match it
  CHECK(damage(log, stored, 10, stored.back() + 1) ==
        "the log's last command does not match the head its table recorded");
  // GIVEN a log from before chains THEN it cannot be judged
  CHECK_FALSE(damage(log, std::vector<std::int64_t>(10, 0), std::nullopt, 0));
}

TEST_CASE("the scrub finds a damaged row before a game's snapshot and in a finished game's log", "[db]") {
  TestDatabase test;
  const auto database = test.open();
  db::migrate(*database);
  db::Store store(*database);
  store.insert_player({1, "Ana", {}, 0});
  const Options options{3, false, false, false};
  const GameRecord game = play_random_game(options, 5);
  for (std::int64_t id = 1; id <= 4; ++id) {
    store.save_table(table(id, options, id == 4 ? "finished" : "playing"));
    std::vector<db::LoggedCommand> commands;
    for (std::size_t i = 0; i < 40; ++i) {
      commands.push_back({static_cast<std::int64_t>(i + 1), game.commands[i].seat,
                          protocol::command_text(game.commands[i].command), db::Source::player, 5000 + static_cast<std::int64_t>(i)});
    }
    store.append_commands(id, commands);
  }
  store.settle_log();
  // Table 1's newest commands are still in the command ring: its log is read from both.
  std::vector<db::LoggedCommand> newest;
  for (std::size_t i = 40; i < 45; ++i) {
    newest.push_back({static_cast<std::int64_t>(i + 1), game.commands[i].seat,
                      protocol::command_text(game.commands[i].command), db::Source::bot, 5000 + static_cast<std::int64_t>(i)});
  }
  store.append_commands(1, newest);
  CHECK(db::damaged_logs(*database).empty());
  // Table 2: a row early in its log changed (where a snapshot would hide it from the
  // restore); table 3: sound; table 4, finished: its last row changed.
  database->execute("UPDATE commands SET time = time + 1 WHERE table_id = 2 AND seq = 3");
  database->execute("UPDATE commands SET command = replace(command, '\"', ' \"') WHERE table_id = 4 AND seq = 40");
  const std::vector<db::DamagedLog> damaged = db::damaged_logs(*database);
  REQUIRE(damaged.size() == 2);
  CHECK(damaged[0].table == 2);
  CHECK(damaged[0].status == "playing");
  CHECK(damaged[0].damage == "command 3 does not match the log's hash chain");
  CHECK(damaged[1].table == 4);
  CHECK(damaged[1].status == "finished");
  CHECK(damaged[1].damage == "command 40 does not match the log's hash chain");
}

TEST_CASE("a ledger's bytes read back as the sequence they were written with, and only when whole", "[storage]") {
  for (const std::int64_t n : {0LL, 1LL, 51LL, 1LL << 40}) {
    const auto bytes = server::encode_ledger(n);
    CHECK(server::decode_ledger(bytes) == n);
    for (std::size_t at : {0u, 9u, 17u}) {
      auto damaged = bytes;
      damaged[at] ^= std::byte{0x10};
      CHECK_FALSE(server::decode_ledger(damaged));
    }
    CHECK_FALSE(server::decode_ledger(std::span(bytes).first(31)));
  }
  // The start's verdict: fewer commits in the database than recorded is a loss.
  CHECK(server::judge_ledger(51, 51, false) == server::LedgerVerdict::sound);
  CHECK(server::judge_ledger(40, 51, false) == server::LedgerVerdict::sound);  // the file lagged
  CHECK(server::judge_ledger(51, 12, false) == server::LedgerVerdict::lost);
  CHECK(server::judge_ledger(51, 12, true) == server::LedgerVerdict::lost_accepted);
}

TEST_CASE("every commit of the storage thread is counted in the database and then in its ledger", "[storage][sqlite]") {
  TestDatabase test;
  TempDir dir;
  const std::filesystem::path file = dir.path() / "ledger";
  {
    auto database = test.open();
    db::migrate(*database);
    bool third_seen = false;
    server::Storage storage(std::move(database), std::make_shared<server::Metrics>(), 100, {},
                            std::chrono::microseconds{0}, std::make_unique<server::CommitLedger>(file));
    // Five players, and between them a write that fails (player 3 again), which counts nothing.
    for (const std::int64_t id : {1, 2, 3, 3, 4, 5}) {
      std::promise<bool> done;
      storage.write(
          [id](db::Store& store) {
            db::PlayerRecord player{id, "P" + std::to_string(id), {}, 0};
            player.token_hash[0] = static_cast<std::byte>(id);
            store.insert_player(player);
          },
          [&done](bool committed) { done.set_value(committed); });
      CHECK(done.get_future().get() == (id != 3 || std::exchange(third_seen, true) == false));
    }
    storage.stop();  // one more transaction: the command ring settled
  }
  const auto database = test.open();
  const std::int64_t held = db::CommitSequence(*database).read();
  CHECK(held == 6);
  const server::CommitLedger ledger(file);
  CHECK(server::decode_ledger(std::as_bytes(std::span(ledger.found()))) == held);
}
