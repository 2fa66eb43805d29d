// A table that another process owns, reached over a peer link (issue 47): its requests go
// to the owner with the connection they came on, and what the owner's table says to that
// connection comes back to it; the owner knows it as a connection of its own until it
// closes. Both ends run on one io_context, over a real WebSocket on loopback.

#include <catch2/catch.hpp>

#include <boost/beast/http/read.hpp>
#include <memory>

#include "app/dispatcher.hpp"
#include "net/peer_tables.hpp"
#include "net/remote_table.hpp"
#include "server/server_world.hpp"
#include "tables/lobby_requests.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
using nlohmann::json;

namespace elgrande::test::peer_tables_tests {

using server::Player;

const json kThree = {{"players", 3}, {"short_game", true}, {"automa", false}, {"four_stacks", false}};

// The owner's end of the link, accepted as a process's HttpSession accepts one.
class Owner {
 public:
  explicit Owner(World& world)
      : acceptor_(world.io, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)),
        tables_(std::make_shared<PeerTables>(std::shared_ptr<const Services>(std::shared_ptr<void>(), &world.services))) {
    acceptor_.async_accept(net::make_strand(world.io), [this](beast::error_code ec, StrandSocket socket) {
      REQUIRE_FALSE(ec);
      socket_.emplace(std::move(socket));
      http::async_read(*socket_, buffer_, upgrade_, [this](beast::error_code read, std::size_t) {
        REQUIRE_FALSE(read);
        REQUIRE(PeerLink::authorised(upgrade_, "the key"));
        auto link = std::make_shared<PeerLink>(Transport(std::move(*socket_)), tables_);
        tables_->serve(link);
        link->accept(std::move(upgrade_));
      });
    });
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()); }

 private:
  tcp::acceptor acceptor_;
  std::shared_ptr<PeerTables> tables_;
  std::optional<StrandSocket> socket_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> upgrade_;
};

// Sends `text` from `client` as the process holding it dispatches it.
void say(const Services& services, RecordingClient& client, const json& message) {
  dispatch(services, client, message.dump(), std::chrono::steady_clock::now());
}

