// The server knows a game only through its module (docs/modules.md): a second game, a
// take-away game written here in a hundred lines, is hosted by the same Table, Storage and
// bots as El Grande. A player and a bot play it to the end; each sees only their own
// secret; a move against its rules is refused with the game's reason; the log keeps the
// module's records, and storage restores the game through the module.
#include <catch2/catch.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>

#include "elgrande/db/database.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "ops/metrics.hpp"
#include "presence/presence.hpp"
#include "recording_recipient.hpp"
#include "server/server_fixtures.hpp"
#include "storage/storage.hpp"
#include "support/temp_dir.hpp"
#include "tables/directory.hpp"
#include "tables/table.hpp"
#include "tables/table_factory.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
namespace db = elgrande::db;
namespace games = elgrande::games;
namespace protocol = elgrande::protocol;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// Take-away: a pile of tokens; in turn, each seat takes one to three; whoever takes the last
// wins. Each seat also holds a secret number, drawn from the seed, that only it may see.
struct Take final : games::Move {
  explicit Take(int tokens) : tokens(tokens) {}
  std::string record() const override { return json{{"take", tokens}}.dump(); }
  bool undoes() const override { return false; }
  int tokens;
};

struct Took final : games::Said {
  json events;
};

class TakeAwayGame final : public games::Game {
 public:
  TakeAwayGame(int seats, std::uint64_t seed) : seats_(seats), seed_(seed), pile_(9 + static_cast<int>(seed % 4)) {}

  std::uint32_t version() const override { return version_; }
  int phase() const override { return over() ? 1 : 0; }
  std::uint8_t owing() const override { return over() ? 0 : static_cast<std::uint8_t>(1u << turn_); }
  bool over() const override { return pile_ == 0; }
  std::vector<int> scores() const override {
    std::vector<int> scores(static_cast<std::size_t>(seats_), 0);
    if (over()) scores[static_cast<std::size_t>(last_)] = 1;
    return scores;
  }
  std::vector<int> winners() const override { return over() ? std::vector<int>{last_} : std::vector<int>{}; }
  bool can_undo(int) const override { return false; }
  std::optional<std::string> snapshot() const override {
    return std::to_string(pile_) + " " + std::to_string(turn_) + " " + std::to_string(version_);
  }

  std::variant<games::Step, games::Refusal> apply(int seat, const games::Move& move, bool) override {
    if (auto refusal = check(seat, move)) return *refusal;
    const int tokens = static_cast<const Take&>(move).tokens;
    pile_ -= tokens;
    last_ = seat;
    turn_ = (turn_ + 1) % seats_;
    ++version_;
    auto said = std::make_shared<Took>();
    said->events = json::array({{{"seat", seat}, {"took", tokens}}});
    return games::Step{said, owing()};
  }
  std::optional<games::Refusal> check(int seat, const games::Move& move) const override {
    if (over()) return games::Refusal{games::Refusal::Code::game_over, "the pile is empty"};
    if (seat != turn_) return games::Refusal{games::Refusal::Code::not_your_turn, "it is seat " + std::to_string(turn_) + "'s turn"};
    const int tokens = static_cast<const Take&>(move).tokens;
    if (tokens < 1 || tokens > 3 || tokens > pile_) {
      return games::Refusal{games::Refusal::Code::illegal, "take one to three tokens, and no more than the pile holds"};
    }
    return std::nullopt;
  }
  games::MovePtr random_move(int, std::uint64_t seed) const override {
    return std::make_shared<Take>(1 + static_cast<int>(seed % static_cast<std::uint64_t>(std::min(3, pile_))));
  }
  games::BotSearch bot(int, games::BotLevel, std::uint64_t) const override {
    return [pile = pile_](const games::BotBudget&) { return std::make_shared<Take>(pile % 4 == 0 ? 1 : pile % 4); };
  }
  games::Update update(int viewer, const games::Frame& frame, const games::Said* said, bool, bool) override {
    json view = {{"pile", pile_}, {"turn", turn_}};
    if (viewer >= 0) view["secret"] = secret(viewer);
    const json events = said ? static_cast<const Took*>(said)->events : json::array();
    const std::string whole =
        json{{"type", "game.update"},
             {"payload", {{"table", frame.table}, {"version", version_}, {"view", view}, {"events", events}}}}
            .dump();
    return {whole, whole};
  }

