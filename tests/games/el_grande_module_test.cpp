// El Grande as the server sees it: through games::GameModule alone. A game set up, played,
// refused, taken back, shown per seat, snapshotted and restored from its record; the fast
// reader; the bots.
#include <catch2/catch.hpp>

#include "elgrande/el_grande/module.hpp"
#include "elgrande/protocol/codec.hpp"

using namespace elgrande;
using games::Json;

namespace {

// A table's options as the server hands them to the module: the codec's, every field said.
Json options_for(int players, bool automa = false, bool short_game = false, Edition edition = Edition::y2023) {
  Options options;
  options.players = players;
  options.automa = automa;
  options.four_stacks = automa;
  options.short_game = short_game;
  options.edition = edition;
  return protocol::to_json(options);
}

games::Frame frame(bool closed = false) {
  games::Frame frame;
  frame.table = 7;
  frame.closed = closed;
  return frame;
}

const games::GameModule& game_module() { return el_grande::module(); }

games::Step step_of(std::variant<games::Step, games::Refusal> played) {
  if (const auto* refusal = std::get_if<games::Refusal>(&played)) FAIL("refused: " << refusal->reason);
  return std::get<games::Step>(std::move(played));
}

int first_owing(const games::Game& game) {
  for (int s = 0; s < games::kMaxSeats; ++s) {
    if ((game.owing() >> s) & 1u) return s;
  }
  return -1;
}

std::string whole_view(games::Game& game, int viewer) {
  return game.update(viewer, frame(), nullptr, true, false).whole;
}

// A game played to its end by the module's random bot, every move logged as storage logs it.
struct Played {
  std::unique_ptr<games::Game> game;
  std::vector<games::Recorded> log;
  std::optional<std::string> snapshot;  // the first one the game gave after move 40
  std::size_t snapshot_at = 0;          // the log's length then
  int undos_offered = 0;                // moves after which their seat could take them back
};

Played play_out(const Json& options, std::uint64_t seed) {
  Played played{game_module().setup(options, seed).game, {}, {}, 0, 0};
  games::Game& game = *played.game;
  for (std::uint64_t n = 0; !game.over() && n < 5000; ++n) {
    const int seat = first_owing(game);
    REQUIRE(seat >= 0);
    const games::MovePtr move = game.random_move(seat, seed * 7919 + n);
    const bool played_for = n % 3 == 0;  // some by "bots", not theirs to take back
    const games::Step step = step_of(game.apply(seat, *move, played_for));
    CHECK(step.said);
    played.log.push_back({seat, move->record(), played_for});
    if (!played_for && game.can_undo(seat)) ++played.undos_offered;
    if (!played.snapshot && played.log.size() > 40) {
      played.snapshot = game.snapshot();
      played.snapshot_at = played.log.size();
    }
  }
  return played;
}

std::unique_ptr<games::Game> restored(const Json& options, std::uint64_t seed, const std::optional<std::string>& snapshot,
                                      std::span<const games::Recorded> log) {
  auto restoring = game_module().restore(options, seed, snapshot, log);
  if (const auto* why = std::get_if<std::string>(&restoring)) FAIL("not restored: " << *why);
  return std::move(std::get<std::unique_ptr<games::Game>>(restoring));
}

}  // namespace

TEST_CASE("a game played through the module alone reaches its end, and its record rebuilds it exactly") {
  for (const Json& options : {options_for(2, true), options_for(3), options_for(5, false, true, Edition::y1995)}) {
    CAPTURE(options.dump());
    const std::uint64_t seed = 42;
    Played played = play_out(options, seed);
    games::Game& game = *played.game;
    REQUIRE(game.over());
    CHECK(game.owing() == 0);
    CHECK(game.version() == played.log.size());
    CHECK_FALSE(game.winners().empty());
    CHECK(game.scores().size() == options["players"].get<std::size_t>());

    // From the start, and from the snapshot with the log after it: the same game.
    const auto from_start = restored(options, seed, std::nullopt, played.log);
    CHECK(from_start->version() == game.version());
    CHECK(from_start->scores() == game.scores());
    CHECK(whole_view(*from_start, games::kSpectator) == whole_view(game, games::kSpectator));
    REQUIRE(played.snapshot);
    const auto from_snapshot =
        restored(options, seed, played.snapshot, std::span(played.log).subspan(played.snapshot_at));
    CHECK(whole_view(*from_snapshot, 0) == whole_view(game, 0));
  }
}

