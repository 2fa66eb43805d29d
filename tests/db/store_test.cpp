// The database layer on real SQLite files: the schema's migrations from every earlier
// version, what the store writes and reads back, games rebuilt from snapshots and logs
// (and from the log alone when a snapshot cannot be trusted), and SQLite's failures as
// typed errors.

#include <catch2/catch.hpp>
#include <array>
#include <fstream>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/snapshot.hpp"
#include "elgrande/db/sqlite.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/el_grande/module.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/protocol/codec.hpp"
#include "support/temp_dir.hpp"
#include "support/test_database.hpp"

using namespace elgrande;
using elgrande::test::TempDir;
using elgrande::test::TestDatabase;

namespace {

db::TokenHash token_hash(std::uint8_t fill) {
  db::TokenHash hash;
  hash.fill(static_cast<std::byte>(fill));
  return hash;
}

db::SeatRecord seat(std::string kind, std::optional<std::int64_t> player = std::nullopt) {
  db::SeatRecord record;
  record.kind = std::move(kind);
  record.player = player;
  return record;
}

db::TableRecord playing_table(std::int64_t id, std::int64_t host, const Options& options, std::uint64_t seed) {
  db::TableRecord table;
  table.id = id;
  table.name = "Table " + std::to_string(id);
  table.host = host;
  table.status = "playing";
  table.options = protocol::to_json(options);
  table.turn_seconds = 86400;
  table.created_at = 1000;
  table.seed = seed;
  table.started_at = 2000;
  table.seats.push_back(seat("human", host));
  for (int s = 1; s < options.players; ++s) table.seats.push_back(seat("bot"));
  return table;
}

// A random game's first `count` commands (all of them if fewer), as the server logs them.
std::vector<db::LoggedCommand> logged(const GameRecord& record, std::size_t count) {
  std::vector<db::LoggedCommand> commands;
  for (std::size_t i = 0; i < count && i < record.commands.size(); ++i) {
    commands.push_back({static_cast<std::int64_t>(i + 1), record.commands[i].seat,
                        protocol::command_text(record.commands[i].command),
                        i % 3 == 0 ? db::Source::player : db::Source::bot, 5000 + static_cast<std::int64_t>(i)});
  }
  return commands;
}

// The state after the first `count` commands of the record.
GameState state_after(const GameRecord& record, std::size_t count) {
  GameRecord prefix = record;
  prefix.commands.resize(std::min(count, record.commands.size()));
  return replay(prefix).state;
}

// The engine's state inside a restored game.
const GameState& state_of(const std::unique_ptr<games::Game>& game) { return el_grande::state_of(*game); }

// The table's snapshot at `state`, as the server takes it (games::Game::snapshot()).
void save_snapshot(db::Store& store, std::int64_t table, const GameState& state) {
  const std::optional<std::string> bytes = el_grande::game_at(state)->snapshot();
  REQUIRE(bytes);
  store.save_snapshot(table, state.version, *bytes);
}

struct Fixture {
  TestDatabase db;
  std::unique_ptr<db::Database> database;
  std::optional<db::Store> store;
  bool holding = false;  // the log's writes held until a flush, as the database thread's

  explicit Fixture(bool hold = false) : holding(hold) { open(); }
  void open() {
    store.reset();
    database = db.open();
    db::migrate(*database);
    store.emplace(*database);
    store->hold_log_writes(holding);
  }
  // As the database thread commits: what the Store holds written first.
  void commit(db::Transaction& transaction) {
    store->flush_log();
    transaction.commit();
  }
  void add_player(std::int64_t id, const std::string& name) {
    store->insert_player({id, name, token_hash(static_cast<std::uint8_t>(id)), 100 * id});
  }
  // Table 1's snapshot bytes replaced by as many of `make(i)`: damage, as a disk does it.
  template <class Make>
  void damage_snapshot(Make make) {
    db::Statement size = database->prepare("SELECT length(state) FROM snapshots WHERE table_id = 1");
    REQUIRE(size.step());
    std::vector<std::byte> bytes(static_cast<std::size_t>(size.integer(0)));
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = make(i);
    database->prepare("UPDATE snapshots SET state = ?1 WHERE table_id = 1").bind(1, std::span<const std::byte>(bytes)).run();
  }
};

}  // namespace

TEST_CASE("migrations bring an empty database to the latest schema, and are not run twice", "[db]") {
  TestDatabase test;
  const auto opened = test.open();
  db::Database& database = *opened;
  CHECK(database.user_version() == 0);
  db::migrate(database);
  CHECK(database.user_version() == db::latest_schema_version());
  db::migrate(database);  // nothing left to do
  CHECK(database.user_version() == db::latest_schema_version());
  db::Store store(database);
  CHECK(store.players().empty());
  CHECK(store.live_tables(0, el_grande::module()).tables.empty());
}

