// Play now without sockets (docs/ratings.md#play-now): players who ask for the same game
// and clock sit together when their ratings are close, a player far from the others keeps
// waiting, a player who leaves (or whose connection closes) is not seated, and one who
// welcomes bots gets a table of bots after the wait they chose. The tables are real ones,
// made by the factory and saved to a SQLite file.
#include <catch2/catch.hpp>

#include <set>

#include "server/server_world.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
using nlohmann::json;
using namespace std::chrono_literals;

// A play-now wish as the server reads it, for El Grande.
static elgrande::protocol::Decoded<PlayRequest> wish_of(const json& payload) {
  return play_request_from_json(payload, elgrande::el_grande::module());
}

// Named, not anonymous: the tests are built in unity batches with other files.
namespace elgrande::test::play_now_tests {

// The server's, not the engine's (elgrande::Player is a seat's holdings).
using server::Player;
using server::PlayerId;

const Player eva{5, "Eva"};
const Player fay{6, "Fay"};
const std::vector<Member> kPlayers{{ana, std::nullopt}, {ben, std::nullopt}, {cid, std::nullopt},
                                   {dee, std::nullopt}, {eva, std::nullopt}, {fay, std::nullopt}};

// Sets a player's shown rating on a ladder (1000 + 40 * (mu - 3 sigma)).
void rate(World& world, PlayerId player, const std::string& ladder, int shown) {
  world.ratings.rated({player * 10, player, ladder, 0, {{player, 1, 25, 8.3, (shown - 1000) / 40.0 + 3, 1}}});
  REQUIRE(world.ratings.displayed(player, ladder) == shown);
}

PlayRequest wish(json payload) {
  auto decoded = wish_of(payload);
  REQUIRE(decoded);
  return decoded.value();
}

const json kThreeShort = {{"players", 3}, {"short_game", true}};

std::shared_ptr<RecordingClient> join(World& world, const Player& player, const json& payload, std::int64_t id = 1) {
  auto client = world.connect(player);
  world.matchmaker->join(client, player, wish(payload), protocol::RequestId{id});
  return client;
}

bool matched(const RecordingClient& client) { return !client.of_type("play.matched").empty(); }


TEST_CASE("Players close in rating who ask for the same game sit together at once, at a table that starts") {
  World world(kPlayers);
  rate(world, ana.id, "3p-short", 1000);
  rate(world, ben.id, "3p-short", 1040);
  rate(world, cid.id, "3p-short", 1080);
  const auto a = join(world, ana, kThreeShort, 11);
  const auto b = join(world, ben, kThreeShort, 12);
  REQUIRE(world.run_until([&] { return a->answer(11) && b->answer(12); }));
  CHECK(a->answer(11)->at("type") == "play.join.ok");
  CHECK(a->answer(11)->at("payload") == json{{"queue", "3p-short/live"}, {"waiting", 1}});
  CHECK(b->answer(12)->at("payload")["waiting"] == 2);
  // Two of three: nobody is seated yet, and the first hears that a second waits.
  REQUIRE(world.run_until([&] { return !a->of_type("play.waiting").empty(); }));
  CHECK(a->of_type("play.waiting").back()["payload"]["waiting"] == 2);
  CHECK_FALSE(matched(*a));

  const auto c = join(world, cid, kThreeShort, 13);
  REQUIRE(world.run_until([&] { return matched(*a) && matched(*b) && matched(*c); }));
  std::set<std::int64_t> seats;
  std::set<std::int64_t> tables;
  for (const auto& client : {a, b, c}) {
    const json m = client->of_type("play.matched").front()["payload"];
    seats.insert(m["seat"].get<std::int64_t>());
    tables.insert(m["table"].get<std::int64_t>());
    CHECK(m["queue"] == "3p-short/live");
    CHECK(m["spread"] == 80);
  }
  CHECK(seats == std::set<std::int64_t>{0, 1, 2});
  REQUIRE(tables.size() == 1);
  REQUIRE(world.directory.find(*tables.begin()));
  for (const Player& p : {ana, ben, cid}) CHECK(world.directory.tables_of(p.id).size() == 1);
  // Not a fourth seat for a later joiner: the queue is empty again.
  const auto d = join(world, dee, kThreeShort, 14);
  REQUIRE(world.run_until([&] { return d->answer(14).has_value(); }));
  CHECK(d->answer(14)->at("payload")["waiting"] == 1);
}

TEST_CASE("Matched players whom no table id awaits stay in the queue, and sit together once ids come") {
  World world(kPlayers);
  world.hold_table_ids(true);
  world.table_ids.take();
  world.table_ids.take();  // the block in hand used up, the next one held back
  const auto a = join(world, ana, kThreeShort, 11);
  const auto b = join(world, ben, kThreeShort, 12);
  const auto c = join(world, cid, kThreeShort, 13);
  REQUIRE(world.run_until([&] { return c->answer(13).has_value(); }));
  world.run_for(1500ms);  // a pass at the join and the once-a-second one
  CHECK_FALSE(matched(*a));
  REQUIRE_FALSE(a->of_type("play.waiting").empty());
  CHECK(a->of_type("play.waiting").back()["payload"]["waiting"] == 3);
  world.hold_table_ids(false);
  REQUIRE(world.run_until([&] { return matched(*a) && matched(*b) && matched(*c); }));
  CHECK(a->of_type("play.matched").front()["payload"]["table"] == 3);  // the first of the next block
}

TEST_CASE("A player far from the others in rating keeps waiting while closer players are seated") {
  World world(kPlayers);
  rate(world, ana.id, "3p-short", 1000);
  rate(world, ben.id, "3p-short", 1000);
  rate(world, cid.id, "3p-short", 1600);  // 600 above: far beyond the 100 everyone accepts at once
  rate(world, dee.id, "3p-short", 1060);
  const auto a = join(world, ana, kThreeShort);
  const auto b = join(world, ben, kThreeShort);
  const auto c = join(world, cid, kThreeShort);
  // A tick or two: three wait, but no table is within everyone's spread.
  world.run_for(1500ms);
  CHECK_FALSE(matched(*a));
  CHECK_FALSE(matched(*b));
  CHECK_FALSE(matched(*c));
  CHECK(c->of_type("play.waiting").empty());  // c heard "3 waiting" in its answer already

  const auto d = join(world, dee, kThreeShort);
  REQUIRE(world.run_until([&] { return matched(*a) && matched(*b) && matched(*d); }));
  CHECK(a->of_type("play.matched").front()["payload"]["spread"] == 60);
  CHECK(a->of_type("play.matched").front()["payload"]["table"] == d->of_type("play.matched").front()["payload"]["table"]);
  world.run_for(200ms);
  CHECK_FALSE(matched(*c));
  REQUIRE_FALSE(c->of_type("play.waiting").empty());
  CHECK(c->of_type("play.waiting").back()["payload"]["waiting"] == 1);
}

TEST_CASE("Different games and clocks wait in different queues, and a new wish replaces the old one") {
  World world(kPlayers);
  const auto a = join(world, ana, kThreeShort, 1);
  const auto b = join(world, ben, {{"players", 3}, {"short_game", true}, {"clock", "daily"}}, 2);
  const auto c = join(world, cid, {{"players", 3}}, 3);
  REQUIRE(world.run_until([&] { return a->answer(1) && b->answer(2) && c->answer(3); }));
  CHECK(b->answer(2)->at("payload") == json{{"queue", "3p-short/daily"}, {"waiting", 1}});
  CHECK(c->answer(3)->at("payload") == json{{"queue", "3p/live"}, {"waiting", 1}});
  world.run_for(1200ms);
  CHECK_FALSE(matched(*a));

  // Ben and Cid change their minds: only their latest wish counts, so the live short
  // queue fills up and the other queues are left empty.
  world.matchmaker->join(b, ben, wish(kThreeShort), protocol::RequestId{4});
  world.matchmaker->join(c, cid, wish(kThreeShort), protocol::RequestId{5});
  REQUIRE(world.run_until([&] { return matched(*a) && matched(*b) && matched(*c); }));
  const auto d = join(world, dee, {{"players", 3}}, 6);
  REQUIRE(world.run_until([&] { return d->answer(6).has_value(); }));
  CHECK(d->answer(6)->at("payload")["waiting"] == 1);  // Cid's old wish is gone
}

TEST_CASE("A player who leaves the queue, or whose connection closes, is not seated") {
  World world(kPlayers);
  const auto a = join(world, ana, kThreeShort);
  const auto b = join(world, ben, kThreeShort);
  world.matchmaker->leave(b, ben.id, protocol::RequestId{20});
  REQUIRE(world.run_until([&] { return b->answer(20).has_value(); }));
  CHECK(b->answer(20)->at("type") == "play.leave.ok");
  CHECK(b->answer(20)->at("payload") == json{{"was_waiting", true}});
  world.matchmaker->leave(b, ben.id, protocol::RequestId{21});
  REQUIRE(world.run_until([&] { return b->answer(21).has_value(); }));
  CHECK(b->answer(21)->at("payload") == json{{"was_waiting", false}});

  {
    // Cid joins and then his connection goes away.
    auto c = world.connect(cid);
    world.matchmaker->join(c, cid, wish(kThreeShort), protocol::RequestId{1});
    world.run_for(100ms);
    world.presence.detach(cid.id, c.get());
  }
  const auto d = join(world, dee, kThreeShort);
  const auto e = join(world, eva, kThreeShort);
  REQUIRE(world.run_until([&] { return matched(*a) && matched(*d) && matched(*e); }));
  world.run_for(200ms);
  CHECK_FALSE(matched(*b));
  // Ana, Dee and Eva sit at one table; Ben and Cid sit nowhere.
  const TableId table = a->of_type("play.matched").front()["payload"]["table"];
  for (const Player& p : {ana, dee, eva}) {
    const auto at = world.directory.tables_of(p.id);
    REQUIRE(at.size() == 1);
    CHECK(at.front()->id() == table);
  }
  CHECK(world.directory.tables_of(ben.id).empty());
  CHECK(world.directory.tables_of(cid.id).empty());
}

TEST_CASE("A player who welcomes bots gets them once the chosen wait is over, and not before") {
  World world(kPlayers);
  const auto a = join(world, ana, {{"players", 3}, {"short_game", true}, {"bots_after_seconds", 5}});
  world.run_for(3s);
  CHECK_FALSE(matched(*a));
  REQUIRE(world.run_until([&] { return matched(*a); }, 5s));
  const json m = a->of_type("play.matched").front()["payload"];
  CHECK(m["seat"] == 0);
  CHECK(m["spread"] == 0);
  REQUIRE(world.directory.find(m["table"].get<TableId>()));
  CHECK(world.directory.tables_of(ana.id).size() == 1);
}

TEST_CASE("Play-now wishes are read strictly") {
  CHECK_FALSE(wish_of({{"players", 6}}));
  CHECK_FALSE(wish_of({{"players", 3}, {"automa", true}}));
  CHECK_FALSE(wish_of({{"players", 3}, {"clock", "blitz"}}));
  CHECK_FALSE(wish_of({{"players", 3}, {"bots_after_seconds", 4}}));
  CHECK_FALSE(wish_of({{"players", 3}, {"colour", "red"}}));
  const auto automa = wish_of({{"players", 2}, {"automa", true}, {"bots_after_seconds", nullptr}});
  REQUIRE(automa);
  CHECK(automa.value().queue() == "2p-automa/live");
  CHECK_FALSE(automa.value().bots_after);
}

}  // namespace elgrande::test::play_now_tests
