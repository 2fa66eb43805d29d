// Whole tables without sockets: made by the TableFactory on a real io_context, saving to a
// real SQLite file through the Storage thread, talking to recording connections. A game
// of bots plays to the end; its result reaches the bus's GameFinished once, after it is on
// the disk, and the database holds the same result and every command in order. A player
// who asks to join a full table is refused and the table stays as it was.
#include <catch2/catch.hpp>

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "server/server_fixtures.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/el_grande/module.hpp"
#include "ops/metrics.hpp"
#include "presence/presence.hpp"
#include "recording_recipient.hpp"
#include "storage/storage.hpp"
#include "support/temp_dir.hpp"
#include "tables/directory.hpp"
#include "tables/table.hpp"
#include "tables/table_factory.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
namespace db = elgrande::db;
namespace protocol = elgrande::protocol;
using namespace std::chrono_literals;
using elgrande::test::RecordingRecipient;
using elgrande::test::TempDir;
using nlohmann::json;

namespace {


// The server around the tables: storage on a fresh file, presence, the directory, and a
// factory on one io_context that the test runs on its own thread.
struct Server {
  Server() : storage(migrated(file), metrics) {}

  // Players are rows before they sit anywhere: a table's host and seats refer to them.
  void register_player(const Player& player) {
    db::PlayerRecord record{player.id, player.name, {}, 0};
    std::memcpy(record.token_hash.data(), &player.id, sizeof player.id);  // unique, as hashes are
    std::promise<bool> done;
    storage.write([record](db::Store& store) { store.insert_player(record); },
                  [&](bool committed) { done.set_value(committed); });
    REQUIRE(done.get_future().get());
  }

  // Runs the tables until `done()` holds, or for `limit` at most; whether it held.
  template <class Done>
  bool run_until(Done&& done, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < deadline) io.run_for(20ms);
    return done();
  }

  // Stops every table and the database thread, and runs what they left to do.
  void shut_down() {
    directory.close_all();
    storage.stop();
    keep_running.reset();
    io.restart();
    io.run_for(5s);
  }

  TempDir dir;
  std::filesystem::path file = dir.path() / "tables.sqlite";
  std::shared_ptr<Metrics> metrics = std::make_shared<Metrics>();
  boost::asio::io_context io;
  // The tables wait on the database thread at times, with nothing of their own to run.
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> keep_running =
      boost::asio::make_work_guard(io);
  Storage storage;
  Presence presence;
  TableDirectory directory;
  IdSupply chat_line_ids = IdSupply::after(0);
  std::vector<db::GameResult> finished;
  // What another connection found in the database when GameFinished was published.
  std::vector<std::optional<db::GameResult>> on_disk_when_finished;
  // A listener of finished games, as tournaments are.
  Bus bus = [this] {
    Bus bus;
    bus.subscribe<GameFinished>([this](const GameFinished& game) {
      finished.push_back(game.result);
      db::SqliteDatabase reader(file);
      db::Store store(reader);
      on_disk_when_finished.push_back(store.result(game.result.table));
    });
    return bus;
  }();
  TableServices services{elgrande::el_grande::module(),
                         storage,
                         *metrics,
                         nullptr,
                         presence,
                         directory,
                         TableSettings{.bot_delay = 1ms, .finished_lifetime = 60min, .restart_grace = 60s},
                         1024,
                         &bus,
                         {},
                         nullptr,
                         nullptr,
                         &chat_line_ids};
  TableFactory factory{io.get_executor(), services};
};

TableRequest request(const RecipientPtr& from, const Player& player, std::string type, std::int64_t id,
                     json payload) {
  return TableRequest{from, player, protocol::Envelope{std::move(type), protocol::RequestId{id}, std::move(payload)},
                      std::chrono::steady_clock::now(), std::nullopt};
}

std::vector<int> ints(const json& array) { return array.get<std::vector<int>>(); }

// Ana hosts from seat 0, and bots fill the other seats.
TableSpec ana_and_bots(int players) {
  TableSpec spec;
  spec.config.options = options_for(players);
  spec.host = ana.id;
  spec.seats.push_back({TableSpec::SeatSpec::Kind::player, ana});
  for (int s = 1; s < players; ++s) spec.seats.push_back({TableSpec::SeatSpec::Kind::bot, std::nullopt});
  return spec;
}

}  // namespace

