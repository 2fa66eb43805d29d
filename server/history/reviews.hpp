#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "common/player.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "requests/answers.hpp"

namespace elgrande::server {

class BotWorkers;
class Reader;
class Storage;

// The strong bot's second opinion on a player's own decision in a finished game
// (docs/replays.md#second-opinion): the game restored at that version on a reader
// connection, the search from the seat's view on a bot thread, the answer kept with the game.
class Reviews {
 public:
  struct Limits {
    int per_day = 20;  // reviews a player may ask for in 24 hours; kept ones are free
    int at_once = 4;   // searches under way on the server: reviews never crowd out the tables' bots
  };
  Reviews(Limits limits, Reader& reader, Storage& storage, BotWorkers& bots, const games::GameModule& game);

  // The answer (a game.review.ok) or the refusal, on a reader, bot or storage thread.
  struct Refusal {
    protocol::ErrorCode code;
    std::string message;
    protocol::Json facts = protocol::Json::object();
  };
  using Answered = std::function<void(std::variant<protocol::Json, Refusal>)>;
  void ask(PlayerId player, std::int64_t table, std::int64_t version, Answered answered);

 private:
  // Counts a search under way for `player`, unless a limit says no.
  std::optional<Refusal> begin(PlayerId player, int asked_today);
  void end(PlayerId player);

  const Limits limits_;
  Reader& reader_;
  Storage& storage_;
  BotWorkers& bots_;
  const games::GameModule& game_;
  std::mutex mutex_;
  std::map<PlayerId, int> under_way_;  // per player
  int all_under_way_ = 0;
};

// game.review {table, version}: the second opinion on the decision the asking player made at
// `version` of a finished game.
struct ReviewRequestsEnv : RequestEnv {
  Reviews* reviews = nullptr;
};
void review_decision(const ReviewRequestsEnv& env, Client& client, Request& request);

}  // namespace elgrande::server
