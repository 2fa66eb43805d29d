#include "notices/notice_requests.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include "accounts/account_requests.hpp"
#include "accounts/accounts.hpp"
#include "accounts/credentials.hpp"
#include "accounts/sign_in_throttle.hpp"
#include "common/display_name.hpp"
#include "common/unix_time.hpp"
#include "elgrande/notices/mail.hpp"
#include "elgrande/notices/push.hpp"
#include "identity/identities.hpp"
#include "notices/notice_sender.hpp"
#include "notices/reach.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::int64_t kVerifyLifetime = 24 * 3600 * 1000;
constexpr std::int64_t kResetLifetime = 3600 * 1000;
constexpr std::size_t kEmailChangesPerHour = 5;
constexpr std::size_t kResetsPerClientPerHour = 10;
constexpr std::size_t kResetMailsPerAddressPerHour = 3;
constexpr std::size_t kMaxDevices = 20;
constexpr std::size_t kMaxEndpointBytes = 2048;
constexpr std::string_view kBadToken = "this link was used already, has expired, or is not one of ours";

std::optional<std::string> text_field(const Json& payload, std::string_view key) {
  const auto found = payload.find(key);
  if (found == payload.end() || !found->is_string()) return std::nullopt;
  return found->get<std::string>();
}

std::string lower(std::string text) {
  std::ranges::transform(text, text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::optional<Account> own_account(const NoticeRequestsEnv& env, Client& client, const Request& request) {
  auto account = env.accounts->of(client.player->id);
  if (!account) refuse(env, client, ErrorCode::wrong_state, "this is a guest identity; sign up first", request.envelope.id);
  return account;
}

void rate_limited(const NoticeRequestsEnv& env, Client& client, const Request& request, std::string_view what) {
  env.metrics->count_error(ErrorCode::rate_limited);
  client.send(protocol::rate_limited_message(what, 3600 * 1000, request.envelope.id));
}

// The callback of a write: on the connection's strand, `then()` once committed, else
// `unavailable`.
Storage::Done answer_when_saved(const NoticeRequestsEnv& env, Client& client, const Request& request,
                                std::function<void(Client&)> then) {
  return [&env, connection = client.self(), id = request.envelope.id, then = std::move(then)](bool committed) {
    connection->post([&env, connection, id, committed, then] {
      if (!committed) {
        return refuse(env, *connection, ErrorCode::unavailable, "the server could not save that; try again", id);
      }
      then(*connection);
    });
  };
}

bool refuse_without_mail(const NoticeRequestsEnv& env, Client& client, const Request& request) {
  if (env.mail) return false;
  refuse(env, client, ErrorCode::wrong_state, "this server sends no e-mail", request.envelope.id);
  return true;
}

db::OutboxNotice account_mail(std::int64_t player, std::string kind, const Json& payload, std::int64_t now) {
  db::OutboxNotice notice;
  notice.player = player;
  notice.channel = "mail";
  notice.kind = std::move(kind);
  notice.payload = payload.dump();
  notice.due_at = now;
  notice.created_at = now;
  return notice;
}

// Checks and uses a mailed token of `purpose` in the writer's transaction: the token as it
// was, if it was one, unused and not expired.
std::optional<db::EmailToken> use_token(db::Store& store, const db::TokenHash& hash, std::string_view purpose,
                                        std::int64_t now) {
  const auto token = store.notices().token(hash);
  if (!token || token->purpose != purpose) return std::nullopt;
  return store.notices().use_token(hash, now);
}

// The reset's second half, once its token is used: the new password is hashed on a worker
// and saved, which ends every session (whoever knew the old one is signed out). Reading is
// paused; the answer resumes it.
void set_new_password(const NoticeRequestsEnv& env, Client& client, const Request& request, const Account& account,
                      const std::string& password) {
  const AccountRequestsEnv& accounts = *env.account_requests;
  hash_off_strand(accounts, client, request, [&env, &accounts, connection = client.self(), request, account, password] {
    env.accounts->change_password(
        account.player, hash_password(password, accounts.password_cost), std::nullopt,
        [&env, &accounts, connection, request, account](bool saved) {
          connection->post([&env, &accounts, connection, request, account, saved] {
            connection->resume_reading();
            if (!saved) {
              return refuse(env, *connection, ErrorCode::unavailable,
                            "the server could not save the new password; ask for another link", request.envelope.id);
            }
            accounts.sign_in_throttle->succeeded(account.username);
            spdlog::info("notices: player {} reset their password by a mailed link", account.player);
            connection->send(
                protocol::reply_message(request.envelope.type, request.envelope.id, {{"username", account.username}}));
          });
        });
  });
}

}  // namespace

bool MailThrottle::take(std::string_view what, const std::string& key, std::size_t cap, Clock::time_point now) {
  const std::string counted = std::string(what) + " " + key;
  std::lock_guard lock(mutex_);
  if (hour_.count(counted, now) >= cap) return false;
  hour_.add(counted, now);
  return true;
}

void set_email(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto account = own_account(env, client, request);
  if (!account || refuse_without_mail(env, client, request)) return;
  const auto address = text_field(request.envelope.payload, "address");
  if (!address) return refuse(env, client, ErrorCode::bad_payload, "address: required, a string", request.envelope.id);
  if (const auto why_not = notices::why_not_an_address(*address)) {
    return refuse(env, client, ErrorCode::bad_payload, "address: " + *why_not, request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  if (!env.throttle->take("set_email", std::to_string(account->player), kEmailChangesPerHour,
                          std::chrono::steady_clock::now())) {
    return rate_limited(env, client, request, "at most 5 addresses an hour; try again later");
  }
  const std::string token = new_token();
  const std::int64_t now = unix_milliseconds();
  db::EmailToken stored{hash_token(token), account->player, "verify", *address, now, now + kVerifyLifetime, std::nullopt};
  const db::OutboxNotice mail = account_mail(
      account->player, "verify_email", Json{{"to", *address}, {"username", account->username}, {"address", *address}, {"token", token}},
      now);
  env.writer->write(
      [stored, mail](db::Store& store) {
        store.notices().remove_tokens(stored.player, "verify");  // a newer link supersedes the older ones
        store.notices().insert_token(stored);
        store.notices().enqueue(mail);
      },
      answer_when_saved(env, client, request, [&env, request, player = account->player, address = *address](Client& c) {
        env.reach->set_pending(player, address);
        env.sender->wake();
        c.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"pending", address}}));
      }));
}

