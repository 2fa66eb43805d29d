// Composition root: configuration, logging, database, listener, signals and I/O threads.

#include <fcntl.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "app/hello.hpp"
#include "app/services.hpp"
#include "common/wait_or_stop.hpp"
#include "cluster_start.hpp"
#include "config_check.hpp"
#include "database_start.hpp"
#include "elgrande/notices/catalogs.hpp"
#include "notices_start.hpp"
#include "operator_commands.hpp"
#include "serving_start.hpp"
#include "events/bus.hpp"
#include "ratings/rating_listener.hpp"
#include "common/unix_time.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/el_grande/module.hpp"
#include "elgrande/db/schema.hpp"
#include "elgrande/db/store.hpp"
#include "elgrande/el_grande/module.hpp"
#include "accounts/accounts.hpp"
#include "accounts/credentials.hpp"
#include "accounts/password_workers.hpp"
#include "accounts/sign_in_throttle.hpp"
#include "ai/bot_workers.hpp"
#include "cluster/leadership.hpp"
#include "cluster/table_claims.hpp"
#include "identity/identities.hpp"
#include "moderation/block_lists.hpp"
#include "moderation/sanctions.hpp"
#include "identity/new_identity_quota.hpp"
#include "net/connection_limit.hpp"
#include "net/listener.hpp"
#include "tls_start.hpp"
#include "net/web_files.hpp"
#include "common/net.hpp"
#include "net/session_registry.hpp"
#include "ops/config.hpp"
#include "ops/log_throttle.hpp"
#include "ops/webhook.hpp"
#include "matchmaking/matchmaker.hpp"
#include "presence/presence.hpp"
#include "ratings/rated_game.hpp"
#include "ratings/ratings.hpp"
#include "storage/backups.hpp"
#include "storage/checkpointer.hpp"
#include "storage/id_reservations.hpp"
#include "storage/reader.hpp"
#include "storage/start_checks.hpp"
#include "storage/storage.hpp"
#include "tables/directory.hpp"
#include "tables/table_factory.hpp"
#include "tournaments/tournaments.hpp"

namespace elgrande::server {
namespace {

// Logs go to stderr, so that stdout carries nothing but the "listening on" line that
// scripts and tests wait for.
void set_up_logging(spdlog::level::level_enum level) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("elgrande"));
  spdlog::set_level(level);
}

// How long shutdown waits for WebSocket peers to complete the close handshake.
constexpr std::chrono::seconds kShutdownGrace{5};
// Sign-ins waiting for a password worker before more are refused: at the default cost,
// about a few seconds of one core's work.
constexpr std::size_t kMaxWaitingPasswordHashes = 64;

