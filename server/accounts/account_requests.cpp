#include "accounts/account_requests.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "accounts/accounts.hpp"
#include "accounts/password_workers.hpp"
#include "accounts/sign_in_throttle.hpp"
#include "common/display_name.hpp"
#include "common/unix_time.hpp"
#include "events/bus.hpp"
#include "events/events.hpp"
#include "identity/identities.hpp"
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
  std::optional<std::string> language;
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
bool told_to_wait(const AccountRequestsEnv& env, Client& client, const Request& request,
                  std::chrono::steady_clock::duration wait, std::string_view what) {
  if (wait <= std::chrono::steady_clock::duration::zero()) return false;
  const auto milliseconds = std::chrono::ceil<std::chrono::milliseconds>(wait).count();
  env.metrics->count_error(ErrorCode::rate_limited);
  client.send(protocol::rate_limited_message(
      std::string(what) + "; try again in " + std::to_string((milliseconds + 999) / 1000) + " s", milliseconds,
      request.envelope.id));
  return true;
}

// Refuses a password check while the name or the address has failed too often.
bool throttled(const AccountRequestsEnv& env, Client& client, const Request& request, std::string_view username) {
  return told_to_wait(env, client, request,
                      env.sign_in_throttle->wait(username, client.address, std::chrono::steady_clock::now()),
                      "too many failed sign-ins");
}

// The answer of sign_up and sign_in, on the connection's strand.
void signed_in(const AccountRequestsEnv& env, Client& client, const Request& request, const std::optional<NewSession>& made) {
  client.resume_reading();
  if (!made) {
    return refuse(env, client, ErrorCode::unavailable, "the server could not save your sign-in; try again",
                  request.envelope.id);
  }
  const std::optional<Player> player = env.identities->find(made->session.player);
  if (!player) return refuse(env, client, ErrorCode::internal, "the account has no player", request.envelope.id);
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      {{"player", to_json(*player)},
                                       {"token", made->token},
                                       {"account", account_json(*env.accounts, player->id, made->session.id)}}));
  env.speak_for(client, *player, made->session.id);
}

// Every other connection that spoke for the guest: it had no session, and an account's
// connections all have one, which its owner can list and end. The account is in memory
// before this runs, so a guest hello that attaches later is refused by speak_for.
void end_guest_connections(const AccountRequestsEnv& env, const Client& signed_up, PlayerId player) {
  for (const RecipientPtr& connection : env.presence->connections_of(player)) {
    if (connection.get() == &signed_up) continue;
    connection->end(protocol::CloseCode::session_ended, "guest_signed_up");
  }
}

