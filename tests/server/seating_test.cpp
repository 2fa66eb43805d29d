// Who sits where at a table and who hosts it: the rules a player meets in the lobby
// (joining, changing seats, leaving, bots, starting) and those of a game under way
// (resigning, losing a seat to timeouts, leaving a finished table). Every refusal names
// its reason in the protocol's words and leaves the seating exactly as it was.
#include <catch2/catch.hpp>

#include <optional>
#include <variant>

#include "server/server_fixtures.hpp"
#include "tables/seating.hpp"
#include "tables/table_config.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
namespace protocol = elgrande::protocol;
using protocol::ErrorCode;

namespace {

// A lobby table of `seats` empty seats that Ana hosts (she has not sat down yet).
Seating hosted_by_ana(int seats) { return Seating(std::vector<Seat>(static_cast<std::size_t>(seats)), ana.id); }

int seated(const SeatOrRefusal& outcome) {
  if (const auto* refusal = std::get_if<Refusal>(&outcome)) FAIL("refused: " << refusal->message);
  return std::get<int>(outcome);
}

Refusal refusal_of(const SeatOrRefusal& outcome) {
  REQUIRE(std::holds_alternative<Refusal>(outcome));
  return std::get<Refusal>(outcome);
}
Refusal refusal_of(const std::optional<Refusal>& outcome) {
  REQUIRE(outcome.has_value());
  return *outcome;
}

// Applies a rule that must be refused, checks that nothing changed, and returns why.
template <class Rule>
Refusal refused(Seating& seating, Rule&& rule) {
  const std::vector<Seat> seats_before = seating.seats();
  const PlayerId host_before = seating.host();
  const Refusal refusal = refusal_of(rule(seating));
  CHECK(seating.seats() == seats_before);
  CHECK(seating.host() == host_before);
  return refusal;
}

bool is_bot(const Seating& seating, int seat) { return seating[seat].kind == Seat::Kind::bot; }
bool is_empty(const Seating& seating, int seat) { return seating[seat].kind == Seat::Kind::empty; }
std::optional<PlayerId> player_at(const Seating& seating, int seat) {
  return seating[seat].player ? std::optional(seating[seat].player->id) : std::nullopt;
}

}  // namespace

// --- Joining. ---

TEST_CASE("a player sits at the seat they choose, or else at the first empty one", "[seating]") {
  Seating seating = hosted_by_ana(4);
  CHECK(seated(seating.join(ana, std::nullopt)) == 0);
  CHECK(seated(seating.join(ben, 2)) == 2);
  CHECK(seated(seating.join(cid, std::nullopt)) == 1);

  CHECK(seating[2].kind == Seat::Kind::human);
  CHECK(seating[2].player == ben);
  CHECK(seating.seat_of(ben.id) == 2);
  CHECK(seating.seat_of(dee.id) == std::nullopt);
  CHECK(seating.first_empty() == 3);
  CHECK_FALSE(seating.full());
  CHECK(seating.members() == std::vector<PlayerId>{ana.id, cid.id, ben.id});  // seat order
}

TEST_CASE("a seat someone already has is refused as seat_taken, naming the seat", "[seating]") {
  Seating seating = hosted_by_ana(3);
  seated(seating.join(ana, 0));
  seated(seating.add_bot(ana.id, 1, elgrande::games::BotLevel::easy));
  CHECK(seating[1].bot_level == elgrande::games::BotLevel::easy);  // as the host chose

  const Refusal by_player = refused(seating, [](Seating& s) { return s.join(ben, 0); });
  CHECK(by_player.code == ErrorCode::seat_taken);
  CHECK_THAT(by_player.message, Catch::Contains("seat 0"));
  CHECK(refused(seating, [](Seating& s) { return s.join(ben, 1); }).code == ErrorCode::seat_taken);
  CHECK(refused(seating, [](Seating& s) { return s.add_bot(ana.id, 0, elgrande::games::BotLevel::random); }).code == ErrorCode::seat_taken);
  CHECK(refused(seating, [](Seating& s) { return s.add_bot(ana.id, 1, elgrande::games::BotLevel::random); }).code == ErrorCode::seat_taken);
}

TEST_CASE("a full table refuses another player and another bot with table_full", "[seating]") {
  Seating seating = hosted_by_ana(3);
  seated(seating.join(ana, std::nullopt));
  seated(seating.join(ben, std::nullopt));
  seated(seating.add_bot(ana.id, std::nullopt, elgrande::games::BotLevel::random));
  REQUIRE(seating.full());

  CHECK(refused(seating, [](Seating& s) { return s.join(cid, std::nullopt); }).code == ErrorCode::table_full);
  CHECK(refused(seating, [](Seating& s) { return s.add_bot(ana.id, std::nullopt, elgrande::games::BotLevel::random); }).code == ErrorCode::table_full);
}