// Serves as the only process on its database, or as the leader of several
// (docs/scaling.md): `leadership` is then held, and fences every commit.
int lead(const Config& config, Leadership* leadership, const Listening& listening) {
  const std::shared_ptr<TlsCertificate> certificate = load_certificate(config);  // before the long restore
  TableSettings table_settings;
  table_settings.bot_delay = std::chrono::milliseconds(config.bot_delay_ms);
  table_settings.bot_level = config.bot_level;
  table_settings.replacement_bot_level = config.replacement_bot_level;
  const auto loading = std::chrono::steady_clock::now();
  std::unique_ptr<CommitLedger> ledger;
  std::unique_ptr<db::Database> database = open_database(config, &ledger);
  // A process of a cluster writes only for the tables it holds (docs/scaling.md).
  const auto claims = leadership != nullptr ? std::make_unique<TableClaims>(leadership->process()) : nullptr;
  db::Restored restored;
  std::vector<std::int64_t> damaged_logs;
  std::vector<db::PlayerRecord> players;
  std::vector<db::AccountRecord> accounts_stored;
  std::vector<db::SessionRecord> sessions_stored;
  std::vector<db::SanctionRecord> sanctions_stored;
  std::vector<std::pair<PlayerId, PlayerId>> blocks_stored;
  std::int64_t last_chat_line = 0;
  std::int64_t highest_table = 0;
  // Processes sharing PostgreSQL hand out ids from blocks they reserve (docs/scaling.md).
  FirstIds first;
  std::vector<db::StoredTournament> tournaments_stored;
  std::int64_t highest_tournament = 0;
  std::vector<db::RatingRecord> ratings_stored;
  const std::chrono::milliseconds session_idle_limit = std::chrono::days(config.session_idle_days);
  {
    db::Store store(*database);
    {
      // The newest commands into their tables' logs, so that restoring reads one table.
      db::Transaction settling(*database);
      store.settle_log();
      settling.commit();
    }
    players = store.players();
    const std::int64_t expired = store.accounts().end_idle_sessions(unix_milliseconds() - session_idle_limit.count());
    if (expired > 0) spdlog::info("{} sessions idle for over {} days ended", expired, config.session_idle_days);
    accounts_stored = store.accounts().all();
    sessions_stored = store.accounts().sessions();
    sanctions_stored = store.moderation().sanctions();
    blocks_stored = store.moderation().blocks();
    last_chat_line = store.max_chat_id();
    // Tables finished within their lifetime come back too, for players returning to see the end.
    const auto finished_since = std::chrono::system_clock::now() - table_settings.finished_lifetime;
    restored = store.live_tables(unix_milliseconds(finished_since), el_grande::module());
    damaged_logs = scrub_logs(*database, restored);
    if (claims) claims->take_restored(*database, restored.tables);
    highest_table = store.max_table_id();
    tournaments_stored = store.tournaments().all();
    highest_tournament = store.tournaments().max_id();
    ratings_stored = store.ratings().all();
    first = first_ids(*database);
  }
  for (const db::Unrestorable& failed : restored.failed) {
    spdlog::critical("table {} cannot be restored and stays out of play: {}; see elgrande-server --check-table {}",
                     failed.table, failed.reason, failed.table);
  }
  std::size_t unverified = 0;
  for (const db::RestoredTable& table : restored.tables) {
    if (table.snapshot_refused) {
      spdlog::warn("table {}: snapshot not used ({}); rebuilt from its whole log", table.table.id,
                   *table.snapshot_refused);
    }
    if (table.game && !table.log_verified) ++unverified;
  }
  if (unverified > 0) {
    spdlog::info("{} games have logs from before hash chains; each is chained with its next command", unverified);
  }
  std::size_t replayed = 0;
  for (const db::RestoredTable& table : restored.tables) replayed += table.replayed;
  spdlog::info("restored {} players ({} accounts) and {} tables ({} commands replayed) in {} ms", players.size(),
               accounts_stored.size(), restored.tables.size(), replayed,
               std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - loading)
                   .count());

  const auto metrics = std::make_shared<Metrics>();
  const std::shared_ptr<Services> services = transport_services(config, metrics.get());
  if (leadership) services->peer_key = leadership->peer_key();
  serve_tls(*services, config, certificate);

  const unsigned threads = config.io_threads();
  spdlog::info(
      "elgrande-server {} starting: address {}, port {}, data dir {}, database {} ({}), "
      "web root {}, I/O threads: {}",
      ELGRANDE_VERSION, config.bind_address, config.port, config.data_dir.string(), database->describe(),
      database->engine(),
      services->web_files ? services->web_files->root().string() : "none (" + config.web_root.string() + " not found)",
      threads);

  // The hint tells Asio how many threads will call run(), so it can skip locking for one.
  net::io_context io(static_cast<int>(threads));
  services->metrics->tables_unrestorable = restored.failed.size();
  services->metrics->logs_damaged = damaged_logs.size();
  services->damaged_logs = std::move(damaged_logs);
  // SQLite's log is copied back into the database beside the commits, not inside them.
  // Declared before the storage, so it outlives the writer's last commit.
  std::unique_ptr<Checkpointer> checkpointer;
  if (database->backend() == db::Backend::sqlite) {
    checkpointer = std::make_unique<Checkpointer>(*database, config.database_location(), config.durability,
                                                  metrics);
  }
  // Declared after the io_context, so they stop first: their completions post to strands.
  Storage storage(std::move(database), metrics, 100'000,
                  leadership != nullptr ? cluster_fence(*leadership, *claims) : Storage::Fence{},
                  std::chrono::microseconds{config.commit_delay_us}, std::move(ledger));
  Reader reader(config.database_location());
  // On a thread and a read connection of their own: no I/O thread or commit waits for one.
  std::unique_ptr<Backups> backups;
  if (!config.postgresql() && config.backup_every > 0) {
    backups = std::make_unique<Backups>(BackupSchedule{.database = config.database_path(),
                                                       .folder = config.backup_folder(),
                                                       .every = std::chrono::seconds(config.backup_every),
                                                       .keep = config.backup_keep},
                                        metrics);
  }
  std::shared_ptr<Webhook> webhook;
  if (!config.webhook_url.empty()) {
    webhook = std::make_shared<Webhook>(
        io.get_executor(), WebhookSettings{.url = config.webhook_url, .ca_file = config.webhook_ca_file},
        metrics);
  }
  Identities identities(storage, id_supply(storage, db::IdKind::player, first.players, 0));
  NewIdentityQuota new_identity_quota(config.new_identities_per_address_per_hour);
  Accounts accounts(storage, identities, session_idle_limit);
  SignInThrottle sign_in_throttle({.per_username = config.sign_in_failures_per_username,
                                   .per_address = config.sign_in_failures_per_address});
  IdSupply chat_line_ids = id_supply(storage, db::IdKind::chat_line, first.chat_lines, last_chat_line);
  Sanctions sanctions(storage);
  BlockLists block_lists(storage);
  // After what its jobs use, so that it stops first.
  PasswordWorkers password_workers(config.password_threads, kMaxWaitingPasswordHashes);
  BotWorkers bot_workers({.threads = config.bot_threads,
                          .think_limit = std::chrono::milliseconds(config.bot_think_ms),
                          .iterations = static_cast<int>(config.bot_iterations)},
                         *services->metrics);
  Presence presence;
  Ratings ratings(el_grande::module().ladders());
  ratings.restore(ratings_stored);
  TableDirectory directory;
  Bus bus;
  TableServices table_services{el_grande::module(), storage, *services->metrics, webhook.get(), presence, directory, table_settings,
                               config.max_queued_messages, &bus, {}, &sanctions, &block_lists,
                               &chat_line_ids, &ratings,
                               [&accounts](PlayerId player) { return accounts.has_account(player); },
                               &bot_workers};
  TableFactory table_factory(io.get_executor(), table_services,
                             id_supply(storage, db::IdKind::table, first.tables, highest_table));
  TournamentServices tournament_services{storage, table_factory, directory, presence, identities,
                                         *services->metrics, &ratings, &bus};
  Tournaments tournaments(io.get_executor(), tournament_services);
  const auto matchmaker = std::make_shared<Matchmaker>(io.get_executor(), table_factory, ratings);
  // Who hears what (events/events.hpp), before anything can be published.
  rate_finished_games(bus, ratings);
  tournaments.listen(bus);
  directory.listen(bus);
  matchmaker->listen(bus);
  if (claims) claims->listen(bus);
  Notices notices = start_notices(config, storage, *metrics, presence, bus, tournaments);
  services->storage = &storage;
  services->game = &el_grande::module();
  services->identities = &identities;
  services->new_identity_quota = &new_identity_quota;
  services->accounts = &accounts;
  services->sanctions = &sanctions;
  services->presence = &presence;
  services->tables = &directory;
  services->tournaments = &tournaments;
  services->bus = &bus;
  const RequestEnv answers{services->metrics, &storage};
  AccountRequestsEnv& account_requests = services->account_requests;
  static_cast<RequestEnv&>(account_requests) = answers;
  account_requests.accounts = &accounts;
  account_requests.identities = &identities;
  account_requests.password_workers = &password_workers;
  account_requests.sign_in_throttle = &sign_in_throttle;
  account_requests.presence = &presence;
  account_requests.password_cost = PasswordCost{std::size_t{config.password_memory_kib} * 1024, config.password_passes};
  account_requests.decoy_password_hash = hash_password(new_token(), account_requests.password_cost);
  account_requests.why_banned =
      [&sanctions](PlayerId player) -> std::optional<std::pair<std::string, protocol::Json>> {
    const auto banned = sanctions.in_force(player, SanctionKind::ban, unix_milliseconds());
    if (!banned) return std::nullopt;
    return std::pair{"you are " + describe(SanctionKind::ban, *banned), facts_of(*banned)};
  };
  // The message catalogs built in (docs/notifications.md#languages): what they lack is said in English.
  account_requests.languages = notices::Catalogs::embedded().languages();
  for (const std::string& problem : notices::Catalogs::embedded().problems()) {
    spdlog::error("message catalogs: {}", problem);
  }
  account_requests.bus = &bus;
  account_requests.speak_for = [&services = *services](Client& client, const Player& player,
                                                       std::optional<std::int64_t> session) {
    speak_for(services, client, player, session);
  };
  services->moderation_requests = {answers,        &accounts, &identities, &presence,
                                   &reader,        &sanctions, &block_lists};
  services->lobby_requests = {answers, &directory, &table_factory, &accounts, config.open_tables_per_player};
  services->play_requests = {answers, matchmaker.get()};
  services->rating_requests = {answers, &ratings, &identities, &reader};
  services->history_requests = {answers, &reader, &el_grande::module()};
  Reviews reviews({.per_day = static_cast<int>(config.reviews_per_day)}, reader, storage, bot_workers, el_grande::module());
  services->review_requests = {answers, &reviews};
  services->notice_requests = {answers,          &storage,           &accounts, notices.reach.get(), notices.sender.get(),
                               &account_requests, notices.throttle.get(), notices.mail, config.push_over_http};
  services->tournament_requests = {answers, &tournaments, &accounts,
                                   role_from_string(config.tournament_creators).value_or(Role::admin),
                                   config.tournament_entrants == "everyone"};
  identities.restore(players);
  accounts.restore(accounts_stored, sessions_stored, unix_milliseconds());
  sanctions.restore(sanctions_stored);
  block_lists.restore(blocks_stored);
  table_factory.restore(std::move(restored.tables), highest_table,
                        [&identities](PlayerId id) { return identities.find(id); });
  tournaments.restore(std::move(tournaments_stored), highest_tournament);
  const std::shared_ptr<SessionRegistry> sessions = services->sessions;
  auto listener = std::make_shared<Listener>(
      io, tcp::endpoint(net::ip::make_address(config.bind_address), config.port), services);
  services->https_port = listener->local_endpoint().port();  // the kernel's choice, with port 0
  const std::shared_ptr<Listener> redirect = redirect_listener(io, config, services);

  // Installed before the port is announced, so a signal sent right after still shuts
  // down cleanly instead of killing the process.
  net::signal_set signals(io, SIGINT, SIGTERM);
  // Bounds the goodbye to WebSocket peers, which may be slow to answer the close frame.
  net::steady_timer grace(io);
  net::signal_set hangup(io, SIGHUP);
  reload_on_hangup(hangup, certificate);
  signals.async_wait([&io, &grace, listener, redirect, sessions, &directory, &tournaments, matchmaker](
                         beast::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("received signal {}, shutting down", signal);
    if (redirect) redirect->stop([] {});
    directory.close_all();
    tournaments.close_all();
    matchmaker->close();
    listener->stop([&io, &grace, sessions] {
      spdlog::info("closing {} WebSocket session(s)", sessions->size());
      grace.expires_after(kShutdownGrace);
      grace.async_wait([&io](beast::error_code timer_ec) {
        if (timer_ec) return;
        spdlog::warn("WebSocket sessions still open after {} s; stopping anyway",
                     kShutdownGrace.count());
        io.stop();
      });
      sessions->close_all([&io] { io.stop(); });
    });
  });

  const std::string where = describe(listener->local_endpoint());
  spdlog::info("listening on {}", where);
  std::cout << "listening on " << where << std::endl;

  // A leader tells the other processes where it is.
  if (listening) listening(config.cluster_address.empty() ? reachable(listener->local_endpoint()) : config.cluster_address);

  listener->run();
  if (redirect) redirect->run();
  std::vector<std::thread> workers;
  workers.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers.emplace_back([&io] { run_io(io); });
  run_io(io);
  for (std::thread& worker : workers) worker.join();
  password_workers.stop();
  bot_workers.stop();
  notices.stop();  // the delivery in flight is settled through storage
  if (backups) backups->stop();
  storage.stop();  // everything queued reaches the disk
  if (checkpointer) checkpointer->stop();
  reader.stop();

  spdlog::info("shut down");
  return 0;
}

