#include "ai/bot_workers.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace elgrande::server {

BotWorkers::BotWorkers(BotThinking settings, Metrics& metrics)
    : settings_(settings), metrics_(metrics), pool_(settings.threads) {}

BotWorkers::~BotWorkers() { stop(); }

bool BotWorkers::post(std::function<void(const games::BotBudget&)> job) {
  if (waiting_.fetch_add(1, std::memory_order_relaxed) >= settings_.max_waiting) {
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    metrics_.bot_decisions_refused.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  // The limit counts from now: a decision that waited its time for a thread plays what one
  // playout finds, so that no table waits long behind a queue of others.
  const auto until = std::chrono::steady_clock::now() + settings_.think_limit;
  boost::asio::post(pool_, [this, job = std::move(job), until] {
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    const auto start = std::chrono::steady_clock::now();
    job(games::BotBudget{settings_.iterations, [this, until] {
                           return stopping_.load(std::memory_order_relaxed) ||
                                  std::chrono::steady_clock::now() >= until;
                         }});
    metrics_.bot_think_time.observe(std::chrono::steady_clock::now() - start);
  });
  return true;
}

bool BotWorkers::think(games::BotSearch search, Answer answered) {
  return post([search = std::move(search), answered = std::move(answered)](const games::BotBudget& budget) {
    games::MovePtr move;
    try {
      move = search(budget);
    } catch (const std::exception& error) {
      // A bug in the search: the table answers at random instead, and play goes on.
      spdlog::error("bot search failed ({}); answering at random", error.what());
    }
    answered(std::move(move));
  });
}

bool BotWorkers::review(games::ReviewSearch search, Reviewed reviewed) {
  return post([search = std::move(search), reviewed = std::move(reviewed)](const games::BotBudget& budget) {
    std::optional<games::Review> review;
    try {
      review = search(budget);
    } catch (const std::exception& error) {
      spdlog::error("a review's search failed ({})", error.what());
    }
    reviewed(std::move(review));
  });
}

void BotWorkers::stop() {
  stopping_.store(true, std::memory_order_relaxed);
  pool_.stop();
  pool_.join();
}

}  // namespace elgrande::server
