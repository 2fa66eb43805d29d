#include "matchmaking/matchmaker.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "common/known_keys.hpp"
#include "elgrande/competition/matchmaking.hpp"
#include "elgrande/competition/rating.hpp"
#include "events/bus.hpp"
#include "events/events.hpp"
#include "ratings/ratings.hpp"
#include "tables/table_factory.hpp"

namespace elgrande::server {

using protocol::Json;

std::optional<ClockClass> clock_class_from(std::string_view name) {
  if (name == "live") return ClockClass::live;
  if (name == "daily") return ClockClass::daily;
  return std::nullopt;
}

std::string_view name(ClockClass clock) { return clock == ClockClass::daily ? "daily" : "live"; }

std::string PlayRequest::queue() const { return ladder + "/" + std::string(name(clock)); }

protocol::Decoded<PlayRequest> play_request_from_json(const Json& payload, const games::GameModule& game) {
  const auto bad = [](std::string message) { return protocol::DecodeError{"bad_payload", std::move(message)}; };
  PlayRequest request;
  // The game's fields first, then the server's: the order the refusal lists them in.
  std::vector<std::string_view> fields(game.play_fields().begin(), game.play_fields().end());
  fields.insert(fields.end(), {"clock", "bots_after_seconds"});
  if (payload.is_object()) {
    for (const auto& [key, value] : payload.items()) {
      if (std::ranges::find(fields, std::string_view(key)) != fields.end()) continue;
      std::string listed;
      for (const std::string_view field : fields) listed += (listed.empty() ? "" : ", ") + std::string(field);
      return bad(key + ": not a play-now wish (" + listed + ")");
    }
  }
  auto options = game.read_play(payload);
  if (auto* why_not = std::get_if<std::string>(&options)) return bad(std::move(*why_not));
  request.options = std::move(std::get<games::Json>(options));
  request.ladder = game.ladder(request.options);
  if (const auto clock = payload.find("clock"); clock != payload.end()) {
    const auto parsed = clock->is_string() ? clock_class_from(clock->get<std::string>()) : std::nullopt;
    if (!parsed) return bad("clock: \"live\" or \"daily\"");
    request.clock = *parsed;
  }
  if (const auto bots = payload.find("bots_after_seconds"); bots != payload.end() && !bots->is_null()) {
    if (!bots->is_number_integer() || bots->get<std::int64_t>() < kMinBotsAfter.count() ||
        bots->get<std::int64_t>() > kMaxBotsAfter.count()) {
      return bad("bots_after_seconds: " + std::to_string(kMinBotsAfter.count()) + " to " +
                 std::to_string(kMaxBotsAfter.count()) + ", or null for no bots");
    }
    request.bots_after = std::chrono::seconds(bots->get<std::int64_t>());
  }
  return request;
}

Matchmaker::Matchmaker(net::any_io_executor executor, TableFactory& tables, const Ratings& ratings)
    : strand_(net::make_strand(executor)), tables_(tables), ratings_(ratings), timer_(strand_) {}

const games::GameModule& Matchmaker::game() const { return tables_.game(); }

std::size_t Matchmaker::remove(PlayerId player) {
  std::size_t removed = 0;
  for (auto& [queue, waiting] : queues_) {
    removed += std::erase_if(waiting, [player](const Waiting& w) { return w.player.id == player; });
  }
  std::erase_if(queues_, [](const auto& entry) { return entry.second.empty(); });
  return removed;
}

void Matchmaker::join(ClientPtr client, Player player, PlayRequest request, std::optional<protocol::RequestId> id) {
  net::post(strand_, [self = shared_from_this(), client = std::move(client), player = std::move(player),
                      request = std::move(request), id = std::move(id)]() mutable {
    if (self->closed_) return;
    self->remove(player.id);  // one queue at a time: the latest wish counts
    const std::string queue = request.queue();
    auto& waiting = self->queues_[queue];
    waiting.push_back({player, client, request, std::chrono::steady_clock::now(), waiting.size() + 1});
    spdlog::debug("player {} waits to play now in {}", player.id, queue);
    client->deliver(std::make_shared<const std::string>(
        protocol::reply_message("play.join", id, {{"queue", queue}, {"waiting", waiting.size()}})));
    self->match_soon();
    self->schedule();
  });
}

void Matchmaker::leave(ClientPtr client, PlayerId player, std::optional<protocol::RequestId> id) {
  net::post(strand_, [self = shared_from_this(), client = std::move(client), player, id = std::move(id)] {
    const bool was_waiting = self->remove(player) > 0;
    client->deliver(std::make_shared<const std::string>(
        protocol::reply_message("play.leave", id, {{"was_waiting", was_waiting}})));
  });
}

void Matchmaker::listen(Bus& bus) {
  bus.subscribe<PlayerRenamed>([self = weak_from_this()](const PlayerRenamed& renamed) {
    const auto matchmaker = self.lock();
    if (!matchmaker) return;
    net::post(matchmaker->strand_, [matchmaker, player = renamed.player] {
      for (auto& [queue, waiting] : matchmaker->queues_) {
        for (Waiting& entry : waiting) {
          if (entry.player.id == player.id) entry.player = player;
        }
      }
    });
  });
}

void Matchmaker::close() {
  net::post(strand_, [self = shared_from_this()] {
    self->closed_ = true;
    self->timer_.cancel();
    self->queues_.clear();
  });
}

void Matchmaker::schedule() {
  if (ticking_ || queues_.empty() || closed_) return;
  ticking_ = true;
  timer_.expires_after(kTick);
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    self->ticking_ = false;
    if (ec || self->closed_) return;
    self->tick();
    self->schedule();
  });
}

