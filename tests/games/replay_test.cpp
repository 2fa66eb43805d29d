// A finished game's replay (docs/replays.md) through games::GameModule: every frame is the
// update a spectator connected from the start was sent, its view at every version is a
// fresh replay of the log's prefix, and the secrets it may show are each seat's own.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "elgrande/el_grande/module.hpp"
#include "elgrande/protocol/codec.hpp"

using namespace elgrande;
using games::Json;

namespace {

constexpr std::int64_t kTable = 7;

const games::GameModule& replay_module() { return el_grande::module(); }

struct Variant {
  int players;
  bool automa;
  bool short_game;
  Edition edition;
};

std::vector<Variant> every_variant() {
  std::vector<Variant> variants;
  for (const Edition edition : {Edition::y1995, Edition::y2023}) {
    for (int players = 2; players <= 5; ++players) {
      for (const bool short_game : {false, true}) variants.push_back({players, false, short_game, edition});
    }
  }
  variants.push_back({2, true, false, Edition::y2023});  // the automa is the 2023 edition's
  return variants;
}

Json options_for(const Variant& variant) {
  Options options;
  options.players = variant.players;
  options.automa = variant.automa;
  options.four_stacks = variant.automa;
  options.short_game = variant.short_game;
  options.edition = variant.edition;
  return protocol::to_json(options);
}

int first_seat_owing(const games::Game& game) {
  for (int s = 0; s < games::kMaxSeats; ++s) {
    if ((game.owing() >> s) & 1u) return s;
  }
  return -1;
}

// A game played to its end by random bots as a table plays it, with what a spectator
// connected from the start was sent (protocol 2: patches), and its log.
struct Watched {
  std::vector<games::Recorded> log;
  std::vector<std::string> spectator;
};

Watched watch(const Json& options, std::uint64_t seed) {
  Watched watched;
  const games::Frame frame{kTable, false, std::nullopt, false};
  games::Started started = replay_module().setup(options, seed);
  games::Game& game = *started.game;
  watched.spectator.push_back(game.update(games::kSpectator, frame, started.step.said.get(), false, true).patch);
  for (std::uint64_t n = 0; !game.over(); ++n) {
    REQUIRE(n < 5000);
    const int seat = first_seat_owing(game);
    const games::MovePtr move = game.random_move(seat, seed * 7919 + n);
    const bool played_for = n % 3 == 0;
    auto played = game.apply(seat, *move, played_for);
    REQUIRE(std::holds_alternative<games::Step>(played));
    watched.log.push_back({seat, move->record(), played_for});
    watched.spectator.push_back(
        game.update(games::kSpectator, frame, std::get<games::Step>(played).said.get(), false, true).patch);
  }
  return watched;
}

std::vector<games::ReplayFrame> replayed(const Json& options, std::uint64_t seed, std::span<const games::Recorded> log,
                                         bool secrets) {
  auto frames = replay_module().replay(options, seed, log, kTable, secrets);
  if (const auto* why = std::get_if<std::string>(&frames)) FAIL(*why);
  return std::get<std::vector<games::ReplayFrame>>(std::move(frames));
}

// The whole view a viewer of the game at the log's end is sent, as JSON.
Json view_after(const Json& options, std::uint64_t seed, std::span<const games::Recorded> log, int viewer) {
  auto game = replay_module().restore(options, seed, std::nullopt, log);
  REQUIRE(std::holds_alternative<std::unique_ptr<games::Game>>(game));
  const games::Frame frame{kTable, false, std::nullopt, false};
  return Json::parse(std::get<std::unique_ptr<games::Game>>(game)->update(viewer, frame, nullptr, true, false).whole)
      ["payload"]["view"];
}

}  // namespace

TEST_CASE("a replay's frames are the updates a spectator connected from the start was sent, in every variant") {
  int frames = 0;
  for (const Variant& variant : every_variant()) {
    const Json options = options_for(variant);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      INFO(options.dump() << ", seed " << seed);
      const Watched watched = watch(options, seed);
      const auto replay = replayed(options, seed, watched.log, false);
      REQUIRE(replay.size() == watched.spectator.size());
      for (std::size_t v = 0; v < replay.size(); ++v) {
        INFO("version " << v);
        REQUIRE(replay[v].update == watched.spectator[v]);
        CHECK(replay[v].secrets.empty());
      }
      // El Grande's own path (elgrande::replay) says what the interface's generic one does.
      auto generic = replay_module().games::GameModule::replay(options, seed, watched.log, kTable, false);
      REQUIRE(std::holds_alternative<std::vector<games::ReplayFrame>>(generic));
      const auto& by_play = std::get<std::vector<games::ReplayFrame>>(generic);
      REQUIRE(by_play.size() == replay.size());
      for (std::size_t v = 0; v < replay.size(); ++v) REQUIRE(by_play[v].update == replay[v].update);
      frames += static_cast<int>(replay.size());
    }
  }
  CHECK(frames > 1000);
}

