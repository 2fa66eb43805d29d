// elgrande-tournament-bench: the figure of docs/tournaments.md for starting a large event.
//
//   elgrande-tournament-bench [--players N] [--runs R] [--dir D]
//
// N registered players (default 1000), each with a connection stand-in, start a Swiss event
// at tables of 4 or 5: the time from the director's start to the last player told their
// table (tournament.round) or bye covers drawing round 1, saving it, making and saving every
// table (each with its board's link), starting every game, and the pushes. The server's own
// parts run as in elgrande-server, on two I/O threads, with a real SQLite file in D (default:
// a fresh directory under /tmp, removed afterwards). R events in a row; prints one JSON
// object with each run and the median.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <unistd.h>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "elgrande/db/schema.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/el_grande/module.hpp"
#include "identity/identities.hpp"
#include "presence/presence.hpp"
#include "storage/storage.hpp"
#include "tables/directory.hpp"
#include "tables/table.hpp"
#include "tables/table_factory.hpp"
#include "tournaments/tournaments.hpp"

namespace {

using namespace elgrande::server;
namespace db = elgrande::db;
namespace protocol = elgrande::protocol;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

// Counts the messages of one kind that reach it, as a player's connection would take them.
class Counter {
 public:
  void add() {
    const std::lock_guard lock(mutex_);
    ++count_;
    changed_.notify_all();
  }
  void wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return count_ >= count; });
  }
  void reset() {
    const std::lock_guard lock(mutex_);
    count_ = 0;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t count_ = 0;
};

class Connection final : public Recipient {
 public:
  Connection(Counter& told, Counter& answered) : told_(told), answered_(answered) {}
  void deliver(std::shared_ptr<const std::string> message) override {
    if (message->find("\"tournament.round\"") != std::string::npos) told_.add();
    if (message->find(".ok\"") != std::string::npos) answered_.add();
  }
  void close() override {}

 private:
  Counter& told_;
  Counter& answered_;
};

TournamentRequest request_of(const RecipientPtr& from, const Player& player, std::string type, TournamentId id) {
  return TournamentRequest{from, player, false, true, protocol::Envelope{std::move(type), std::int64_t{1}, {{"tournament", id}}}};
}

}  // namespace

int main(int argc, char* argv[]) {
  int players = 1000;
  int runs = 5;
  std::filesystem::path dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--players") players = std::stoi(argv[i + 1]);
    else if (flag == "--runs") runs = std::stoi(argv[i + 1]);
    else if (flag == "--dir") dir = argv[i + 1];
    else {
      std::cerr << "usage: elgrande-tournament-bench [--players N] [--runs R] [--dir D]\n";
      return 2;
    }
  }
  spdlog::set_level(spdlog::level::warn);
  const bool own_dir = dir.empty();
  if (own_dir) dir = std::filesystem::temp_directory_path() / ("elgrande-tournament-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);

  auto database = db::open((dir / "bench.sqlite").string());
  db::migrate(*database);
  std::vector<db::PlayerRecord> records;
  {
    db::Store store(*database);
    db::Transaction transaction(*database);
    for (int p = 1; p <= players + 1; ++p) {
      db::PlayerRecord record{p, "Player " + std::to_string(p), {}, 0};
      for (std::size_t b = 0; b < 4; ++b) record.token_hash[b] = static_cast<std::byte>((p >> (8 * b)) & 0xff);
      store.insert_player(record);
      records.push_back(record);
    }
    transaction.commit();
  }

  boost::asio::io_context io(2);
  auto work = boost::asio::make_work_guard(io);
  auto metrics = std::make_shared<Metrics>();
  Storage storage(std::move(database), metrics);
  Identities identities(storage);
  identities.restore(records);
  Presence presence;
  TableDirectory directory;
  TableServices table_services{elgrande::el_grande::module(), storage, *metrics, nullptr, presence, directory, TableSettings{}, 1024, {}, {}};
  TableFactory table_factory(io.get_executor(), table_services);
  TournamentServices tournament_services{storage, table_factory, directory, presence, identities, *metrics};
  Tournaments tournaments(io.get_executor(), tournament_services);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) threads.emplace_back([&io] { io.run(); });

  Counter told;
  Counter answered;
  std::vector<RecipientPtr> connections;
  for (int p = 1; p <= players + 1; ++p) {
    connections.push_back(std::make_shared<Connection>(told, answered));
    presence.attach(p, connections.back());
  }
  const Player director{players + 1, "Director"};
  const Json settings = {{"stages", {{{"format", "swiss"}, {"rounds", 3}}}}, {"game", {{"short_game", false}}}};

  Json results = Json::array();
  std::vector<double> times;
  std::size_t tables = 0;
  for (int run = 0; run < runs; ++run) {
    answered.reset();
    auto tournament = tournaments.create("Bench " + std::to_string(run), director.id,
                                         tournament_settings_from_json(settings, tournaments.game()).value(), connections.back(), std::nullopt);
    answered.wait_for(1);
    for (int p = 1; p <= players; ++p) {
      tournament->handle(&Tournament::enrol, request_of(connections[static_cast<std::size_t>(p - 1)],
                                                        Player{p, "Player " + std::to_string(p)}, "tournament.register",
                                                        tournament->id()));
    }
    answered.wait_for(1 + static_cast<std::size_t>(players));
    told.reset();
    const auto start = Clock::now();
    tournament->handle(&Tournament::start, request_of(connections.back(), director, "tournament.start", tournament->id()));
    told.wait_for(static_cast<std::size_t>(players));
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    tables = (*tournament->detail())["rounds"][0]["boards"].size();
    times.push_back(ms);
    results.push_back(ms);
  }
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  std::cout << Json{{"players", players}, {"tables", tables}, {"runs_ms", results},
                    {"median_ms", sorted[sorted.size() / 2]}}.dump()
            << std::endl;

  directory.close_all();
  tournaments.close_all();
  work.reset();
  io.stop();
  for (std::thread& t : threads) t.join();
  storage.stop();
  if (own_dir) std::filesystem::remove_all(dir);
  return 0;
}