TEST_CASE("a database written at every earlier schema version migrates with its data intact", "[db][sqlite]") {
  // Played under the rules of the time: its options, as stored then, name no revision.
  Options then{3, false, false, false};
  then.rules_revision = 1;
  const GameRecord game = play_random_game(then, 77);
  for (int version = 1; version < db::latest_schema_version(); ++version) {
    INFO("from schema version " << version);
    TempDir dir;
    const auto file = dir.path() / "old.sqlite";
    {
      // What a server of that version wrote, with that version's columns only.
      db::SqliteDatabase database(file);
      db::migrate(database, version);
      REQUIRE(database.user_version() == version);
      database.execute(
          "INSERT INTO players (id, name, token_hash, created_at) VALUES (1, 'Ana', zeroblob(32), 10);"
          "INSERT INTO tables (id, name, host, status, options, turn_seconds, created_at, seed, started_at) "
          "VALUES (4, 'Old', 1, 'playing', "
          "'{\"players\":3,\"short_game\":false,\"automa\":false,\"four_stacks\":false}', 3600, 20, 77, 30);"
          "INSERT INTO seats (table_id, seat, kind, player) VALUES (4, 0, 'human', 1), (4, 1, 'bot', NULL), "
          "(4, 2, 'bot', NULL);");
      if (version < 3) {
        // A game finished before results were rows: its JSON result becomes rows.
        database.execute(
            "INSERT INTO tables (id, name, host, status, options, turn_seconds, created_at, seed, started_at, "
            "finished_at, result) VALUES (3, 'Done', 1, 'finished', "
            "'{\"players\":3,\"short_game\":false,\"automa\":false,\"four_stacks\":false}', 0, 5, 9, 6, 7, "
            "'{\"scores\":[80,95,95],\"winners\":[1,2]}');"
            "INSERT INTO seats (table_id, seat, kind, player) VALUES (3, 0, 'human', 1), (3, 1, 'bot', NULL), "
            "(3, 2, 'bot', NULL);");
      }
      db::Statement insert = database.prepare(
          "INSERT INTO commands (table_id, seq, seat, command, source, time) VALUES (4, ?1, ?2, ?3, 'player', 40)");
      for (std::size_t i = 0; i < 40; ++i) {
        insert.bind(1, static_cast<std::int64_t>(i + 1))
            .bind(2, game.commands[i].seat)
            .bind(3, protocol::to_json(game.commands[i].command).dump())
            .run();
      }
    }
    db::SqliteDatabase database(file);
    db::migrate(database);
    CHECK(database.user_version() == db::latest_schema_version());
    db::Store store(database);
    const auto players = store.players();
    REQUIRE(players.size() == 1);
    CHECK(players[0].name == "Ana");
    CHECK(store.accounts().all().empty());  // every guest stays a guest
    const db::Restored restored = store.live_tables(1000, el_grande::module());  // not the game finished at 7
    REQUIRE(restored.failed.empty());
    REQUIRE(restored.tables.size() == 1);
    const db::RestoredTable& table = restored.tables[0];
    CHECK(table.table.name == "Old");
    CHECK(table.table.turn_seconds == 3600);
    CHECK(table.table.on_timeout == "bot_answers");  // the default of schema 2
    CHECK(table.table.seats[0].timeouts == 0);
    CHECK(table.table.seats[0].player == 1);
    REQUIRE(table.game);
    CHECK(state_of(table.game) == state_after(game, 40));
    if (version < 3) {
      // The finished game's result as rows: ties share the rank, the player keeps the seat.
      const auto result = store.result(3);
      REQUIRE(result);
      CHECK(result->finished_at == 7);
      CHECK(result->seats ==
            std::vector<db::SeatResult>{{0, 1, 80, 3}, {1, std::nullopt, 95, 1}, {2, std::nullopt, 95, 1}});
    }
    // A log from before the chain is not verified, and is chained with its next command.
    CHECK_FALSE(table.log_verified);
    store.append_commands(4, std::vector<db::LoggedCommand>{{41, game.commands[40].seat,
                                                             protocol::command_text(game.commands[40].command),
                                                             db::Source::player, 50}});
    const db::Restored chained = store.live_tables(1000, el_grande::module());
    REQUIRE(chained.tables.size() == 1);
    CHECK(chained.tables[0].log_verified);
    CHECK(state_of(chained.tables[0].game) == state_after(game, 41));
  }
}

TEST_CASE("logs chained before schema 12 keep their length and head through its migration", "[db]") {
  // Schema 12 moves each log's length and head from the table's row to log_heads.
  Options then{3, false, false, false};
  then.rules_revision = 1;  // the options as stored then name no revision
  const GameRecord game = play_random_game(then, 77);
  TestDatabase test;
  const auto database = test.open();
  db::migrate(*database, 11);
  const std::array<std::byte, 32> token_hash{};
  database->prepare("INSERT INTO players (id, name, token_hash, created_at) VALUES (1, 'Ana', ?1, 10)")
      .bind(1, std::span<const std::byte>(token_hash))
      .run();
  // Table 4's log whole, table 5's cut short by its last row after its head was written.
  for (const std::int64_t id : {4, 5}) {
    database->execute(
        "INSERT INTO tables (id, name, host, status, options, turn_seconds, created_at, seed, started_at) VALUES (" +
        std::to_string(id) +
        ", 'Chained', 1, 'playing', '{\"players\":3,\"short_game\":false,\"automa\":false,\"four_stacks\":false}', "
        "0, 20, 77, 30)");
    db::Statement insert = database->prepare(
        "INSERT INTO commands (table_id, seq, seat, command, source, time, chain) VALUES (?1, ?2, ?3, ?4, 'player', 40, ?5)");
    std::int64_t head = 0;
    for (std::size_t i = 0; i < 40; ++i) {
      const auto seq = static_cast<std::int64_t>(i + 1);
      const std::string text = protocol::to_json(game.commands[i].command).dump();
      head = db::log_chain(head, seq, game.commands[i].seat, text, "player", 40);
      insert.bind(1, id).bind(2, seq).bind(3, game.commands[i].seat).bind(4, text).bind(5, head).run();
    }
    database->execute("UPDATE tables SET log_length = 40, log_head = " + std::to_string(head) +
                      " WHERE id = " + std::to_string(id));
  }
  database->execute("DELETE FROM commands WHERE table_id = 5 AND seq = 40");

  db::migrate(*database);
  db::Store store(*database);
  const db::Restored restored = store.live_tables(0, el_grande::module());
  REQUIRE(restored.tables.size() == 1);
  CHECK(restored.tables[0].table.id == 4);
  CHECK(restored.tables[0].log_verified);
  CHECK(state_of(restored.tables[0].game) == state_after(game, 40));
  REQUIRE(restored.failed.size() == 1);
  CHECK(restored.failed[0].table == 5);
  const auto cut = store.check_log(5);
  CHECK(cut.recorded_length == 40);
  CHECK(cut.rows == 39);
  CHECK_FALSE(cut.head_matches);
}

