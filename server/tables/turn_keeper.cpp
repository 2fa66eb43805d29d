#include "tables/turn_keeper.hpp"

#include <algorithm>

#include "common/unix_time.hpp"

namespace elgrande::server {

TurnKeeper::TurnKeeper(boost::asio::any_io_executor strand, TurnTaker& table, Limits limits, int seats)
    : table_(table),
      limits_(limits),
      seats_(static_cast<std::size_t>(seats)),
      bot_timer_(strand),
      clock_timer_(std::move(strand)) {}

void TurnKeeper::set(Deadline& deadline, std::chrono::milliseconds from_now) {
  deadline.at = Clock::now() + from_now;
  deadline.unix_ms = unix_milliseconds() + from_now.count();
}

void TurnKeeper::update(std::uint8_t owing, std::optional<int> actor) {
  if (limits_.turn.count() == 0) return;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    Deadline& deadline = seats_[s];
    if (!((owing >> s) & 1u)) {
      deadline = Deadline{};
    } else if (!deadline.at || actor == static_cast<int>(s)) {
      set(deadline, limits_.turn);
    }
  }
}

void TurnKeeper::clear(int seat) { seats_[static_cast<std::size_t>(seat)] = Deadline{}; }

void TurnKeeper::expire(int seat) {
  if (limits_.turn.count() != 0) set(seats_[static_cast<std::size_t>(seat)], std::chrono::milliseconds(0));
}

void TurnKeeper::restore(int seat, std::int64_t unix_ms) { seats_[static_cast<std::size_t>(seat)].unix_ms = unix_ms; }

void TurnKeeper::resume() {
  const std::int64_t now = unix_milliseconds();
  const auto grace = std::min(limits_.grace, limits_.turn);
  for (Deadline& deadline : seats_) {
    if (deadline.unix_ms == 0) continue;
    set(deadline, std::max(std::chrono::milliseconds(deadline.unix_ms - now), grace));
  }
}

void TurnKeeper::schedule_bot() {
  if (bot_scheduled_ || stopped_) return;
  bot_scheduled_ = true;
  bot_timer_.expires_after(limits_.bot_delay);
  bot_timer_.async_wait([this, keep = table_.turn_taker()](boost::system::error_code ec) {
    bot_scheduled_ = false;
    if (ec || stopped_) return;
    // Nothing a bot plays could be saved now: ask again after the same pause.
    if (!table_.may_play()) return schedule_bot();
    table_.bot_turn();
  });
}

void TurnKeeper::schedule_clock() {
  if (limits_.turn.count() == 0 || stopped_) return;
  std::optional<Clock::time_point> earliest;
  for (const Deadline& deadline : seats_) {
    if (deadline.at && (!earliest || *deadline.at < *earliest)) earliest = deadline.at;
  }
  if (!earliest) return;
  // Re-arming cancels the previous wait; a cancelled wait that had already completed is
  // recognised by its stale generation.
  const std::uint64_t generation = ++clock_generation_;
  clock_timer_.expires_at(*earliest);
  clock_timer_.async_wait([this, generation, keep = table_.turn_taker()](boost::system::error_code ec) {
    if (ec || stopped_ || generation != clock_generation_) return;
    on_clock();
  });
}

void TurnKeeper::on_clock() {
  const auto now = Clock::now();
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (!seats_[s].at || *seats_[s].at > now) continue;
    if (!table_.may_play()) {
      push_back_passed();
      table_.deadlines_moved();
      return schedule_clock();
    }
    // The table answers for the seat and, after its change, schedules the clock again.
    return table_.time_ran_out(static_cast<int>(s));
  }
  schedule_clock();
}

void TurnKeeper::push_back_passed() {
  const auto now = Clock::now();
  const auto grace = std::min(limits_.grace, limits_.turn);
  for (Deadline& deadline : seats_) {
    if (deadline.at && *deadline.at <= now) set(deadline, grace);
  }
}

void TurnKeeper::stop() {
  stopped_ = true;
  bot_timer_.cancel();
  clock_timer_.cancel();
}

}  // namespace elgrande::server
