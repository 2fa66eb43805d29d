#include "history/history.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "tables/seating.hpp"

namespace elgrande::server {

namespace {

// Each move as the record codec wrote it into the log: the record's commands are its JSON.
protocol::Json record_commands(std::int64_t table, std::span<const db::LoggedCommand> commands) {
  protocol::Json written = protocol::Json::array();
  for (const db::LoggedCommand& logged : commands) {
    auto move = protocol::parse_json(logged.move);
    if (!move) {
      throw std::runtime_error("table " + std::to_string(table) + ", command " + std::to_string(logged.seq) + ": " +
                               move.error().message);
    }
    protocol::Json& one = written.emplace_back(protocol::Json{{"seat", logged.seat}, {"command", std::move(move.value())}});
    if (logged.source != db::Source::player) one["played_for"] = true;  // absent: the seat's player's own
    // Beyond the record proper, which readers ignore: who answered each decision, and when.
    one["source"] = db::name(logged.source);
    one["time"] = logged.time;
  }
  return written;
}

}  // namespace

protocol::Json history_entry(const db::FinishedGame& game) {
  protocol::Json seats = protocol::Json::array();
  for (std::size_t s = 0; s < game.table.seats.size(); ++s) {
    const db::SeatRecord& seat = game.table.seats[s];
    std::optional<Player> player;
    if (seat.player && game.names[s]) player = Player{*seat.player, *game.names[s]};
    seats.push_back(seat_json(s, seat.kind, player, seat.resigned, seat.replaced, seat.timeouts, seat.bot_level));
  }
  protocol::Json scores = protocol::Json::array();
  protocol::Json winners = protocol::Json::array();
  for (const db::SeatResult& result : game.results) {
    scores.push_back(result.score);
    if (result.rank == 1) winners.push_back(result.seat);
  }
  protocol::Json entry = {{"id", game.table.id},
                          {"name", game.table.name},
                          {"options", game.table.options},
                          {"turn_seconds", game.table.turn_seconds},
                          {"on_timeout", game.table.on_timeout},
                          {"seats", std::move(seats)},
                          {"result", {{"scores", std::move(scores)}, {"winners", std::move(winners)}}},
                          {"started_at", game.table.started_at.value_or(0)},
                          {"finished_at", game.table.finished_at.value_or(0)}};
  if (game.table.on_timeout == "replace_seat") entry["replace_after"] = game.table.replace_after;
  if (game.table.secrets_closed) entry["secrets_after_end"] = "closed";
  return entry;
}

protocol::Json export_record(const db::FinishedGame& game, std::span<const db::LoggedCommand> commands,
                             const games::GameModule& module, std::span<const db::ReviewRecord> reviews) {
  // The record codec's document (docs/protocol-codecs.md): the options as the table keeps them.
  protocol::Json json = {{"format", std::string(protocol::kRecordFormat)},
                         {"version", protocol::kRecordVersion},
                         {"options", game.table.options}};
  if (game.table.secrets_closed) {
    // The seed and the moves would replay every hand: a closed game's record is its public
    // replay alone (docs/replays.md#secrets).
    json["secrets_after_end"] = "closed";
  } else {
    json["seed"] = std::to_string(game.table.seed.value_or(0));
    json["commands"] = record_commands(game.table.id, commands);
    // A review tells what its seat knew then: open with the other secrets, not before.
    for (const db::ReviewRecord& review : reviews) json["reviews"].push_back(protocol::Json::parse(review.result));
  }
  json["table"] = history_entry(game);
  json["replay"] = protocol::Json::parse(replay_document(game, commands, module));
  return json;
}

std::vector<games::Recorded> recorded_log(std::span<const db::LoggedCommand> commands) {
  std::vector<games::Recorded> log;
  log.reserve(commands.size());
  for (const db::LoggedCommand& logged : commands) log.push_back({logged.seat, logged.move, logged.source != db::Source::player});
  return log;
}

std::string replay_document(const db::FinishedGame& game, std::span<const db::LoggedCommand> commands,
                            const games::GameModule& module) {
  // A finished game's secrets are open unless its table kept them (docs/replays.md#secrets).
  const bool secrets = !game.table.secrets_closed;
  protocol::Json moves = protocol::Json::array();
  for (const db::LoggedCommand& logged : commands) {
    moves.push_back({{"seat", logged.seat}, {"source", db::name(logged.source)}, {"time", logged.time}});
  }
  auto frames = module.replay(game.table.options, game.table.seed.value_or(0), recorded_log(commands), game.table.id,
                              secrets);
  if (const auto* why = std::get_if<std::string>(&frames)) {
    throw std::runtime_error("the log of game " + std::to_string(game.table.id) + " does not replay: " + *why);
  }
  // The frames are JSON texts already: written in as they are.
  std::string out = R"({"format":"elgrande-replay","version":1,"game":)" + protocol::Json(module.id()).dump() +
                    R"(,"secrets":)" + (secrets ? "true" : "false") + R"(,"table":)" + history_entry(game).dump() +
                    R"(,"moves":)" + moves.dump() + R"(,"frames":[)";
  bool first = true;
  for (const games::ReplayFrame& frame : std::get<std::vector<games::ReplayFrame>>(frames)) {
    out += first ? "" : ",";
    first = false;
    out += R"({"update":)" + frame.update;
    if (!frame.secrets.empty()) out += R"(,"secrets":)" + frame.secrets;
    out += '}';
  }
  out += "]}";
  return out;
}

}  // namespace elgrande::server