TEST_CASE("a database from a newer server is refused, not touched", "[db]") {
  TestDatabase test;
  test.open()->set_user_version(db::latest_schema_version() + 1);
  const auto database = test.open();
  CHECK_THROWS_AS(db::migrate(*database), db::SchemaTooNew);
  CHECK(database->user_version() == db::latest_schema_version() + 1);
}

TEST_CASE("SQLite's failures arrive as typed errors", "[db][sqlite]") {
  TempDir dir;
  SECTION("a file that is not a database") {
    const auto file = dir.path() / "text.sqlite";
    std::ofstream(file) << std::string(4096, 'x');
    try {
      db::SqliteDatabase database(file);
      FAIL("opened a text file");
    } catch (const db::Error& error) {
      CHECK(error.kind() == db::Error::Kind::not_a_database);
      CHECK_FALSE(error.transient());
    }
  }
  SECTION("a missing file without create") {
    CHECK_THROWS_AS(db::SqliteDatabase(dir.path() / "missing.sqlite", db::OpenOptions{.create = false}), db::Error);
  }
  SECTION("a write lock held by another connection, past the busy timeout") {
    const auto file = dir.path() / "busy.sqlite";
    db::SqliteDatabase holder(file);
    db::SqliteDatabase waiter(file, db::OpenOptions{.busy_timeout_ms = 50});
    db::Transaction held(holder);
    try {
      db::Transaction blocked(waiter);
      FAIL("took a write lock that another connection holds");
    } catch (const db::Error& error) {
      CHECK(error.kind() == db::Error::Kind::busy);
      CHECK(error.transient());
    }
  }
  SECTION("a constraint") {
    Fixture f;
    f.add_player(1, "Ana");
    try {
      f.add_player(1, "Ana again");
      FAIL("two players with one id");
    } catch (const db::Error& error) {
      CHECK(error.kind() == db::Error::Kind::constraint);
    }
  }
}

TEST_CASE("a transaction that is not committed leaves nothing behind", "[db]") {
  Fixture f;
  {
    db::Transaction transaction(*f.database);
    f.add_player(1, "Ana");
  }
  CHECK(f.store->players().empty());
  {
    db::Transaction transaction(*f.database);
    f.add_player(1, "Ana");
    transaction.commit();
  }
  CHECK(f.store->players().size() == 1);
}

TEST_CASE("players and tables read back as they were written", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  f.add_player(2, "Bea");
  f.store->rename_player(2, "Beatriz");
  const auto players = f.store->players();
  REQUIRE(players.size() == 2);
  CHECK(players[1].name == "Beatriz");
  CHECK(players[1].token_hash == token_hash(2));

  db::TableRecord open;
  open.id = 3;
  open.name = "Friday";
  open.host = 1;
  open.options = protocol::to_json(Options{4, true, false, false});
  open.turn_seconds = 30;
  open.on_timeout = "replace_seat";
  open.replace_after = 2;
  open.created_at = 99;
  open.seats = {seat("human", 1), seat("human", 2), seat("bot"), seat("empty")};
  open.seats[1].deadline = 123456;
  open.seats[1].timeouts = 1;
  f.store->save_table(open);
  f.open();  // a fresh connection reads the file
  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.tables.size() == 1);
  CHECK(restored.tables[0].table == open);
  CHECK_FALSE(restored.tables[0].game);
  CHECK(f.store->max_table_id() == 3);

  f.store->delete_table(3);
  CHECK(f.store->live_tables(0, el_grande::module()).tables.empty());
}

TEST_CASE("a table saved against its last save reads back whole: the seats and the row that changed are written", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  f.add_player(2, "Bea");
  db::TableRecord table;
  table.id = 4;
  table.name = "Monday";
  table.host = 1;
  table.options = protocol::to_json(Options{4, true, false, false});
  table.created_at = 7;
  table.seats = {seat("human", 1), seat("empty"), seat("empty"), seat("empty")};
  f.store->save_table(table);

  db::TableRecord joined = table;  // a seat taken: that seat alone differs
  joined.seats[2] = seat("human", 2);
  f.store->save_table(joined, &table);
  REQUIRE(f.store->live_tables(0, el_grande::module()).tables.size() == 1);
  CHECK(f.store->live_tables(0, el_grande::module()).tables[0].table == joined);

  db::TableRecord renamed = joined;  // the row alone differs
  renamed.name = "Monday night";
  renamed.turn_seconds = 60;
  f.store->save_table(renamed, &joined);
  CHECK(f.store->live_tables(0, el_grande::module()).tables[0].table == renamed);

  db::TableRecord both = renamed;  // the row and two seats
  both.on_timeout = "replace_seat";
  both.seats[0].timeouts = 2;
  both.seats[3] = seat("bot");
  f.store->save_table(both, &renamed);
  f.open();  // a fresh connection reads the file
  CHECK(f.store->live_tables(0, el_grande::module()).tables[0].table == both);
}