void verify_email(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto token = text_field(request.envelope.payload, "token");
  if (!token) return refuse(env, client, ErrorCode::bad_payload, "token: required, a string", request.envelope.id);
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  struct Verified {
    std::optional<db::EmailToken> token;
    std::string username;
  };
  auto verified = std::make_shared<Verified>();
  env.writer->write(
      [&env, verified, hash = hash_token(*token)](db::Store& store) {
        *verified = {};
        const std::int64_t now = unix_milliseconds();
        auto used = use_token(store, hash, "verify", now);
        if (!used) return;
        const auto account = env.accounts->of(used->player);
        if (!account) return;
        const auto old = store.notices().email_of(used->player);
        store.notices().set_email(used->player, used->address, now);
        store.notices().remove_tokens(used->player, "verify");
        if (old && lower(old->address) != lower(used->address)) {  // the old address is told
          store.notices().enqueue(account_mail(
              used->player, "email_changed",
              Json{{"to", old->address}, {"username", account->username}, {"address", used->address}}, now));
          env.sender->wake_after_commit();
        }
        *verified = {std::move(used), account->username};
      },
      answer_when_saved(env, client, request, [&env, request, verified](Client& c) {
        if (!verified->token) return refuse(env, c, ErrorCode::bad_token, kBadToken, request.envelope.id);
        env.reach->set_address(verified->token->player, verified->token->address);
        spdlog::info("notices: player {} verified an address", verified->token->player);
        c.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                       {{"username", verified->username}, {"address", verified->token->address}}));
      }));
}

