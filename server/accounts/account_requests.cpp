#include "accounts/account_requests.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "accounts/accounts.hpp"
#include "accounts/password_workers.hpp"
#include "accounts/sign_in_throttle.hpp"
#include "common/display_name.hpp"
#include "common/unix_time.hpp"
#include "identity/hello.hpp"
#include "identity/identities.hpp"
#include "moderation/sanctions.hpp"
#include "presence/presence.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kMaxDeviceBytes = 64;

// A request's fields, checked for shape only; what they say is checked by each handler.
struct Fields {
  std::string username;
  std::string password;
  std::string new_password;
  std::string device = "unnamed device";
};

// Reads the string `key` into `out`; what is wrong with it, if anything.
std::optional<std::string> read_string(const Json& payload, std::string_view key, std::string& out, bool required) {
  const auto field = payload.find(key);
  if (field == payload.end()) {
    return required ? std::optional(std::string(key) + ": required") : std::nullopt;
  }
  if (!field->is_string()) return std::string(key) + ": must be a string";
  out = field->get<std::string>();
  return std::nullopt;
}

std::optional<std::string> read_device(const Json& payload, Fields& fields) {
  if (auto wrong = read_string(payload, "device", fields.device, false)) return wrong;
  if (const auto why_not = why_not_a_name(fields.device, kMaxDeviceBytes)) return "device: " + *why_not;
  return std::nullopt;
}

// Tells the client to wait, if it must; whether it must.
bool told_to_wait(const Services& services, Client& client, const Request& request,
                  std::chrono::steady_clock::duration wait, std::string_view what) {
  if (wait <= std::chrono::steady_clock::duration::zero()) return false;
  const auto milliseconds = std::chrono::ceil<std::chrono::milliseconds>(wait).count();
  services.metrics->count_error(ErrorCode::rate_limited);
  client.send(protocol::rate_limited_message(
      std::string(what) + "; try again in " + std::to_string((milliseconds + 999) / 1000) + " s", milliseconds,
      request.envelope.id));
  return true;
}

// Refuses a password check while the name or the address has failed too often.
bool throttled(const Services& services, Client& client, const Request& request, std::string_view username) {
  return told_to_wait(services, client, request,
                      services.sign_in_throttle->wait(username, client.address, std::chrono::steady_clock::now()),
                      "too many failed sign-ins");
}

// Runs `work` on a password worker, reading nothing more from the connection meanwhile
// (`work` resumes it); false (and the client told) if too many hashes wait already.
bool hash_off_strand(const Services& services, Client& client, const Request& request, std::function<void()> work) {
  client.pause_reading();
  const auto guarded = [&services, connection = client.self(), id = request.envelope.id, work = std::move(work)] {
    try {
      work();
    } catch (const std::exception& error) {  // the hash's memory could not be had
      spdlog::error("password worker: {}", error.what());
      connection->post([&services, connection, id] {
        connection->resume_reading();
        refuse(services, *connection, ErrorCode::internal, "the server could not check the password; try again", id);
      });
    }
  };
  if (services.password_workers->post(guarded)) return true;
  client.resume_reading();
  refuse(services, client, ErrorCode::unavailable, "too many sign-ins at once; try again in a few seconds",
         request.envelope.id);
  return false;
}

// The answer of sign_up and sign_in, on the connection's strand.
void signed_in(const Services& services, Client& client, const Request& request, const std::optional<NewSession>& made) {
  client.resume_reading();
  if (!made) {
    return refuse(services, client, ErrorCode::unavailable, "the server could not save your sign-in; try again",
                  request.envelope.id);
  }
  const std::optional<Player> player = services.identities->find(made->session.player);
  if (!player) return refuse(services, client, ErrorCode::internal, "the account has no player", request.envelope.id);
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      {{"player", to_json(*player)},
                                       {"token", made->token},
                                       {"account", account_json(services, player->id, made->session.id)}}));
  speak_for(services, client, *player, made->session.id);
}

// Every other connection that spoke for the guest: it had no session, and an account's
// connections all have one, which its owner can list and end. The account is in memory
// before this runs, so a guest hello that attaches later is refused by speak_for.
void end_guest_connections(const Services& services, const Client& signed_up, PlayerId player) {
  for (const RecipientPtr& connection : services.presence->connections_of(player)) {
    if (connection.get() == &signed_up) continue;
    connection->end(protocol::CloseCode::session_ended, "this guest signed up; sign in with the account");
  }
}