TEST_CASE("accounts and their sessions read back as written, usernames unique ignoring case", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  f.add_player(2, "Bea");
  const db::AccountRecord ana{1, "Ana_P", "$argon2id$v=19$m=19456,t=2,p=1$salt$hash", "player", 500};
  f.store->accounts().insert(ana);
  CHECK_THROWS_AS(f.store->accounts().insert({2, "ana_p", "x", "player", 600}), db::Error);
  f.store->accounts().set_password(1, "$argon2id$new");
  f.store->accounts().set_role(1, "moderator");
  f.store->accounts().retire_guest_token(1, token_hash(0xEE));

  f.store->accounts().insert_session({7, 1, token_hash(0x71), 1000, 1000, "Firefox on Linux"});
  f.store->accounts().insert_session({8, 1, token_hash(0x81), 2000, 2000, "phone"});
  f.store->accounts().insert_session({9, 1, token_hash(0x91), 3000, 3000, "laptop"});
  f.store->accounts().touch_session(7, 5000);
  f.open();
  db::AccountRecord expected = ana;
  expected.password_hash = "$argon2id$new";
  expected.role = "moderator";
  CHECK(f.store->accounts().all() == std::vector{expected});
  CHECK(f.store->accounts().find("ANA_p") == expected);
  CHECK_FALSE(f.store->accounts().find("Bea"));
  CHECK(f.store->players()[0].token_hash == token_hash(0xEE));  // the guest token no longer works
  CHECK(f.store->accounts().max_player_id() == 2);

  auto sessions = f.store->accounts().sessions();
  REQUIRE(sessions.size() == 3);
  CHECK(sessions[0] == db::SessionRecord{7, 1, token_hash(0x71), 1000, 5000, "Firefox on Linux"});
  CHECK(f.store->accounts().end_idle_sessions(2500) == 1);  // session 8, idle since 2000
  f.store->accounts().end_sessions(1, 9);                   // every other session
  sessions = f.store->accounts().sessions();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].id == 9);
  f.store->accounts().end_session(9);
  CHECK(f.store->accounts().sessions().empty());
}

TEST_CASE("sanctions replace one of their kind and are lifted, the audit log pages newest first, blocks are pairs", "[db]") {
  Fixture f;
  f.add_player(1, "Mod");
  f.add_player(2, "Troll");
  f.store->moderation().impose({2, "mute", 5000, "spam"});
  f.store->moderation().impose({2, "mute", 9000, "more spam"});  // replaces the first
  f.store->moderation().impose({2, "ban", std::nullopt, "threats"});
  f.open();
  CHECK(f.store->moderation().sanctions() ==
        std::vector<db::SanctionRecord>{{2, "ban", std::nullopt, "threats"}, {2, "mute", 9000, "more spam"}});
  f.store->moderation().lift(2, "ban");
  CHECK(f.store->moderation().sanctions().size() == 1);

  for (int i = 1; i <= 5; ++i) f.store->moderation().audit({0, 100 * i, 1, "mute", 2, "until " + std::to_string(i), "r"});
  const auto newest = f.store->moderation().audit_log(std::nullopt, 2);
  REQUIRE(newest.size() == 2);
  CHECK(newest[0] == db::AuditEntry{5, 500, 1, "mute", 2, "until 5", "r"});
  const auto older = f.store->moderation().audit_log(newest[1].id, 10);
  REQUIRE(older.size() == 3);
  CHECK(older[0].id == 3);
  CHECK(older[2].id == 1);

  f.store->moderation().block(1, 2);
  f.store->moderation().block(1, 2);  // once is enough
  f.store->moderation().block(2, 1);
  f.store->moderation().unblock(2, 1);
  CHECK(f.store->moderation().blocks() == std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 2}});
}

TEST_CASE("a table comes back with its last chat lines, oldest first, under the players' names", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  f.add_player(2, "Bea");
  db::TableRecord table;
  table.id = 4;
  table.name = "Slow game";
  table.host = 1;
  table.options = protocol::to_json(Options{3, false, false, false});
  table.created_at = 99;
  table.seats = {seat("human", 1), seat("empty"), seat("bot")};
  f.store->save_table(table);
  const int said = db::kRecentChat + 10;
  for (int i = 0; i < said; ++i) {
    const bool ana = i % 2 == 0;  // Ana is seated; Bea only watches
    f.store->add_chat(4, {ana ? 1 : 2, "", ana ? std::optional<int>(0) : std::nullopt,
                          "line " + std::to_string(i), 1000 + i});
  }
  f.store->rename_player(2, "Beatriz");
  f.open();

  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.tables.size() == 1);
  const std::vector<db::ChatLine>& chat = restored.tables[0].chat;
  REQUIRE(chat.size() == db::kRecentChat);
  CHECK(chat.front().text == "line 10");
  CHECK(chat.front().time == 1010);
  CHECK(chat.front().player == 1);
  CHECK(chat.front().name == "Ana");
  CHECK(chat.front().seat == 0);
  CHECK(chat.back().text == "line " + std::to_string(said - 1));
  CHECK(chat.back().name == "Beatriz");  // as the player is called now
  CHECK_FALSE(chat.back().seat);
  CHECK(f.store->recent_chat(4, 3).front().text == "line " + std::to_string(said - 3));
  CHECK(f.store->recent_chat(5, 3).empty());

  // Lines keep the ids the server gave them; a removed one keeps no text.
  CHECK(chat.back().id == said);
  f.store->add_chat(4, {1, "", 0, "rude", 2000, 500});
  f.store->remove_chat(4, 500, 2);
  const db::ChatLine removed = f.store->recent_chat(4, 1).front();
  CHECK(removed.id == 500);
  CHECK(removed.removed);
  CHECK(removed.text.empty());
  CHECK(f.store->max_chat_id() == 500);
}

