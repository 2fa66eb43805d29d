#include "history/reviews.hpp"

#include <spdlog/spdlog.h>

#include "ai/bot_workers.hpp"
#include "common/unix_time.hpp"
#include "history/history.hpp"
#include "storage/reader.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr games::BotLevel kLevel = games::BotLevel::strong;
constexpr std::int64_t kDayMs = 24 * 3600 * 1000;

// The search's seed: the game's and the version's, mixed, so a review is repeatable; never
// the game's own, whose draws the search would otherwise meet again (splitmix64).
std::uint64_t review_seed(std::uint64_t game_seed, std::int64_t version) {
  std::uint64_t z = game_seed ^ 0x7265766965772031ULL ^ (static_cast<std::uint64_t>(version) << 17);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Json review_json(std::int64_t table, std::int64_t version, int seat, const games::Review& review) {
  return {{"table", table},
          {"version", version},
          {"seat", seat},
          {"level", games::name(kLevel)},
          {"played", {{"command", Json::parse(review.played->record())}, {"win_share", review.played_win_share}}},
          {"bot", {{"command", Json::parse(review.bot->record())}, {"win_share", review.bot_win_share}}},
          {"same", review.same},
          {"iterations", review.iterations}};
}

}  // namespace

Reviews::Reviews(Limits limits, Reader& reader, Storage& storage, BotWorkers& bots, const games::GameModule& game)
    : limits_(limits), reader_(reader), storage_(storage), bots_(bots), game_(game) {}

std::optional<Reviews::Refusal> Reviews::begin(PlayerId player, int asked_today) {
  const std::lock_guard lock(mutex_);
  if (asked_today + under_way_[player] >= limits_.per_day) {
    return Refusal{ErrorCode::limit_reached,
                   "at most " + std::to_string(limits_.per_day) +
                       " reviews a day; a decision reviewed before is answered again without counting",
                   {{"limit", "reviews_per_day"}, {"max", limits_.per_day}}};
  }
  if (all_under_way_ >= limits_.at_once) {
    return Refusal{ErrorCode::rate_limited, "the bot is reviewing other games; try again in a moment"};
  }
  ++under_way_[player];
  ++all_under_way_;
  return std::nullopt;
}

void Reviews::end(PlayerId player) {
  const std::lock_guard lock(mutex_);
  if (--under_way_[player] == 0) under_way_.erase(player);
  --all_under_way_;
}

void Reviews::ask(PlayerId player, std::int64_t table_id, std::int64_t version, Answered answered) {
  auto shared = std::make_shared<Answered>(std::move(answered));
  reader_.read(
      [this, player, table_id, version, shared](db::Store& store) {
        const auto refuse = [&](ErrorCode code, std::string why) { (*shared)(Refusal{code, std::move(why)}); };
        const auto table = store.table(table_id);
        // A game in play has no second opinions: they would read its secrets to the table.
        if (!table || table->status != "finished" || !table->seed) {
          return refuse(ErrorCode::not_found, "no finished game " + std::to_string(table_id));
        }
        if (const auto kept = store.reviews().find(table_id, version, std::string(games::name(kLevel)))) {
          const Json answer = Json::parse(kept->result);
          if (table->seats[answer["seat"].get<std::size_t>()].player != player) {
            return refuse(ErrorCode::forbidden, "only the player of that seat may ask about its decisions");
          }
          return (*shared)(answer);
        }
        const std::vector<db::LoggedCommand> commands = store.commands(table_id);
        if (version < 0 || version >= static_cast<std::int64_t>(commands.size())) {
          return refuse(ErrorCode::bad_payload, "version: the game has " + std::to_string(commands.size()) + " moves");
        }
        const db::LoggedCommand& played = commands[static_cast<std::size_t>(version)];
        if (played.seat < 0 || static_cast<std::size_t>(played.seat) >= table->seats.size() ||
            table->seats[static_cast<std::size_t>(played.seat)].player != player) {
          return refuse(ErrorCode::forbidden, "only the player of that seat may ask about its decisions");
        }
        auto move = game_.read_move(Json::parse(played.move));
        if (const auto* why = std::get_if<std::string>(&move)) throw std::runtime_error("a logged move: " + *why);
        const games::MovePtr move_played = std::get<games::MovePtr>(move);
        if (move_played->undoes()) return refuse(ErrorCode::bad_payload, "version: a move taken back is not a decision");
        auto restored = game_.restore(table->options, *table->seed, std::nullopt,
                                      recorded_log(std::span(commands).first(static_cast<std::size_t>(version))));
        if (const auto* why = std::get_if<std::string>(&restored)) throw std::runtime_error("the log: " + *why);
        auto search = std::get<std::unique_ptr<games::Game>>(restored)->review(
            played.seat, move_played, kLevel, review_seed(*table->seed, version));
        if (!search) return refuse(ErrorCode::wrong_state, "the seat owed no decision there");
        if (auto refused = begin(player, store.reviews().asked_since(player, unix_milliseconds() - kDayMs))) {
          return (*shared)(std::move(*refused));
        }
        const int seat = played.seat;
        const bool queued = bots_.review(std::move(search), [this, player, table_id, version, seat,
                                                             shared](std::optional<games::Review> review) {
          if (!review) {
            end(player);
            return (*shared)(Refusal{ErrorCode::internal, "the review failed; try again"});
          }
          const Json answer = review_json(table_id, version, seat, *review);
          const db::ReviewRecord kept{table_id, version, std::string(games::name(kLevel)), answer.dump(), player,
                                      unix_milliseconds()};
          storage_.write([kept](db::Store& store) { store.reviews().save(kept); },
                         [this, player, answer, shared](bool saved) {
                           // Unsaved, it is still the answer; it is only asked for again.
                           if (!saved) spdlog::warn("a review of table {} was not saved", answer["table"].get<std::int64_t>());
                           end(player);
                           (*shared)(answer);
                         });
        });
        if (!queued) {
          end(player);
          refuse(ErrorCode::rate_limited, "the bots are busy; try again in a moment");
        }
      },
      [shared](const std::string& why) {
        spdlog::error("a review could not be read: {}", why);
        (*shared)(Refusal{ErrorCode::internal, "the game could not be read; try again"});
      });
}

void review_decision(const ReviewRequestsEnv& env, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  const auto& id = request.envelope.id;
  const auto table = payload.find("table");
  if (table == payload.end() || !table->is_number_integer() || table->get<std::int64_t>() < 1) {
    return refuse(env, client, ErrorCode::bad_payload, "table: must be a table id", id);
  }
  const auto version = payload.find("version");
  if (version == payload.end() || !version->is_number_integer() || version->get<std::int64_t>() < 0) {
    return refuse(env, client, ErrorCode::bad_payload, "version: must be a version, 0 or more", id);
  }
  env.reviews->ask(client.player->id, table->get<std::int64_t>(), version->get<std::int64_t>(),
                   [metrics = env.metrics, connection = client.self(), id](std::variant<Json, Reviews::Refusal> answer) {
                     if (auto* refusal = std::get_if<Reviews::Refusal>(&answer)) {
                       metrics->count_error(refusal->code);
                       return connection->deliver(
                           protocol::error_message_with(refusal->code, refusal->message, id, refusal->facts));
                     }
                     connection->deliver(protocol::reply_message("game.review", id, std::get<Json>(std::move(answer))));
                   });
}

}  // namespace elgrande::server
