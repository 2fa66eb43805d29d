// A table's turn clocks and the pause before a server bot answers, on a real io_context
// with turns of a few tens of milliseconds: a seat that owes a decision runs out of time
// once its turn is over, and no other seat does; while nothing can be saved, nobody runs
// out of time and no bot plays, the deadlines moving instead; after a restart a deadline
// that passed meanwhile gets a grace. The assertions are on orders and generous bounds,
// never on exact milliseconds.
#include <catch2/catch.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "common/unix_time.hpp"
#include "tables/turn_keeper.hpp"

using namespace elgrande::server;
using namespace std::chrono_literals;
using Clock = TurnKeeper::Clock;
using Limits = TurnKeeper::Limits;

namespace {

// A table as the turn keeper sees it, recording what it is asked to do.
struct FakeTable : TurnTaker, std::enable_shared_from_this<FakeTable> {
  std::shared_ptr<TurnTaker> turn_taker() override { return shared_from_this(); }
  bool may_play() override { return playable; }
  void bot_turn() override {
    bot_turns.push_back(Clock::now());
    if (on_bot_turn) on_bot_turn();
  }
  void time_ran_out(int seat) override {
    ran_out.push_back(seat);
    ran_out_at.push_back(Clock::now());
    ran_out_at_unix.push_back(unix_milliseconds());
    if (on_time_ran_out) on_time_ran_out(seat);
  }
  void deadlines_moved() override {
    ++moves;
    if (on_deadlines_moved) on_deadlines_moved();
  }

  bool playable = true;
  std::vector<Clock::time_point> bot_turns;
  std::vector<int> ran_out;
  std::vector<Clock::time_point> ran_out_at;
  std::vector<std::int64_t> ran_out_at_unix;
  int moves = 0;
  std::function<void()> on_bot_turn;
  std::function<void(int)> on_time_ran_out;
  std::function<void()> on_deadlines_moved;
};

// A turn keeper for `seats` seats, its table, and the io_context their timers run on.
struct Turns {
  Turns(Limits limits, int seats) : keeper(boost::asio::make_strand(io), *table, limits, seats) {}

  // Runs the timers for at most `duration` (less if nothing is left to wait for).
  void run_for(std::chrono::milliseconds duration) {
    io.restart();
    io.run_for(duration);
  }

  // Answers a seat whose time ran out as a table does: the seat owes nothing more (it
  // owes the bits in `owing`), and the clock is re-armed for the others.
  void answer_timeouts(std::uint8_t& owing) {
    table->on_time_ran_out = [this, &owing](int seat) {
      owing = static_cast<std::uint8_t>(owing & ~(1u << seat));
      keeper.update(owing, seat);
      keeper.schedule_clock();
    };
  }

  boost::asio::io_context io;
  std::shared_ptr<FakeTable> table = std::make_shared<FakeTable>();
  TurnKeeper keeper;
};

constexpr Limits kFast{.turn = 60ms, .bot_delay = 10ms, .grace = 30ms};

}  // namespace

TEST_CASE("a seat that owes a decision runs out of time once its turn is over, and a seat that owes none never does",
          "[turns]") {
  Turns turns(kFast, 3);
  std::uint8_t owing = 0b001;
  turns.answer_timeouts(owing);

  const auto asked = Clock::now();
  turns.keeper.update(owing, std::nullopt);
  CHECK(turns.keeper.has_deadline(0));
  CHECK_FALSE(turns.keeper.has_deadline(1));
  CHECK_FALSE(turns.keeper.has_deadline(2));
  turns.keeper.schedule_clock();
  turns.run_for(500ms);

  CHECK(turns.table->ran_out == std::vector<int>{0});
  REQUIRE(turns.table->ran_out_at.size() == 1);
  CHECK(turns.table->ran_out_at[0] - asked >= kFast.turn);  // not a moment before
  CHECK_FALSE(turns.keeper.has_deadline(0));
  CHECK(turns.table->bot_turns.empty());
}

TEST_CASE("a decision still open keeps its deadline: the seat asked first runs out first", "[turns]") {
  Turns turns(kFast, 2);
  std::uint8_t owing = 0b01;
  turns.answer_timeouts(owing);

  turns.keeper.update(owing, std::nullopt);
  const std::int64_t first = turns.keeper.deadline_unix_ms(0);
  std::this_thread::sleep_for(20ms);
  owing = 0b11;  // seat 1 owes a decision too now; seat 0 still owes the same one
  turns.keeper.update(owing, std::nullopt);
  CHECK(turns.keeper.deadline_unix_ms(0) == first);
  CHECK(turns.keeper.deadline_unix_ms(1) > first);

  turns.keeper.schedule_clock();
  turns.run_for(500ms);
  CHECK(turns.table->ran_out == std::vector<int>{0, 1});
}