void remove_email(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto account = own_account(env, client, request);
  if (!account || refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  env.writer->write(
      [player = account->player](db::Store& store) {
        store.notices().remove_email(player);
        store.notices().remove_tokens(player, "verify");
        store.notices().remove_notices(player, "mail");
        store.notices().remove_notices(player, "digest");
      },
      answer_when_saved(env, client, request, [&env, request, player = account->player](Client& c) {
        env.reach->remove_address(player);
        c.send(protocol::reply_message(request.envelope.type, request.envelope.id));
      }));
}

void forgot_password(const NoticeRequestsEnv& env, Client& client, Request& request) {
  if (refuse_without_mail(env, client, request)) return;
  const auto address = text_field(request.envelope.payload, "address");
  if (!address) return refuse(env, client, ErrorCode::bad_payload, "address: required, a string", request.envelope.id);
  if (const auto why_not = notices::why_not_an_address(*address)) {
    return refuse(env, client, ErrorCode::bad_payload, "address: " + *why_not, request.envelope.id);
  }
  const auto now = std::chrono::steady_clock::now();
  if (!env.throttle->take("forgot from", client.address, kResetsPerClientPerHour, now)) {
    return rate_limited(env, client, request, "too many password resets asked from here; try again later");
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  // The same answer, at once, whether or not an account has the address.
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id));
  // Past its cap an address gets no more mail, quietly: nobody can flood someone's mailbox.
  if (!env.throttle->take("forgot to", lower(*address), kResetMailsPerAddressPerHour, now)) return;
  const auto players = env.reach->players_at(*address);
  if (players.empty()) return;
  env.writer->write(
      [&env, players, address = *address](db::Store& store) {
        const std::int64_t now = unix_milliseconds();
        for (const PlayerId player : players) {
          const auto account = env.accounts->of(player);
          if (!account) continue;
          const std::string token = new_token();
          store.notices().insert_token({hash_token(token), player, "reset", address, now, now + kResetLifetime, std::nullopt});
          store.notices().enqueue(account_mail(
              player, "reset_password", Json{{"to", address}, {"username", account->username}, {"token", token}}, now));
        }
        env.sender->wake_after_commit();
      },
      nullptr);
}

void reset_password(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto token = text_field(request.envelope.payload, "token");
  const auto password = text_field(request.envelope.payload, "new_password");
  if (!token || !password) {
    return refuse(env, client, ErrorCode::bad_payload, "token and new_password: required, strings", request.envelope.id);
  }
  if (const auto why_not = why_not_a_password(*password)) {
    return refuse(env, client, ErrorCode::bad_payload, "new_password: " + *why_not, request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  auto used = std::make_shared<std::optional<db::EmailToken>>();
  // Nothing more is read from the connection until the reset is answered (the new password
  // is hashed on a worker meanwhile), so that its answers keep the order of its requests.
  client.pause_reading();
  env.writer->write(
      [used, hash = hash_token(*token)](db::Store& store) { *used = use_token(store, hash, "reset", unix_milliseconds()); },
      [&env, connection = client.self(), request, used, password = *password](bool committed) {
        connection->post([&env, connection, request, used, password, committed] {
          const auto account = committed && *used ? env.accounts->of((*used)->player) : std::nullopt;
          if (account) return set_new_password(env, *connection, request, *account, password);
          connection->resume_reading();
          if (!committed) {
            return refuse(env, *connection, ErrorCode::unavailable, "the server could not save that; try again",
                          request.envelope.id);
          }
          refuse(env, *connection, ErrorCode::bad_token, kBadToken, request.envelope.id);
        });
      });
}

void notice_preferences(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto account = own_account(env, client, request);
  if (!account) return;
  const auto address = env.reach->address(account->player);
  const auto pending = env.reach->pending(account->player);
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      {{"preferences", notices::to_json(env.reach->preferences(account->player))},
                                       {"email", address ? Json(*address) : Json(nullptr)},
                                       {"pending_email", pending ? Json(*pending) : Json(nullptr)},
                                       {"mail", env.mail},
                                       {"push", true}}));
}

void set_notice_preferences(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto account = own_account(env, client, request);
  if (!account) return;
  const auto field = request.envelope.payload.find("preferences");
  if (field == request.envelope.payload.end()) {
    return refuse(env, client, ErrorCode::bad_payload, "preferences: required", request.envelope.id);
  }
  auto read = notices::read_preferences(*field);
  if (const auto* wrong = std::get_if<std::string>(&read)) {
    return refuse(env, client, ErrorCode::bad_payload, *wrong, request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  auto preferences = std::get<notices::Preferences>(std::move(read));
  env.writer->write(
      [player = account->player, text = notices::to_json(preferences).dump()](db::Store& store) {
        store.notices().set_preferences(player, text);
      },
      answer_when_saved(env, client, request, [&env, request, player = account->player, preferences](Client& c) {
        env.reach->set_preferences(player, preferences);
        c.send(protocol::reply_message(request.envelope.type, request.envelope.id));
      }));
}

void push_key(const NoticeRequestsEnv& env, Client& client, Request& request) {
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id,
                                      {{"key", notices::base64url(env.sender->keys().vapid.public_key)}}));
}