  int secret(int seat) const { return static_cast<int>((seed_ >> (8 * seat)) % 100); }
  void restore(int pile, int turn, std::uint32_t version) {
    pile_ = pile;
    turn_ = turn;
    version_ = version;
  }

 private:
  int seats_;
  std::uint64_t seed_;
  int pile_;
  int turn_ = 0;
  int last_ = 0;
  std::uint32_t version_ = 0;
};

class TakeAway final : public games::GameModule {
 public:
  std::string_view id() const override { return "take-away"; }
  std::span<const std::string_view> phases() const override { return kPhases; }
  std::variant<games::MovePtr, std::string> read_move(const json& command) const override {
    if (!command.is_object() || !command.contains("take") || !command["take"].is_number_integer()) {
      return std::string("take: must be a number of tokens");
    }
    return std::make_shared<Take>(command["take"].get<int>());
  }
  std::variant<json, std::string> read_options(const json& options) const override {
    if (!options.is_object() || !options.contains("players") || !options["players"].is_number_integer()) {
      return std::string("options.players: a number of seats");
    }
    return json{{"players", options["players"]}};
  }
  std::span<const std::string_view> play_fields() const override { return kPlayFields; }
  std::variant<json, std::string> read_play(const json& wish) const override { return read_options(wish); }
  int seats(const json& options) const override { return options.at("players").get<int>(); }
  std::string ladder(const json& options) const override { return std::to_string(seats(options)) + "p"; }
  std::span<const std::string_view> ladders() const override { return kLadders; }
  json seated(const json& options, int seats, std::optional<int> /*first_seat*/) const override {
    json seated = options;
    seated["players"] = seats;
    return seated;
  }
  games::Started setup(const json& options, std::uint64_t seed) const override {
    auto game = std::make_unique<TakeAwayGame>(options.at("players").get<int>(), seed);
    const std::uint8_t first = game->owing();
    return {std::move(game), games::Step{nullptr, first}};
  }
  std::variant<std::unique_ptr<games::Game>, std::string> restore(const json& options, std::uint64_t seed,
                                                                  const std::optional<std::string>& snapshot,
                                                                  std::span<const games::Recorded> log) const override {
    auto game = std::make_unique<TakeAwayGame>(options.at("players").get<int>(), seed);
    if (snapshot) {
      int pile = 0, turn = 0;
      std::uint32_t version = 0;
      if (std::sscanf(snapshot->c_str(), "%d %d %u", &pile, &turn, &version) != 3) return std::string("not a pile");
      game->restore(pile, turn, version);
    }
    for (const games::Recorded& recorded : log) {
      auto move = read_move(json::parse(recorded.move, nullptr, false));
      if (auto* why = std::get_if<std::string>(&move)) return *why;
      if (auto played = game->apply(recorded.seat, *std::get<games::MovePtr>(move), recorded.played_for);
          std::holds_alternative<games::Refusal>(played)) {
        return std::get<games::Refusal>(played).reason;
      }
    }
    return std::unique_ptr<games::Game>(std::move(game));
  }

 private:
  static constexpr std::array<std::string_view, 1> kPhases{"taking"};
  static constexpr std::array<std::string_view, 1> kPlayFields{"players"};
  static constexpr std::array<std::string_view, 2> kLadders{"2p", "3p"};
};

const TakeAway take_away;

// The tables' surroundings, as table_test.cpp has them, hosting take-away.
struct TakeAwayServer {
  TakeAwayServer() : storage(migrated(file), metrics) {}

  void register_player(const elgrande::server::Player& player) {
    db::PlayerRecord record{player.id, player.name, {}, 0};
    std::memcpy(record.token_hash.data(), &player.id, sizeof player.id);
    std::promise<bool> done;
    storage.write([record](db::Store& store) { store.insert_player(record); },
                  [&](bool committed) { done.set_value(committed); });
    REQUIRE(done.get_future().get());
  }
  template <class Done>
  bool run_until(Done&& done, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < deadline) io.run_for(20ms);
    return done();
  }
  void shut_down() {
    directory.close_all();
    storage.stop();
    keep_running.reset();
    io.restart();
    io.run_for(5s);
  }
  TempDir dir;
  std::filesystem::path file = dir.path() / "take-away.sqlite";
  std::shared_ptr<Metrics> metrics = std::make_shared<Metrics>();
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> keep_running =
      boost::asio::make_work_guard(io);
  Storage storage;
  Presence presence;
  TableDirectory directory;
  IdSupply chat_line_ids = IdSupply::after(0);
  TableServices services{take_away,
                         storage,
                         *metrics,
                         nullptr,
                         presence,
                         directory,
                         TableSettings{.bot_delay = 1ms, .finished_lifetime = 60min, .restart_grace = 60s},
                         1024,
                         nullptr,
                         {},
                         nullptr,
                         nullptr,
                         &chat_line_ids};
  TableFactory factory{io.get_executor(), services};
};

