#include "notices/notice_listener.hpp"

#include <nlohmann/json.hpp>

#include "common/unix_time.hpp"
#include "events/bus.hpp"
#include "notices/notice_sender.hpp"
#include "notices/reach.hpp"

namespace elgrande::server {

NoticeListener::NoticeListener(Reach& reach, NoticeSender& sender, bool mail, std::chrono::milliseconds turn_after,
                               int digest_hour, std::chrono::milliseconds reminder_before)
    : reach_(reach),
      sender_(sender),
      mail_(mail),
      turn_after_(turn_after),
      digest_hour_(digest_hour),
      reminder_before_(reminder_before) {}

void NoticeListener::listen(Bus& bus) {
  bus.subscribe<SavingTurns>([this](const SavingTurns& turns) { on_turns(turns); });
  bus.subscribe<SavingResult>([this](const SavingResult& saving) { on_result(saving); });
  bus.subscribe<BoardSeated>([this](const BoardSeated& board) { on_board(board); });
  bus.subscribe<TournamentEnded>([this](const TournamentEnded& ended) { on_tournament_end(ended); });
  bus.subscribe<EntrantRegistered>([this](const EntrantRegistered& entry) { on_registered(entry); });
  bus.subscribe<ForgettingPlayer>([this](const ForgettingPlayer& forgetting) {
    forgetting.store.notices().forget_player(forgetting.player);
    reach_.forget(forgetting.player);  // nothing more is written for them from here on
  });
}

std::int64_t NoticeListener::next_digest(std::int64_t now, int digest_hour) {
  constexpr std::int64_t kDay = 24 * 3600 * 1000;
  const std::int64_t today = now - now % kDay + std::int64_t{digest_hour} * 3600 * 1000;
  return today > now ? today : today + kDay;
}

void NoticeListener::enqueue(db::Store& store, PlayerId player, notices::Kind kind, std::optional<std::int64_t> table,
                             const std::string& payload, std::int64_t due_at) const {
  const notices::Channels channels = reach_.channels(player, kind, table);
  db::OutboxNotice notice;
  notice.player = player;
  notice.kind = std::string(notices::name(kind));
  notice.table = table;
  notice.payload = payload;
  notice.created_at = unix_milliseconds();
  if (channels.mail && mail_) {
    const bool digest = reach_.digest(player);
    notice.channel = digest ? "digest" : "mail";
    notice.due_at = digest ? std::max(due_at, next_digest(notice.created_at, digest_hour_)) : due_at;
    store.notices().enqueue(notice);
  }
  if (channels.push) {
    notice.channel = "push";
    notice.due_at = due_at;
    store.notices().enqueue(notice);
  }
  if ((channels.mail && mail_) || channels.push) sender_.wake_after_commit();
}

void NoticeListener::on_turns(const SavingTurns& turns) const {
  for (const PlayerId player : turns.played) {
    const notices::Channels channels = reach_.channels(player, notices::Kind::turn, turns.table);
    if (channels.mail || channels.push) turns.store.notices().played(player, turns.table);
  }
  const std::int64_t now = unix_milliseconds();
  for (const PlayerId player : turns.owing) {
    const notices::Channels channels = reach_.channels(player, notices::Kind::turn, turns.table);
    if (!(channels.mail && mail_) && !channels.push) continue;
    // At most one per game until the player has played there.
    if (!turns.store.notices().tell_of_turn(player, turns.table, now)) continue;
    const std::string payload = nlohmann::json{{"table", turns.table}, {"table_name", turns.table_name}}.dump();
    enqueue(turns.store, player, notices::Kind::turn, turns.table, payload, now + turn_after_.count());
  }
}

void NoticeListener::on_result(const SavingResult& saving) const {
  const GameFinished& game = saving.game;
  const std::int64_t table = game.result.table;
  nlohmann::json seats = nlohmann::json::array();
  for (std::size_t s = 0; s < game.seats.size() && s < game.result.seats.size(); ++s) {
    seats.push_back({{"name", game.seats[s].name}, {"score", game.result.seats[s].score}});
  }
  for (std::size_t s = 0; s < game.seats.size() && s < game.result.seats.size(); ++s) {
    const auto player = game.seats[s].player;
    if (!player) continue;
    saving.store.notices().played(*player, table);  // no turn of this game is owed any more
    const nlohmann::json payload{{"table", table},
                                 {"table_name", game.table_name},
                                 {"place", game.result.seats[s].rank},
                                 {"seats", seats}};
    enqueue(saving.store, *player, notices::Kind::game_ended, table, payload.dump(), unix_milliseconds());
  }
}

void NoticeListener::on_board(const BoardSeated& board) const {
  const std::string payload = nlohmann::json{{"what", "paired"},
                                             {"tournament", board.tournament},
                                             {"tournament_name", board.tournament_name},
                                             {"round", board.round},
                                             {"table", board.table},
                                             {"table_name", board.table_name}}
                                  .dump();
  for (const PlayerId player : board.players) {
    enqueue(board.store, player, notices::Kind::tournament, board.table, payload, unix_milliseconds());
  }
}

void NoticeListener::on_tournament_end(const TournamentEnded& ended) const {
  for (const auto& [player, place] : ended.places) {
    const std::string payload = nlohmann::json{{"what", "ended"},
                                               {"tournament", ended.tournament},
                                               {"tournament_name", ended.tournament_name},
                                               {"place", place},
                                               {"of", ended.places.size()}}
                                    .dump();
    enqueue(ended.store, player, notices::Kind::tournament, std::nullopt, payload, unix_milliseconds());
  }
}

void NoticeListener::on_registered(const EntrantRegistered& entry) const {
  if (!entry.starts_at) return;  // started by its director: no time to remind of
  const std::int64_t check_in = std::int64_t{entry.check_in_minutes} * 60 * 1000;
  const std::int64_t due = *entry.starts_at - std::max(check_in, std::int64_t{reminder_before_.count()});
  if (due <= unix_milliseconds()) return;  // registered at the last moment: they know
  const std::string payload = nlohmann::json{{"what", "starts_soon"},
                                             {"tournament", entry.tournament},
                                             {"tournament_name", entry.tournament_name},
                                             {"starts_at", *entry.starts_at},
                                             {"check_in", entry.check_in_minutes > 0}}
                                  .dump();
  enqueue(entry.store, entry.player, notices::Kind::tournament, std::nullopt, payload, due);
}

}  // namespace elgrande::server
