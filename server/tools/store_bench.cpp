// elgrande-store-bench: the persistence figures of docs/persistence.md.
//
//   elgrande-store-bench commit  [--clients N] [--seconds S] [--durability full|normal] [--ledger on|off] [--dir D]
//     N clients each send a command, wait until it is committed, and send the next one,
//     as players waiting for the server's answer do; prints committed commands per
//     second and how many commands each commit carried (group commit). `--ledger on` (the
//     server's way) counts each commit in the commit sequence and its file beside the
//     database; `off` leaves both out, for a side-by-side measure of what they cost.
//   elgrande-store-bench restore [--games N] [--dir D]
//     writes N unfinished games of random length (logs and snapshots as the server
//     writes them) once, then times rebuilding them all, as the server does at start,
//     and checking every log against its hash chain (the start's scrub).
//
// Each prints one JSON object. The database is a real file in D (default: a fresh
// directory under /tmp, removed afterwards).

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "elgrande/db/log_check.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/el_grande/module.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/protocol/codec.hpp"
#include "storage/storage.hpp"

namespace {

using namespace elgrande;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

struct Arguments {
  std::string mode;
  int clients = 64;
  int seconds = 5;
  int games = 10000;
  db::Durability durability = db::Durability::full;
  bool ledger = true;
  std::filesystem::path dir;
};

Arguments parse(int argc, char* argv[]) {
  if (argc < 2) throw std::invalid_argument("usage: elgrande-store-bench commit|restore [options]");
  Arguments arguments;
  arguments.mode = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--clients") {
      arguments.clients = std::stoi(value);
    } else if (flag == "--seconds") {
      arguments.seconds = std::stoi(value);
    } else if (flag == "--games") {
      arguments.games = std::stoi(value);
    } else if (flag == "--durability") {
      arguments.durability = value == "normal" ? db::Durability::normal : db::Durability::full;
    } else if (flag == "--ledger") {
      arguments.ledger = value != "off";
    } else if (flag == "--dir") {
      arguments.dir = value;
    } else {
      throw std::invalid_argument("unknown option " + flag);
    }
  }
  return arguments;
}

std::unique_ptr<db::Database> open(const std::filesystem::path& file, db::Durability durability) {
  auto database = db::open(file.string(), {.durability = durability});
  db::migrate(*database);
  return database;
}

db::TableRecord table_record(std::int64_t id, const Options& options, std::uint64_t seed) {
  db::TableRecord table;
  table.id = id;
  table.name = "Table " + std::to_string(id);
  table.host = 1;
  table.status = "playing";
  table.options = protocol::to_json(options);
  table.seed = seed;
  table.seats.resize(static_cast<std::size_t>(options.players));
  table.seats[0].kind = "human";
  table.seats[0].player = 1;
  for (std::size_t s = 1; s < table.seats.size(); ++s) table.seats[s].kind = "bot";
  return table;
}

void add_player(db::Store& store) {
  db::PlayerRecord player{1, "Bench", {}, 0};
  store.insert_player(player);
}

// Closed loop: each client has one command in flight, as a player waiting for the answer.
Json commit(const Arguments& arguments) {
  const auto file = arguments.dir / "commit.sqlite";
  auto metrics = std::make_shared<server::Metrics>();
  std::unique_ptr<server::CommitLedger> ledger;
  if (arguments.ledger) ledger = std::make_unique<server::CommitLedger>(file.string() + ".commits");
  server::Storage storage(open(file, arguments.durability), metrics, 100'000, {}, std::chrono::microseconds{0},
                          std::move(ledger));
  const Options options{4, false, false, false};
  const GameRecord game = play_random_game(options, 1);
  for (int c = 0; c < arguments.clients; ++c) {
    storage.write([c, &options](db::Store& store) {
      if (c == 0) add_player(store);
      store.save_table(table_record(c + 1, options, 1));
    }, nullptr);
  }

  std::mutex mutex;
  std::condition_variable all_stopped;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> committed{0};
  int running = arguments.clients;
  const auto started = Clock::now();
  // Each client's next command is sent from the completion of its previous one.
  std::vector<std::function<void(std::int64_t)>> send(static_cast<std::size_t>(arguments.clients));
  for (int c = 0; c < arguments.clients; ++c) {
    send[static_cast<std::size_t>(c)] = [&, c](std::int64_t seq) {
      const auto& recorded = game.commands[static_cast<std::size_t>(seq - 1) % game.commands.size()];
      std::vector<db::LoggedCommand> command{{seq, recorded.seat, protocol::command_text(recorded.command), db::Source::player, 0}};
      storage.write([c, command](db::Store& store) { store.append_commands(c + 1, command); },
                    [&, c, seq](bool ok) {
                      if (!ok) throw std::runtime_error("a commit failed");
                      ++committed;
                      if (!stop) return send[static_cast<std::size_t>(c)](seq + 1);
                      const std::lock_guard lock(mutex);
                      if (--running == 0) all_stopped.notify_one();
                    });
    };
  }
  for (auto& client : send) client(1);
  std::this_thread::sleep_for(std::chrono::seconds(arguments.seconds));
  stop = true;
  std::unique_lock lock(mutex);
  all_stopped.wait(lock, [&] { return running == 0; });
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  storage.stop();
  const auto commits = metrics->db_commits.load();
  return {{"mode", "commit"},
          {"durability", arguments.durability == db::Durability::full ? "full" : "normal"},
          {"clients", arguments.clients},
          {"ledger", arguments.ledger},
          {"seconds", seconds},
          {"commands", committed.load()},
          {"commands_per_second", static_cast<double>(committed) / seconds},
          {"commits", commits},
          {"commands_per_commit", commits ? static_cast<double>(metrics->db_writes) / commits : 0.0}};
}