TEST_CASE("a table another process owns answers the requests relayed to it, and its updates reach each seat's "
          "connection there",
          "[server][cluster]") {
  World world({{ana, Role::player}, {ben, Role::player}});
  world.services.game = &el_grande::module();
  // The table, made at its owner.
  const auto maker = world.connect(ana);
  say(world.services, *maker, {{"type", "table.create"}, {"id", 1}, {"payload", {{"options", kThree}}}});
  REQUIRE(world.run_until([&] { return maker->answer(1).has_value(); }));
  const TableId id = maker->answer(1)->at("payload").at("table").at("id");
  farewell(world.services, *maker);  // from here on, Ana's connections are the other process's
  REQUIRE_FALSE(world.presence.connected(ana.id));

  // The process holding the players' connections: its directory names the table as the
  // owner's, and its own presence knows them.
  Owner owner(world);
  TableDirectory tables;
  const auto link = OwnerLink::connect(world.io, owner.address(), "the key", tables);
  // It hears of the table, as it is, once the link opens.
  REQUIRE(world.run_until([&] { return tables.find(id) != nullptr; }));
  const TableEndpointPtr remote = tables.find(id);
  CHECK(tables.list({}).at("tables").size() == 1);
  Presence presence;
  Services holding = world.services;
  holding.tables = &tables;
  holding.presence = &presence;
  holding.lobby_requests.tables = &tables;
  const auto a = std::make_shared<RecordingClient>(ana);
  const auto b = std::make_shared<RecordingClient>(ben);
  b->take_view_patches(true);
  presence.attach(ana.id, a);
  presence.attach(ben.id, b);

  // Ana's connection opens: as hello does, her tables hear of it (this process knows the
  // table is hers from its listing), and the table sends itself to her.
  REQUIRE(tables.tables_of(ana.id).size() == 1);
  for (const auto& table : tables.tables_of(ana.id)) table->player_connected(a, ana.id);
  REQUIRE(world.run_until([&] { return !a->of_type("table.update").empty(); }));
  CHECK(world.presence.connected(ana.id));

  // Ben joins, through the process holding his connection.
  say(holding, *b, {{"type", "table.join"}, {"id", 2}, {"payload", {{"table", id}}}});
  REQUIRE(world.run_until([&] { return b->answer(2).has_value(); }));
  CHECK(code_of(*b->answer(2)) == "");
  CHECK(b->answer(2)->at("type") == "table.join.ok");
  REQUIRE(world.run_until([&] { return a->of_type("table.update").size() >= 2; }));
  // The listing follows: the table is Ben's too here now.
  REQUIRE(world.run_until([&] { return tables.tables_of(ben.id).size() == 1; }));

  say(holding, *a, {{"type", "table.add_bot"}, {"id", 3}, {"payload", {{"table", id}}}});
  say(holding, *a, {{"type", "table.start"}, {"id", 4}, {"payload", {{"table", id}}}});
  REQUIRE(world.run_until([&] { return a->answer(4).has_value(); }));
  CHECK(code_of(*a->answer(3)) == "");
  CHECK(code_of(*a->answer(4)) == "");
  // Each seat sees its own view, in the protocol its connection speaks.
  REQUIRE(world.run_until([&] { return !a->of_type("game.update").empty() && !b->of_type("game.update").empty(); }));
  const json for_ana = a->of_type("game.update").front().at("payload");
  const json for_ben = b->of_type("game.update").front().at("payload");
  CHECK(for_ana.at("view").at("viewer") == 0);
  CHECK(for_ben.at("view").at("viewer") == 1);

  // Whose turn it is follows each change, for "my games" here.
  REQUIRE(world.run_until([&] {
    const auto here = remote->listing().read().turns;
    const auto there = world.directory.find(id)->listing().read().turns;
    return here.waiting != 0 && here.waiting == there.waiting && here.deadlines == there.deadlines;
  }));

  // A game command travels on the game module's fast path too: a stale version is refused.
  say(holding, *b, {{"type", "game.command"}, {"id", 5}, {"payload", {{"table", id}, {"version", 0}, {"command", {{"bid", 1}}}}}});
  REQUIRE(world.run_until([&] { return b->answer(5).has_value(); }));
  CHECK(code_of(*b->answer(5)) != "");

  // Ben's connection closes: the owner forgets it, and Ana's table shows him gone.
  const std::size_t before = a->of_type("table.update").size();
  farewell(holding, *b);
  REQUIRE(world.run_until([&] { return !world.presence.connected(ben.id); }));
  REQUIRE(world.run_until([&] { return a->of_type("table.update").size() > before; }));
  const json seats = a->of_type("table.update").back().at("payload").at("table").at("seats");
  CHECK(seats.at(1).at("connected") == false);

  // A rename, heard where the player's connection is, reaches the table and its members.
  remote->player_renamed({ana.id, "Anna"});
  REQUIRE(world.run_until([&] {
    const auto updates = a->of_type("table.update");
    return updates.back().at("payload").at("table").at("seats").at(0).at("player").at("name") == "Anna";
  }));

  // A tournament round's limit: time is called at the owner, the game ends there, its
  // seats hear the result, and the listing here shows the table finished.
  CHECK(remote->listing().status() == TableStatus::playing);
  remote->call_time();
  REQUIRE(world.run_until([&] { return !a->of_type("game.over").empty(); }));
  REQUIRE(world.run_until([&] { return remote->listing().status() == TableStatus::finished; }));

  // A table the owner does not have is not found there.
  const auto elsewhere = std::make_shared<RemoteTable>(id + 1000, link);
  tables.add(elsewhere);
  say(holding, *a, {{"type", "game.view"}, {"id", 6}, {"payload", {{"table", id + 1000}}}});
  REQUIRE(world.run_until([&] { return a->answer(6).has_value(); }));
  CHECK(code_of(*a->answer(6)) == "not_found");

  // Once the owner cannot be reached, its tables' requests are refused at once.
  link->close();
  REQUIRE(world.run_until([&] { return !link->up(); }));
  CHECK_FALSE(world.presence.connected(ana.id));
  say(holding, *a, {{"type", "game.view"}, {"id", 7}, {"payload", {{"table", id}}}});
  REQUIRE(a->answer(7));
  CHECK(code_of(*a->answer(7)) == "unavailable");
}

}  // namespace elgrande::test::peer_tables_tests
