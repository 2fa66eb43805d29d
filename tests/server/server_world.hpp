#pragma once

// A server without sockets, for the tests of request handlers, play now and tournaments:
// storage on a fresh SQLite file, the identities and accounts of a few players, presence,
// tables made by the factory, ratings, the matchmaker and the tournaments, all on one
// io_context that the test runs. Connections are RecordingClients.
//
// This is the one place that knows how the services are built and wired: when they are
// reshaped, change it here and the tests above it stay as they are.

#include <catch2/catch.hpp>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "accounts/accounts.hpp"
#include "app/services.hpp"
#include "events/bus.hpp"
#include "ratings/rating_listener.hpp"
#include "requests/client.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/el_grande/module.hpp"
#include "identity/identities.hpp"
#include "matchmaking/matchmaker.hpp"
#include "moderation/sanctions.hpp"
#include "ops/metrics.hpp"
#include "presence/presence.hpp"
#include "ratings/ratings.hpp"
#include "server/server_fixtures.hpp"
#include "storage/storage.hpp"
#include "support/temp_dir.hpp"
#include "tables/directory.hpp"
#include "tables/table_factory.hpp"
#include "tournaments/tournaments.hpp"

namespace elgrande::test {

// A connection that keeps every answer and push it gets, in order.
class RecordingClient : public server::Client, public std::enable_shared_from_this<RecordingClient> {
 public:
  using server::Recipient::deliver;

  explicit RecordingClient(server::Player who) {
    player = std::move(who);
    address = "127.0.0.1";
  }

  void send(std::string message) override { record(std::move(message)); }
  void deliver(std::shared_ptr<const std::string> message) override { record(*message); }
  void close() override {
    const std::lock_guard lock(mutex_);
    closed_ = true;
  }
  // The answers of storage callbacks come back here; a recording needs no strand.
  void post(std::function<void()> work) override { work(); }
  void pause_reading() override {}
  void resume_reading() override {}
  std::shared_ptr<server::Client> self() override { return shared_from_this(); }
  void go_away() override { close(); }

  std::vector<nlohmann::json> messages() const {
    const std::lock_guard lock(mutex_);
    std::vector<nlohmann::json> parsed;
    for (const std::string& text : received_) parsed.push_back(nlohmann::json::parse(text));
    return parsed;
  }
  std::vector<nlohmann::json> of_type(std::string_view type) const {
    std::vector<nlohmann::json> found;
    for (nlohmann::json& message : messages()) {
      if (message.at("type") == type) found.push_back(std::move(message));
    }
    return found;
  }
  // The answer to request `id` (a reply or an error), if it came.
  std::optional<nlohmann::json> answer(std::int64_t id) const {
    for (nlohmann::json& message : messages()) {
      if (message.contains("id") && message["id"] == id) return std::move(message);
    }
    return std::nullopt;
  }
  bool closed() const {
    const std::lock_guard lock(mutex_);
    return closed_;
  }

 private:
  void record(std::string message) {
    const std::lock_guard lock(mutex_);
    received_.push_back(std::move(message));
  }
  mutable std::mutex mutex_;
  std::vector<std::string> received_;
  bool closed_ = false;
};

// The error code of an answer, or "" for a reply.
inline std::string code_of(const nlohmann::json& answer) {
  return answer.at("type") == "error" ? answer.at("payload").value("code", "") : "";
}

struct Member {
  server::Player player;
  std::optional<server::Role> role;  // an account of that role; none: a guest
};

class World {
 public:
  // `max_pending` 0 makes storage refuse every change (accepting() false), as a failing disk does.
  explicit World(std::vector<Member> members, std::size_t max_pending = 100'000)
      : storage_(migrated(dir_.path() / "world.sqlite"), metrics_, max_pending) {
    std::vector<db::PlayerRecord> players;
    std::vector<db::AccountRecord> accounts;
    for (const Member& m : members) {
      db::PlayerRecord record{m.player.id, m.player.name, {}, 0};
      std::memcpy(record.token_hash.data(), &m.player.id, sizeof m.player.id);  // unique, as hashes are
      players.push_back(record);
      if (m.role) {
        accounts.push_back({m.player.id, m.player.name, "not a real hash",
                            std::string(server::to_string(*m.role)), 0});
      }
    }
    std::promise<bool> saved;
    storage_.write(
        server::Storage::kNoStream,
        [players, accounts](db::Store& store) {
          for (const db::PlayerRecord& p : players) store.insert_player(p);
          for (const db::AccountRecord& a : accounts) store.accounts().insert(a);
        },
        [&](bool committed) { saved.set_value(committed); });
    REQUIRE(saved.get_future().get());
    identities.restore(players);
    this->accounts.restore(accounts, {}, 0);
    // As main wires them: tables show and move ratings, for account holders.
    table_services_.ratings = &ratings;
    table_services_.has_account = [this](server::PlayerId player) { return this->accounts.has_account(player); };
    // As main subscribes them: ratings and tournaments hear of finished games.
    server::rate_finished_games(bus, ratings);
    tournaments.listen(bus);
    table_services_.bus = &bus;
    const server::RequestEnv answers{metrics_.get(), &storage_};
    static_cast<server::RequestEnv&>(services) = answers;
    services.identities = &identities;
    services.accounts = &this->accounts;
    services.sanctions = &sanctions;
    services.presence = &presence;
    services.tables = &directory;
    services.tournaments = &tournaments;
    services.bus = &bus;
    services.moderation_requests = {answers, &this->accounts, &identities, &presence, nullptr, &sanctions, nullptr};
    services.lobby_requests = {answers, &directory, &factory, &this->accounts, 0};
    services.play_requests = {answers, matchmaker.get()};
    services.tournament_requests = {answers, &tournaments, &this->accounts, server::Role::player, false};
  }
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World() { shut_down(); }

  // A connection of `player`, known to presence as theirs.
  std::shared_ptr<RecordingClient> connect(const server::Player& player) {
    auto client = std::make_shared<RecordingClient>(player);
    presence.attach(player.id, client);
    return client;
  }

  // Runs the server until `done()` holds, or for `limit` at most; whether it held.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < deadline) io.run_for(std::chrono::milliseconds(10));
    return done();
  }
  void run_for(std::chrono::milliseconds time) {
    const auto deadline = std::chrono::steady_clock::now() + time;
    while (std::chrono::steady_clock::now() < deadline) io.run_for(std::chrono::milliseconds(10));
  }

