#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "accounts/credentials.hpp"
#include "requests/answers.hpp"

namespace elgrande::server {

class Accounts;
class Bus;
class Identities;
class PasswordWorkers;
class Presence;
class SignInThrottle;

// The name a deleted account's player keeps at the tables it played at.
inline constexpr std::string_view kDeletedPlayerName = "deleted player";

// What the account requests need.
struct AccountRequestsEnv : RequestEnv {
  Accounts* accounts = nullptr;
  Identities* identities = nullptr;
  PasswordWorkers* password_workers = nullptr;
  SignInThrottle* sign_in_throttle = nullptr;
  Presence* presence = nullptr;
  PasswordCost password_cost;
  // A hash of no one's password, checked when a username is unknown so that the answer
  // takes as long as for a wrong password.
  std::string decoy_password_hash;
  // The languages of the server's message catalogs ("de", "en", "hu", "pl"): what
  // account.set_language takes (docs/accounts.md#language).
  std::vector<std::string> languages;
  // Why the player may not sign in now, if they are banned: the error's message ("banned
  // until ...") and its facts (`until`, `moderator_reason`); asked of moderation, which sits
  // above accounts.
  std::function<std::optional<std::pair<std::string, protocol::Json>>(PlayerId)> why_banned;
  // The connection speaks for the player from now on, on the session (app/hello.hpp: it
  // joins presence and the player's tables, which sit above accounts).
  std::function<void(Client&, const Player&, std::optional<std::int64_t> session)> speak_for;
  // Where a deleted account is told to every capability that keeps personal data
  // (ForgettingPlayer), and the player's new name to the tables (PlayerRenamed).
  const Bus* bus = nullptr;
};

// account.sign_up: the connection's guest becomes an account, keeping its id.
void sign_up(const AccountRequestsEnv& env, Client& client, Request& request);
// account.sign_in: the connection speaks for the account from now on, on a new session.
void sign_in(const AccountRequestsEnv& env, Client& client, Request& request);
// account.sessions: the account's signed-in devices.
void list_sessions(const AccountRequestsEnv& env, Client& client, Request& request);
// account.end_sessions: signs one device, the others, or all of them out.
void end_sessions(const AccountRequestsEnv& env, Client& client, Request& request);
// account.change_password: a new password, which signs the other devices out.
void change_password(const AccountRequestsEnv& env, Client& client, Request& request);

// account.set_language: the language the account reads the site and its mail in; the
// account's other connections get account.updated.
void set_language(const AccountRequestsEnv& env, Client& client, Request& request);

// The language a hello, sign-in or sign-up names (`language`, optional), if it is one of the
// server's catalogs'; a bad_payload message if it is not a string. An unknown code is left out.
std::optional<std::string> read_hello_language(const std::vector<std::string>& languages, const protocol::Json& payload,
                                               std::optional<std::string>& language);
// An account that has not chosen a language takes the one its device said in hello or a
// sign-in (saved on the side; nothing to answer). True if it did.
bool adopt_language(Accounts& accounts, PlayerId player, const std::optional<std::string>& language);

// account.delete: the account, checked by its password, is gone with its personal data; its
// games stay, under the name "deleted player".
void delete_account(const AccountRequestsEnv& env, Client& client, Request& request);

// Runs `work` on a password worker, reading nothing more from the connection meanwhile
// (`work` resumes it); false (and the client told) if too many hashes wait already.
bool hash_off_strand(const AccountRequestsEnv& env, Client& client, const Request& request, std::function<void()> work);

// What hello and the sign-ins answer with about an account; null for a guest.
protocol::Json account_json(const Accounts& accounts, PlayerId player, std::optional<std::int64_t> session);

}  // namespace elgrande::server