TEST_CASE("a move refused by the module changes nothing, and says why in the rules' terms") {
  const Json options = options_for(4);
  const auto game = game_module().setup(options, 9).game;
  const int owing = first_owing(*game);
  const int idle = owing == 0 ? 1 : 0;
  REQUIRE_FALSE((game->owing() >> idle) & 1u);
  const std::string before = whole_view(*game, games::kSpectator);
  const games::MovePtr move = game->random_move(owing, 1);

  const auto played = game->apply(idle, *move);
  REQUIRE(std::holds_alternative<games::Refusal>(played));
  CHECK(std::get<games::Refusal>(played).code == games::Refusal::Code::not_your_turn);
  CHECK(games::name(std::get<games::Refusal>(played).code) == "not_your_turn");
  CHECK(game->check(idle, *move));
  CHECK_FALSE(game->check(owing, *move));
  CHECK(game->version() == 0);
  CHECK(whole_view(*game, games::kSpectator) == before);
}

TEST_CASE("a seat takes back its own move through the module, and no snapshot is given meanwhile") {
  const Json options = options_for(3);
  const auto game = game_module().setup(options, 5).game;
  // Play on until a seat may take its move back.
  int seat = -1;
  for (std::uint64_t n = 0; n < 400 && seat < 0; ++n) {
    const int s = first_owing(*game);
    step_of(game->apply(s, *game->random_move(s, n)));
    if (game->can_undo(s)) seat = s;
  }
  REQUIRE(seat >= 0);
  CHECK_FALSE(game->snapshot());
  const std::uint32_t version = game->version();
  const std::string taken_back_from = whole_view(*game, seat);

  const games::MovePtr undo = el_grande::move_of(Undo{});
  CHECK(undo->undoes());
  CHECK_FALSE(game->random_move(first_owing(*game), 1)->undoes());
  const games::Step step = step_of(game->apply(seat, *undo));
  CHECK(game->version() == version + 1);  // an undo is a move of the log too
  CHECK((step.posed >> seat) & 1u);       // the seat is asked its decision anew
  CHECK(whole_view(*game, seat) != taken_back_from);
}

TEST_CASE("a move played for a seat by a bot or the clock is not the seat's to take back") {
  const auto game = game_module().setup(options_for(3), 5).game;
  for (std::uint64_t n = 0; n < 400 && !game->over(); ++n) {
    const int s = first_owing(*game);
    step_of(game->apply(s, *game->random_move(s, n), true));
    CHECK_FALSE(game->can_undo(s));
  }
}

TEST_CASE("each viewer's update shows what that seat may see, whole or as a patch of the last one sent") {
  const auto started = game_module().setup(options_for(4), 11);
  games::Game& game = *started.game;
  CHECK(started.step.posed == game.owing());
  const std::string seat0 = whole_view(game, 0);
  const std::string seat1 = whole_view(game, 1);
  const std::string spectator = whole_view(game, games::kSpectator);
  // Each seat sees its own hand, and no one else's; whoever watches sees none.
  const auto hand_of = [](const std::string& update, int seat) {
    return Json::parse(update)["payload"]["view"]["players"][static_cast<std::size_t>(seat)].value("hand", Json());
  };
  CHECK(hand_of(seat0, 0).size() == 13);
  CHECK(hand_of(seat0, 1).is_null());
  CHECK(hand_of(seat1, 1).size() == 13);
  CHECK(hand_of(seat1, 0).is_null());
  CHECK(hand_of(spectator, 0).is_null());

  const int s = first_owing(game);
  const games::Step step = step_of(game.apply(s, *game.random_move(s, 3)));
  const games::Update update = game.update(0, frame(), step.said.get(), true, true);
  CHECK(Json::parse(update.whole)["payload"]["version"] == 1);
  CHECK(update.patch.size() < update.whole.size());
  CHECK(Json::parse(update.patch)["payload"].contains("patch"));

  // A table that ended the game early: its views pose nothing.
  const Json closed = Json::parse(game.update(s, frame(true), nullptr, true, false).whole);
  CHECK_FALSE(closed["payload"]["view"].contains("decision"));
}

