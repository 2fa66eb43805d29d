// Writes the seed corpus (fuzz/corpus/<target>/): real envelopes of every client message,
// commands of every kind at the points of random games where they were played, records and
// snapshots of real games, request targets; and protocol.dict, every key and string of
// those messages, for libFuzzer's -dict. Deterministic: rerun it after a change to the
// protocol and commit what changed (docs/fuzzing.md).
//   fuzz_make_corpus DIRECTORY

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/db/snapshot.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/protocol/codec.hpp"
#include "games.hpp"
#include "net/peer_messages.hpp"
#include "src/snapshot.hpp"

namespace {

using namespace elgrande;
namespace fs = std::filesystem;
using protocol::Json;

fs::path corpus;
std::set<std::string> tokens;  // the dictionary's entries

void write(std::string_view target, const std::string& name, std::string_view bytes) {
  const fs::path dir = corpus / target;
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Takes every key and string of a JSON message into the dictionary, quoted as in JSON.
void collect(const Json& json) {
  if (json.is_string()) tokens.insert(json.dump());
  if (json.is_object())
    for (const auto& [key, value] : json.items()) tokens.insert(Json(key).dump());
  if (json.is_structured())
    for (const Json& value : json) collect(value);
}

// libFuzzer's dictionary format: one "entry" a line, with \\, \" and \xNN escapes.
void write_dictionary() {
  std::string text = "# Written by fuzz_make_corpus: JSON's punctuation and the protocol's names.\n";
  for (const char* token : {"{", "}", "[", "]", ":", ",", "true", "false", "null", "-1", "0", "1e999"}) tokens.insert(token);
  for (const std::string& token : tokens) {
    text += '"';
    for (const char c : token) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        text += '\\';
        text += c;
      } else if (byte < 0x20 || byte >= 0x7F) {
        constexpr char kHex[] = "0123456789ABCDEF";
        text += "\\x";
        text += kHex[byte >> 4];
        text += kHex[byte & 15];
      } else {
        text += c;
      }
    }
    text += "\"\n";
  }
  std::ofstream(corpus / "protocol.dict", std::ios::binary) << text;
}

std::string bytes_of(const auto& array) { return std::string(array.begin(), array.end()); }

std::string label(const Options& o) {
  return std::to_string(o.players) + "p" + (o.short_game ? "-short" : "") + (o.automa ? "-automa" : "") +
         (o.four_stacks ? "-four-stacks" : "");
}

const std::vector<Options> kVariants{{2, false, false, false}, {2, false, true, false}, {3, false, false, false},
                                     {3, true, false, true},   {4, false, false, false}, {5, true, false, false}};

void envelopes(const std::vector<GameRecord>& games) {
  const std::vector<std::pair<std::string, std::string>> messages{
      {"hello", R"({"type":"hello","id":1,"payload":{"protocol":1,"name":"Ana"}})"},
      {"hello-accents", R"({"type":"hello","id":1,"payload":{"protocol":1,"name":"José María"}})"},
      {"hello-override", R"({"type":"hello","id":1,"payload":{"protocol":1,"name":"Ana\u202Egnp.exe"}})"},
      {"hello-token", R"({"type":"hello","id":"h-2","payload":{"protocol":1,"token":"c2VjcmV0LXRva2Vu"}})"},
      {"ping", R"({"type":"ping","id":3})"},
      {"lobby.list", R"({"type":"lobby.list","id":4,"payload":{}})"},
      {"lobby.list-page", R"({"type":"lobby.list","id":4,"payload":{"status":"open","before":40,"limit":20}})"},
      {"lobby.subscribe", R"({"type":"lobby.subscribe","id":5})"},
      {"lobby.unsubscribe", R"({"type":"lobby.unsubscribe"})"},
      {"player.games", R"({"type":"player.games","id":6})"},
      {"history.list", R"({"type":"history.list","id":7,"payload":{"everyone":true,"before":120,"limit":20}})"},
      {"table.create",
       R"({"type":"table.create","id":8,"payload":{"name":"Sevilla","options":{"players":4,"short_game":false,"automa":false,"four_stacks":false},"turn_seconds":86400,"on_timeout":"replace_seat","replace_after":3}})"},
      {"table.create-automa",
       R"({"type":"table.create","id":9,"payload":{"options":{"players":2,"short_game":true,"automa":true,"four_stacks":false}}})"},
      {"table.join", R"({"type":"table.join","id":10,"payload":{"table":12,"seat":1}})"},
      {"table.seat", R"({"type":"table.seat","id":11,"payload":{"table":12,"seat":2}})"},
      {"table.leave", R"({"type":"table.leave","id":12,"payload":{"table":12}})"},
      {"table.add_bot", R"({"type":"table.add_bot","id":13,"payload":{"table":12,"seat":3}})"},
      {"table.remove_bot", R"({"type":"table.remove_bot","id":14,"payload":{"table":12,"seat":3}})"},
      {"table.start", R"({"type":"table.start","id":15,"payload":{"table":12}})"},
      {"table.spectate", R"({"type":"table.spectate","id":16,"payload":{"table":12}})"},
      {"table.chat", R"({"type":"table.chat","id":17,"payload":{"table":12,"text":"¡Hola, Castilla!"}})"},
      {"game.resign", R"({"type":"game.resign","id":18,"payload":{"table":12}})"},
      {"bad-json", R"({"type":"ping",)"},
      {"bad-id", R"({"type":"ping","id":18446744073709551615})"},
      {"bad-payload", R"({"type":"table.join","id":"x","payload":[12]})"},
      {"deep", std::string(40, '[') + std::string(40, ']')},
  };
  for (const auto& [name, text] : messages) {
    write("envelope", name, text);
    collect(Json::parse(text, nullptr, false));
  }

  // game.command with one command of every kind, as random games played them.
  std::set<std::string> kinds;
  for (const GameRecord& game : games) {
    for (const RecordedCommand& recorded : game.commands) {
      const std::string kind(command_name(recorded.command));
      if (!kinds.insert(kind).second) continue;
      const Json message{{"type", "game.command"},
                         {"id", static_cast<int>(kinds.size()) + 100},
                         {"payload", {{"table", 12}, {"version", 40}, {"command", protocol::to_json(recorded.command)}}}};
      write("envelope", "game.command-" + kind, message.dump());
      collect(message);
    }
  }
}