TEST_CASE("a game of bots plays to the end: its result is on the disk before the bus tells of it, once",
          "[table]") {
  Server server;
  server.register_player(ana);
  // Ana is connected before the table is made, takes seat 0, and resigns as soon as the
  // game starts: bots play every seat, and she watches to the end.
  const auto ana_connection = std::make_shared<RecordingRecipient>();
  server.presence.attach(ana.id, ana_connection);

  TableSpec spec = ana_and_bots(4);
  spec.auto_start = true;
  const auto table = server.factory.create(spec);
  const TableId id = table->id();
  table->handle(&Table::resign, request(ana_connection, ana, "game.resign", 1, {{"table", id}}), {});

  REQUIRE(server.run_until([&] { return !server.finished.empty(); }, 20s));
  server.shut_down();

  // GameFinished: once, and only after the result rows were committed.
  REQUIRE(server.finished.size() == 1);
  const db::GameResult& result = server.finished[0];
  CHECK(result.table == id);
  REQUIRE(server.on_disk_when_finished.size() == 1);
  CHECK(server.on_disk_when_finished[0] == result);

  // One result per seat, in seat order, ranked by score: the best are 1, ties share.
  REQUIRE(result.seats.size() == 4);
  for (std::size_t s = 0; s < result.seats.size(); ++s) {
    const db::SeatResult& seat = result.seats[s];
    CHECK(seat.seat == static_cast<int>(s));
    int better = 0;
    for (const db::SeatResult& other : result.seats) better += other.score > seat.score;
    CHECK(seat.rank == 1 + better);
  }
  CHECK(result.seats[0].player == ana.id);  // she had the seat, though a bot finished it
  CHECK(result.seats[1].player == std::nullopt);

  // Ana heard the end: once, with the winners her result ranks first.
  const auto game_over = ana_connection->of_type("game.over");
  REQUIRE(game_over.size() == 1);
  const json& told = game_over[0]["payload"]["result"];
  std::vector<int> ranked_first;
  std::vector<int> scores;
  for (const db::SeatResult& seat : result.seats) {
    if (seat.rank == 1) ranked_first.push_back(seat.seat);
    scores.push_back(seat.score);
  }
  CHECK(ints(told["winners"]) == ranked_first);
  CHECK(ints(told["scores"]) == scores);
  CHECK(ana_connection->of_type("game.resign.ok").size() == 1);
  CHECK(ana_connection->of_type("error").empty());

  // The database, read afresh: the same result, the table finished, and every command in
  // order up to the version Ana last saw.
  db::SqliteDatabase database(server.file);
  db::Store store(database);
  CHECK(store.result(id) == result);
  const auto finished_game = store.finished_game(id);
  REQUIRE(finished_game.has_value());
  CHECK(finished_game->table.status == "finished");
  CHECK(finished_game->table.finished_at.has_value());
  const std::vector<db::LoggedCommand> commands = store.commands(id);
  REQUIRE_FALSE(commands.empty());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    CHECK(commands[i].seq == static_cast<std::int64_t>(i + 1));
    CHECK(commands[i].source == db::Source::bot);
  }
  const auto updates = ana_connection->of_type("game.update");
  REQUIRE_FALSE(updates.empty());
  CHECK(updates.back()["payload"]["version"] == commands.size());
  CHECK(server.metrics->games_finished.load() == 1);
}

TEST_CASE("a player who asks to join a full table is refused with table_full, and the table stays as it was",
          "[table]") {
  Server server;
  server.register_player(ana);
  const auto ana_connection = std::make_shared<RecordingRecipient>();
  server.presence.attach(ana.id, ana_connection);
  TableSpec spec = ana_and_bots(3);
  const auto table = server.factory.create(spec);  // not started: Ana starts it
  const TableId id = table->id();

  const auto ben_connection = std::make_shared<RecordingRecipient>();
  table->handle(&Table::join, request(ben_connection, ben, "table.join", 7, {{"table", id}}), {});
  table->handle(&Table::join, request(ben_connection, ben, "table.join", 8, {{"table", id}, {"seat", 1}}), {});
  REQUIRE(server.run_until([&] { return ben_connection->received().size() >= 2; }, 10s));
  server.shut_down();

  const auto answers = ben_connection->messages();
  REQUIRE(answers.size() == 2);
  CHECK(answers[0]["type"] == "error");
  CHECK(answers[0]["id"] == 7);
  CHECK(answers[0]["payload"]["code"] == "table_full");
  CHECK(answers[1]["type"] == "error");
  CHECK(answers[1]["id"] == 8);
  CHECK(answers[1]["payload"]["code"] == "seat_taken");

  // Ana's table is as it was: she alone with two bots, and Ben at no table.
  const json seats = table->listing().read().description["seats"];
  REQUIRE(seats.size() == 3);
  CHECK(seats[0]["kind"] == "human");
  CHECK(seats[0]["player"]["id"] == ana.id);
  CHECK(seats[1]["kind"] == "bot");
  CHECK(seats[2]["kind"] == "bot");
  CHECK(server.directory.tables_of(ben.id).empty());
  for (const json& update : ana_connection->of_type("table.update")) {
    CHECK(update["payload"]["table"]["seats"] == seats);
  }
  CHECK(server.metrics->errors[static_cast<std::size_t>(protocol::ErrorCode::table_full)].load() == 1);
}

// A player who resigned still belongs to the table and hears it as a member; watching it
// as well must not make every message arrive twice.
TEST_CASE("a player who resigned and then watches the table hears the end of the game once",
          "[table]") {
  Server server;
  server.register_player(ana);
  const auto ana_connection = std::make_shared<RecordingRecipient>();
  server.presence.attach(ana.id, ana_connection);
  TableSpec spec = ana_and_bots(3);
  spec.auto_start = true;
  const auto table = server.factory.create(spec);
  table->handle(&Table::resign, request(ana_connection, ana, "game.resign", 1, {{"table", table->id()}}), {});
  table->handle(&Table::spectate, request(ana_connection, ana, "table.spectate", 2, {{"table", table->id()}}), {});
  REQUIRE(server.run_until([&] { return !server.finished.empty(); }, 20s));
  server.shut_down();

  CHECK(ana_connection->of_type("game.over").size() == 1);
  const auto updates = ana_connection->of_type("game.update");
  REQUIRE_FALSE(updates.empty());
  const json last_version = updates.back()["payload"]["version"];
  CHECK(std::count_if(updates.begin(), updates.end(),
                      [&](const json& update) { return update["payload"]["version"] == last_version; }) == 1);
}