void Matchmaker::match_soon() {
  if (match_posted_) return;
  match_posted_ = true;
  // Posted, so that a burst of joins already queued on the strand is matched once.
  net::post(strand_, [self = shared_from_this()] {
    self->match_posted_ = false;
    if (!self->closed_) self->tick();
  });
}

void Matchmaker::tick() {
  const auto now = std::chrono::steady_clock::now();
  for (auto& [queue, waiting] : queues_) {
    // Whoever's connection closed is no longer waiting.
    std::erase_if(waiting, [](const Waiting& w) { return w.client.expired(); });
    if (waiting.empty()) continue;
    const PlayRequest& game = waiting.front().request;
    std::vector<competition::Seeker> seekers;
    for (const Waiting& w : waiting) {
      seekers.push_back({w.player.id, ratings_.displayed(w.player.id, game.ladder),
                         std::chrono::duration_cast<std::chrono::milliseconds>(now - w.since).count(),
                         w.request.bots_after ? std::optional<std::int64_t>(
                                                    std::chrono::duration_cast<std::chrono::milliseconds>(*w.request.bots_after).count())
                                              : std::nullopt});
    }
    competition::MatchRules rules;
    rules.players = tables_.game().seats(game.options);
    for (const competition::Match& match : competition::match(seekers, rules)) {
      const auto rating = [&seekers](PlayerId id) {
        return std::ranges::find(seekers, id, &competition::Seeker::player)->rating;
      };
      seat(queue, match.players, match.bots, rating(match.players.back()) - rating(match.players.front()));
    }
  }
  std::erase_if(queues_, [](const auto& entry) { return entry.second.empty(); });
  tell_waiting();
}

void Matchmaker::tell_waiting() {
  for (auto& [queue, waiting] : queues_) {
    std::shared_ptr<const std::string> message;  // made once per queue, if anyone needs it
    for (Waiting& w : waiting) {
      if (w.told == waiting.size()) continue;
      w.told = waiting.size();
      if (!message) {
        message = std::make_shared<const std::string>(
            protocol::push_message("play.waiting", {{"queue", queue}, {"waiting", waiting.size()}}));
      }
      if (const auto client = w.client.lock()) client->deliver(message);
    }
  }
}

void Matchmaker::seat(const std::string& queue, const std::vector<PlayerId>& players, int bots, int spread) {
  auto& waiting = queues_.at(queue);
  TableSpec spec;
  spec.config.options = waiting.front().request.options;
  const ClockClass clock = waiting.front().request.clock;
  spec.config.name = "Play now · " + queue;
  spec.config.turn_seconds = clock == ClockClass::daily ? 86'400 : 120;
  spec.config.on_timeout = OnTimeout::replace_seat;
  spec.config.replace_after = kDefaultReplaceAfter;
  spec.config.rated = true;  // for its players with accounts
  spec.auto_start = true;
  std::vector<std::weak_ptr<Client>> told;
  const auto waiting_as = [&waiting](PlayerId id) {
    return std::ranges::find(waiting, id, [](const Waiting& w) { return w.player.id; });
  };
  for (const PlayerId id : players) {
    const auto at = waiting_as(id);
    spec.seats.push_back({TableSpec::SeatSpec::Kind::player, at->player});
    told.push_back(at->client);
  }
  for (int b = 0; b < bots; ++b) spec.seats.push_back({TableSpec::SeatSpec::Kind::bot, std::nullopt});
  spec.host = players.front();
  // Its players hear of the table once it is saved: on this strand, so after `id` is set.
  auto id = std::make_shared<TableId>(0);
  const auto table = tables_.create(std::move(spec), std::make_shared<WhenTableSaved>([self = shared_from_this(), id, told, queue, spread] {
          net::post(self->strand_, [id, told, queue, spread] {
            for (std::size_t seat = 0; seat < told.size(); ++seat) {
              if (const auto client = told[seat].lock()) {
                client->deliver(std::make_shared<const std::string>(protocol::push_message(
                    "play.matched", {{"table", *id}, {"seat", seat}, {"queue", queue}, {"spread", spread}})));
              }
            }
          });
        }));
  // No table id at hand: they stay in the queue, and are matched again at the next pass.
  if (!table) return;
  *id = table->id();
  for (const PlayerId player : players) waiting.erase(waiting_as(player));
  spdlog::info("play now: table {} for {} players and {} bots in {}, rating spread {}", *id, players.size(), bots,
               queue, spread);
}

}  // namespace elgrande::server
