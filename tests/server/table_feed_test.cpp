// What a table says, to whom, and when: nobody hears of a change before the save that
// carries it is committed, messages leave in the order they were produced, a connection
// that falls too far behind is cut off without holding up the others, and each seated
// player gets their own view while everyone else watching gets the spectator's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "server/server_fixtures.hpp"
#include "elgrande/engine/view.hpp"
#include "ops/metrics.hpp"
#include "recording_recipient.hpp"
#include "tables/seating.hpp"
#include "tables/table_feed.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
using elgrande::games::kSpectator;
namespace protocol = elgrande::protocol;
using elgrande::test::RecordingRecipient;
using Strings = std::vector<std::string>;

namespace {

// Records, across connections, who was sent what, in the order it was sent.
class JournalRecipient : public Recipient {
 public:
  using Recipient::deliver;
  JournalRecipient(std::string name, Strings& journal) : name_(std::move(name)), journal_(journal) {}
  void deliver(std::shared_ptr<const std::string> message) override { journal_.push_back(name_ + ":" + *message); }
  // Two messages handed over together, to leave in one write: "a:1+2".
  void deliver(std::shared_ptr<const std::string> first, std::shared_ptr<const std::string> then) override {
    journal_.push_back(name_ + ":" + *first + "+" + *then);
  }
  void close() override {}

 private:
  std::string name_;
  Strings& journal_;
};

std::shared_ptr<RecordingRecipient> connection() { return std::make_shared<RecordingRecipient>(); }

struct Feed {
  explicit Feed(std::size_t max_waiting = 1024) : feed(metrics, nullptr, max_waiting) {}
  Metrics metrics;
  TableFeed feed;
};

// Ana at seat 0, Ben at seat 1, Cid at seat 2, and a bot at seat 3.
Seating four_seats() {
  std::vector<Seat> seats(4);
  seats[0] = Seat{Seat::Kind::human, ana};
  seats[1] = Seat{Seat::Kind::human, ben};
  seats[2] = Seat{Seat::Kind::human, cid};
  seats[3].kind = Seat::Kind::bot;
  return Seating(std::move(seats), ana.id);
}

}  // namespace

TEST_CASE("with no save pending, a message is delivered at once", "[feed]") {
  Feed f;
  const auto ana_connection = connection();
  f.feed.send(ana_connection, "hello");
  CHECK(ana_connection->received() == Strings{"hello"});
}

TEST_CASE("messages sent after a save wait for its commit, then leave in the order they were sent", "[feed]") {
  Feed f;
  Strings journal;
  const auto a = std::make_shared<JournalRecipient>("a", journal);
  const auto b = std::make_shared<JournalRecipient>("b", journal);

  f.feed.saving();
  f.feed.send(a, "1");
  f.feed.send(b, "2");
  f.feed.send(a, "3");
  CHECK(journal.empty());  // a crash now would undo the change: nobody may know of it

  f.feed.committed(f.feed.saves());
  CHECK(journal == Strings{"a:1", "b:2", "a:3"});

  f.feed.send(b, "4");  // nothing pending any more
  CHECK(journal.back() == "b:4");
}

TEST_CASE("a commit releases only what waited for that save, and nothing overtakes what still waits",
          "[feed]") {
  Feed f;
  const auto ana_connection = connection();

  f.feed.saving();  // save 1
  f.feed.send(ana_connection, "after 1");
  f.feed.saving();  // save 2
  f.feed.send(ana_connection, "after 2");

  f.feed.committed(1);
  CHECK(ana_connection->received() == Strings{"after 1"});

  // Save 1 is committed, but save 2 is not: a new message queues behind "after 2".
  f.feed.send(ana_connection, "later");
  CHECK(ana_connection->received() == Strings{"after 1"});

  f.feed.committed(2);
  CHECK(ana_connection->received() == Strings{"after 1", "after 2", "later"});
}

