#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// A game as the server knows it (docs/modules.md): the server seats players, keeps clocks,
// saves and sends, and asks a GameModule everything about the game itself. El Grande is the
// first module (el_grande/); the server names no game's types.
//
// Everything here is a plain interface over values: no sockets, no storage, no clock. A
// Game is used on its table's strand only; a module is shared by every table and thread.
namespace elgrande::games {

using Json = nlohmann::json;

// Seats are numbered from 0; a table's seats fit the bits of a std::uint8_t.
inline constexpr int kMaxSeats = 8;
// The viewer that is no seat: whoever watches. A view for it hides every secret.
inline constexpr int kSpectator = -1;

// How hard a bot thinks: `random` answers at once; the others search, each longer.
enum class BotLevel : std::uint8_t { random, easy, medium, strong };
std::string_view name(BotLevel level);  // "random", "easy", "medium", "strong"
std::optional<BotLevel> bot_level_from_name(std::string_view name);

// Why a move was not played; nothing changed.
struct Refusal {
  enum class Code : std::uint8_t {
    game_over,      // nothing more can be played
    not_your_turn,  // the seat owes no decision now
    wrong_command,  // the seat owes a different kind of decision
    illegal,        // the right kind of move, but the rules forbid it
    malformed,      // values out of range
  };
  Code code = Code::illegal;
  std::string reason;  // for the player, in the game's words
};
std::string_view name(Refusal::Code code);  // the error's reason code on the wire

// A move as its module read it (from a player's message, the log or a bot). The server
// carries it to the game and into the log; only the module looks inside.
class Move {
 public:
  virtual ~Move() = default;
  // The record codec's text of the move: what the command log keeps, and replays from.
  virtual std::string record() const = 0;
  // Whether it takes back the seat's last move. The seat's clock keeps running then:
  // taking back and trying again buys no time.
  virtual bool undoes() const = 0;
};
using MovePtr = std::shared_ptr<const Move>;

// What a step of the game said (its events), as the module will write it into updates.
class Said {
 public:
  virtual ~Said() = default;
};
using SaidPtr = std::shared_ptr<const Said>;

// One step played: what it said, and which seats it asked something new (a decision that
// changed, or the next one of the seat that just answered). The server notes the version
// each seat's decision was posed at, to refuse an answer given before it (a double click).
struct Step {
  SaidPtr said;
  std::uint8_t posed = 0;  // bit per seat
};

// One step of a finished game's replay (docs/replays.md): the game.update a spectator
// connected from the start was sent after it (protocol 2's: the whole view first, then
// patches), and, when the replay shows what was hidden, what each seat alone knew then
// (JSON; empty otherwise).
struct ReplayFrame {
  std::string update;
  std::string secrets;
};

// A game.update as the server frames it: the parts that are the table's, not the game's.
struct Frame {
  std::int64_t table = 0;
  bool can_undo = false;                 // the receiver may take back their last move
  std::optional<std::int64_t> deadline;  // when the receiver's decision times out, Unix ms
  bool closed = false;  // the table ended the game early (time called): it poses nothing more
};

// A viewer's update, whole and/or as a patch of the view that viewer was sent last.
struct Update {
  std::string whole;
  std::string patch;
};

// What a searching bot may spend: playouts (0: its level's own) until `stop` says enough.
struct BotBudget {
  int iterations = 0;
  std::function<bool()> stop;
};
// A bot's search, made on the table's strand from one seat's view alone and run on a bot
// thread: nothing of what that seat may not see goes with it. Null: no move found.
using BotSearch = std::function<MovePtr(const BotBudget&)>;

// The bot's second opinion on a move a seat made (docs/replays.md#second-opinion).
struct Review {
  MovePtr bot;                  // the bot's answer
  double bot_win_share = 0.0;   // estimated, in [0, 1]
  MovePtr played;
  double played_win_share = 0.0;
  int iterations = 0;
  bool same = false;
};
// Made on the caller's thread from one seat's view alone and run on a bot thread. None: the
// search was stopped before it had played the move out once.
using ReviewSearch = std::function<std::optional<Review>(const BotBudget&)>;

// One game in play (or over), owned by its table.
class Game {
 public:
  virtual ~Game() = default;

  // Moves played so far: each move (an undo too) adds one.
  virtual std::uint32_t version() const = 0;
  // Where the game stands, as an index into its module's phases().
  virtual int phase() const = 0;
  // Seats owing a decision now (bit per seat); none once the game is over.
  virtual std::uint8_t owing() const = 0;
  virtual bool over() const = 0;
  // Each seat's score now, in seat order; and, once over, the winning seats by the rules'
  // tie-breaks.
  virtual std::vector<int> scores() const = 0;
  virtual std::vector<int> winners() const = 0;
  // Whether `seat` may take back its last move now.
  virtual bool can_undo(int seat) const = 0;
  // The state as the record codec keeps it for a quick restart, or none while a move may
  // still be taken back (what is snapshotted must rebuild all that can be undone).
  virtual std::optional<std::string> snapshot() const = 0;

