#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace elgrande::server {

// What a TurnKeeper asks of its table, always on the table's strand.
class TurnTaker {
 public:
  virtual ~TurnTaker() = default;
  // Pending timers hold the table alive through this.
  virtual std::shared_ptr<TurnTaker> turn_taker() = 0;
  // False while the table cannot save a change: then no bot plays and no clock runs out,
  // since the player whose time it is would be refused too.
  virtual bool may_play() = 0;
  virtual void bot_turn() = 0;             // a bot seat owes a decision
  virtual void time_ran_out(int seat) = 0;  // the seat's deadline passed
  virtual void deadlines_moved() = 0;       // passed deadlines were pushed back
};

// Keeps a table's turns moving: each seat's turn clock, and the pause before a server
// bot answers. Runs on the table's strand; knows nothing of the game.
class TurnKeeper {
 public:
  using Clock = std::chrono::steady_clock;

  struct Limits {
    std::chrono::milliseconds turn{0};  // 0: no turn clocks
    std::chrono::milliseconds bot_delay{600};
    // A deadline that passed while nothing could be played (the server was down, or could
    // not save) is moved this far past the moment play is possible again.
    std::chrono::milliseconds grace{60'000};
  };

  TurnKeeper(boost::asio::any_io_executor strand, TurnTaker& table, Limits limits, int seats);

  // Whose decisions are open on the clock now: a bit per seat owing one that a person
  // plays. A new decision gets the whole turn; one still open keeps its deadline, unless
  // `actor` just answered and owes another.
  void update(std::uint8_t owing, std::optional<int> actor);
  void clear(int seat);  // a bot plays the seat from now on, or answers its late decision
  void expire(int seat);  // the seat's deadline is now (its late answer could not be played)
  // A deadline as stored (Unix ms), from before a restart; resume() then applies the grace.
  void restore(int seat, std::int64_t unix_ms);
  void resume();

  void schedule_bot();
  void schedule_clock();
  void stop();  // cancels both timers

  std::int64_t deadline_unix_ms(int seat) const { return seats_[static_cast<std::size_t>(seat)].unix_ms; }
  bool has_deadline(int seat) const { return seats_[static_cast<std::size_t>(seat)].at.has_value(); }

 private:
  struct Deadline {
    std::optional<Clock::time_point> at;
    std::int64_t unix_ms = 0;  // the same moment, as players and the database see it
  };
  void set(Deadline& deadline, std::chrono::milliseconds from_now);
  void on_clock();
  void push_back_passed();

  TurnTaker& table_;
  const Limits limits_;
  std::vector<Deadline> seats_;
  boost::asio::steady_timer bot_timer_;
  boost::asio::steady_timer clock_timer_;
  bool bot_scheduled_ = false;
  std::uint64_t clock_generation_ = 0;
  bool stopped_ = false;
};

}  // namespace elgrande::server
