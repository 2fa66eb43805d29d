#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "requests/client.hpp"
#include "common/player.hpp"
#include "elgrande/games/module.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "common/net.hpp"

namespace elgrande::server {

class Bus;
class Ratings;
class TableFactory;

// The clock of a "play now" table: live (2 minutes a decision) or daily (a day a
// decision), and in both a bot takes the seat of a player who times out 3 times in a row.
enum class ClockClass : std::uint8_t { live, daily };
std::optional<ClockClass> clock_class_from(std::string_view name);
std::string_view name(ClockClass clock);

// What a player asks of "play now": the game, its clock, and whether bots may fill the
// table after a wait.
struct PlayRequest {
  games::Json options;  // the game's, from the wish's play_fields() (GameModule::read_play)
  std::string ladder;   // the options' rating ladder
  ClockClass clock = ClockClass::live;
  std::optional<std::chrono::seconds> bots_after;  // none: only people
  std::string queue() const;  // e.g. "4p-short/live": who may sit together
};
// The wish of a play.join payload: the game's fields, read by `game`, and the server's
// (clock, bots_after_seconds).
protocol::Decoded<PlayRequest> play_request_from_json(const protocol::Json& payload, const games::GameModule& game);
inline constexpr std::chrono::seconds kMinBotsAfter{5};
inline constexpr std::chrono::seconds kMaxBotsAfter{3600};

// "Play now" (docs/ratings.md#play-now): players wait in a queue per game and clock. The
// queues are matched (competition::match) after every join and once a second: players close
// in rating sit together, the spread widening the longer they wait. The server makes each
// table, seats them, starts the game and tells them (play.matched); those still waiting
// hear how many wait with them (play.waiting). Everything runs on its own strand; a player
// whose connection closed leaves the queue.
class Matchmaker : public std::enable_shared_from_this<Matchmaker> {
 public:
  Matchmaker(net::any_io_executor executor, TableFactory& tables, const Ratings& ratings);

  // Each posts to the strand and answers the client from there.
  void join(ClientPtr client, Player player, PlayRequest request, std::optional<protocol::RequestId> id);
  void leave(ClientPtr client, PlayerId player, std::optional<protocol::RequestId> id);
  void close();  // shutting down: the timer stops
  // Hears the bus's PlayerRenamed from now on: a waiting player sits down under the new name.
  void listen(Bus& bus);
  // The game its tables play, which reads the wishes.
  const games::GameModule& game() const;

  static constexpr std::chrono::seconds kTick{1};

 private:
  struct Waiting {
    Player player;
    std::weak_ptr<Client> client;
    PlayRequest request;
    std::chrono::steady_clock::time_point since;
    std::size_t told = 0;  // how many wait, as the player last heard
  };
  void schedule();
  // A join may complete a table: matched at once rather than at the next tick.
  void match_soon();
  void tick();
  void tell_waiting();
  void seat(const std::string& queue, const std::vector<PlayerId>& players, int bots, int spread);
  std::size_t remove(PlayerId player);  // from every queue; how many entries went

  net::any_io_executor strand_;
  TableFactory& tables_;
  const Ratings& ratings_;
  net::steady_timer timer_;
  bool ticking_ = false;
  bool match_posted_ = false;
  bool closed_ = false;
  std::map<std::string, std::vector<Waiting>> queues_;  // by PlayRequest::queue()
};

}  // namespace elgrande::server