TEST_CASE("the record codec reads a move back as it wrote it, and refuses what is not one") {
  const auto game = game_module().setup(options_for(2), 3).game;
  const games::MovePtr move = game->random_move(first_owing(*game), 1);
  auto read = game_module().read_move(Json::parse(move->record()));
  REQUIRE(std::holds_alternative<games::MovePtr>(read));
  CHECK(std::get<games::MovePtr>(read)->record() == move->record());

  auto bad = game_module().read_move(Json{{"type", "take_over_spain"}});
  REQUIRE(std::holds_alternative<std::string>(bad));
  CHECK_FALSE(std::get<std::string>(bad).empty());
}

TEST_CASE("the fast reader takes a whole game.command, and leaves anything else to the envelope") {
  const auto game = game_module().setup(options_for(2), 3).game;
  const games::MovePtr move = game->random_move(first_owing(*game), 1);
  const std::string text = R"({"type":"game.command","id":"c-1","payload":{"table":12,"version":0,"command":)" +
                           move->record() + "}}";
  const auto read = game_module().read_command_message(text);
  REQUIRE(read);
  CHECK(read->table == 12);
  CHECK(read->version == 0);
  CHECK(read->id == std::variant<std::string, std::int64_t>(std::string("c-1")));
  CHECK(read->move->record() == move->record());
  CHECK_FALSE(game_module().read_command_message(R"({"type":"table.chat","payload":{"table":12}})"));
  CHECK_FALSE(game_module().read_command_message(R"({"type":"game.command","payload":{"table":12,"command":{}}})"));
}

TEST_CASE("a searching bot answers from its seat's view with a move the game takes") {
  const auto game = game_module().setup(options_for(3), 21).game;
  for (int n = 0; n < 6; ++n) {
    const int seat = first_owing(*game);
    const games::BotSearch search = game->bot(seat, games::BotLevel::easy, 1000 + static_cast<std::uint64_t>(n));
    const games::MovePtr move = search(games::BotBudget{.iterations = 4, .stop = [] { return false; }});
    REQUIRE(move);
    CHECK_FALSE(game->check(seat, *move));
    step_of(game->apply(seat, *move, true));
  }
}

TEST_CASE("the strong bot reviews a move of a finished game from the version it was made at") {
  const Json options = options_for(5);
  const std::uint64_t seed = 31;
  const Played played = play_out(options, seed);
  REQUIRE(played.game->over());
  Rng pick{seed};
  int agreed = 0;
  for (int n = 0; n < 8; ++n) {
    const auto version = static_cast<std::size_t>(pick.below(static_cast<std::uint32_t>(played.log.size())));
    const games::Recorded& made = played.log[version];
    INFO("version " << version << ": seat " << made.seat << " played " << made.move);
    const auto game = restored(options, seed, std::nullopt, std::span(played.log).first(version));
    const auto move = game_module().read_move(Json::parse(made.move));
    const games::ReviewSearch search =
        game->review(made.seat, std::get<games::MovePtr>(move), games::BotLevel::strong, 77 + version);
    REQUIRE(search);
    const std::optional<games::Review> review = search(games::BotBudget{.iterations = 200, .stop = {}});
    REQUIRE(review);
    CHECK(review->played->record() == made.move);
    REQUIRE(review->bot);
    CHECK_FALSE(game->check(made.seat, *review->bot));
    CHECK(review->same == (review->bot->record() == made.move));
    CHECK((review->iterations == 200 || (review->same && review->iterations == 0)));
    for (double share : {review->bot_win_share, review->played_win_share}) {
      CHECK(share >= 0.0);
      CHECK(share <= 1.0);
    }
    agreed += review->same;
  }
  CHECK(agreed < 8);  // random moves, mostly not the bot's
}

TEST_CASE("no review for a seat that owed nothing, of a move it could not make, or at the random level") {
  const auto game = game_module().setup(options_for(4), 9).game;
  const int owing = first_owing(*game);
  const int idle = owing == 0 ? 1 : 0;
  REQUIRE_FALSE((game->owing() >> idle) & 1u);
  const games::MovePtr move = game->random_move(owing, 1);
  CHECK(game->review(owing, move, games::BotLevel::strong, 1));
  CHECK_FALSE(game->review(idle, move, games::BotLevel::strong, 1));
  CHECK_FALSE(game->review(owing, move, games::BotLevel::random, 1));
  CHECK_FALSE(game->review(owing, nullptr, games::BotLevel::strong, 1));
  CHECK_FALSE(game->review(owing, el_grande::move_of(AnswerVeto{true}), games::BotLevel::strong, 1));
}

