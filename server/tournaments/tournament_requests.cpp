#include "tournaments/tournament_requests.hpp"

#include <spdlog/spdlog.h>

#include <unordered_map>

#include "accounts/accounts.hpp"
#include "common/display_name.hpp"
#include "tournaments/tournaments.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

// Leaves room in a table's name for " · R12 B345" within its 64 bytes.
constexpr std::size_t kMaxTournamentNameBytes = 48;
constexpr std::size_t kTournamentPage = 50;

// The tournament the payload names, or a refusal.
std::shared_ptr<Tournament> named_tournament(const TournamentRequestsEnv& env, Client& client, const Request& request) {
  const auto field = request.envelope.payload.find("tournament");
  if (field == request.envelope.payload.end() || !field->is_number_integer()) {
    refuse(env, client, ErrorCode::bad_payload, "tournament: must be a tournament id", request.envelope.id);
    return nullptr;
  }
  auto tournament = env.tournaments->find(field->get<TournamentId>());
  if (!tournament) {
    refuse(env, client, ErrorCode::not_found, "no tournament " + std::to_string(field->get<TournamentId>()),
           request.envelope.id);
  }
  return tournament;
}

}  // namespace

void create_tournament(const TournamentRequestsEnv& env, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  const auto account = env.accounts->of(client.player->id);
  if (!account) {
    return refuse(env, client, ErrorCode::forbidden, "tournaments are made by accounts: sign up first",
                  request.envelope.id);
  }
  if (account->role < env.creators) {
    return refuse(env, client, ErrorCode::forbidden,
                  "on this server only accounts of role " + std::string(to_string(env.creators)) +
                      " or above may create tournaments",
                  request.envelope.id);
  }
  const auto name = payload.find("name");
  if (name == payload.end() || !name->is_string()) {
    return refuse(env, client, ErrorCode::bad_payload, "name: required", request.envelope.id);
  }
  if (const auto why_not = why_not_a_name(name->get<std::string>(), kMaxTournamentNameBytes)) {
    return refuse(env, client, ErrorCode::bad_payload, "name: " + *why_not, request.envelope.id);
  }
  const auto settings_field = payload.find("settings");
  if (settings_field == payload.end()) {
    return refuse(env, client, ErrorCode::bad_payload, "settings: required", request.envelope.id);
  }
  protocol::Decoded<TournamentSettings> settings = tournament_settings_from_json(*settings_field, env.tournaments->game());
  if (!settings) {
    return refuse(env, client, ErrorCode::bad_payload, "settings." + settings.error().message, request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  const auto tournament = env.tournaments->create(name->get<std::string>(), client.player->id,
                                                       std::move(settings.value()), client.self(), request.envelope.id);
  spdlog::info("player {} created tournament {}", client.player->id, tournament->id());
}

void list_tournaments(const TournamentRequestsEnv& env, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  std::optional<std::string> status;
  if (const auto field = payload.find("status"); field != payload.end()) {
    if (!field->is_string() || !db::tournament_status_from(field->get<std::string>())) {
      return refuse(env, client, ErrorCode::bad_payload,
                    "status: registering, running, paused, finished or cancelled", request.envelope.id);
    }
    status = field->get<std::string>();
  }
  std::optional<TournamentId> before;
  if (const auto field = payload.find("before"); field != payload.end()) {
    if (!field->is_number_integer()) {
      return refuse(env, client, ErrorCode::bad_payload, "before: a tournament id", request.envelope.id);
    }
    before = field->get<TournamentId>();
  }
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      env.tournaments->list(status, before, kTournamentPage)));
}

void get_tournament(const TournamentRequestsEnv& env, Client& client, Request& request) {
  const auto tournament = named_tournament(env, client, request);
  if (!tournament) return;
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      {{"tournament", *tournament->detail()}}));
}

void forward_to_tournament(const TournamentRequestsEnv& env, Client& client, Request& request) {
  static const std::unordered_map<std::string_view, Tournament::Handler> kHandlers{
      {"tournament.register", &Tournament::enrol},
      {"tournament.unregister", &Tournament::unregister},
      {"tournament.check_in", &Tournament::check_in},
      {"tournament.withdraw", &Tournament::withdraw},
      {"tournament.start", &Tournament::start},
      {"tournament.pause", &Tournament::pause},
      {"tournament.resume", &Tournament::resume_play},
      {"tournament.remove", &Tournament::remove},
      {"tournament.disqualify", &Tournament::disqualify},
      {"tournament.override", &Tournament::override_result},
      {"tournament.cancel", &Tournament::cancel},
  };
  const auto tournament = named_tournament(env, client, request);
  if (!tournament) return;
  const auto account = env.accounts->of(client.player->id);
  const Tournament::Handler handler = kHandlers.at(request.envelope.type);  // before the envelope moves
  tournament->handle(handler,
                     TournamentRequest{client.self(), *client.player, account && account->role == Role::admin,
                                       account.has_value() || env.guests_enter,
                                       std::move(request.envelope)});
}

}  // namespace elgrande::server