TEST_CASE("a seat that answered and owes another decision gets a whole turn again, the others keep theirs",
          "[turns]") {
  Turns turns(kFast, 2);
  std::uint8_t owing = 0b11;
  turns.answer_timeouts(owing);

  turns.keeper.update(owing, std::nullopt);
  const std::int64_t seat0_before = turns.keeper.deadline_unix_ms(0);
  const std::int64_t seat1_before = turns.keeper.deadline_unix_ms(1);
  std::this_thread::sleep_for(20ms);
  turns.keeper.update(owing, 0);  // seat 0 answered, and owes again
  const std::int64_t seat0_after = turns.keeper.deadline_unix_ms(0);
  CHECK(seat0_after > seat0_before);
  CHECK(turns.keeper.deadline_unix_ms(1) == seat1_before);

  turns.keeper.schedule_clock();
  turns.run_for(500ms);
  // Each ran out once, and neither before its own deadline (give or take the clock's
  // millisecond); which was noticed first depends on how busy the machine is.
  REQUIRE(turns.table->ran_out.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const int seat = turns.table->ran_out[i];
    CHECK(turns.table->ran_out_at_unix[i] >= (seat == 0 ? seat0_after : seat1_before) - 1);
  }
  CHECK(turns.table->ran_out[0] != turns.table->ran_out[1]);
}

TEST_CASE("a seat that no longer owes a decision, or that a bot took over, has no clock", "[turns]") {
  Turns turns(kFast, 3);
  std::uint8_t owing = 0b111;
  turns.answer_timeouts(owing);
  turns.keeper.update(owing, std::nullopt);
  turns.keeper.schedule_clock();  // armed for all three

  owing = 0b011;  // seat 2 answered
  turns.keeper.update(owing, std::nullopt);
  CHECK_FALSE(turns.keeper.has_deadline(2));
  CHECK(turns.keeper.deadline_unix_ms(2) == 0);

  turns.keeper.clear(1);  // resigned: a bot plays it, and the table counts it no more
  owing = 0b001;
  CHECK_FALSE(turns.keeper.has_deadline(1));
  CHECK(turns.keeper.deadline_unix_ms(1) == 0);

  turns.run_for(500ms);
  CHECK(turns.table->ran_out == std::vector<int>{0});
}

TEST_CASE("a bot answers after its pause, once however often it is asked", "[turns]") {
  Turns turns(kFast, 2);
  const auto asked = Clock::now();
  turns.keeper.schedule_bot();
  turns.keeper.schedule_bot();
  CHECK(turns.table->bot_turns.empty());  // never at once

  turns.run_for(300ms);
  REQUIRE(turns.table->bot_turns.size() == 1);
  CHECK(turns.table->bot_turns[0] - asked >= kFast.bot_delay);

  // Asked again after it played, it plays again.
  turns.keeper.schedule_bot();
  turns.run_for(300ms);
  CHECK(turns.table->bot_turns.size() == 2);
}

TEST_CASE("while nothing can be saved, no bot plays and no time runs out: the passed deadlines move on instead",
          "[turns]") {
  Turns turns(kFast, 2);
  std::uint8_t owing = 0b01;
  turns.answer_timeouts(owing);
  turns.table->playable = false;
  // What the deadline was each time the table heard it moved, against the time then.
  std::vector<std::int64_t> moved_by;
  turns.table->on_deadlines_moved = [&] {
    moved_by.push_back(turns.keeper.deadline_unix_ms(0) - unix_milliseconds());
  };

  turns.keeper.update(owing, std::nullopt);
  const std::int64_t first_deadline = turns.keeper.deadline_unix_ms(0);
  turns.keeper.schedule_clock();
  turns.keeper.schedule_bot();
  turns.run_for(250ms);  // four times the turn

  CHECK(turns.table->ran_out.empty());
  CHECK(turns.table->bot_turns.empty());
  REQUIRE(turns.table->moves >= 1);
  CHECK(turns.keeper.deadline_unix_ms(0) > first_deadline);
  CHECK_FALSE(turns.keeper.has_deadline(1));
  for (const std::int64_t ahead : moved_by) {
    // Ahead again, by the grace (not a whole turn) past the moment it moved, give or take
    // the clock's millisecond.
    CHECK(ahead > 0);
    CHECK(ahead <= kFast.grace.count() + 1);
  }

  SECTION("once changes can be saved again, the bot plays and the seat runs out of time within the grace") {
    turns.table->playable = true;
    const std::int64_t resumed_unix = unix_milliseconds();
    const std::int64_t deadline = turns.keeper.deadline_unix_ms(0);
    CHECK(deadline <= resumed_unix + kFast.grace.count() + 1);  // the grace, not a whole turn
    turns.run_for(500ms);

    CHECK(turns.table->bot_turns.size() == 1);
    REQUIRE(turns.table->ran_out == std::vector<int>{0});
    CHECK(turns.table->ran_out_at_unix[0] >= deadline - 1);  // not before its (moved) deadline
  }
}