int serve(const Config& config) {
  if (config.postgresql()) {
    return serve_cluster(config, [](const Config& serving, Leadership& leadership, const Listening& listening) {
      return lead(serving, &leadership, listening);
    });
  }
  const DatabaseOwnership ownership(config);
  return lead(config, nullptr, {});
}

}  // namespace
}  // namespace elgrande::server

int main(int argc, char* argv[]) {
  namespace server = elgrande::server;
  // Past the file-size limit (ulimit -f) a write then fails with EFBIG, which SQLite reports
  // as an I/O error and Storage retries like any other, instead of the signal ending the
  // process without a log line.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::string program =
      argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "elgrande-server";

  server::Invocation invocation;
  try {
    invocation = server::parse_command_line(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << program << ": " << error.what() << "\nTry '" << program << " --help'.\n";
    return 2;
  }
  if (invocation.help) {
    std::cout << server::usage(program);
    return 0;
  }

  server::set_up_logging(invocation.config.log_level);
  int status = 1;
  try {
    status = invocation.backup_to     ? server::backup(invocation.config, *invocation.backup_to)
             : invocation.check_table ? server::check_table(invocation.config, *invocation.check_table)
             : invocation.verify_backup ? server::verify_backup(*invocation.verify_backup)
             : invocation.create_admin ? server::create_admin(invocation.config, *invocation.create_admin)
             : invocation.recompute_ratings ? server::recompute(invocation.config)
             : invocation.drain ? server::drain(invocation.config, *invocation.drain)
             : invocation.check_config ? server::check_config(invocation.config, invocation.config_file)
                                            : server::serve(invocation.config);
  } catch (const elgrande::db::Error& error) {
    const bool locked = error.kind() == elgrande::db::Error::Kind::busy && !invocation.config.postgresql();
    spdlog::critical("{}", locked ? server::locked_at_start(invocation.config.database_path(), error) : error.what());
  } catch (const std::exception& error) {
    spdlog::critical("{}", error.what());
  }
  spdlog::shutdown();
  return status;
}
