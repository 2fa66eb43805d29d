// The notice sender's figures (docs/notifications.md#figures), as hidden Catch cases that
// scripts/notice-bench.sh runs; never part of the test suite. The relay is a real aiosmtpd;
// when it accepted each mail is the time its Maildir file name records (to the microsecond).
//   notices per second: 1,000 notices waiting in the outbox, from the first mail accepted to
//     the last;
//   move to relay: a player seated at 50 tables and away, the host starts each game and gives
//     her seat to a bot, the bots play until it is the player's turn, which is worth a notice
//     at once: from the notice's creation in that move's transaction (its Message-ID carries
//     it) to the relay's file.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sqlite3.h>
#include <string>
#include <vector>

#include "game_helpers.hpp"
#include "notice_peers.hpp"

using namespace elgrande::test;
namespace fs = std::filesystem;

namespace {

// When the relay accepted each mail (Unix ms), from Maildir names "SECONDS.MMICROS...".
std::vector<double> accepted_at(const fs::path& maildir) {
  std::vector<double> times;
  const std::regex name(R"((\d+)\.M(\d+)P)");
  for (const auto& entry : fs::directory_iterator(maildir / "new")) {
    std::smatch found;
    const std::string file = entry.path().filename().string();
    if (std::regex_search(file, found, name)) times.push_back(std::stod(found[1]) * 1000 + std::stod(found[2]) / 1000);
  }
  std::sort(times.begin(), times.end());
  return times;
}

double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5)];
}

std::vector<std::string> bench_args(const TempDir& dir, std::uint16_t smtp_port) {
  std::vector<std::string> args = mail_args(server_args(dir), smtp_port);
  args.insert(args.end(), {"--notice-turn-after-seconds", "0", "--open-tables-per-player", "0"});
  return args;
}

}  // namespace

TEST_CASE("notice sender: notices per second from a full outbox", "[.notice-bench]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  const auto args = bench_args(dir, smtp.port());
  {
    ServerProcess server(args);
    WsClient ana(server.address(), server.port());
    hello(ana, "Ana");
    server.signal(SIGTERM);
    REQUIRE(server.wait_for_exit(20s) == 0);
  }
  constexpr int kNotices = 1000;
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(database_of(dir).c_str(), &handle) == SQLITE_OK);
  std::string sql = "BEGIN;";
  for (int i = 1; i <= kNotices; ++i) {
    const Json payload{{"to", "p" + std::to_string(i) + "@example.org"}, {"username", "Ana"}, {"address", "a@example.org"}};
    sql += "INSERT INTO notice_outbox (player, channel, kind, payload, due_at, created_at) VALUES (1, 'mail', "
           "'email_changed', '" + payload.dump() + "', 0, " + std::to_string(i) + ");";
  }
  REQUIRE(sqlite3_exec(handle, (sql + "COMMIT;").c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(handle);
  ServerProcess server(args);
  const auto deadline = Clock::now() + 600s;
  while (accepted_at(dir.path() / "mail").size() < kNotices && Clock::now() < deadline) std::this_thread::sleep_for(200ms);
  const auto times = accepted_at(dir.path() / "mail");
  REQUIRE(times.size() == kNotices);
  const double seconds = (times.back() - times.front()) / 1000;
  std::cout << "notices per second: " << static_cast<int>((kNotices - 1) / seconds) << " (" << kNotices << " mails in "
            << seconds << " s)\n";
}

TEST_CASE("notice sender: from a move to the relay accepting its mail", "[.notice-bench]") {
  TempDir dir;
  SmtpServer smtp(dir.path() / "mail");
  ServerProcess server(bench_args(dir, smtp.port()));
  auto bob = std::make_unique<WsClient>(server.address(), server.port());
  hello(*bob, "Bob");
  REQUIRE(request(*bob, "account.sign_up", {{"username", "Bob_B"}, {"password", "a long enough password"}})["type"] ==
          "account.sign_up.ok");
  REQUIRE(request(*bob, "account.set_email", {{"address", "bob@example.org"}})["type"] == "account.set_email.ok");
  const Json link = smtp.wait_for(1);
  REQUIRE(request(*bob, "account.verify_email", {{"token", token_in(link[0], "verify-email")}})["type"] ==
          "account.verify_email.ok");
  WsClient ana(server.address(), server.port());
  hello(ana, "Ana");
  constexpr int kGames = 50;
  std::vector<std::int64_t> tables;
  for (int i = 0; i < kGames; ++i) {
    const std::int64_t table = create_table(ana, kThreePlayers)["id"];
    REQUIRE(request(*bob, "table.join", {{"table", table}})["type"] == "table.join.ok");
    REQUIRE(request(ana, "table.add_bot", {{"table", table}})["type"] == "table.add_bot.ok");
    tables.push_back(table);
  }
  bob.reset();  // away from every table
  std::this_thread::sleep_for(500ms);
  for (const std::int64_t table : tables) {
    // Ana gives her seat to a bot at once, so that the bots play until it is Bob's turn.
    REQUIRE(request(ana, "table.start", {{"table", table}})["type"] == "table.start.ok");
    REQUIRE(request(ana, "game.resign", {{"table", table}})["type"] == "game.resign.ok");
    std::this_thread::sleep_for(100ms);  // one at a time: the latency of each, not of a queue
  }
  const Json mails = smtp.wait_for(kGames + 1, 60s);
  REQUIRE(mails.size() == kGames + 1);
  // The Message-ID carries when the notice was written (Unix ms): notice-ID.CREATED@host.
  const auto accepted = accepted_at(dir.path() / "mail");
  std::vector<double> created;
  const std::regex id(R"(<notice-\d+\.(\d+)@)");
  for (std::size_t m = 1; m < mails.size(); ++m) {
    std::smatch found;
    const std::string message_id = mails[m]["message_id"];
    REQUIRE(std::regex_search(message_id, found, id));
    created.push_back(std::stod(found[1]));
  }
  std::sort(created.begin(), created.end());
  std::vector<double> latencies;
  for (std::size_t i = 0; i < created.size(); ++i) latencies.push_back(accepted[i + 1] - created[i]);
  std::cout << "move to relay, ms: median " << quantile(latencies, 0.5) << ", p99 " << quantile(latencies, 0.99)
            << " (" << latencies.size() << " games)\n";
}