// The account of the connection's player, or a refusal.
std::optional<Account> own_account(const AccountRequestsEnv& env, Client& client, const Request& request) {
  auto account = env.accounts->of(client.player->id);
  if (!account) {
    refuse(env, client, ErrorCode::wrong_state, "this is a guest identity; sign up first", request.envelope.id);
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

bool hash_off_strand(const AccountRequestsEnv& env, Client& client, const Request& request, std::function<void()> work) {
  client.pause_reading();
  const auto guarded = [&env, connection = client.self(), id = request.envelope.id, work = std::move(work)] {
    try {
      work();
    } catch (const std::exception& error) {  // the hash's memory could not be had
      spdlog::error("password worker: {}", error.what());
      connection->post([&env, connection, id] {
        connection->resume_reading();
        refuse(env, *connection, ErrorCode::internal, "the server could not check the password; try again", id);
      });
    }
  };
  if (env.password_workers->post(guarded)) return true;
  client.resume_reading();
  refuse(env, client, ErrorCode::unavailable, "too many sign-ins at once; try again in a few seconds",
         request.envelope.id);
  return false;
}

protocol::Json account_json(const Accounts& accounts, PlayerId player, std::optional<std::int64_t> session) {
  const std::optional<Account> account = accounts.of(player);
  if (!account) return nullptr;
  protocol::Json json{{"username", account->username},
                      {"role", to_string(account->role)},
                      {"language", account->language ? protocol::Json(*account->language) : protocol::Json(nullptr)}};
  if (session) json["session"] = *session;
  return json;
}

void sign_up(const AccountRequestsEnv& env, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  Fields fields;
  for (const auto& wrong : {read_string(payload, "username", fields.username, true),
                            read_string(payload, "password", fields.password, true), read_device(payload, fields)}) {
    if (wrong) return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (const auto wrong = read_hello_language(env.languages, payload, fields.language)) {
    return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (const auto why_not = why_not_a_username(fields.username)) {
    return refuse(env, client, ErrorCode::bad_payload, "username: " + *why_not, request.envelope.id);
  }
  if (const auto why_not = why_not_a_password(fields.password)) {
    return refuse(env, client, ErrorCode::bad_payload, "password: " + *why_not, request.envelope.id);
  }
  if (env.accounts->of(client.player->id)) {
    return refuse(env, client, ErrorCode::wrong_state, "you have an account already", request.envelope.id);
  }
  const auto now = std::chrono::steady_clock::now();
  if (told_to_wait(env, client, request, env.sign_in_throttle->wait(client.address, now),
                   "too many usernames tried or failed sign-ins from your address")) {
    return;
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  if (!env.accounts->hold(fields.username)) {
    env.sign_in_throttle->name_taken(client.address, now);
    return refuse(env, client, ErrorCode::name_taken, "the username " + fields.username + " is taken",
                  request.envelope.id);
  }
  const PlayerId player = client.player->id;
  const std::string username = fields.username;
  const bool queued = hash_off_strand(env, client, request, [&env, connection = client.self(), request,
                                                                   player, fields = std::move(fields)]() mutable {
    std::string hash;
    try {
      hash = hash_password(fields.password, env.password_cost);
    } catch (...) {
      env.accounts->let_go(fields.username);
      throw;
    }
    env.accounts->sign_up(player, fields.username, std::move(hash), fields.device, fields.language, unix_milliseconds(),
                               [&env, connection, request](std::optional<NewSession> made) {
                                 connection->post([&env, connection, request, made = std::move(made)] {
                                   if (made) spdlog::info("player {} signed up", made->session.player);
                                   signed_in(env, *connection, request, made);
                                   if (made) end_guest_connections(env, *connection, made->session.player);
                                 });
                               });
  });
  if (!queued) env.accounts->let_go(username);
}

void sign_in(const AccountRequestsEnv& env, Client& client, Request& request) {
  const Json& payload = request.envelope.payload;
  if (const auto wrong = read_protocol(payload, client)) {
    return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  Fields fields;
  for (const auto& wrong : {read_string(payload, "username", fields.username, true),
                            read_string(payload, "password", fields.password, true), read_device(payload, fields)}) {
    if (wrong) return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (const auto wrong = read_hello_language(env.languages, payload, fields.language)) {
    return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (throttled(env, client, request, fields.username)) return;
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  hash_off_strand(env, client, request, [&env, connection = client.self(), request,
                                              fields = std::move(fields)]() mutable {
    // An unknown username costs a check against the decoy, so that it answers as slowly as
    // a wrong password would.
    const std::optional<Account> account = env.accounts->find(fields.username);
    const bool right =
        verify_password(account ? account->password_hash : env.decoy_password_hash, fields.password) && account;
    if (!right) {
      env.sign_in_throttle->failed(fields.username, connection->address, std::chrono::steady_clock::now());
      return connection->post([&env, connection, request] {
        connection->resume_reading();
        refuse(env, *connection, ErrorCode::bad_credentials, "unknown username or wrong password",
               request.envelope.id);
      });
    }
    env.sign_in_throttle->succeeded(fields.username);
    // Only to whoever knows the password is it said that the account is banned.
    if (auto why = env.why_banned(account->player)) {
      return connection->post([&env, connection, request, why = std::move(*why)] {
        connection->resume_reading();
        refuse(env, *connection, ErrorCode::banned, why.first, request.envelope.id, why.second);
      });
    }
    adopt_language(*env.accounts, account->player, fields.language);
    if (needs_rehash(account->password_hash, env.password_cost)) {
      env.accounts->rehash(account->player, hash_password(fields.password, env.password_cost));
    }
    env.accounts->open_session(account->player, fields.device, unix_milliseconds(),
                                    [&env, connection, request](std::optional<NewSession> made) {
                                      connection->post([&env, connection, request, made = std::move(made)] {
                                        signed_in(env, *connection, request, made);
                                      });
                                    });
  });
}

void list_sessions(const AccountRequestsEnv& env, Client& client, Request& request) {
  if (!own_account(env, client, request)) return;
  Json sessions = Json::array();
  for (const Session& session : env.accounts->sessions_of(client.player->id)) {
    sessions.push_back(to_json(session, client.session));
  }
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"sessions", std::move(sessions)}}));
}

void end_sessions(const AccountRequestsEnv& env, Client& client, Request& request) {
  if (!own_account(env, client, request)) return;
  const Json& payload = request.envelope.payload;
  const auto session = payload.find("session");
  const auto which = payload.find("which");
  const bool one = session != payload.end() && session->is_number_integer() && which == payload.end();
  const bool many = which != payload.end() && (*which == "others" || *which == "all") && session == payload.end();
  if (!one && !many) {
    return refuse(env, client, ErrorCode::bad_payload,
                  "give either session (a session id) or which (\"others\" or \"all\")", request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  const auto answer = [&env, connection = client.self(), request](bool saved) {
    connection->post([&env, connection, request, saved] {
      if (!saved) {
        return refuse(env, *connection, ErrorCode::unavailable, "the server could not save that; try again",
                      request.envelope.id);
      }
      connection->send(protocol::reply_message(request.envelope.type, request.envelope.id));
    });
  };
  if (one) {
    if (!env.accounts->end_session(client.player->id, session->get<SessionId>(), answer)) {
      refuse(env, client, ErrorCode::not_found, "you have no such session", request.envelope.id);
    }
    return;
  }
  env.accounts->end_sessions(client.player->id, *which == "others" ? client.session : std::nullopt, answer);
}

void change_password(const AccountRequestsEnv& env, Client& client, Request& request) {
  const std::optional<Account> account = own_account(env, client, request);
  if (!account) return;
  const Json& payload = request.envelope.payload;
  Fields fields;
  for (const auto& wrong : {read_string(payload, "password", fields.password, true),
                            read_string(payload, "new_password", fields.new_password, true)}) {
    if (wrong) return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (const auto why_not = why_not_a_password(fields.new_password)) {
    return refuse(env, client, ErrorCode::bad_payload, "new_password: " + *why_not, request.envelope.id);
  }
  if (throttled(env, client, request, account->username)) return;
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  hash_off_strand(env, client, request, [&env, connection = client.self(), request, account = *account,
                                              keep = client.session, fields = std::move(fields)] {
    if (!verify_password(account.password_hash, fields.password)) {
      env.sign_in_throttle->failed(account.username, connection->address, std::chrono::steady_clock::now());
      return connection->post([&env, connection, request] {
        connection->resume_reading();
        refuse(env, *connection, ErrorCode::bad_credentials, "wrong password", request.envelope.id);
      });
    }
    env.accounts->change_password(
        account.player, hash_password(fields.new_password, env.password_cost), keep,
        [&env, connection, request](bool saved) {
          connection->post([&env, connection, request, saved] {
            connection->resume_reading();
            if (!saved) {
              return refuse(env, *connection, ErrorCode::unavailable,
                            "the server could not save the new password; the old one stands", request.envelope.id);
            }
            connection->send(protocol::reply_message(request.envelope.type, request.envelope.id));
          });
        });
  });
}

}  // namespace elgrande::server

namespace elgrande::server {

void delete_account(const AccountRequestsEnv& env, Client& client, Request& request) {
  const std::optional<Account> account = own_account(env, client, request);
  if (!account) return;
  Fields fields;
  if (const auto wrong = read_string(request.envelope.payload, "password", fields.password, true)) {
    return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (throttled(env, client, request, account->username)) return;
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  hash_off_strand(env, client, request, [&env, connection = client.self(), request, account = *account,
                                         password = std::move(fields.password)] {
    if (!verify_password(account.password_hash, password)) {
      env.sign_in_throttle->failed(account.username, connection->address, std::chrono::steady_clock::now());
      return connection->post([&env, connection, request] {
        connection->resume_reading();
        refuse(env, *connection, ErrorCode::bad_credentials, "wrong password", request.envelope.id);
      });
    }
    const PlayerId player = account.player;
    env.accounts->remove(
        player,
        [&env, player](db::Store& store) {
          store.rename_player(player, std::string(kDeletedPlayerName));
          if (env.bus) env.bus->publish(ForgettingPlayer{player, store});
        },
        [&env, connection, request, player](bool saved) {
          if (saved) {
            env.identities->rename(player, std::string(kDeletedPlayerName), nullptr);
            spdlog::info("player {} deleted their account", player);
            if (env.bus) env.bus->publish(PlayerRenamed{Player{player, std::string(kDeletedPlayerName)}});
          }
          connection->post([&env, connection, request, saved] {
            connection->resume_reading();
            if (!saved) {
              return refuse(env, *connection, ErrorCode::unavailable, "the server could not delete the account; try again",
                            request.envelope.id);
            }
            connection->send(protocol::reply_message(request.envelope.type, request.envelope.id));
          });
        });
  });
}

}  // namespace elgrande::server

namespace elgrande::server {

std::optional<std::string> read_hello_language(const std::vector<std::string>& languages, const protocol::Json& payload,
                                               std::optional<std::string>& language) {
  const auto field = payload.find("language");
  if (field == payload.end()) return std::nullopt;
  if (!field->is_string()) return "language: must be a string";
  // A device may know languages this server's catalogs do not: it keeps its own, unsaved.
  if (std::ranges::find(languages, field->get_ref<const std::string&>()) != languages.end()) {
    language = field->get<std::string>();
  }
  return std::nullopt;
}

bool adopt_language(Accounts& accounts, PlayerId player, const std::optional<std::string>& language) {
  const std::optional<Account> account = accounts.of(player);
  if (!language || !account || account->language) return false;
  accounts.set_language(player, *language, [player](bool saved) {
    if (!saved) spdlog::warn("player {}: the language of their device could not be saved", player);
  });
  return true;
}

void set_language(const AccountRequestsEnv& env, Client& client, Request& request) {
  if (!own_account(env, client, request)) return;
  const auto field = request.envelope.payload.find("language");
  if (field == request.envelope.payload.end() || !field->is_string() ||
      std::ranges::find(env.languages, field->get_ref<const std::string&>()) == env.languages.end()) {
    std::string known;
    for (const std::string& language : env.languages) known += (known.empty() ? "" : ", ") + language;
    return refuse(env, client, ErrorCode::bad_payload, "language: one of " + known, request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  const PlayerId player = client.player->id;
  env.accounts->set_language(
      player, field->get<std::string>(), [&env, connection = client.self(), request, player](bool saved) {
        connection->post([&env, connection, request, player, saved] {
          if (!saved) {
            return refuse(env, *connection, ErrorCode::unavailable, "the server could not save that; try again",
                          request.envelope.id);
          }
          connection->send(protocol::reply_message(
              request.envelope.type, request.envelope.id,
              {{"account", account_json(*env.accounts, player, connection->session)}}));
          // The account's other devices show it at once; each keeps its own session.
          const std::string updated =
              protocol::push_message("account.updated", {{"account", account_json(*env.accounts, player, std::nullopt)}});
          for (const RecipientPtr& other : env.presence->connections_of(player)) {
            if (other.get() != connection.get()) other->deliver(updated);
          }
        });
      });
}

}  // namespace elgrande::server