TEST_CASE("a save committed later than a newer one releases everything up to the newer", "[feed]") {
  Feed f;
  const auto ana_connection = connection();
  f.feed.saving();
  f.feed.send(ana_connection, "after 1");
  f.feed.saving();
  f.feed.send(ana_connection, "after 2");

  f.feed.committed(2);
  CHECK(ana_connection->received() == Strings{"after 1", "after 2"});
  f.feed.committed(1);  // a late report changes nothing
  CHECK(ana_connection->received() == Strings{"after 1", "after 2"});
}

TEST_CASE("a table that stopped sends nothing of what it held", "[feed]") {
  Feed f;
  const auto ana_connection = connection();
  f.feed.saving();
  f.feed.send(ana_connection, "never committed");

  f.feed.abandon();
  f.feed.committed(1);
  CHECK(ana_connection->received().empty());
  // What the stopped table still says (a refusal) is not held behind the lost save.
  f.feed.send(ana_connection, "refused");
  CHECK(ana_connection->received() == Strings{"refused"});
}

TEST_CASE("a table that stops answers each request it held with the answer's stand-in, and nothing else",
          "[feed]") {
  Feed f;
  const auto asker = connection();
  const auto watcher = connection();
  const auto message = [](std::string text) { return std::make_shared<const std::string>(std::move(text)); };

  f.feed.saving();
  f.feed.send(asker, message("reply"), TableFeed::Answering{protocol::RequestId{std::int64_t{7}}});
  f.feed.send(watcher, "update");  // not an answer: no stand-in
  f.feed.send(asker, "update");
  f.feed.send(asker, message("reply to a request without an id"), TableFeed::Answering{});

  f.feed.abandon();
  REQUIRE(asker->received().size() == 2);
  const protocol::Json lost = protocol::Json::parse(asker->received()[0]);
  CHECK(lost["type"] == "error");
  CHECK(lost["id"] == 7);
  CHECK(lost["payload"]["code"] == "internal");
  const protocol::Json lost_without_id = protocol::Json::parse(asker->received()[1]);
  CHECK(lost_without_id["payload"]["code"] == "internal");
  CHECK_FALSE(lost_without_id.contains("id"));
  CHECK(watcher->received().empty());
  f.feed.committed(1);
  CHECK(asker->received().size() == 2);
}

TEST_CASE("an answer leaves together with the next message to the same connection", "[feed]") {
  Feed f;
  Strings journal;
  const auto a = std::make_shared<JournalRecipient>("a", journal);
  const auto b = std::make_shared<JournalRecipient>("b", journal);
  const auto c = std::make_shared<JournalRecipient>("c", journal);
  const auto answer = [](std::string text) { return std::make_shared<const std::string>(std::move(text)); };
  const TableFeed::Answering request{protocol::RequestId{std::int64_t{1}}};

  f.feed.saving();
  f.feed.send(a, answer("ok"), request);  // a command's acknowledgement
  f.feed.send(b, "update");
  f.feed.send(a, "update");  // the update it brought a
  f.feed.send(a, "game over");
  f.feed.send(c, answer("ok"), request);  // nothing follows it to c
  f.feed.send(b, answer("ok"), request);
  f.feed.send(b, answer("refused"), request);
  f.feed.committed(1);

  // Each connection still hears everything in the order it was sent.
  CHECK(journal == Strings{"b:update", "a:ok+update", "a:game over", "b:ok+refused", "c:ok"});
}

TEST_CASE("a stand-in is never sent for an answer that went out", "[feed]") {
  Feed f;
  const auto asker = connection();
  const auto message = [](std::string text) { return std::make_shared<const std::string>(std::move(text)); };
  f.feed.send(asker, message("at once"), TableFeed::Answering{protocol::RequestId{"a"}});
  f.feed.saving();
  f.feed.send(asker, message("after the save"), TableFeed::Answering{protocol::RequestId{"b"}});
  f.feed.committed(1);

  f.feed.abandon();
  CHECK(asker->received() == Strings{"at once", "after the save"});
}