TEST_CASE("a record that is not this game's, or a snapshot of another build, is refused with the reason") {
  const Json options = options_for(3);
  Played played = play_out(options, 8);
  std::vector<games::Recorded> log(played.log.begin(), played.log.begin() + 10);
  log[4].move = R"({"type":"move_the_king","to":"atlantis"})";
  auto broken = game_module().restore(options, 8, std::nullopt, log);
  REQUIRE(std::holds_alternative<std::string>(broken));
  CHECK_THAT(std::get<std::string>(broken), Catch::Contains("command 5"));

  log.assign(played.log.begin(), played.log.begin() + 10);
  std::swap(log[2], log[3]);  // moves out of order: one is not its seat's to play
  if (log[2].seat != log[3].seat || log[2].move != log[3].move) {
    CHECK(std::holds_alternative<std::string>(game_module().restore(options, 8, std::nullopt, log)));
  }

  std::string other_build = *played.snapshot;
  other_build[0] = static_cast<char>(other_build[0] ^ 1);
  auto refused = game_module().restore(options, 8, other_build, {});
  REQUIRE(std::holds_alternative<std::string>(refused));
  CHECK_THAT(std::get<std::string>(refused), Catch::Contains("layout"));
}

TEST_CASE("the module names its phases and bot levels as the metrics and the lobby say them") {
  const auto phases = game_module().phases();
  CHECK(phases.front() == "power_cards");
  CHECK(std::find(phases.begin(), phases.end(), "game_over") == phases.end());
  CHECK(game_module().id() == "el-grande");
  for (const auto level : {games::BotLevel::random, games::BotLevel::easy, games::BotLevel::medium, games::BotLevel::strong}) {
    CHECK(games::bot_level_from_name(games::name(level)) == level);
  }
  CHECK_FALSE(games::bot_level_from_name("grandmaster"));
}

namespace {

// What the module reads from a request's options: the normalised options, or why not.
Json read_good(const Json& options) {
  auto read = game_module().read_options(options);
  if (const auto* why_not = std::get_if<std::string>(&read)) FAIL("refused: " << *why_not);
  return std::get<Json>(read);
}

std::string refusal_of(const Json& options) {
  auto read = game_module().read_options(options);
  if (!std::holds_alternative<std::string>(read)) FAIL("read: " << std::get<Json>(read).dump());
  return std::get<std::string>(read);
}

Json base(int players) { return {{"players", players}, {"short_game", false}, {"automa", false}, {"four_stacks", false}}; }

Json with(Json options, const std::string& field, Json value) {
  options[field] = std::move(value);
  return options;
}

}  // namespace

TEST_CASE("a new table's options are read whole: every option said, and today's rules") {
  CHECK(read_good(base(4)) == Json{{"players", 4}, {"short_game", false}, {"automa", false}, {"four_stacks", false},
                                   {"rules_revision", kRulesRevision}});
  // An old revision asked for is today's: a new table plays today's rules.
  CHECK(read_good(with(base(3), "rules_revision", 1))["rules_revision"] == kRulesRevision);
  const Json chosen = read_good(with(with(with(base(3), "short_game", true), "first_player", 2), "edition", "1995"));
  CHECK(chosen == Json{{"players", 3}, {"short_game", true}, {"automa", false}, {"four_stacks", false},
                       {"first_player", 2}, {"edition", "1995"}, {"rules_revision", kRulesRevision}});
  // Normalised: read again, the same.
  CHECK(read_good(chosen) == chosen);
  CHECK(read_good(with(base(2), "automa", true)) ==
        Json{{"players", 2}, {"short_game", false}, {"automa", true}, {"four_stacks", false}, {"rules_revision", kRulesRevision}});
}

