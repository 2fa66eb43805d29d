// One tournament without sockets (docs/tournaments.md#running-an-event): its director and
// entrants talk to it through recording connections, its tables are real ones made by the
// factory, and every change is saved to a SQLite file before anyone hears of it. Results
// are set by the director's overrides, so that rounds close without playing the games.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "server/server_world.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
using nlohmann::json;

// A tournament's settings as the server reads them, for El Grande.
static elgrande::protocol::Decoded<TournamentSettings> settings_of(const json& payload) {
  return tournament_settings_from_json(payload, elgrande::el_grande::module());
}

// Named, not anonymous: the tests are built in unity batches with other files.
namespace elgrande::test::tournament_tests {

// The server's, not the engine's (elgrande::Player is a seat's holdings).
using server::Player;
using server::PlayerId;

const Player eva{5, "Eva"};
const Player fay{6, "Fay"};
const Player gil{7, "Gil"};
const Player hal{8, "Hal"};  // an admin
const Player ivo{9, "Ivo"};  // a guest

std::vector<Member> members() {
  std::vector<Member> all;
  for (const Player& p : {ana, ben, cid, dee, eva, fay, gil}) all.push_back({p, Role::player});
  all.push_back({hal, Role::admin});
  all.push_back({ivo, std::nullopt});
  return all;
}

const json kSwissOfThrees = {
    {"stages", {{{"format", "swiss"}, {"rounds", 2}, {"table_sizes", {{"preferred", 3}, {"minimum", 3}}}}}},
    {"game", {{"short_game", true}}}};

// An event directed by Ana, and everyone's connections to it.
class Event {
 public:
  explicit Event(World& world, json settings = kSwissOfThrees) : world_(world) {
    for (const Member& m : members()) clients_[m.player.id] = world.connect(m.player);
    auto decoded = settings_of(settings);
    REQUIRE(decoded);
    tournament = world.tournaments.create("Spring Cup", ana.id, std::move(decoded.value()), client(ana), protocol::RequestId{1});
    REQUIRE(world.run_until([&] { return client(ana)->answer(1).has_value(); }));
    REQUIRE(client(ana)->answer(1)->at("type") == "tournament.create.ok");
  }

  std::shared_ptr<RecordingClient> client(const Player& p) { return clients_.at(p.id); }

  // Sends a request as `who` and waits for its answer.
  json ask(const Player& who, Tournament::Handler handler, const std::string& type, json payload = json::object(),
           bool may_enter = true) {
    const std::int64_t id = next_id_++;
    payload["tournament"] = tournament->id();
    const auto account = world_.accounts.of(who.id);
    tournament->handle(handler, TournamentRequest{client(who), who, account && account->role == Role::admin, may_enter,
                                                  protocol::Envelope{type, protocol::RequestId{id}, payload}});
    REQUIRE(world_.run_until([&] { return client(who)->answer(id).has_value(); }));
    return *client(who)->answer(id);
  }
  json enrol(const Player& who) { return ask(who, &Tournament::enrol, "tournament.register"); }

  json detail() {
    world_.run_for(std::chrono::milliseconds(50));  // the detail follows the last save
    return *tournament->detail();
  }
  json entrant(const Player& who) {
    const json now = detail();
    for (const json& e : now["entrants"]) {
      if (e["player"]["id"] == who.id) return e;
    }
    FAIL("no entrant " << who.name << " in " << now.dump());
    return {};
  }
  // The director sets a board's result: one score per seat, in seat order.
  void decide(int round, int board, std::vector<int> scores) {
    const json reply = ask(ana, &Tournament::override_result, "tournament.override",
                           {{"round", round}, {"board", board}, {"scores", scores}, {"reason", "scored by hand"}});
    REQUIRE(reply["type"] == "tournament.override.ok");
  }
  bool waits_for(const std::function<bool(const json&)>& ready) {
    return world_.run_until([&] { return ready(*tournament->detail()); });
  }

  std::shared_ptr<Tournament> tournament;