TEST_CASE("a connection with more than the allowed messages held is cut off, and the others still get theirs",
          "[feed]") {
  constexpr std::size_t kMaxWaiting = 3;
  Feed f(kMaxWaiting);
  const auto slow = connection();
  const auto other = connection();

  f.feed.saving();
  for (int i = 1; i <= 3; ++i) f.feed.send(slow, std::to_string(i));
  f.feed.send(other, "a");
  CHECK_FALSE(slow->closed());  // exactly the allowed number held

  f.feed.send(slow, "4");
  CHECK(slow->closed());
  f.feed.send(slow, "5");
  f.feed.send(other, "b");
  CHECK_FALSE(other->closed());

  f.feed.committed(1);
  CHECK(other->received() == Strings{"a", "b"});
  const Strings slow_got = slow->received();
  CHECK(std::find(slow_got.begin(), slow_got.end(), "4") == slow_got.end());
  CHECK(std::find(slow_got.begin(), slow_got.end(), "5") == slow_got.end());
}

namespace {
TableFeed::Update whole(std::string view) { return TableFeed::Update{std::move(view), ""}; }
}  // namespace

TEST_CASE("each seated player gets their own view, and spectators and resigned players get the spectator's",
          "[feed]") {
  Feed f;
  Seating seating = four_seats();
  seating.resign(2, elgrande::games::BotLevel::random);  // Cid watches while a bot plays
  const auto ana_phone = connection();
  const auto ana_laptop = connection();
  const auto cid_connection = connection();
  const auto spectator = connection();
  f.feed.connect(ana.id, ana_phone);
  f.feed.connect(ana.id, ana_laptop);
  f.feed.connect(cid.id, cid_connection);  // Ben is not connected
  REQUIRE(f.feed.watch(spectator, 99));

  std::vector<int> built_for;
  f.feed.send_update(seating, [&](int viewer, bool, bool) {
    built_for.push_back(viewer);
    return whole("view of " + std::to_string(viewer));
  });

  CHECK(ana_phone->received() == Strings{"view of 0"});
  CHECK(ana_laptop->received() == Strings{"view of 0"});
  const std::string spectators_view = "view of " + std::to_string(kSpectator);
  CHECK(cid_connection->received() == Strings{spectators_view});
  CHECK(spectator->received() == Strings{spectators_view});
  // Built once per viewer who is there to see it: not for Ben, nor for the bot's seat.
  std::sort(built_for.begin(), built_for.end());
  CHECK(built_for == std::vector<int>{kSpectator, 0});
}

TEST_CASE("a connection that reads patches gets its whole view once, then patches of it, and others get it whole",
          "[feed]") {
  Feed f;
  Seating seating = four_seats();
  const auto ana_new = connection();    // protocol 2
  const auto ana_old = connection();    // protocol 1
  const auto spectator = connection();  // protocol 2
  ana_new->take_view_patches(true);
  spectator->take_view_patches(true);
  f.feed.connect(ana.id, ana_new);
  f.feed.connect(ana.id, ana_old);
  REQUIRE(f.feed.watch(spectator, 99));
  int round = 0;
  auto both = [&](int viewer, bool whole, bool patch) {
    const std::string at = std::to_string(viewer) + "@" + std::to_string(round);
    return TableFeed::Update{whole ? "view " + at : "", patch ? "patch " + at : ""};
  };
  const std::string spectators = std::to_string(kSpectator);

  f.feed.send_update(seating, both);  // nobody holds a view yet
  ++round;
  f.feed.send_update(seating, both);
  CHECK(ana_new->received() == Strings{"view 0@0", "patch 0@1"});
  CHECK(ana_old->received() == Strings{"view 0@0", "view 0@1"});
  CHECK(spectator->received() == Strings{"view " + spectators + "@0", "patch " + spectators + "@1"});

  // Ana resigns: her connections hold a seat's view, not the spectators'.
  seating.resign(0, elgrande::games::BotLevel::random);
  ++round;
  f.feed.send_update(seating, both);
  CHECK(ana_new->received().back() == "view " + spectators + "@2");
  CHECK(spectator->received().back() == "patch " + spectators + "@2");
  ++round;
  f.feed.send_update(seating, both);
  CHECK(ana_new->received().back() == "patch " + spectators + "@3");

  // A view sent on its own (a new connection, a client asking again) is held from then on.
  const auto ben_new = connection();
  ben_new->take_view_patches(true);
  f.feed.connect(ben.id, ben_new);
  f.feed.send_view(ben_new, 1, "view 1@3");
  ++round;
  f.feed.send_update(seating, both);
  CHECK(ben_new->received() == Strings{"view 1@3", "patch 1@4"});
}

