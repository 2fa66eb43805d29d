#pragma once

#include <atomic>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "elgrande/games/module.hpp"
#include "ops/metrics.hpp"

namespace elgrande::server {

// How bots think: on threads of their own, never on a table's strand or an I/O thread, so a
// searching bot delays no other table (docs/ai.md).
struct BotThinking {
  unsigned threads = 1;
  // A decision's wall-clock limit, from the moment it is asked (waiting for a thread
  // included): a search stops there, whatever its level's iterations. Below it a choice is
  // a function of the view and the seed alone.
  std::chrono::milliseconds think_limit{2000};
  int iterations = 0;  // playouts per decision; 0: each level's own (tests set fewer)
  // Decisions that may wait for a thread; past them a bot answers at random at once, rather
  // than keep its table waiting behind hundreds of others.
  std::size_t max_waiting = 1024;
};

class BotWorkers {
 public:
  BotWorkers(BotThinking settings, Metrics& metrics);
  ~BotWorkers();  // stop()
  BotWorkers(const BotWorkers&) = delete;
  BotWorkers& operator=(const BotWorkers&) = delete;

  // The search's move, or null if it failed (the caller then answers at random).
  using Answer = std::function<void(games::MovePtr)>;
  // Queues `search` (the game's, from one seat's view) and hands its move to `answered`, on
  // a worker thread. False (and nothing queued) if too many decisions wait already.
  bool think(games::BotSearch search, Answer answered);
  // The same for a second opinion on a finished game's decision (docs/replays.md): none if
  // the search failed. It waits in the same queue as the tables' bots, with the same limit.
  using Reviewed = std::function<void(std::optional<games::Review>)>;
  bool review(games::ReviewSearch search, Reviewed reviewed);
  // Cuts the searches under way short (their answers still go out), drops the rest, joins
  // the threads. Idempotent.
  void stop();

 private:
  // Runs `job` on a worker thread with a decision's budget, unless too many wait.
  bool post(std::function<void(const games::BotBudget&)> job);

  const BotThinking settings_;
  Metrics& metrics_;
  boost::asio::thread_pool pool_;
  std::atomic<std::size_t> waiting_{0};
  std::atomic<bool> stopping_{false};
};

}  // namespace elgrande::server