  // Plays `move` for `seat`, or refuses it and changes nothing. A move `played_for` the
  // seat (by a bot or the clock) is not the seat's to take back.
  virtual std::variant<Step, Refusal> apply(int seat, const Move& move, bool played_for = false) = 0;
  // Whether apply would take it, without playing it.
  virtual std::optional<Refusal> check(int seat, const Move& move) const = 0;
  // A legal move for a seat owing a decision, drawn from `seed`: a bot at level random.
  virtual MovePtr random_move(int seat, std::uint64_t seed) const = 0;
  // A searching bot's move for the seat (`level` is not random).
  virtual BotSearch bot(int seat, BotLevel level, std::uint64_t seed) const = 0;
  // The bot's opinion of `played`, the move `seat` made from this version (the game as it
  // stood when the seat answered): a search made here from the seat's view alone, to run on
  // a bot thread. Empty: the module does not review, or the seat owed nothing here (or could
  // not have made `played`).
  virtual ReviewSearch review(int seat, const MovePtr& played, BotLevel level, std::uint64_t seed) const;

  // The update for `viewer` (a seat or kSpectator) after the step that said `said` (none:
  // nothing new happened), whole and/or as a patch of the view sent to that viewer last.
  // The game remembers each viewer's last view for the next patch.
  virtual Update update(int viewer, const Frame& frame, const Said* said, bool whole, bool patch) = 0;
};

// A game begun: the game, and what its setup said.
struct Started {
  std::unique_ptr<Game> game;
  Step step;
};

// A move of the command log, as storage keeps it.
struct Recorded {
  int seat = 0;
  std::string move;  // Move::record()
  // Played for the seat by a bot or its clock, not by its player: not theirs to take back.
  bool played_for = false;
};

// A game.command message read whole: the envelope's fields and the move.
struct CommandMessage {
  std::optional<std::variant<std::string, std::int64_t>> id;
  std::int64_t table = 0;
  std::optional<std::int64_t> version;  // never negative
  MovePtr move;
};

// A game for the server: shared by every table of it, used from any thread.
class GameModule {
 public:
  virtual ~GameModule() = default;
  // Its stable id, as records and messages name it: "el-grande".
  virtual std::string_view id() const = 0;
  // The names of the phases a game in play may be in, for metrics; Game::phase() indexes
  // them (or is past them once the game is over).
  virtual std::span<const std::string_view> phases() const = 0;
  // A move from its codec's JSON (a command on the wire and in the log), or why not.
  virtual std::variant<MovePtr, std::string> read_move(const Json& command) const = 0;
  // A fast path, optional: the whole of a game.command message read in one pass, without
  // building a JSON document (El Grande's: docs/performance.md, step 18); none when the
  // message is not a good game.command, which is then read the usual way (the envelope,
  // then read_move) and refused there if it is bad.
  virtual std::optional<CommandMessage> read_command_message(std::string_view /*text*/) const { return std::nullopt; }

  // Options: a table's choice of variant, as JSON the module reads and the server stores.
  // The options of a new table from a request's `options` (a new table plays today's
  // rules): normalised, every option said, or why not, naming the field as the request
  // does ("options.<key>: ..." or "options: ...").
  virtual std::variant<Json, std::string> read_options(const Json& options) const = 0;
  // The fields of a play-now wish that choose the game (the wish's others are the server's).
  virtual std::span<const std::string_view> play_fields() const = 0;
  // The options of a new table a play-now wish asks for, read from its play_fields() (the
  // rest is left alone), or why not, naming the field ("players: ...").
  virtual std::variant<Json, std::string> read_play(const Json& wish) const = 0;
  // How many seats a table of these options (read_options') has.
  virtual int seats(const Json& options) const = 0;
  // The rating ladder a rated game of these options counts on: one of ladders().
  virtual std::string ladder(const Json& options) const = 0;
  // Every rating ladder of the game, in the order leaderboards and profiles list them.
  virtual std::span<const std::string_view> ladders() const = 0;
  // The options for a table of `seats` seats, the rest as `options` say, with the first
  // player fixed at `first_seat` when given (a tournament's board, which balances who begins).
  virtual Json seated(const Json& options, int seats, std::optional<int> first_seat) const = 0;

  // A new game for `options` (checked already) and the secret seed.
  virtual Started setup(const Json& options, std::uint64_t seed) const = 0;
  // A game brought back from storage: the game as set up for `options` and `seed`, then
  // `snapshot` (Game::snapshot(), the state at `log`'s start) or, without one, from the
  // start; then every move of `log` replayed. Or why it cannot be (the snapshot is refused,
  // a move is not the game's or not legal): storage then tries the whole log.
  virtual std::variant<std::unique_ptr<Game>, std::string> restore(const Json& options, std::uint64_t seed,
                                                                   const std::optional<std::string>& snapshot,
                                                                   std::span<const Recorded> log) const = 0;
  // A game's replay from its setup, every move of `log` replayed through the one replay
  // path the restore uses: a frame for the setup and one per move, updates framed for
  // `table`. `secrets`: each frame also says what only each seat knew, and the events read
  // as their owners read them (only for a finished game whose table keeps nothing closed).
  // Or why the log does not replay. This one: setup, then apply, each frame the update
  // Game::update writes for a spectator; a module that can tell its secrets says them.
  virtual std::variant<std::vector<ReplayFrame>, std::string> replay(const Json& options, std::uint64_t seed,
                                                                     std::span<const Recorded> log, std::int64_t table,
                                                                     bool secrets) const;
};

}  // namespace elgrande::games