TEST_CASE("a game is rebuilt from its snapshot and the commands after it, or from the log alone", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  const Options options{4, false, false, false};
  const GameRecord game = play_random_game(options, 2024);
  REQUIRE(game.commands.size() > 100);
  f.store->save_table(playing_table(1, 1, options, 2024));
  const auto commands = logged(game, 70);
  f.store->append_commands(1, std::span(commands).first(64));
  save_snapshot(*f.store, 1, state_after(game, 64));
  f.store->append_commands(1, std::span(commands).subspan(64));

  SECTION("the snapshot is used") {
    const db::Restored restored = f.store->live_tables(0, el_grande::module());
    REQUIRE(restored.tables.size() == 1);
    CHECK(restored.tables[0].replayed == 6);
    CHECK(state_of(restored.tables[0].game) == state_after(game, 70));
  }
  SECTION("a damaged snapshot is ignored") {
    f.damage_snapshot([](std::size_t) { return std::byte{0}; });
    const db::Restored restored = f.store->live_tables(0, el_grande::module());
    REQUIRE(restored.tables.size() == 1);
    CHECK(restored.tables[0].replayed == 70);
    CHECK(state_of(restored.tables[0].game) == state_after(game, 70));
  }
  SECTION("a snapshot of another layout is refused by the module, and the whole log replayed") {
    // The layout tag is the bytes' first: another build's tag, under a checksum that matches.
    db::Statement row = f.database->prepare("SELECT seq, state FROM snapshots WHERE table_id = 1");
    REQUIRE(row.step());
    const std::vector<std::byte> bytes = row.blob(1);
    std::string other(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    other[0] = static_cast<char>(other[0] + 1);
    f.store->save_snapshot(1, row.integer(0), other);
    const db::Restored restored = f.store->live_tables(0, el_grande::module());
    CHECK(restored.tables[0].replayed == 70);
    CHECK(state_of(restored.tables[0].game) == state_after(game, 70));
    CHECK_THAT(restored.tables[0].snapshot_refused.value_or(""), Catch::Contains("layout"));
  }
  SECTION("a snapshot row written before the module owned the bytes is refused, and the whole log replayed") {
    // As the build before wrote it: the engine's bare state, its layout in the format column
    // ((4 << 32) | its size), the checksum of the bytes in `hash`.
    const GameState state = state_after(game, 64);
    db::SnapshotRow old = db::snapshot_row(64, std::string(reinterpret_cast<const char*>(&state), sizeof state));
    old.format = (std::int64_t{4} << 32) | static_cast<std::int64_t>(sizeof(GameState));
    f.database->prepare("UPDATE snapshots SET seq = ?1, format = ?2, state = ?3, hash = ?4 WHERE table_id = 1")
        .bind(1, old.seq)
        .bind(2, old.format)
        .bind(3, std::as_bytes(std::span(old.state.data(), old.state.size())))
        .bind(4, old.checksum)
        .run();
    const db::Restored restored = f.store->live_tables(0, el_grande::module());
    REQUIRE(restored.failed.empty());
    REQUIRE(restored.tables.size() == 1);
    CHECK(restored.tables[0].replayed == 70);
    CHECK(state_of(restored.tables[0].game) == state_after(game, 70));
    CHECK_THAT(restored.tables[0].snapshot_refused.value_or(""), Catch::Contains("another build's layout"));
  }
  SECTION("random bytes in a snapshot are never taken for a game") {
    std::mt19937 random(7);
    for (int attempt = 0; attempt < 30; ++attempt) {
      f.damage_snapshot([&random](std::size_t) { return static_cast<std::byte>(random()); });
      const db::Restored restored = f.store->live_tables(0, el_grande::module());
      REQUIRE(restored.tables.size() == 1);
      CHECK(state_of(restored.tables[0].game) == state_after(game, 70));
      CHECK_THAT(restored.tables[0].snapshot_refused.value_or(""), Catch::Contains("checksum"));
    }
  }
  SECTION("a snapshot the log after it does not follow is dropped for the whole log") {
    save_snapshot(*f.store, 1, state_after(game, 90));  // ahead of the log
    const db::Restored restored = f.store->live_tables(0, el_grande::module());
    REQUIRE(restored.tables.size() == 1);
    CHECK(restored.tables[0].replayed == 70);
    CHECK(state_of(restored.tables[0].game) == state_after(game, 70));
    CHECK_THAT(restored.tables[0].snapshot_refused.value_or(""), Catch::Contains("does not replay"));
  }
  SECTION("no snapshot at all") {
    f.store->delete_snapshot(1);
    const db::Restored restored = f.store->live_tables(0, el_grande::module());
    CHECK(restored.tables[0].replayed == 70);
    CHECK(hash(state_of(restored.tables[0].game)) == hash(state_after(game, 70)));
  }
}

TEST_CASE("a snapshot row gives back its bytes only when they match their checksum", "[db]") {
  const GameState state = state_after(play_random_game(Options{3, false, false, true}, 77), 40);
  const std::string bytes = *el_grande::game_at(state)->snapshot();
  const db::SnapshotRow row = db::snapshot_row(40, bytes);
  CHECK(row.seq == 40);
  CHECK(row.format == db::kModuleSnapshot);
  std::string refused;
  CHECK(db::snapshot_bytes(row, refused) == bytes);
  CHECK(refused.empty());

  db::SnapshotRow damaged = row;
  SECTION("a changed byte") {
    damaged.state[damaged.state.size() / 2] ^= 0x10;
    CHECK_FALSE(db::snapshot_bytes(damaged, refused));
    CHECK_THAT(refused, Catch::Contains("checksum"));
  }
  SECTION("a byte short") {
    damaged.state.pop_back();
    CHECK_FALSE(db::snapshot_bytes(damaged, refused));
    CHECK_THAT(refused, Catch::Contains("checksum"));
  }
}

TEST_CASE("a snapshot whose version is not its row's is dropped for the whole log", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  const Options options{3, false, false, false};
  const GameRecord game = play_random_game(options, 8);
  f.store->save_table(playing_table(1, 1, options, 8));
  f.store->append_commands(1, logged(game, 50));
  // The state at 40 filed under 32: the log after row 32 replays on it, but to the wrong end.
  const GameState state = state_after(game, 40);
  f.store->save_snapshot(1, 32, *el_grande::game_at(state)->snapshot());
  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.tables.size() == 1);
  CHECK(restored.tables[0].replayed == 50);
  CHECK(state_of(restored.tables[0].game) == state_after(game, 50));
  CHECK(restored.tables[0].snapshot_refused.has_value());
}