TEST_CASE("a replay's view at every version is a fresh replay of the log's prefix, and its secrets each seat's own") {
  // Each version restores the game afresh for every viewer: under the sanitizers, every
  // fifth version (and the last) of each game is compared; the patches still apply at all.
  const std::size_t stride = std::getenv("ELGRANDE_SANITIZED") ? 5 : 1;
  for (const Variant& variant : every_variant()) {
    const Json options = options_for(variant);
    const std::uint64_t seed = 11 + static_cast<std::uint64_t>(variant.players);
    INFO(options.dump() << ", seed " << seed);
    const Watched watched = watch(options, seed);
    const auto replay = replayed(options, seed, watched.log, true);
    REQUIRE(replay.size() == watched.log.size() + 1);
    Json held;  // the view as a replay viewer holds it, patch after patch
    for (std::size_t v = 0; v < replay.size(); ++v) {
      INFO("version " << v);
      const Json update = Json::parse(replay[v].update)["payload"];
      REQUIRE(update["version"] == v);
      if (v == 0) {
        held = update["view"];
      } else {
        protocol::apply_merge_patch(held, update["patch"]);
      }
      if (v % stride != 0 && v + 1 != replay.size()) continue;
      const std::span<const games::Recorded> prefix(watched.log.data(), v);
      REQUIRE(held == view_after(options, seed, prefix, games::kSpectator));
      // What each seat alone knew is what its own view showed it then.
      const Json secrets = Json::parse(replay[v].secrets);
      REQUIRE(secrets["seats"].size() == static_cast<std::size_t>(variant.players));
      for (int seat = 0; seat < variant.players; ++seat) {
        const Json own = view_after(options, seed, prefix, seat)["players"][static_cast<std::size_t>(seat)];
        for (const char* key : {"hand", "discards", "castillo", "disk"}) {
          INFO("seat " << seat << ", " << key);
          CHECK(secrets["seats"][static_cast<std::size_t>(seat)].value(key, Json()) == own.value(key, Json()));
        }
      }
    }
  }
}

TEST_CASE("a replay with its secrets open tells each hidden event as its owner read it, and once") {
  const Json options = options_for({3, false, false, Edition::y2023});
  const Watched watched = watch(options, 5);
  const auto closed = replayed(options, 5, watched.log, false);
  const auto open = replayed(options, 5, watched.log, true);
  int disks_told = 0;
  for (std::size_t v = 0; v < open.size(); ++v) {
    const Json shown = Json::parse(open[v].update)["payload"]["events"];
    const Json hidden = Json::parse(closed[v].update)["payload"]["events"];
    CHECK(shown.size() == hidden.size());  // the owner's copy instead of the others', not beside it
    for (const Json& event : shown) disks_told += event["type"] == "disk_set" && event.contains("region");
    for (const Json& event : hidden) CHECK_FALSE((event["type"] == "disk_set" && event.contains("region")));
  }
  CHECK(disks_told > 0);
}

TEST_CASE("a log that does not replay is refused with the move that breaks it") {
  const Json options = options_for({3, false, false, Edition::y2023});
  Watched watched = watch(options, 9);
  watched.log[4].seat = (watched.log[4].seat + 1) % 3;
  watched.log.resize(5);
  const auto refused = replay_module().replay(options, 9, watched.log, kTable, false);
  REQUIRE(std::holds_alternative<std::string>(refused));
  CHECK(std::get<std::string>(refused).find("command 5") != std::string::npos);
  watched.log[4].move = "{\"type\":\"no such move\"}";
  const auto unread = replay_module().replay(options, 9, watched.log, kTable, true);
  REQUIRE(std::holds_alternative<std::string>(unread));
  CHECK(std::get<std::string>(unread).find("command 5 is not El Grande's") != std::string::npos);
}