TableRequest take_request(const RecipientPtr& from, std::int64_t id, TableId table, json command) {
  return TableRequest{from, ana,
                      protocol::Envelope{"game.command", protocol::RequestId{id}, {{"table", table}, {"command", command}}},
                      std::chrono::steady_clock::now(), std::nullopt};
}

}  // namespace

TEST_CASE("a second game is hosted through its module alone: played, refused, secret, logged and restored",
          "[table]") {
  TakeAwayServer server;
  server.register_player(ana);
  const auto ana_connection = std::make_shared<RecordingRecipient>();
  server.presence.attach(ana.id, ana_connection);
  TableSpec spec;
  spec.config.options = {{"players", 2}};
  spec.host = ana.id;
  spec.auto_start = true;
  spec.seats.push_back({TableSpec::SeatSpec::Kind::player, ana});
  spec.seats.push_back({TableSpec::SeatSpec::Kind::bot, std::nullopt});
  const auto table = server.factory.create(spec);
  const TableId id = table->id();

  // Ana takes one token whenever it is her turn; once, first, she tries to take seven.
  std::int64_t request_id = 0;
  std::int64_t answered_version = -1;
  const auto game_over = [&] { return !ana_connection->of_type("game.over").empty(); };
  REQUIRE(server.run_until(
      [&] {
        if (game_over()) return true;
        const auto updates = ana_connection->of_type("game.update");
        if (updates.empty()) return false;
        const json& last = updates.back()["payload"];
        if (last["view"]["turn"] != 0 || last["version"] == answered_version) return false;
        answered_version = last["version"].get<std::int64_t>();
        if (request_id == 0) table->handle(&Table::command, take_request(ana_connection, ++request_id, id, {{"take", 7}}), {});
        table->handle(&Table::command, take_request(ana_connection, ++request_id, id, {{"take", 1}}), {});
        return false;
      },
      20s));
  server.shut_down();

  // The game's own reason for the move its rules forbid; nothing changed for it.
  const auto errors = ana_connection->of_type("error");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]["id"] == 1);
  CHECK(errors[0]["payload"]["code"] == "illegal_command");
  CHECK(errors[0]["payload"]["message"] == "take one to three tokens, and no more than the pile holds");
  CHECK(ana_connection->of_type("game.command.ok").size() == static_cast<std::size_t>(request_id - 1));

  // Every update Ana got is the module's, with her secret and never the bot's.
  const auto updates = ana_connection->of_type("game.update");
  REQUIRE(updates.size() > 2);
  const int her_secret = updates.front()["payload"]["view"]["secret"].get<int>();
  for (const json& update : updates) CHECK(update["payload"]["view"]["secret"] == her_secret);

  // The end as the module scores it; the log holds its records, in order.
  const json result = ana_connection->of_type("game.over").at(0)["payload"]["result"];
  db::SqliteDatabase database(server.file);
  db::Store store(database);
  const std::vector<db::LoggedCommand> log = store.commands(id);
  REQUIRE(log.size() == updates.back()["payload"]["version"].get<std::size_t>());
  for (std::size_t i = 0; i < log.size(); ++i) {
    CHECK(log[i].seq == static_cast<std::int64_t>(i + 1));
    CHECK(json::parse(log[i].move).contains("take"));
    CHECK(log[i].source == (log[i].seat == 0 ? db::Source::player : db::Source::bot));
  }
  CHECK(result["winners"] == json::array({log.back().seat}));

  // Storage brings it back through the module: the same game, over.
  db::Restored restored = store.live_tables(0, take_away);
  CHECK(restored.failed.empty());
  REQUIRE(restored.tables.size() == 1);
  REQUIRE(restored.tables[0].game);
  CHECK(restored.tables[0].game->over());
  CHECK(restored.tables[0].game->version() == log.size());
  CHECK(restored.tables[0].game->winners() == std::vector<int>{log.back().seat});
}
