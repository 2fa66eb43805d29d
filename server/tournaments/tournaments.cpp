#include "tournaments/tournaments.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/strand.hpp>
#include <random>

#include "common/unix_time.hpp"
#include "tables/table_factory.hpp"

namespace elgrande::server {
namespace {

// The event's seed: every lot of its rounds is drawn from it, and it is published with
// the event so that anyone can recompute them.
std::uint64_t event_seed() {
  std::random_device entropy("/dev/urandom");
  return (std::uint64_t{entropy()} << 32) | entropy();
}

}  // namespace

Tournaments::Tournaments(net::any_io_executor executor, TournamentServices& services)
    : executor_(std::move(executor)), services_(services) {}

std::shared_ptr<Tournament> Tournaments::create(std::string name, PlayerId director, TournamentSettings settings,
                                                RecipientPtr creator, std::optional<protocol::RequestId> request_id) {
  db::StoredTournament stored;
  stored.tournament.name = std::move(name);
  stored.tournament.director = director;
  stored.tournament.settings = to_json(settings).dump();
  stored.tournament.seed = event_seed();
  stored.tournament.created_at = unix_milliseconds();
  std::shared_ptr<Tournament> tournament;
  {
    const std::lock_guard lock(mutex_);
    stored.tournament.id = next_id_++;
    tournament = std::make_shared<Tournament>(net::make_strand(executor_), services_, *this, std::move(stored),
                                              std::move(settings));
    tournaments_.emplace(tournament->id(), tournament);
  }
  tournament->open(std::move(creator), std::move(request_id));
  return tournament;
}

const games::GameModule& Tournaments::game() const { return services_.table_factory.game(); }

void Tournaments::restore(std::vector<db::StoredTournament> stored, TournamentId highest_id) {
  std::vector<std::shared_ptr<Tournament>> restored;
  {
    const std::lock_guard lock(mutex_);
    next_id_ = std::max(next_id_, highest_id + 1);
    for (db::StoredTournament& t : stored) {
      auto settings = tournament_settings_from_json(protocol::Json::parse(t.tournament.settings, nullptr, false), game());
      if (!settings) {
        spdlog::critical("tournament {} cannot be restored, its settings do not read: {}", t.tournament.id,
                         settings.error().message);
        continue;
      }
      for (const db::RoundRecord& round : t.rounds) {
        for (const db::BoardRecord& board : round.boards) {
          if (board.table) tournament_of_table_[*board.table] = t.tournament.id;
        }
      }
      const TournamentId id = t.tournament.id;
      auto tournament = std::make_shared<Tournament>(net::make_strand(executor_), services_, *this, std::move(t),
                                                     std::move(settings.value()));
      tournaments_.emplace(id, tournament);
      restored.push_back(std::move(tournament));
    }
  }
  for (const auto& tournament : restored) tournament->resume();
}

std::shared_ptr<Tournament> Tournaments::find(TournamentId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = tournaments_.find(id);
  return found == tournaments_.end() ? nullptr : found->second;
}

protocol::Json Tournaments::list(std::optional<std::string> status, std::optional<TournamentId> before,
                                 std::size_t limit) const {
  std::vector<std::shared_ptr<Tournament>> newest_first;
  {
    const std::lock_guard lock(mutex_);
    auto end = before ? tournaments_.lower_bound(*before) : tournaments_.end();
    for (auto it = std::make_reverse_iterator(end); it != tournaments_.rend(); ++it) newest_first.push_back(it->second);
  }
  protocol::Json page = protocol::Json::array();
  bool more = false;
  for (const auto& tournament : newest_first) {
    protocol::Json summary = tournament->summary();
    if (status && summary["status"] != *status) continue;
    if (page.size() == limit) {
      more = true;
      break;
    }
    page.push_back(std::move(summary));
  }
  return {{"tournaments", std::move(page)}, {"more", more}};
}

void Tournaments::note_table(TableId table, TournamentId tournament) {
  const std::lock_guard lock(mutex_);
  tournament_of_table_[table] = tournament;
}

void Tournaments::game_finished(const GameFinished& finished) const {
  std::shared_ptr<Tournament> tournament;
  {
    const std::lock_guard lock(mutex_);
    const auto found = tournament_of_table_.find(finished.result.table);
    if (found == tournament_of_table_.end()) return;
    tournament = tournaments_.at(found->second);
  }
  tournament->game_finished(finished);
}

void Tournaments::listen(Bus& bus) const {
  bus.subscribe<GameFinished>([this](const GameFinished& finished) { game_finished(finished); });
}

void Tournaments::close_all() {
  const std::lock_guard lock(mutex_);
  for (const auto& [id, tournament] : tournaments_) tournament->close();
}

}  // namespace elgrande::server