// Every kind of command at the step it was played, and a few at steps where they are not.
void commands(const std::vector<GameRecord>& games) {
  std::set<std::string> kinds;
  for (const GameRecord& game : games) {
    for (std::size_t step = 0; step < game.commands.size(); ++step) {
      const RecordedCommand& recorded = game.commands[step];
      const std::string kind(command_name(recorded.command));
      const bool first_of_kind = kinds.insert(label(game.options) + kind).second;
      if (!first_of_kind && step % 97 != 0) continue;
      const fuzz::GameChoice choice{game.options, game.seed, step};
      const Decisions owing = pending(fuzz::state_after(choice));
      std::uint8_t seat_byte = 0;
      while (owing[seat_byte].seat != recorded.seat) ++seat_byte;
      const std::string name = label(game.options) + "-seed" + std::to_string(game.seed) + "-step" + std::to_string(step);
      const std::string command = protocol::to_json(recorded.command).dump();
      write("engine_apply", name + "-" + kind, bytes_of(fuzz::game_choice_bytes(choice)) + char(seat_byte) + command);
      if (step % 97 == 0) {
        const fuzz::GameChoice later{game.options, game.seed, step + 1};
        write("engine_apply", name + "-" + kind + "-one-step-late", bytes_of(fuzz::game_choice_bytes(later)) + char(0xF1) + command);
      }
    }
  }
}

void records(const std::vector<GameRecord>& games) {
  for (const GameRecord& game : games) {
    GameRecord part = game;
    part.commands.resize(std::min<std::size_t>(part.commands.size(), 30));
    write("game_record", label(game.options) + "-seed" + std::to_string(game.seed) + "-30", protocol::to_json(part).dump());
    // The 31st command answered by the wrong seat: refused in the replay.
    part.commands.push_back(game.commands[30]);
    part.commands.back().seat = static_cast<Seat>((part.commands.back().seat + 1) % game.options.players);
    write("game_record", label(game.options) + "-seed" + std::to_string(game.seed) + "-refused",
          protocol::to_json(part).dump());
  }
  // Whole games, the two smallest variants.
  collect(protocol::to_json(games.back()));
  write("game_record", "2p-short-whole", protocol::to_json(play_random_game({2, true, false, false}, 5)).dump());
  write("game_record", "2p-automa-short-whole", protocol::to_json(play_random_game({2, true, true, false}, 6)).dump());
}

std::string row_bytes(const db::SnapshotRow& row) {
  std::string bytes;
  for (const std::int64_t field : {row.seq, row.format, row.checksum})
    for (int i = 0; i < 8; ++i) bytes += static_cast<char>(static_cast<std::uint64_t>(field) >> (8 * i));
  return bytes + row.state;
}