  // Stops the tables, the tournaments, play now and the database thread, and runs what
  // they left to do.
  void shut_down() {
    if (down_) return;
    down_ = true;
    matchmaker->close();
    tournaments.close_all();
    directory.close_all();
    storage_.stop();
    keep_running_.reset();
    io.restart();
    io.run_for(std::chrono::seconds(5));
  }

  server::Storage& storage() { return storage_; }

 private:
  TempDir dir_;
  std::shared_ptr<server::Metrics> metrics_ = std::make_shared<server::Metrics>();

 public:
  boost::asio::io_context io;

 private:
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> keep_running_ =
      boost::asio::make_work_guard(io);
  server::Storage storage_;
  server::IdSupply chat_line_ids_ = server::IdSupply::after(0);
  bool down_ = false;
  // Table ids come in blocks of two, as from PostgreSQL (common/id_supply.hpp): granted at
  // once, one block after another, unless a test holds them back.
  bool table_ids_held_ = false;
  std::int64_t next_table_ids_ = 3;
  std::vector<server::IdSupply::Granted> table_ids_asked_;

 public:
  server::IdSupply table_ids{{1, 3},
                             [this](std::int64_t /*count*/, server::IdSupply::Granted granted) {
                               table_ids_asked_.push_back(std::move(granted));
                               if (!table_ids_held_) hold_table_ids(false);
                             },
                             2};
  // Held, the blocks asked for wait; let go, they are granted.
  void hold_table_ids(bool held) {
    table_ids_held_ = held;
    if (held) return;
    for (auto& granted : std::exchange(table_ids_asked_, {})) {
      granted(elgrande::db::IdBlock{next_table_ids_, next_table_ids_ + 2});
      next_table_ids_ += 2;
    }
  }

 public:
  server::Presence presence;
  server::TableDirectory directory;
  server::Identities identities{storage_};
  server::Accounts accounts{storage_, identities, std::chrono::hours(24)};
  server::Sanctions sanctions{storage_};
  server::Ratings ratings{el_grande::module().ladders()};
  server::Bus bus;

 private:
  server::TableServices table_services_{el_grande::module(),
                                        storage_,
                                        *metrics_,
                                        nullptr,
                                        presence,
                                        directory,
                                        server::TableSettings{.bot_delay = std::chrono::milliseconds(1),
                                                              .finished_lifetime = std::chrono::minutes(60),
                                                              .restart_grace = std::chrono::seconds(60)},
                                        1024,
                                        {},
                                        {},
                                        &sanctions,
                                        nullptr,
                                        &chat_line_ids_,
                                        nullptr};

 public:
  server::TableFactory factory{io.get_executor(), table_services_, table_ids};
  std::shared_ptr<server::Matchmaker> matchmaker =
      std::make_shared<server::Matchmaker>(io.get_executor(), factory, ratings);

 private:
  server::TournamentServices tournament_services_{storage_, factory, directory, presence, identities, *metrics_,
                                                  &ratings};

 public:
  server::Tournaments tournaments{io.get_executor(), tournament_services_};
  server::Services services;
};

// A request as a connection's handler receives it.
inline server::Request request_of(std::string type, std::int64_t id, nlohmann::json payload = nlohmann::json::object()) {
  return server::Request{protocol::Envelope{std::move(type), protocol::RequestId{id}, std::move(payload)},
                         std::chrono::steady_clock::now(), std::nullopt, {}};
}

}  // namespace elgrande::test