void push_subscribe(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto account = own_account(env, client, request);
  if (!account) return;
  const Json& payload = request.envelope.payload;
  const auto endpoint = text_field(payload, "endpoint");
  const auto keys = payload.find("keys");
  const auto p256dh = keys != payload.end() && keys->is_object() ? text_field(*keys, "p256dh") : std::nullopt;
  const auto auth = keys != payload.end() && keys->is_object() ? text_field(*keys, "auth") : std::nullopt;
  const std::string device = text_field(payload, "device").value_or("unnamed device");
  const bool secure = endpoint && endpoint->starts_with("https://");
  const bool allowed = secure || (env.push_over_http && endpoint && endpoint->starts_with("http://"));
  if (!allowed || endpoint->size() > kMaxEndpointBytes ||
      std::ranges::any_of(*endpoint, [](unsigned char c) { return c <= ' ' || c >= 0x7f; })) {
    return refuse(env, client, ErrorCode::bad_payload, "endpoint: an https:// address of a push service",
                  request.envelope.id);
  }
  const auto key = p256dh ? notices::from_base64url(*p256dh) : std::nullopt;
  const auto secret = auth ? notices::from_base64url(*auth) : std::nullopt;
  if (!key || !secret || notices::why_not_push_keys({*key, *secret})) {
    return refuse(env, client, ErrorCode::bad_payload, "keys: p256dh and auth as the browser's subscription gives them",
                  request.envelope.id);
  }
  if (const auto why_not = why_not_a_name(device, 64)) {
    return refuse(env, client, ErrorCode::bad_payload, "device: " + *why_not, request.envelope.id);
  }
  const auto devices = env.reach->devices(account->player);
  const bool known = std::ranges::any_of(devices, [&](const auto& had) { return had.endpoint == *endpoint; });
  if (!known && devices.size() >= kMaxDevices) {
    return refuse(env, client, ErrorCode::limit_reached, "at most 20 devices; remove one first", request.envelope.id,
                  {{"limit", "push_devices"}, {"max", kMaxDevices}});
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  auto subscription = std::make_shared<db::PushSubscriptionRecord>(
      db::PushSubscriptionRecord{0, account->player, *endpoint, *p256dh, *auth, device, unix_milliseconds()});
  env.writer->write([subscription](db::Store& store) { subscription->id = store.notices().add_subscription(*subscription); },
                    answer_when_saved(env, client, request, [&env, request, subscription](Client& c) {
                      env.reach->add_device(*subscription);
                      c.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"id", subscription->id}}));
                    }));
}

void push_devices(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto account = own_account(env, client, request);
  if (!account) return;
  Json devices = Json::array();
  for (const auto& device : env.reach->devices(account->player)) {
    devices.push_back({{"id", device.id}, {"device", device.device}, {"created_at", device.created_at}});
  }
  client.send(protocol::reply_message(request.envelope.type, request.envelope.id, {{"devices", std::move(devices)}}));
}

void push_remove(const NoticeRequestsEnv& env, Client& client, Request& request) {
  const auto account = own_account(env, client, request);
  if (!account) return;
  const auto id = request.envelope.payload.find("id");
  if (id == request.envelope.payload.end() || !id->is_number_integer()) {
    return refuse(env, client, ErrorCode::bad_payload, "id: required, a device's id", request.envelope.id);
  }
  const auto devices = env.reach->devices(account->player);
  const std::int64_t device = id->get<std::int64_t>();
  if (std::ranges::none_of(devices, [&](const auto& had) { return had.id == device; })) {
    return refuse(env, client, ErrorCode::not_found, "you have no such device", request.envelope.id);
  }
  if (refuse_while_storage_refuses(env, client, request.envelope.id)) return;
  env.writer->write([player = account->player, device](db::Store& store) { store.notices().remove_subscription(player, device); },
                    answer_when_saved(env, client, request, [&env, request, device](Client& c) {
                      env.reach->remove_device(device);
                      c.send(protocol::reply_message(request.envelope.type, request.envelope.id));
                    }));
}

}  // namespace elgrande::server