// A real snapshot row with its state's padding (and the unused room of its FixedVectors)
// zeroed: the module copies them as they lie in memory, which differs from run to run. A
// byte is such room when flipping its lowest bit (which keeps a bool a bool) leaves the
// state equal.
db::SnapshotRow tidy_snapshot(const GameState& state) {
  std::vector<std::byte> bytes(sizeof state);
  std::memcpy(bytes.data(), static_cast<const void*>(&state), sizeof state);
  const std::vector<std::byte> original = bytes;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::vector<std::byte> flipped = original;
    flipped[i] ^= std::byte{1};
    GameState changed;
    std::memcpy(static_cast<void*>(&changed), flipped.data(), sizeof changed);
    if (changed == state) bytes[i] = std::byte{0};
  }
  GameState tidy;
  std::memcpy(static_cast<void*>(&tidy), bytes.data(), sizeof tidy);
  return db::snapshot_row(tidy.version, el_grande::encode_state(tidy));
}

void snapshots(const std::vector<GameRecord>& games) {
  for (const GameRecord& game : games) {
    const fuzz::GameChoice choice{game.options, game.seed, game.commands.size() / 3};
    const std::string name = label(game.options) + "-seed" + std::to_string(game.seed);
    const std::string header = '\1' + bytes_of(fuzz::game_choice_bytes(choice));
    write("snapshot", name + "-intact", header + '\0');
    write("snapshot", name + "-one-byte-changed", header + '\0' + std::string("\x10\x00\x01", 3));
    write("snapshot", name + "-short-other-seq", header + '\5');
    db::SnapshotRow row = tidy_snapshot(fuzz::state_after(choice));
    write("snapshot", name + "-row", '\0' + row_bytes(row));
    std::fill(row.state.begin(), row.state.end(), '\0');
    write("snapshot", name + "-zeroed-row", '\0' + row_bytes(row));
  }
}

void request_targets() {
  const std::vector<std::string> targets{
      "/", "/index.html", "/js/app.js?v=3", "/css/site.css#top", "/img/board.svg", "/js/", "//js//app.js",
      "/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/js/%2E%2E%2f%2E%2E%2fconfig/server.json", "/.git/config",
      "/js/.hidden", "/..%5c..%5cwindows", "/a%00.html", "/%zz", "/%4", "index.html", "/caf%C3%A9.html",
      "/js/./app.js", "/js/...", "/%2F%2Fetc/passwd", "%2F%2Fetc/passwd",
  };
  for (std::size_t i = 0; i < targets.size(); ++i) write("request_target", "target-" + std::to_string(i), targets[i]);
}

// Frames of a peer link: each kind of message, alone and several to a frame.
void peer_frames() {
  using namespace server;
  const std::string command = R"({"type":"game.command","id":9,"payload":{"table":42,"version":3,"command":{"type":"bid","card":7}}})";
  TableListing::Turns turns;
  turns.waiting = 0b011;
  turns.deadlines[0] = 1'795'000'000'000;
  const PublishedTable table{42, TableStatus::playing, {{"id", 42}, {"name", "Table 42"}, {"seats", Json::array()}},
                             {1, std::nullopt, 3}, 1};
  const std::vector<std::pair<PeerKind, std::string>> messages{
      {PeerKind::open, "203.0.113.7"},
      {PeerKind::text, R"({"type":"hello","id":1,"payload":{"name":"Ana","protocol":2}})"},
      {PeerKind::closed, ""},
      {PeerKind::http, "GET /api/tournaments HTTP/1.1\r\nHost: example.org\r\n\r\n"},
      {PeerKind::deliver, R"({"type":"game.update","payload":{"table":42}})"},
      {PeerKind::end, end_body(4001, "session_ended")},
      {PeerKind::drop, ""},
      {PeerKind::http_answer, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"},
      {PeerKind::table, table_call_body({42, 1, "Ana", true, command})},
      {PeerKind::seat, table_call_body({42, 2, "Zsófia", false, {}})},
      {PeerKind::renamed, table_call_body({42, 2, "Zsófia B.", false, {}})},
      {PeerKind::call_time, table_call_body({42, 0, {}, false, {}})},
      {PeerKind::listing, listing_body(table)},
      {PeerKind::listing, removal_body(42)},
      {PeerKind::turns, turns_body(42, turns)},
  };
  std::string all;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    std::string frame;
    append_peer_message(frame, messages[i].first, i + 1, messages[i].second);
    write("peer_frame", "message-" + std::to_string(i), frame);
    all += frame;
  }
  write("peer_frame", "all", all);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_corpus DIRECTORY\n");
    return 2;
  }
  corpus = argv[1];
  std::vector<GameRecord> games;
  for (std::size_t i = 0; i < kVariants.size(); ++i) games.push_back(play_random_game(kVariants[i], 11 + i));
  envelopes(games);
  commands(games);
  records(games);
  snapshots(games);
  request_targets();
  peer_frames();
  write_dictionary();
  return 0;
}