TEST_CASE("a player who sits at the table already cannot join it again", "[seating]") {
  Seating seating = hosted_by_ana(4);
  seated(seating.join(ben, 1));

  const Refusal again = refused(seating, [](Seating& s) { return s.join(ben, std::nullopt); });
  CHECK(again.code == ErrorCode::wrong_state);
  CHECK_THAT(again.message, Catch::Contains("seat 1"));
  CHECK(refused(seating, [](Seating& s) { return s.join(ben, 3); }).code == ErrorCode::wrong_state);
}

// --- Changing seats and leaving. ---

TEST_CASE("a player moves to an empty seat and their old seat is free for others", "[seating]") {
  Seating seating = hosted_by_ana(4);
  seated(seating.join(ana, 0));
  seated(seating.join(ben, 1));

  CHECK(seated(seating.move(ben.id, 3)) == 3);
  CHECK(is_empty(seating, 1));
  CHECK(seating[3].player == ben);
  CHECK(seating.seat_of(ben.id) == 3);
  CHECK(seated(seating.join(cid, std::nullopt)) == 1);  // the seat Ben left

  SECTION("moving to the seat one has already changes nothing") {
    const std::vector<Seat> before = seating.seats();
    CHECK(seated(seating.move(ben.id, 3)) == 3);
    CHECK(seating.seats() == before);
  }
  SECTION("players do not swap seats: a seat someone has is refused") {
    CHECK(refused(seating, [](Seating& s) { return s.move(ben.id, 0); }).code == ErrorCode::seat_taken);
  }
  SECTION("nor can anyone move onto a bot's seat") {
    seated(seating.add_bot(ana.id, 2, elgrande::games::BotLevel::random));
    CHECK(refused(seating, [](Seating& s) { return s.move(ben.id, 2); }).code == ErrorCode::seat_taken);
  }
  SECTION("someone who does not sit at the table has no seat to move") {
    CHECK(refused(seating, [](Seating& s) { return s.move(dee.id, 2); }).code == ErrorCode::wrong_state);
  }
}

TEST_CASE("when the host leaves, the first human in seat order hosts the table", "[seating]") {
  Seating seating = hosted_by_ana(4);
  seated(seating.join(ana, 0));
  seated(seating.add_bot(ana.id, 1, elgrande::games::BotLevel::random));
  seated(seating.join(cid, 2));
  seated(seating.join(ben, 3));

  CHECK_FALSE(seating.leave(ana.id).has_value());
  CHECK(is_empty(seating, 0));
  CHECK(seating.host() == cid.id);  // not the bot at seat 1
  // The new host has the host's powers, the old one none.
  CHECK(seated(seating.add_bot(cid.id, 0, elgrande::games::BotLevel::random)) == 0);

  SECTION("another player leaving keeps the host") {
    CHECK_FALSE(seating.leave(ben.id).has_value());
    CHECK(seating.host() == cid.id);
    CHECK(is_empty(seating, 3));
  }
  SECTION("someone who does not sit at the table cannot leave it") {
    CHECK(refused(seating, [](Seating& s) { return s.leave(ana.id); }).code == ErrorCode::wrong_state);
  }
}

// --- Bots and the start. ---

TEST_CASE("only the host adds and removes bots", "[seating]") {
  Seating seating = hosted_by_ana(4);
  seated(seating.join(ana, 0));
  seated(seating.join(ben, 1));

  CHECK(refused(seating, [](Seating& s) { return s.add_bot(ben.id, std::nullopt, elgrande::games::BotLevel::random); }).code == ErrorCode::forbidden);
  CHECK(seated(seating.add_bot(ana.id, std::nullopt, elgrande::games::BotLevel::random)) == 2);
  CHECK(seated(seating.add_bot(ana.id, 3, elgrande::games::BotLevel::random)) == 3);
  CHECK(is_bot(seating, 2));
  CHECK(is_bot(seating, 3));

  CHECK(refused(seating, [](Seating& s) { return s.remove_bot(ben.id, 2); }).code == ErrorCode::forbidden);
  CHECK_FALSE(seating.remove_bot(ana.id, 2).has_value());
  CHECK(is_empty(seating, 2));

  SECTION("a seat without a bot has no bot to remove") {
    const Refusal player = refused(seating, [](Seating& s) { return s.remove_bot(ana.id, 1); });
    CHECK(player.code == ErrorCode::wrong_state);
    CHECK_THAT(player.message, Catch::Contains("seat 1"));
    CHECK(refused(seating, [](Seating& s) { return s.remove_bot(ana.id, 2); }).code == ErrorCode::wrong_state);
  }
}

TEST_CASE("the game starts when the host asks and no seat is empty", "[seating]") {
  Seating seating = hosted_by_ana(3);
  seated(seating.join(ana, 0));
  seated(seating.join(ben, 1));

  const Refusal not_full = refused(seating, [](const Seating& s) { return s.may_start(ana.id); });
  CHECK(not_full.code == ErrorCode::wrong_state);
  CHECK_THAT(not_full.message, Catch::Contains("seat 2 is empty"));

  seated(seating.add_bot(ana.id, 2, elgrande::games::BotLevel::random));
  CHECK(refused(seating, [](const Seating& s) { return s.may_start(ben.id); }).code == ErrorCode::forbidden);
  CHECK_FALSE(seating.may_start(ana.id).has_value());
}