 private:
  World& world_;
  std::map<PlayerId, std::shared_ptr<RecordingClient>> clients_;
  std::int64_t next_id_ = 100;
};

std::vector<PlayerId> ids_of(const json& players) {
  std::vector<PlayerId> ids;
  for (const json& p : players) ids.push_back(p["id"]);
  return ids;
}


TEST_CASE("Accounts register once while the event registers: guests, latecomers and the full are refused") {
  World world(members());
  Event event(world, {{"stages", kSwissOfThrees["stages"]}, {"max_players", 3}});
  const json first = event.enrol(ben);
  CHECK(first["type"] == "tournament.register.ok");
  CHECK(first["payload"]["tournament"]["players"] == 1);
  CHECK(code_of(event.enrol(ben)) == "wrong_state");
  CHECK(code_of(event.ask(ivo, &Tournament::enrol, "tournament.register", json::object(), false)) == "forbidden");
  CHECK(event.enrol(cid)["type"] == "tournament.register.ok");
  CHECK(event.enrol(dee)["type"] == "tournament.register.ok");
  CHECK(code_of(event.enrol(eva)) == "limit_reached");

  // Unregistering frees a place; no check-in without a scheduled start.
  const json left = event.ask(dee, &Tournament::unregister, "tournament.unregister");
  CHECK(left["payload"]["tournament"]["players"] == 2);
  CHECK(code_of(event.ask(dee, &Tournament::unregister, "tournament.unregister")) == "wrong_state");
  CHECK(event.entrant(dee)["status"] == "removed");
  CHECK(code_of(event.ask(ben, &Tournament::check_in, "tournament.check_in")) == "wrong_state");
  CHECK(code_of(event.ask(ben, &Tournament::withdraw, "tournament.withdraw")) == "wrong_state");

  // Only the director (or an admin) starts, and only with a table's worth of players.
  CHECK(code_of(event.ask(ben, &Tournament::start, "tournament.start")) == "forbidden");
  const json too_few = event.ask(ana, &Tournament::start, "tournament.start");
  CHECK(code_of(too_few) == "wrong_state");
  CHECK(too_few["payload"]["message"].get<std::string>().find("2 players") != std::string::npos);
  CHECK(event.detail()["status"] == "registering");
  CHECK(event.enrol(eva)["type"] == "tournament.register.ok");
  CHECK(event.ask(hal, &Tournament::start, "tournament.start")["type"] == "tournament.start.ok");
  CHECK(code_of(event.enrol(fay)) == "wrong_state");
  REQUIRE(event.waits_for([](const json& t) { return t["status"] == "running" && t["rounds"].size() == 1; }));
}

TEST_CASE("A Swiss event runs: tables told to their players, a pause holds the next round, a withdrawal and a "
          "disqualification shape the standings") {
  World world(members());
  Event event(world);
  const std::vector<Player> entrants{ben, cid, dee, eva, fay, gil};
  for (const Player& p : entrants) REQUIRE(event.enrol(p)["type"] == "tournament.register.ok");
  REQUIRE(event.ask(ana, &Tournament::start, "tournament.start")["type"] == "tournament.start.ok");

  // Six players at tables of three: two boards, every player told their table and seat.
  REQUIRE(world.run_until([&] {
    return std::all_of(entrants.begin(), entrants.end(),
                       [&](const Player& p) { return !event.client(p)->of_type("tournament.round").empty(); });
  }));
  json now = event.detail();
  CHECK(now["status"] == "running");
  REQUIRE(now["rounds"].size() == 1);
  REQUIRE(now["rounds"][0]["boards"].size() == 2);
  CHECK(now["rounds"][0]["byes"].empty());
  for (const json& board : now["rounds"][0]["boards"]) {
    const std::vector<PlayerId> seats = ids_of(board["seats"]);
    for (std::size_t s = 0; s < seats.size(); ++s) {
      const Player& p = *std::find_if(entrants.begin(), entrants.end(), [&](const Player& x) { return x.id == seats[s]; });
      const json told = event.client(p)->of_type("tournament.round").front()["payload"];
      CHECK(told["round"] == 1);
      CHECK(told["board"] == board["board"]);
      CHECK(told["table"] == board["table"]);
      CHECK(told["seat"] == s);
      CHECK(world.directory.find(board["table"].get<TableId>()));
    }
  }
  for (const Player& p : entrants) CHECK(event.entrant(p)["status"] == "playing");

  // The director pauses: entrants hear of it, and a finished round starts no other.
  CHECK(code_of(event.ask(ben, &Tournament::pause, "tournament.pause")) == "forbidden");
  REQUIRE(event.ask(ana, &Tournament::pause, "tournament.pause")["type"] == "tournament.pause.ok");
  CHECK(code_of(event.ask(ana, &Tournament::pause, "tournament.pause")) == "wrong_state");
  REQUIRE(world.run_until([&] {
    const auto updates = event.client(ben)->of_type("tournament.update");
    return !updates.empty() && updates.back()["payload"]["tournament"]["status"] == "paused";
  }));

  const std::vector<PlayerId> board1 = ids_of(now["rounds"][0]["boards"][0]["seats"]);
  const std::vector<PlayerId> board2 = ids_of(now["rounds"][0]["boards"][1]["seats"]);
  const auto player = [&](PlayerId id) {
    return *std::find_if(entrants.begin(), entrants.end(), [&](const Player& x) { return x.id == id; });
  };
  // Board 2's last seat withdraws (while paused, as they may); it keeps its results.
  const Player leaver = player(board2[2]);
  REQUIRE(event.ask(leaver, &Tournament::withdraw, "tournament.withdraw")["type"] == "tournament.withdraw.ok");
  CHECK(code_of(event.ask(leaver, &Tournament::withdraw, "tournament.withdraw")) == "wrong_state");
  CHECK(event.entrant(leaver)["status"] == "withdrawn");

  event.decide(1, 1, {90, 60, 30});
  event.decide(1, 2, {50, 50, 10});
  now = event.detail();
  CHECK(now["rounds"][0]["finished_at"].is_number());
  CHECK(now["rounds"].size() == 1);  // held back by the pause
  CHECK(now["rounds"][0]["boards"][0]["result"]["points"] == json({6, 3, 0}));
  CHECK(now["rounds"][0]["boards"][1]["result"]["places"] == json({1, 1, 3}));

  // The director disqualifies board 1's winner: last in the standings, whatever the points.
  const Player cheat = player(board1[0]);
  CHECK(code_of(event.ask(ben, &Tournament::disqualify, "tournament.disqualify",
                          {{"player", cheat.id}, {"reason", "cheating"}})) == "forbidden");
  CHECK(code_of(event.ask(ana, &Tournament::disqualify, "tournament.disqualify", {{"player", cheat.id}})) ==
        "bad_payload");
  CHECK(code_of(event.ask(ana, &Tournament::disqualify, "tournament.disqualify",
                          {{"player", ivo.id}, {"reason", "cheating"}})) == "not_found");
  REQUIRE(event.ask(ana, &Tournament::disqualify, "tournament.disqualify", {{"player", cheat.id}, {"reason", "cheating"}})["type"] ==
          "tournament.disqualify.ok");
  CHECK(code_of(event.ask(ana, &Tournament::disqualify, "tournament.disqualify",
                          {{"player", cheat.id}, {"reason", "cheating"}})) == "wrong_state");
  CHECK(event.entrant(cheat)["status"] == "disqualified");
  CHECK(event.entrant(cheat)["reason"] == "cheating");
  now = event.detail();
  CHECK(now["standings"].back()["player"]["id"] == cheat.id);
  CHECK(now["standings"].back()["disqualified"] == true);
  CHECK(now["standings"].back()["points"] == 6);

  // Resumed, round 2 begins at once without the withdrawn and the disqualified: the four
  // left make one table of three and a bye.
  REQUIRE(event.ask(ana, &Tournament::resume_play, "tournament.resume")["type"] == "tournament.resume.ok");
  REQUIRE(event.waits_for([](const json& t) { return t["rounds"].size() == 2; }));
  now = event.detail();
  CHECK(now["status"] == "running");
  REQUIRE(now["rounds"][1]["boards"].size() == 1);
  std::set<PlayerId> in_round_2;
  for (const PlayerId id : ids_of(now["rounds"][1]["boards"][0]["seats"])) in_round_2.insert(id);
  for (const PlayerId id : ids_of(now["rounds"][1]["byes"])) in_round_2.insert(id);
  CHECK(in_round_2.size() == 4);
  CHECK_FALSE(in_round_2.contains(cheat.id));
  CHECK_FALSE(in_round_2.contains(leaver.id));

  // The last board's result finishes the event; the standings follow the points.
  event.decide(2, 1, {100, 20, 10});
  REQUIRE(event.waits_for([](const json& t) { return t["status"] == "finished"; }));
  now = event.detail();
  REQUIRE(now["standings"].size() == 6);
  double previous = 1e9;
  for (std::size_t r = 0; r + 1 < now["standings"].size(); ++r) {
    const json& row = now["standings"][r];
    CHECK(row["rank"] == r + 1);
    CHECK(row["disqualified"] == false);
    CHECK(row["points"].get<double>() <= previous);
    previous = row["points"].get<double>();
  }
  CHECK(now["standings"].back()["player"]["id"] == cheat.id);
  const auto withdrawn = std::find_if(now["standings"].begin(), now["standings"].end(),
                                      [&](const json& row) { return row["player"]["id"] == leaver.id; });
  REQUIRE(withdrawn != now["standings"].end());
  CHECK((*withdrawn)["withdrawn"] == true);
  CHECK((*withdrawn)["played"] == 1);
  CHECK(code_of(event.ask(ana, &Tournament::resume_play, "tournament.resume")) == "wrong_state");
}

TEST_CASE("A round whose boards find no table id at hand gets their tables once ids come") {
  World world(members());
  Event event(world);
  const std::vector<Player> entrants{ben, cid, dee, eva, fay, gil};
  for (const Player& p : entrants) REQUIRE(event.enrol(p)["type"] == "tournament.register.ok");
  world.hold_table_ids(true);
  world.table_ids.take();  // one id left in hand: one board of two gets a table
  REQUIRE(event.ask(ana, &Tournament::start, "tournament.start")["type"] == "tournament.start.ok");
  world.run_for(std::chrono::milliseconds(500));
  json now = event.detail();
  REQUIRE(now["rounds"].size() == 1);
  REQUIRE(now["rounds"][0]["boards"].size() == 2);
  CHECK(now["rounds"][0]["boards"][0]["table"] == 2);
  CHECK(now["rounds"][0]["boards"][1]["table"].is_null());
  const auto told = [&] {
    return std::count_if(entrants.begin(), entrants.end(),
                         [&](const Player& p) { return !event.client(p)->of_type("tournament.round").empty(); });
  };
  CHECK(told() == 3);

  world.hold_table_ids(false);
  REQUIRE(world.run_until([&] { return told() == 6; }));
  now = event.detail();
  CHECK(now["rounds"][0]["boards"][1]["table"] == 3);
  CHECK(world.directory.find(3));
}

TEST_CASE("The director removes a registration before the start, and the removed cannot come back") {
  World world(members());
  Event event(world);
  REQUIRE(event.enrol(ben)["type"] == "tournament.register.ok");
  CHECK(code_of(event.ask(ana, &Tournament::disqualify, "tournament.disqualify", {{"player", ben.id}, {"reason", "x"}})) ==
        "wrong_state");
  CHECK(code_of(event.ask(cid, &Tournament::remove, "tournament.remove", {{"player", ben.id}, {"reason", "spam"}})) ==
        "forbidden");
  REQUIRE(event.ask(ana, &Tournament::remove, "tournament.remove", {{"player", ben.id}, {"reason", "spam"}})["type"] ==
          "tournament.remove.ok");
  CHECK(event.entrant(ben)["status"] == "removed");
  CHECK(code_of(event.enrol(ben)) == "forbidden");
  REQUIRE(event.ask(ana, &Tournament::cancel, "tournament.cancel")["type"] == "tournament.cancel.ok");
  CHECK(event.detail()["status"] == "cancelled");
  CHECK(code_of(event.enrol(cid)) == "wrong_state");
}

TEST_CASE("While storage takes no changes, every request is refused as unavailable and nothing changes") {
  World world(members(), 0);
  Event event(world);
  const json refused = event.enrol(ben);
  CHECK(code_of(refused) == "unavailable");
  CHECK(event.detail()["entrants"].empty());
}

}  // namespace elgrande::test::tournament_tests
