#pragma once

// What the tests of tournaments do as their players and director: accounts on a server,
// the event's requests, and the round's games resigned so that bots finish them.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "game_helpers.hpp"

namespace elgrande::test {

struct Account {
  std::string username;
  std::int64_t id = 0;
  std::unique_ptr<WsClient> ws;
};

inline constexpr const char* kPassword = "tournament password";

inline void connect(Account& account, const ServerProcess& server, bool sign_up) {
  account.ws = std::make_unique<WsClient>(server.address(), server.port());
  if (sign_up) {
    account.id = hello(*account.ws, account.username)["player"]["id"];
    const Json reply = request(*account.ws, "account.sign_up",
                               {{"username", account.username}, {"password", kPassword}, {"device", "test"}});
    REQUIRE(reply["type"] == "account.sign_up.ok");
  } else {
    const Json reply = sign_in(*account.ws, account.username, kPassword);
    REQUIRE(reply["type"] == "account.sign_in.ok");
  }
}

inline Json tournament_request(Account& account, const std::string& type, Json payload) {
  return request(*account.ws, "tournament." + type, std::move(payload));
}

inline Json tournament_of(Account& account, std::int64_t tournament) {
  const Json reply = tournament_request(account, "get", {{"tournament", tournament}});
  REQUIRE(reply["type"] == "tournament.get.ok");
  return reply["payload"]["tournament"];
}

// Resigns every game of the round the player sits in (a bot then finishes it at once),
// once its table has started.
inline void resign_games(Account& account) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    const Json games = request(*account.ws, "player.games", Json::object())["payload"]["games"];
    bool waiting = false;
    for (const Json& game : games) {
      const Json& table = game["table"];
      if (table["status"] == "finished") continue;
      if (table["seats"][game["seat"].get<int>()].value("resigned", false)) continue;
      if (table["status"] != "playing") {
        waiting = true;
        continue;
      }
      const Json reply = request(*account.ws, "game.resign", {{"table", table["id"]}});
      CHECK(reply["type"] == "game.resign.ok");
    }
    if (!waiting) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL("a table of " << account.username << " never started");
}

inline Json wait_for(Account& account, std::int64_t tournament, const std::function<bool(const Json&)>& ready) {
  Json now;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    now = tournament_of(account, tournament);
    if (ready(now)) return now;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL("the tournament never got there: " << now.dump());
  return {};
}

}  // namespace elgrande::test