TEST_CASE("a seat may still take back its last move after a restart, from a snapshot and the log after it", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  const Options options{3, false, false, false};
  const GameRecord game = play_random_game(options, 11);
  // The player's own moves are every third (logged()): the first after row 40 that the
  // engine lets its seat take back.
  std::optional<std::size_t> count;
  for (std::size_t n = 43; n < game.commands.size() && !count; n += 3) {
    GameRecord prefix = game;
    prefix.commands.resize(n);
    for (std::size_t i = 0; i < n; ++i) prefix.commands[i].played_for = i % 3 != 0;
    if (replay(prefix).history.can_undo(game.commands[n - 1].seat)) count = n;
  }
  REQUIRE(count);
  const int seat = game.commands[*count - 1].seat;
  f.store->save_table(playing_table(1, 1, options, 11));
  const auto commands = logged(game, *count);
  f.store->append_commands(1, std::span(commands).first(40));
  save_snapshot(*f.store, 1, state_after(game, 40));
  f.store->append_commands(1, std::span(commands).subspan(40));
  f.open();  // the restart

  db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.tables.size() == 1);
  CHECK(restored.tables[0].replayed == *count - 40);
  CHECK_FALSE(restored.tables[0].snapshot_refused);
  games::Game& restarted = *restored.tables[0].game;
  CHECK(restarted.can_undo(seat));
  CHECK_FALSE(restarted.snapshot());  // nothing is snapshotted while a move may be taken back
  const auto undone = restarted.apply(seat, *el_grande::move_of(Undo{}));
  REQUIRE(std::holds_alternative<games::Step>(undone));
  CHECK(el_grande::state_of(restarted).version == *count + 1);
  CHECK_FALSE(restarted.can_undo(seat));
}

TEST_CASE("a game whose log the module refuses is reported and the others are restored", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  const Options options{3, false, false, false};
  const GameRecord good = play_random_game(options, 5);
  const GameRecord other = play_random_game(options, 6);
  f.store->save_table(playing_table(1, 1, options, 5));
  f.store->append_commands(1, logged(good, 30));
  f.store->save_table(playing_table(2, 1, options, 5));  // the log below is another game's
  f.store->append_commands(2, logged(other, 30));
  f.store->save_table(playing_table(3, 1, options, 5));
  auto gap = logged(good, 30);
  gap.erase(gap.begin() + 10);  // command 11 is missing
  f.store->append_commands(3, gap);

  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.tables.size() == 1);
  CHECK(restored.tables[0].table.id == 1);
  REQUIRE(restored.failed.size() == 2);
  CHECK(restored.failed[0].table == 2);
  CHECK_THAT(restored.failed[0].reason, Catch::Contains("the engine refuses command"));
  CHECK(restored.failed[1].table == 3);
  CHECK_THAT(restored.failed[1].reason, Catch::Contains("command 11 is missing"));
}

TEST_CASE("a log damaged or cut short on the disk is found at start, and only its table is refused", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  const Options options{3, false, false, false};
  const GameRecord game = play_random_game(options, 5);
  for (std::int64_t id = 1; id <= 3; ++id) {
    f.store->save_table(playing_table(id, 1, options, 5));
    const auto commands = logged(game, 40);
    f.store->append_commands(id, std::span(commands).first(20));  // saved in two goes
    f.store->append_commands(id, std::span(commands).subspan(20));
  }
  f.store->settle_log();  // the newest commands into the logs, as when the server stops
  // Table 2 loses its last ten commands (the page holding them was lost); table 3 has
  // one command changed (a bit flipped on the disk, still valid JSON).
  f.database->execute("DELETE FROM commands WHERE table_id = 2 AND seq > 30");
  f.database->execute(
      "UPDATE commands SET time = time + 1 WHERE table_id = 3 AND seq = 7");

  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.tables.size() == 1);
  CHECK(restored.tables[0].table.id == 1);
  CHECK(restored.tables[0].log_verified);
  CHECK(state_of(restored.tables[0].game) == state_after(game, 40));
  REQUIRE(restored.failed.size() == 2);
  CHECK(restored.failed[0].table == 2);
  CHECK_THAT(restored.failed[0].reason, Catch::Contains("recorded 40 commands"));
  CHECK(restored.failed[1].table == 3);
  CHECK_THAT(restored.failed[1].reason, Catch::Contains("command 7 does not match the log's hash chain"));

  // What an operator sees of each.
  const auto sound = f.store->check_log(1);
  CHECK(sound.head_matches);
  CHECK(sound.rows == 40);
  const auto cut = f.store->check_log(2);
  CHECK_FALSE(cut.head_matches);
  CHECK(cut.rows == 30);
  CHECK(cut.recorded_length == 40);
  CHECK_FALSE(cut.first_bad_row);
  const auto changed = f.store->check_log(3);
  CHECK_FALSE(changed.head_matches);
  CHECK(changed.first_bad_row == 7);
  CHECK_FALSE(f.store->check_log(99).table_found);
}

