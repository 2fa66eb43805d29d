#include "app/hello.hpp"

#include <spdlog/spdlog.h>

#include "accounts/account_requests.hpp"
#include "accounts/accounts.hpp"
#include "app/dispatcher.hpp"
#include "common/display_name.hpp"
#include "common/unix_time.hpp"
#include "events/bus.hpp"
#include "events/events.hpp"
#include "identity/identities.hpp"
#include "identity/new_identity_quota.hpp"
#include "moderation/sanctions.hpp"
#include "presence/presence.hpp"
#include "storage/storage.hpp"
#include "tables/directory.hpp"
#include "tables/table.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;

constexpr std::size_t kMaxNameBytes = 32;

// Answers hello once the identity is saved (nothing: it could not be).
void finish_hello(const Services& services, Client& client, const std::optional<protocol::RequestId>& id,
                  const std::optional<Player>& player, const std::string& token, std::optional<std::int64_t> session,
                  bool renamed, const std::optional<std::string>& adopted_language = std::nullopt) {
  if (!player) {
    refuse(services, client, ErrorCode::unavailable, "the server could not save your identity; try again", id);
    return client.resume_reading();
  }
  if (renamed) services.bus->publish(PlayerRenamed{*player});  // tables and play now listen
  spdlog::debug("hello from player {} ({})", player->id, player->name);
  protocol::Json answer{{"protocol", client.takes_view_patches() ? 2 : 1},
                        {"server", "elgrande-server/" ELGRANDE_VERSION},
                        {"player", to_json(*player)},
                        {"token", token}};
  if (auto account = account_json(*services.accounts, player->id, session); !account.is_null()) {
    if (adopted_language) account["language"] = *adopted_language;  // being saved meanwhile
    answer["account"] = std::move(account);
  }
  client.send(protocol::reply_message("hello", id, std::move(answer)));
  speak_for(services, client, *player, session);
  client.resume_reading();
}

}  // namespace

void speak_for(const Services& services, Client& client, const Player& player, std::optional<std::int64_t> session) {
  if (session) services.accounts->attach(*session, client.self());
  const bool same = client.player && client.player->id == player.id;
  client.session = session;
  if (same) {
    client.player = player;  // perhaps renamed
    return;
  }
  if (client.player) {
    farewell(services, client);
    client.watching.clear();
    client.tables.clear();
  }
  client.player = player;
  // Present first, then the tables are looked up: a table that seats the player
  // meanwhile either finds this connection or is found here (see Table).
  services.presence->attach(player.id, client.self());
  // A guest token that was still good when hello looked it up, while another connection
  // signed the guest up: every connection of an account has a session its owner can end.
  // Checked after attaching, as sign-up sweeps presence after adding the account.
  if (!session && services.accounts->has_account(player.id)) {
    return client.end(protocol::CloseCode::session_ended, "guest_signed_up");
  }
  // Every table the player belongs to sends this connection the table and the seat's view.
  for (const auto& table : services.tables->tables_of(player.id)) table->player_connected(client.self(), player.id);
}

void hello(const Services& services, Client& client, Request& request) {
  const protocol::Json& payload = request.envelope.payload;
  const auto& id = request.envelope.id;
  if (const auto wrong = read_protocol(payload, client)) return refuse(services, client, ErrorCode::bad_payload, *wrong, id);
  std::optional<std::string> name;
  if (const auto field = payload.find("name"); field != payload.end()) {
    if (!field->is_string()) return refuse(services, client, ErrorCode::bad_payload, "name: must be a string", id);
    if (const auto why_not = why_not_a_name(field->get_ref<const std::string&>(), kMaxNameBytes)) {
      return refuse(services, client, ErrorCode::bad_payload, "name: " + *why_not, id);
    }
    name = field->get<std::string>();
  }
  std::optional<std::string> language;
  if (const auto wrong = read_hello_language(services.account_requests.languages, payload, language)) {
    return refuse(services, client, ErrorCode::bad_payload, *wrong, id);
  }
  std::optional<std::string> token;
  if (const auto field = payload.find("token"); field != payload.end()) {
    if (!field->is_string()) return refuse(services, client, ErrorCode::bad_payload, "token: must be a string", id);
    token = field->get<std::string>();
  }

  Identities& identities = *services.identities;
  std::optional<Player> player;
  std::optional<std::int64_t> session;
  std::string secret;
  bool renamed = false;
  if (token) {
    // A guest's token, or an account's session.
    player = identities.find_by_token(*token);
    if (!player) {
      if (const auto resumed = services.accounts->resume(*token, unix_milliseconds())) {
        session = resumed->id;
        player = identities.find(resumed->player);
      }
    }
    if (!player) {
      return refuse(services, client, ErrorCode::unknown_token,
                    "this token is unknown here, or its session has ended; sign in, or say hello without it "
                    "for a new identity",
                    id);
    }
    secret = std::move(*token);
    if (name && *name != player->name) {
      player->name = std::move(*name);
      renamed = true;
    }
  }
  if (player) {
    if (const auto banned = services.sanctions->in_force(player->id, SanctionKind::ban, unix_milliseconds())) {
      return refuse(services, client, ErrorCode::banned, "you are " + describe(SanctionKind::ban, *banned), id,
                    facts_of(*banned));
    }
  }
  if (client.player && (!player || player->id != client.player->id)) {
    return refuse(services, client, ErrorCode::wrong_state,
                  "this connection already speaks for another player; open a new one", id);
  }
  if (!player || renamed) {
    // A new identity or a new name is saved before hello.ok hands it out.
    if (refuse_while_storage_refuses(services, client, id)) return;
    if (!player && !services.new_identity_quota->take(client.address, std::chrono::steady_clock::now())) {
      spdlog::debug("refused a new identity to {}: {} made within the hour", client.address,
                   services.new_identity_quota->per_hour());
      return refuse(services, client, ErrorCode::limit_reached,
                    "this address has made " + std::to_string(services.new_identity_quota->per_hour()) +
                        " new identities within the hour; sign in with your token, or try later",
                    id, {{"limit", "new_identities_per_address_per_hour"}, {"max", services.new_identity_quota->per_hour()}});
    }
    client.pause_reading();
    const auto answer = [&services, connection = client.self(), id, session, renamed](
                            const Identities::Issued& issued, bool saved) {
      connection->post([&services, connection, id, issued, saved, session, renamed] {
        finish_hello(services, *connection, id, saved ? std::optional(issued.player) : std::nullopt, issued.token,
                     session, renamed);
      });
    };
    if (!player) return identities.create(std::move(name), answer);
    return identities.rename(player->id, player->name,
                             [answer, issued = Identities::Issued{*player, secret}](bool saved) { answer(issued, saved); });
  }
  const bool adopted = session && adopt_language(*services.accounts, player->id, language);
  finish_hello(services, client, id, player, secret, session, false, adopted ? language : std::nullopt);
}

}  // namespace elgrande::server