Json restore(const Arguments& arguments) {
  const auto file = arguments.dir / ("restore-" + std::to_string(arguments.games) + ".sqlite");
  std::size_t written_commands = 0;
  if (!std::filesystem::exists(file)) {
    // The server's way: a snapshot every 32 commands, the log in full.
    auto database = open(file, db::Durability::normal);
    db::Store store(*database);
    db::Transaction transaction(*database);
    add_player(store);
    for (int g = 0; g < arguments.games; ++g) {
      const Options options{2 + g % 4, false, false, false};
      const auto seed = static_cast<std::uint64_t>(g) + 1;
      const GameRecord game = play_random_game(options, seed);
      // A game somewhere between its start and its last command.
      const std::size_t length = (seed * 2654435761u) % game.commands.size();
      store.save_table(table_record(g + 1, options, seed));
      std::vector<db::LoggedCommand> commands;
      GameState state = new_game(options, seed);
      Events events;
      for (std::size_t i = 0; i < length; ++i) {
        commands.push_back({static_cast<std::int64_t>(i + 1), game.commands[i].seat,
                            protocol::command_text(game.commands[i].command), db::Source::player, 0});
        apply(state, game.commands[i].seat, game.commands[i].command, events);
        if ((i + 1) % 32 == 0) {
          store.save_snapshot(g + 1, state.version, *el_grande::game_at(state)->snapshot());
        }
      }
      store.append_commands(g + 1, commands);
      written_commands += length;
    }
    transaction.commit();
  }
  std::vector<double> milliseconds;
  std::vector<double> scrub_milliseconds;
  std::size_t tables = 0;
  std::size_t replayed = 0;
  for (int run = 0; run < 3; ++run) {
    const std::unique_ptr<db::Database> database = db::open(file.string());
    db::Store store(*database);
    const auto started = Clock::now();
    const db::Restored restored = store.live_tables(0, el_grande::module());
    milliseconds.push_back(std::chrono::duration<double, std::milli>(Clock::now() - started).count());
    tables = restored.tables.size();
    replayed = 0;
    for (const auto& table : restored.tables) replayed += table.replayed;
    if (!restored.failed.empty()) throw std::runtime_error("a game could not be restored");
    const auto scrubbing = Clock::now();
    if (!db::damaged_logs(*database).empty()) throw std::runtime_error("a log is damaged");
    scrub_milliseconds.push_back(std::chrono::duration<double, std::milli>(Clock::now() - scrubbing).count());
  }
  std::sort(scrub_milliseconds.begin(), scrub_milliseconds.end());
  std::sort(milliseconds.begin(), milliseconds.end());
  return {{"mode", "restore"},
          {"games", tables},
          {"database_bytes", std::filesystem::file_size(file)},
          {"commands_replayed_after_snapshots", replayed},
          {"milliseconds", milliseconds},
          {"median_milliseconds", milliseconds[1]},
          {"scrub_milliseconds", scrub_milliseconds},
          {"median_scrub_milliseconds", scrub_milliseconds[1]}};
}

}  // namespace

int main(int argc, char* argv[]) {
  spdlog::set_level(spdlog::level::warn);
  try {
    Arguments arguments = parse(argc, argv);
    const bool temporary = arguments.dir.empty();
    if (temporary) {
      std::string pattern = (std::filesystem::temp_directory_path() / "elgrande-bench-XXXXXX").string();
      if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
      arguments.dir = pattern;
    }
    std::filesystem::create_directories(arguments.dir);
    Json result;
    if (arguments.mode == "commit") {
      result = commit(arguments);
    } else if (arguments.mode == "restore") {
      result = restore(arguments);
    } else {
      throw std::invalid_argument("mode must be commit or restore");
    }
    if (temporary) std::filesystem::remove_all(arguments.dir);
    std::cout << result.dump(2) << std::endl;
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "elgrande-store-bench: " << error.what() << "\n";
    return 2;
  }
}