TEST_CASE("options the module refuses say which field, as table.create's refusal names it") {
  CHECK(refusal_of(with(base(4), "short", true)) ==
        "options.short: not an option (players, short_game, automa, four_stacks, first_player, edition)");
  CHECK(refusal_of(Json::array()) == "options: (root): must be an object");
  CHECK(refusal_of(with(base(4), "players", 6)) == "options: players: must be an integer in 2..5");
  CHECK(refusal_of(with(base(4), "players", "four")) == "options: players: must be an integer in 2..5");
  CHECK(refusal_of(with(base(4), "short_game", 1)) == "options: short_game: must be true or false");
  CHECK(refusal_of(with(base(4), "automa", true)) == "options: (root): the automa plays only in 2-player games");
  CHECK(refusal_of(with(base(4), "four_stacks", true)) ==
        "options: (root): four stacks is a 3-player option (the 2-player automa game always merges them)");
  CHECK(refusal_of(with(base(4), "first_player", 4)) == "options: first_player: must be an integer in 0..3");
  CHECK(refusal_of(with(base(4), "edition", "1066")) == "options: edition: edition must be \"2023\" or \"1995\"");
  CHECK(refusal_of(with(with(base(3), "four_stacks", true), "edition", "1995")) ==
        "options: the 1995 edition has no automa and no four stacks (they are 2023 variants)");
  Json missing = base(4);
  missing.erase("automa");
  CHECK(refusal_of(missing) == "options: automa: missing");
}

TEST_CASE("a play-now wish chooses players, short game and automa, and the rest is the default") {
  const auto wish = [](const Json& payload) { return game_module().read_play(payload); };
  CHECK(std::vector<std::string_view>(game_module().play_fields().begin(), game_module().play_fields().end()) ==
        std::vector<std::string_view>{"players", "short_game", "automa"});
  const auto read = wish({{"players", 2}, {"automa", true}, {"clock", "live"}});  // the server's fields are left alone
  REQUIRE(std::holds_alternative<Json>(read));
  CHECK(std::get<Json>(read) ==
        Json{{"players", 2}, {"short_game", false}, {"automa", true}, {"four_stacks", false}, {"rules_revision", kRulesRevision}});
  CHECK(std::get<std::string>(wish({{"players", 6}})) == "players: 2 to 5");
  CHECK(std::get<std::string>(wish(Json::object())) == "players: 2 to 5");
  CHECK(std::get<std::string>(wish({{"players", 3}, {"short_game", "yes"}})) == "short_game: true or false");
  CHECK(std::get<std::string>(wish({{"players", 3}, {"automa", true}})) == "automa: only with 2 players");
}

TEST_CASE("a table's seats, its ladder, and every ladder of the game") {
  const games::GameModule& module = game_module();
  for (int players = 2; players <= 5; ++players) CHECK(module.seats(options_for(players)) == players);
  CHECK(module.seats(options_for(2, true)) == 2);  // the automa takes no seat
  const std::vector<std::string_view> ladders(module.ladders().begin(), module.ladders().end());
  CHECK(ladders == std::vector<std::string_view>{"2p", "3p", "4p", "5p", "2p-automa", "2p-short", "3p-short", "4p-short",
                                                 "5p-short", "2p-automa-short"});
  std::vector<std::string> counted;
  for (const bool short_game : {false, true}) {
    for (int players = 2; players <= 5; ++players) counted.push_back(module.ladder(options_for(players, false, short_game)));
    counted.push_back(module.ladder(options_for(2, true, short_game)));
  }
  CHECK(counted == std::vector<std::string>{"2p", "3p", "4p", "5p", "2p-automa", "2p-short", "3p-short", "4p-short",
                                            "5p-short", "2p-automa-short"});
  // Four stacks and the edition play on the player count's ladders.
  CHECK(module.ladder(read_good(with(base(3), "four_stacks", true))) == "3p");
  CHECK(module.ladder(read_good(with(with(base(4), "short_game", true), "edition", "1995"))) == "4p-short");
}

TEST_CASE("seated options: a board's seats, and its first player when fixed") {
  const games::GameModule& module = game_module();
  const Json event = read_good(with(base(5), "short_game", true));
  const Json board = module.seated(event, 3, 0);
  CHECK(board == with(with(event, "players", 3), "first_player", 0));
  CHECK(module.seats(board) == 3);
  CHECK(module.ladder(board) == "3p-short");
  CHECK(module.seated(event, 4, std::nullopt) == with(event, "players", 4));  // first player drawn from the seed
  CHECK(read_good(board) == board);  // still options a table takes
}