// --- During and after the game. ---

TEST_CASE("a player who resigns watches while a bot plays their seat, and stays a member", "[seating]") {
  Seating seating = hosted_by_ana(3);
  seated(seating.join(ana, 0));
  seated(seating.join(ben, 1));
  seated(seating.join(cid, 2));

  seating.resign(1, elgrande::games::BotLevel::random);
  CHECK(is_bot(seating, 1));
  CHECK(seating[1].resigned);
  CHECK(seating[1].player == ben);  // for the record
  CHECK(seating.seat_of(ben.id) == std::nullopt);  // plays no seat any more
  CHECK(seating.member_seat(ben.id) == 1);
  CHECK(seating.members() == std::vector<PlayerId>{ana.id, ben.id, cid.id});
  CHECK(seating.anyone_human());
}

TEST_CASE("a player who ran out of time too often loses the seat to a bot, and stays a member", "[seating]") {
  Seating seating = hosted_by_ana(2);
  seated(seating.join(ana, 0));
  seated(seating.join(ben, 1));
  seating[1].timeouts = 3;

  seating.replace(1, elgrande::games::BotLevel::strong);
  CHECK(is_bot(seating, 1));
  CHECK(seating[1].bot_level == elgrande::games::BotLevel::strong);  // the server's replacement level
  CHECK(seating[1].replaced);
  CHECK_FALSE(seating[1].resigned);
  CHECK(seating[1].player == ben);
  CHECK(seating.seat_of(ben.id) == std::nullopt);
  CHECK(seating.member_seat(ben.id) == 1);
  CHECK(seating.members() == std::vector<PlayerId>{ana.id, ben.id});

  seating.replace(0, elgrande::games::BotLevel::random);
  CHECK_FALSE(seating.anyone_human());
}

TEST_CASE("a player who leaves a finished table is no longer a member, but their seat keeps its record",
          "[seating]") {
  Seating seating = hosted_by_ana(3);
  seated(seating.join(ana, 0));
  seated(seating.join(ben, 1));
  seated(seating.join(cid, 2));
  seating.resign(2, elgrande::games::BotLevel::random);

  CHECK(seating.forget(ben.id));
  CHECK(seating.member_seat(ben.id) == std::nullopt);
  CHECK(seating.members() == std::vector<PlayerId>{ana.id, cid.id});
  CHECK(player_at(seating, 1) == ben.id);  // the result still names who played it

  CHECK(seating.forget(cid.id));  // resigned players leave too
  CHECK(seating.members() == std::vector<PlayerId>{ana.id});

  const std::vector<Seat> before = seating.seats();
  CHECK_FALSE(seating.forget(ben.id));  // gone already
  CHECK_FALSE(seating.forget(dee.id));  // never there
  CHECK(seating.seats() == before);
}

// --- From a spec. ---

TEST_CASE("a spec seats its players and bots where it says, and every other seat is empty", "[seating]") {
  TableSpec spec;
  spec.host = ben.id;
  spec.seats = {{TableSpec::SeatSpec::Kind::bot, std::nullopt},
                {TableSpec::SeatSpec::Kind::player, ben},
                {TableSpec::SeatSpec::Kind::empty, std::nullopt}};

  const Seating seating = Seating::from(spec, 5, elgrande::games::BotLevel::random);
  REQUIRE(seating.size() == 5);
  CHECK(seating.host() == ben.id);
  CHECK(is_bot(seating, 0));
  CHECK_FALSE(seating[0].player.has_value());
  CHECK(seating[1].kind == Seat::Kind::human);
  CHECK(seating[1].player == ben);
  CHECK(is_empty(seating, 2));
  CHECK(is_empty(seating, 3));  // missing entries
  CHECK(is_empty(seating, 4));
  CHECK(seating.first_empty() == 2);

  SECTION("entries beyond the game's seats are ignored") {
    spec.seats.push_back({TableSpec::SeatSpec::Kind::player, cid});
    const Seating two = Seating::from(spec, 2, elgrande::games::BotLevel::random);
    CHECK(two.size() == 2);
    CHECK(two.seat_of(cid.id) == std::nullopt);
  }
}

TEST_CASE("the lobby's table is hosted by its creator from seat 0, and waits for the host to start it",
          "[seating]") {
  const TableSpec spec = TableSpec::hosted_by(ana, TableConfig{}, 3);
  CHECK(spec.host == ana.id);
  CHECK_FALSE(spec.auto_start);
  CHECK(spec.seats.size() == 3);

  const Seating seating = Seating::from(spec, 3, elgrande::games::BotLevel::random);
  REQUIRE(seating.size() == 3);
  CHECK(seating.seat_of(ana.id) == 0);
  CHECK(seating[0].player == ana);
  CHECK(is_empty(seating, 1));
  CHECK(is_empty(seating, 2));
  const auto not_yet = seating.may_start(ana.id);
  REQUIRE(not_yet.has_value());
  CHECK_THAT(not_yet->message, Catch::Contains("seat 1 is empty"));
}