// The account of the connection's player, or a refusal.
std::optional<Account> own_account(const Services& services, Client& client, const Request& request) {
  auto account = services.accounts->of(client.player->id);
  if (!account) {
    refuse(services, client, ErrorCode::wrong_state, "this is a guest identity; sign up first", request.envelope.id);
  }
  return account;
}

Json to_json(const Session& session, std::optional<SessionId> current) {
  return {{"id", session.id},
          {"device", session.device},
          {"created_at", session.created_at},
          {"last_seen", session.last_seen},
          {"current", session.id == current}};
}

}  // namespace

void sign_up(const Services& services, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  Fields fields;
  for (const auto& wrong : {read_string(payload, "username", fields.username, true),
                            read_string(payload, "password", fields.password, true), read_device(payload, fields)}) {
    if (wrong) return refuse(services, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (const auto why_not = why_not_a_username(fields.username)) {
    return refuse(services, client, ErrorCode::bad_payload, "username: " + *why_not, request.envelope.id);
  }
  if (const auto why_not = why_not_a_password(fields.password)) {
    return refuse(services, client, ErrorCode::bad_payload, "password: " + *why_not, request.envelope.id);
  }
  if (services.accounts->of(client.player->id)) {
    return refuse(services, client, ErrorCode::wrong_state, "you have an account already", request.envelope.id);
  }
  const auto now = std::chrono::steady_clock::now();
  if (told_to_wait(services, client, request, services.sign_in_throttle->wait(client.address, now),
                   "too many usernames tried or failed sign-ins from your address")) {
    return;
  }
  if (refuse_while_storage_refuses(services, client, request.envelope.id)) return;
  if (!services.accounts->hold(fields.username)) {
    services.sign_in_throttle->name_taken(client.address, now);
    return refuse(services, client, ErrorCode::name_taken, "the username " + fields.username + " is taken",
                  request.envelope.id);
  }
  const PlayerId player = client.player->id;
  const std::string username = fields.username;
  const bool queued = hash_off_strand(services, client, request, [&services, connection = client.self(), request,
                                                                   player, fields = std::move(fields)]() mutable {
    std::string hash;
    try {
      hash = hash_password(fields.password, services.password_cost);
    } catch (...) {
      services.accounts->let_go(fields.username);
      throw;
    }
    services.accounts->sign_up(player, fields.username, std::move(hash), fields.device, unix_milliseconds(),
                               [&services, connection, request](std::optional<NewSession> made) {
                                 connection->post([&services, connection, request, made = std::move(made)] {
                                   if (made) spdlog::info("player {} signed up", made->session.player);
                                   signed_in(services, *connection, request, made);
                                   if (made) end_guest_connections(services, *connection, made->session.player);
                                 });
                               });
  });
  if (!queued) services.accounts->let_go(username);
}

void sign_in(const Services& services, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  if (const auto wrong = read_protocol(payload, client)) {
    return refuse(services, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  Fields fields;
  for (const auto& wrong : {read_string(payload, "username", fields.username, true),
                            read_string(payload, "password", fields.password, true), read_device(payload, fields)}) {
    if (wrong) return refuse(services, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (throttled(services, client, request, fields.username)) return;
  if (refuse_while_storage_refuses(services, client, request.envelope.id)) return;
  hash_off_strand(services, client, request, [&services, connection = client.self(), request,
                                              fields = std::move(fields)]() mutable {
    // An unknown username costs a check against the decoy, so that it answers as slowly as
    // a wrong password would.
    const std::optional<Account> account = services.accounts->find(fields.username);
    const bool right =
        verify_password(account ? account->password_hash : services.decoy_password_hash, fields.password) && account;
    if (!right) {
      services.sign_in_throttle->failed(fields.username, connection->address, std::chrono::steady_clock::now());
      return connection->post([&services, connection, request] {
        connection->resume_reading();
        refuse(services, *connection, ErrorCode::bad_credentials, "unknown username or wrong password",
               request.envelope.id);
      });
    }
    services.sign_in_throttle->succeeded(fields.username);
    // Only to whoever knows the password is it said that the account is banned.
    if (const auto banned = services.sanctions->in_force(account->player, SanctionKind::ban, unix_milliseconds())) {
      return connection->post([&services, connection, request, why = describe(SanctionKind::ban, *banned)] {
        connection->resume_reading();
        refuse(services, *connection, ErrorCode::banned, "you are " + why, request.envelope.id);
      });
    }
    if (needs_rehash(account->password_hash, services.password_cost)) {
      services.accounts->rehash(account->player, hash_password(fields.password, services.password_cost));
    }
    services.accounts->open_session(account->player, fields.device, unix_milliseconds(),
                                    [&services, connection, request](std::optional<NewSession> made) {
                                      connection->post([&services, connection, request, made = std::move(made)] {
                                        signed_in(services, *connection, request, made);
                                      });
                                    });
  });
}

void list_sessions(const Services& services, Client& client, Request& request) {
  if (!own_account(services, client, request)) return;
  Json sessions = Json::array();
  for (const Session& session : services.accounts->sessions_of(client.player->id)) {
    sessions.push_back(to_json(session, client.session));
  }
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"sessions", std::move(sessions)}}));
}

void end_sessions(const Services& services, Client& client, Request& request) {
  if (!own_account(services, client, request)) return;
  const Json& payload = request.envelope.payload;
  const auto session = payload.find("session");
  const auto which = payload.find("which");
  const bool one = session != payload.end() && session->is_number_integer() && which == payload.end();
  const bool many = which != payload.end() && (*which == "others" || *which == "all") && session == payload.end();
  if (!one && !many) {
    return refuse(services, client, ErrorCode::bad_payload,
                  "give either session (a session id) or which (\"others\" or \"all\")", request.envelope.id);
  }
  if (refuse_while_storage_refuses(services, client, request.envelope.id)) return;
  const auto answer = [&services, connection = client.self(), request](bool saved) {
    connection->post([&services, connection, request, saved] {
      if (!saved) {
        return refuse(services, *connection, ErrorCode::unavailable, "the server could not save that; try again",
                      request.envelope.id);
      }
      connection->send(protocol::reply_message(request.envelope.type, request.envelope.id));
    });
  };
  if (one) {
    if (!services.accounts->end_session(client.player->id, session->get<SessionId>(), answer)) {
      refuse(services, client, ErrorCode::not_found, "you have no such session", request.envelope.id);
    }
    return;
  }
  services.accounts->end_sessions(client.player->id, *which == "others" ? client.session : std::nullopt, answer);
}

void change_password(const Services& services, Client& client, Request& request) {
  const std::optional<Account> account = own_account(services, client, request);
  if (!account) return;
  const Json& payload = request.envelope.payload;
  Fields fields;
  for (const auto& wrong : {read_string(payload, "password", fields.password, true),
                            read_string(payload, "new_password", fields.new_password, true)}) {
    if (wrong) return refuse(services, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (const auto why_not = why_not_a_password(fields.new_password)) {
    return refuse(services, client, ErrorCode::bad_payload, "new_password: " + *why_not, request.envelope.id);
  }
  if (throttled(services, client, request, account->username)) return;
  if (refuse_while_storage_refuses(services, client, request.envelope.id)) return;
  hash_off_strand(services, client, request, [&services, connection = client.self(), request, account = *account,
                                              keep = client.session, fields = std::move(fields)] {
    if (!verify_password(account.password_hash, fields.password)) {
      services.sign_in_throttle->failed(account.username, connection->address, std::chrono::steady_clock::now());
      return connection->post([&services, connection, request] {
        connection->resume_reading();
        refuse(services, *connection, ErrorCode::bad_credentials, "wrong password", request.envelope.id);
      });
    }
    services.accounts->change_password(
        account.player, hash_password(fields.new_password, services.password_cost), keep,
        [&services, connection, request](bool saved) {
          connection->post([&services, connection, request, saved] {
            connection->resume_reading();
            if (!saved) {
              return refuse(services, *connection, ErrorCode::unavailable,
                            "the server could not save the new password; the old one stands", request.envelope.id);
            }
            connection->send(protocol::reply_message(request.envelope.type, request.envelope.id));
          });
        });
  });
}

}  // namespace elgrande::server