TEST_CASE("a row damaged in the command ring is found at start like one in the log", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  const Options options{3, false, false, false};
  const GameRecord game = play_random_game(options, 5);
  f.store->save_table(playing_table(1, 1, options, 5));
  f.store->append_commands(1, logged(game, 30));
  // Still in the ring on SQLite; PostgreSQL's go straight into the log.
  f.database->execute(std::string("UPDATE ") +
                      (f.database->backend() == db::Backend::sqlite ? "command_ring" : "commands") +
                      " SET time = time + 1 WHERE table_id = 1 AND seq = 29");

  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.failed.size() == 1);
  CHECK_THAT(restored.failed[0].reason, Catch::Contains("command 29 does not match the log's hash chain"));
  CHECK(f.store->check_log(1).first_bad_row == 29);
}

// Tables 1 to `tables`, hosted by Ana, each playing a random game whose first `commands`
// commands are ready to log.
struct PlayingTables {
  std::vector<GameRecord> games;
  std::vector<std::vector<db::LoggedCommand>> logs;
};
PlayingTables save_playing_tables(Fixture& f, const Options& options, std::int64_t tables, std::size_t commands) {
  f.add_player(1, "Ana");
  PlayingTables made;
  for (std::int64_t id = 1; id <= tables; ++id) {
    made.games.push_back(play_random_game(options, static_cast<std::uint64_t>(id)));
    REQUIRE(made.games.back().commands.size() >= commands);
    made.logs.push_back(logged(made.games.back(), commands));
    f.store->save_table(playing_table(id, 1, options, static_cast<std::uint64_t>(id)));
  }
  return made;
}

TEST_CASE("through several turns of the command ring, across a reopen and a transaction rolled back, every "
          "table's log reads back whole, its writes held to the commit or not",
          "[db]") {
  const bool holding = GENERATE(false, true);
  INFO((holding ? "held to the commit" : "written at once"));
  Fixture f(holding);
  const Options options{3, false, false, false};
  constexpr std::int64_t kTables = 40;
  constexpr std::size_t kCommands = 120;  // 4,800 rows: the ring of 4,096 turns over
  const auto [games, logs] = save_playing_tables(f, options, kTables, kCommands);
  // One command of every table per transaction, as a busy server's commits carry them.
  const auto append_round = [&](std::size_t round) {
    for (std::int64_t id = 1; id <= kTables; ++id) {
      f.store->append_commands(id, std::span(logs[static_cast<std::size_t>(id - 1)]).subspan(round, 1));
    }
  };
  for (std::size_t round = 0; round < kCommands; ++round) {
    if (round == 102) {
      // The ring turns over here (row 4,096 is in this round), so these appends copy
      // tables' rows out of it. The commit fails: the Store forgets what it did, and the
      // same appends succeed the next time.
      {
        db::Transaction failing(*f.database);
        append_round(round);
      }  // rolled back
      f.store->forget_log_ring();
    }
    db::Transaction transaction(*f.database);
    append_round(round);
    // Read in the transaction, a log has what was appended, held or not.
    if (round == 50) CHECK(f.store->commands(kTables).size() == round + 1);
    f.commit(transaction);
    if (round == 106) f.open();  // another Store on the database, as after a restart without a stop
  }
  db::Statement copied = f.database->prepare("SELECT count(*) FROM commands");
  REQUIRE(copied.step());
  if (f.database->backend() == db::Backend::sqlite) {
    CHECK(copied.integer(0) > 0);  // the ring turned over: some rows were copied
    CHECK(copied.integer(0) < kTables * static_cast<std::int64_t>(kCommands));
  } else {
    // PostgreSQL's commands go straight into the log (the ring is SQLite's).
    CHECK(copied.integer(0) == kTables * static_cast<std::int64_t>(kCommands));
  }

  const auto every_log_whole = [&] {
    for (std::int64_t id = 1; id <= kTables; ++id) {
      INFO("table " << id);
      const auto& expected = logs[static_cast<std::size_t>(id - 1)];
      const auto stored = f.store->commands(id);
      REQUIRE(stored.size() == expected.size());
      for (std::size_t i = 0; i < stored.size(); ++i) {
        CHECK(stored[i].seq == expected[i].seq);
        CHECK(stored[i].move == expected[i].move);
      }
      const auto check = f.store->check_log(id);
      CHECK(check.head_matches);
      CHECK(check.rows == static_cast<std::int64_t>(kCommands));
    }
    db::Statement all = f.database->prepare("SELECT count(*) FROM command_log");
    REQUIRE(all.step());
    CHECK(all.integer(0) == kTables * static_cast<std::int64_t>(kCommands));
  };
  every_log_whole();
  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  REQUIRE(restored.failed.empty());
  REQUIRE(restored.tables.size() == static_cast<std::size_t>(kTables));
  for (const auto& table : restored.tables) {
    CHECK(state_of(table.game) == state_after(games[static_cast<std::size_t>(table.table.id - 1)], kCommands));
  }

  {
    db::Transaction settling(*f.database);
    f.store->settle_log();
    settling.commit();
  }
  db::Statement ring = f.database->prepare("SELECT count(*) FROM command_ring");
  REQUIRE(ring.step());
  CHECK(ring.integer(0) == 0);
  every_log_whole();
}