TEST_CASE("with nobody watching, the spectator's view is not even built", "[feed]") {
  Feed f;
  const Seating seating = four_seats();
  const auto ben_connection = connection();
  f.feed.connect(ben.id, ben_connection);

  std::vector<int> built_for;
  f.feed.send_update(seating, [&](int viewer, bool, bool) {
    built_for.push_back(viewer);
    return whole("view of " + std::to_string(viewer));
  });
  CHECK(built_for == std::vector<int>{1});
  CHECK(ben_connection->received() == Strings{"view of 1"});
}

TEST_CASE("connecting or watching twice on the same connection delivers each message once", "[feed]") {
  Feed f;
  const Seating seating = four_seats();
  const auto ana_connection = connection();
  const auto spectator = connection();
  f.feed.connect(ana.id, ana_connection);
  f.feed.connect(ana.id, ana_connection);
  CHECK(f.feed.watch(spectator, 99));
  CHECK_FALSE(f.feed.watch(spectator, 99));
  CHECK(f.feed.spectators() == 1);

  f.feed.send_to_members(seating, "news");
  CHECK(ana_connection->received() == Strings{"news"});
  CHECK(spectator->received() == Strings{"news"});
}

TEST_CASE("a closed connection, a spectator who stopped watching and a forgotten player hear nothing more",
          "[feed]") {
  Feed f;
  Seating seating = four_seats();
  const auto ana_connection = connection();
  const auto ben_connection = connection();
  const auto cid_connection = connection();
  const auto spectator = connection();
  f.feed.connect(ana.id, ana_connection);
  f.feed.connect(ben.id, ben_connection);
  f.feed.connect(cid.id, cid_connection);
  f.feed.watch(spectator, 99);

  f.feed.send_to_members(seating, "first");
  f.feed.disconnect(ana_connection.get());
  CHECK(f.feed.stop_watching(spectator.get()));
  CHECK_FALSE(f.feed.stop_watching(spectator.get()));
  CHECK_FALSE(f.feed.watching(spectator.get()));
  seating.forget(ben.id);  // left the finished table
  f.feed.forget(ben.id);
  f.feed.send_to_members(seating, "second");
  f.feed.send_update(seating, [](int viewer, bool, bool) { return whole("view of " + std::to_string(viewer)); });

  CHECK(ana_connection->received() == Strings{"first"});
  CHECK(spectator->received() == Strings{"first"});
  CHECK(ben_connection->received() == Strings{"first"});
  CHECK(cid_connection->received() == Strings{"first", "second", "view of 2"});
}

TEST_CASE("a player off the list of members hears nothing the members hear, even while connected", "[feed]") {
  Feed f;
  Seating seating = four_seats();
  const auto ben_connection = connection();
  f.feed.connect(ben.id, ben_connection);
  seating.forget(ben.id);  // the table forgot Ben; the feed was not told

  f.feed.send_to_members(seating, "news");
  f.feed.send_update(seating, [](int viewer, bool, bool) { return whole("view of " + std::to_string(viewer)); });
  CHECK(ben_connection->received().empty());
}

TEST_CASE("a connection that is gone is skipped", "[feed]") {
  Feed f;
  const Seating seating = four_seats();
  auto spectator = connection();
  const auto ana_connection = connection();
  f.feed.watch(spectator, 99);
  f.feed.connect(ana.id, ana_connection);
  spectator.reset();

  f.feed.send_to_members(seating, "news");
  CHECK(ana_connection->received() == Strings{"news"});
  CHECK(f.feed.spectators() == 0);
}