TEST_CASE("after a restart, a deadline that passed meanwhile gets the grace, and one still ahead keeps its time",
          "[turns]") {
  const Limits slow{.turn = 60'000ms, .bot_delay = 10ms, .grace = 5'000ms};
  Turns turns(slow, 3);
  const std::int64_t now = unix_milliseconds();
  turns.keeper.restore(0, now - 10'000);  // passed while the server was down
  turns.keeper.restore(1, now + 30'000);
  turns.keeper.resume();

  CHECK(turns.keeper.has_deadline(0));
  CHECK(turns.keeper.deadline_unix_ms(0) >= now + 5'000);
  CHECK(turns.keeper.deadline_unix_ms(0) <= now + 5'000 + 1'000);
  CHECK(turns.keeper.has_deadline(1));
  CHECK(turns.keeper.deadline_unix_ms(1) >= now + 30'000);
  CHECK(turns.keeper.deadline_unix_ms(1) <= now + 30'000 + 1'000);
  CHECK_FALSE(turns.keeper.has_deadline(2));
}

TEST_CASE("the grace after a restart is never longer than a whole turn", "[turns]") {
  const Limits blitz{.turn = 2'000ms, .bot_delay = 10ms, .grace = 60'000ms};
  Turns turns(blitz, 2);
  const std::int64_t now = unix_milliseconds();
  turns.keeper.restore(0, now - 1'000);
  turns.keeper.resume();
  CHECK(turns.keeper.deadline_unix_ms(0) >= now + 2'000);
  CHECK(turns.keeper.deadline_unix_ms(0) <= now + 2'000 + 1'000);
}

TEST_CASE("a restored deadline that passed runs out once the grace after the restart is over", "[turns]") {
  Turns turns(kFast, 2);
  std::uint8_t owing = 0b01;
  turns.answer_timeouts(owing);
  turns.keeper.restore(0, unix_milliseconds() - 60'000);

  const auto restarted = Clock::now();
  turns.keeper.resume();
  turns.keeper.schedule_clock();
  turns.run_for(500ms);
  REQUIRE(turns.table->ran_out == std::vector<int>{0});
  CHECK(turns.table->ran_out_at[0] - restarted >= kFast.grace);
}

TEST_CASE("without a turn limit there are no clocks, and bots still play", "[turns]") {
  Turns turns(Limits{.turn = 0ms, .bot_delay = 10ms, .grace = 30ms}, 2);
  turns.keeper.update(0b11, std::nullopt);
  CHECK_FALSE(turns.keeper.has_deadline(0));
  CHECK_FALSE(turns.keeper.has_deadline(1));
  CHECK(turns.keeper.deadline_unix_ms(0) == 0);

  turns.keeper.schedule_clock();
  turns.keeper.schedule_bot();
  turns.run_for(300ms);
  CHECK(turns.table->ran_out.empty());
  CHECK(turns.table->bot_turns.size() == 1);
}

TEST_CASE("a stopped turn keeper lets no bot play and no time run out", "[turns]") {
  Turns turns(kFast, 2);
  turns.keeper.update(0b11, std::nullopt);
  turns.keeper.schedule_clock();
  turns.keeper.schedule_bot();

  turns.keeper.stop();
  turns.keeper.schedule_bot();  // asking again after the stop changes nothing
  turns.keeper.schedule_clock();
  turns.run_for(300ms);
  CHECK(turns.table->ran_out.empty());
  CHECK(turns.table->bot_turns.empty());
  CHECK(turns.table->moves == 0);
}