TEST_CASE("finished games: history, paging, and their logs", "[db]") {
  Fixture f;
  f.add_player(1, "Ana");
  f.add_player(2, "Bea");
  const Options options{2, true, false, false};
  for (std::int64_t id = 1; id <= 5; ++id) {
    const GameRecord game = play_random_game(options, static_cast<std::uint64_t>(id));
    db::TableRecord table = playing_table(id, 1, options, static_cast<std::uint64_t>(id));
    if (id % 2 == 0) table.seats[1] = seat("human", 2);
    table.status = "finished";
    table.finished_at = 9000 + id;
    f.store->save_table(table);
    f.store->save_result(db::GameResult{id, 9000 + id, {{0, 1, 40, 2}, {1, table.seats[1].player, 50, 1}}});
    f.store->append_commands(id, logged(game, game.commands.size()));
  }
  const auto everyone = f.store->finished_games(std::nullopt, std::nullopt, 10);
  REQUIRE(everyone.size() == 5);
  CHECK(everyone[0].table.id == 5);  // newest first
  REQUIRE(everyone[0].results.size() == 2);
  CHECK(everyone[0].results[0] == db::SeatResult{0, 1, 40, 2});
  CHECK(everyone[0].results[1] == db::SeatResult{1, std::nullopt, 50, 1});
  CHECK(f.store->result(4)->seats[1].player == 2);
  CHECK(everyone[0].names[0] == "Ana");
  CHECK_FALSE(everyone[0].names[1]);
  const auto beas = f.store->finished_games(2, std::nullopt, 10);
  REQUIRE(beas.size() == 2);
  CHECK(beas[0].table.id == 4);
  CHECK(beas[0].names[1] == "Bea");
  const auto page = f.store->finished_games(std::nullopt, 4, 2);
  REQUIRE(page.size() == 2);
  CHECK(page[0].table.id == 3);
  CHECK(page[1].table.id == 2);

  const auto one = f.store->finished_game(3);
  REQUIRE(one);
  CHECK(one->table.seed == 3u);
  const auto commands = f.store->commands(3);
  const GameRecord game = play_random_game(options, 3);
  REQUIRE(commands.size() == game.commands.size());
  CHECK(commands[0].move == protocol::command_text(game.commands[0].command));
  CHECK(commands[0].source == db::Source::player);
  CHECK(commands[1].source == db::Source::bot);
  CHECK(commands[1].time == 5001);
  // Finished games are not brought back unless they ended recently.
  CHECK(f.store->live_tables(0, el_grande::module()).tables.size() == 5);
  CHECK(f.store->live_tables(9004, el_grande::module()).tables.size() == 2);
  CHECK(f.store->live_tables(10000, el_grande::module()).tables.empty());
}

TEST_CASE("a finished game's result ranks the seats by score, ties sharing a rank", "[db]") {
  const Options options{4, true, false, false};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const GameState game = replay(play_random_game(options, seed)).state;
    REQUIRE(is_over(game));
    std::vector<int> scores;
    for (int s = 0; s < options.players; ++s) scores.push_back(game.players[static_cast<std::size_t>(s)].score);
    const db::GameResult result = db::result_of(7, 99, scores, {1, std::nullopt, 3, 4});
    REQUIRE(result.seats.size() == 4);
    CHECK(result.seats[1].player == std::nullopt);
    CHECK(result.seats[2].player == 3);
    const std::uint8_t won = winners(game);
    for (const db::SeatResult& seat : result.seats) {
      CHECK(seat.score == game.players[static_cast<std::size_t>(seat.seat)].score);
      CHECK((seat.rank == 1) == (((won >> seat.seat) & 1u) != 0));  // the engine's winners are first
      int better = 0;
      for (const db::SeatResult& other : result.seats) better += other.score > seat.score;
      CHECK(seat.rank == better + 1);
    }
  }
}

TEST_CASE("a backup is a complete copy, taken while the database is in use", "[db][sqlite]") {
  Fixture f;
  f.add_player(1, "Ana");
  db::Transaction open_elsewhere(*f.database);  // a writer in the middle of its work
  f.add_player(2, "Bea");
  db::SqliteDatabase reader(f.db.location());
  reader.backup_to(f.db.dir().path() / "copy.sqlite");
  db::SqliteDatabase copy(f.db.dir().path() / "copy.sqlite");
  db::Store store(copy);
  const auto players = store.players();
  REQUIRE(players.size() == 1);  // the uncommitted player is not in it
  CHECK(players[0].name == "Ana");
  CHECK(copy.user_version() == db::latest_schema_version());
}

TEST_CASE("a table deleted with rows in the command ring takes them along, and the ring turns over past them",
          "[db]") {
  const bool holding = GENERATE(false, true);
  INFO((holding ? "held to the commit" : "written at once"));
  Fixture f(holding);
  const Options options{3, false, false, false};
  constexpr std::int64_t kTables = 36;
  constexpr std::size_t kCommands = 120;  // 4,320 rows: the ring of 4,096 turns over
  const auto [games, logs] = save_playing_tables(f, options, kTables, kCommands);
  for (std::size_t round = 0; round < kCommands; ++round) {
    db::Transaction transaction(*f.database);
    for (std::int64_t id = round < 10 ? 1 : 2; id <= kTables; ++id) {
      f.store->append_commands(id, std::span(logs[static_cast<std::size_t>(id - 1)]).subspan(round, 1));
    }
    if (round == 9) f.store->delete_table(1);  // its ten rows were the ring's first
    f.commit(transaction);
  }
  CHECK(f.store->commands(1).empty());
  for (std::int64_t id = 2; id <= kTables; ++id) {
    INFO("table " << id);
    CHECK(f.store->commands(id).size() == kCommands);
    CHECK(f.store->check_log(id).head_matches);
  }
  const db::Restored restored = f.store->live_tables(0, el_grande::module());
  CHECK(restored.failed.empty());
  CHECK(restored.tables.size() == static_cast<std::size_t>(kTables - 1));
}
