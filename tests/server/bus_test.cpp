// The domain's bus (events/bus.hpp): each event reaches every listener of its own type, in
// the order they subscribed, and no other; an event no one listens to goes nowhere.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "events/bus.hpp"
#include "events/events.hpp"

namespace elgrande::server {
namespace {

TEST_CASE("the bus tells each event to its own listeners, in the order they subscribed", "[bus]") {
  Bus bus;
  std::vector<std::string> heard;
  bus.subscribe<PlayerRenamed>([&](const PlayerRenamed& e) { heard.push_back("tables: " + e.player.name); });
  bus.subscribe<GameFinished>([&](const GameFinished& e) { heard.push_back("tournaments: " + std::to_string(e.result.table)); });
  bus.subscribe<PlayerRenamed>([&](const PlayerRenamed& e) { heard.push_back("play now: " + e.player.name); });

  bus.publish(PlayerRenamed{Player{7, "Ulla"}});
  CHECK(heard == std::vector<std::string>{"tables: Ulla", "play now: Ulla"});

  heard.clear();
  GameFinished finished;
  finished.result.table = 12;
  bus.publish(finished);
  CHECK(heard == std::vector<std::string>{"tournaments: 12"});

  heard.clear();
  const Bus quiet;
  quiet.publish(finished);  // no one listens: nothing happens
  CHECK(heard.empty());
}

}  // namespace
}  // namespace elgrande::server
