// The game.update as the server writes it (protocol/updates.hpp): checked against the
// documents of codec.hpp, over random games, for every seat and a spectator.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/plain_json.hpp"
#include "elgrande/protocol/updates.hpp"

namespace {

using namespace elgrande;
using protocol::Json;

Json events_json(const Events& events, Seat viewer, const Options& options) {
  Json shown = Json::array();
  for (const Event& event : visible_to(events, viewer)) shown.push_back(protocol::to_json(event, options));
  return shown;
}

}  // namespace

TEST_CASE("a game update carries its receiver's events and view, whole or as the patch of the view it holds") {
  int secret_events = 0, with_undo = 0, updates = 0;
  std::vector<protocol::PlainValue> plain;
  for (const int players : {2, 3, 5}) {
    Options options;
    options.players = players;
    options.automa = players == 2;
    // One game each under the sanitizers, which look for memory errors, not more games.
    for (std::uint64_t seed = 1; seed <= (std::getenv("ELGRANDE_SANITIZED") ? 1u : 3u); ++seed) {
      GameState state = new_game(options, seed);
      Rng bots{seed};
      std::vector<View> held;
      for (Seat viewer = kSpectator; viewer < players; ++viewer) held.push_back(view(state, viewer));
      Events events;
      while (!is_over(state)) {
        const Seat seat = pending(state)[0].seat;
        events.clear();
        REQUIRE_FALSE(apply(state, seat, random_command(state, seat, bots), events));
        const protocol::EventTexts texts(events, options);
        for (Seat viewer = kSpectator; viewer < players; ++viewer) {
          INFO(players << " players, seed " << seed << ", version " << state.version << ", viewer " << int(viewer));
          const View now = view(state, viewer);
          View& before = held[static_cast<std::size_t>(viewer + 1)];
          protocol::UpdateHeader header;
          header.table = 7;
          header.version = state.version;
          header.can_undo = viewer == seat;
          if (now.decision) header.deadline = 1795328460000 + state.version;

          const Json whole = Json::parse(protocol::update_with_view(header, texts, now));
          CHECK(whole["type"] == "game.update");
          const Json& payload = whole["payload"];
          CHECK(payload["table"] == 7);
          CHECK(payload["version"] == state.version);
          CHECK(payload.value("can_undo", false) == header.can_undo);
          CHECK(payload.contains("deadline") == now.decision.has_value());
          if (header.deadline) CHECK(payload["deadline"] == *header.deadline);
          REQUIRE(payload["events"] == events_json(events, viewer, options));
          REQUIRE(payload["view"] == protocol::to_json(now));
          REQUIRE(protocol::view_from_json(payload["view"]).value() == now);
          CHECK_FALSE(payload.contains("patch"));

          const Json patched = Json::parse(protocol::update_with_patch(header, texts, before, now));
          CHECK(patched["payload"]["base"] == before.version);
          CHECK_FALSE(patched["payload"].contains("view"));
          CHECK(patched["payload"]["events"] == payload["events"]);
          Json view_held = protocol::to_json(before);
          protocol::apply_merge_patch(view_held, patched["payload"]["patch"]);
          REQUIRE(view_held == payload["view"]);

          // Read plainly, as the load generator reads them: the same documents.
          const std::string patch_text = protocol::update_with_patch(header, texts, before, now);
          REQUIRE(protocol::read_plain_json(patch_text, plain));
          REQUIRE(protocol::to_json(plain.front()) == patched);
          Json plain_held = protocol::to_json(before);
          protocol::apply_merge_patch(plain_held, *plain.front().member("payload")->member("patch"));
          REQUIRE(plain_held == payload["view"]);
          const std::string whole_text = protocol::update_with_view(header, texts, now);  // the values view it
          REQUIRE(protocol::read_plain_json(whole_text, plain));
          REQUIRE(protocol::to_json(plain.front()) == whole);

          secret_events += static_cast<int>(events.size() - visible_to(events, viewer).size());
          with_undo += header.can_undo;
          ++updates;
          before = now;
        }
      }
    }
  }
  // Secret events were left out for someone, and the header's fields were met both ways.
  CHECK(secret_events > 0);
  CHECK(with_undo > 0);
  CHECK(with_undo < updates);
}

TEST_CASE("a view patch between equal views is empty, and a new game's first update has no events") {
  const GameState state = new_game(Options{}, 9);
  const View now = view(state, 1);
  std::string text;
  protocol::append_view_patch(text, now, now);
  CHECK(text == "{}");
  const Json update = Json::parse(protocol::update_with_view(protocol::UpdateHeader{}, protocol::EventTexts(), now));
  CHECK(update["payload"]["events"] == Json::array());
  CHECK_FALSE(update["payload"].contains("can_undo"));
  CHECK_FALSE(update["payload"].contains("deadline"));
}
