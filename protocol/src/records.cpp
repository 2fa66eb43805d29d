#include <limits>
#include <string>
#include <utility>

#include "reader.hpp"

namespace elgrande::protocol {
namespace {

using detail::decode;
using detail::read_options;
using detail::Reader;

// Records and tables are short: a game has a few hundred commands. The cap only stops a
// hostile file from making replay allocate without bound.
constexpr std::size_t kMaxRecordCommands = 100000;

GameRecord read_record(const Reader& r) {
  r.expect_object();
  const Reader format = r.field("format");
  if (format.string() != kRecordFormat)
    format.fail("must be \"" + std::string(kRecordFormat) + "\"");
  r.field("version").integer(kRecordVersion, kRecordVersion);

  GameRecord record;
  record.options = read_options(r.field("options"));
  const Reader seed = r.field("seed");
  const auto value = parse_seed(seed.string());
  if (!value) seed.fail("must be a decimal string of an unsigned 64-bit number");
  record.seed = *value;

  const Reader commands = r.field("commands");
  const std::size_t n = commands.array_size(kMaxRecordCommands);
  record.commands.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Reader entry = commands.element(i);
    const Seat seat = entry.field("seat").seat();
    RecordedCommand& recorded = record.commands.emplace_back(RecordedCommand{seat, detail::read_command(entry.field("command"))});
    if (const auto played_for = entry.optional_field("played_for")) recorded.played_for = played_for->boolean();
  }
  return record;
}

}  // namespace

namespace detail {

Options read_options(const Reader& r) {
  r.expect_object();
  Options options;
  options.players = static_cast<int>(r.field("players").integer(2, kMaxPlayers));
  options.short_game = r.field("short_game").boolean();
  options.automa = r.field("automa").boolean();
  options.four_stacks = r.field("four_stacks").boolean();
  if (const auto first = r.optional_field("first_player")) {
    options.first_player = static_cast<int>(first->integer(0, options.players - 1));
  }
  if (const auto edition = r.optional_field("edition")) {
    const std::string_view name = edition->string();
    if (name == "1995") options.edition = Edition::y1995;
    else if (name != "2023") edition->fail("edition must be \"2023\" or \"1995\"");
  }
  // Absent in what was written before revisions existed: those games began under the first.
  const auto revision = r.optional_field("rules_revision");
  options.rules_revision = revision ? static_cast<int>(revision->integer(1, kRulesRevision)) : 1;
  if (const auto problem = check(options)) r.fail(*problem);
  return options;
}

}  // namespace detail

Json to_json(const Options& options) {
  Json json{{"players", options.players},
            {"short_game", options.short_game},
            {"automa", options.automa},
            {"four_stacks", options.four_stacks}};
  if (options.first_player >= 0) json["first_player"] = options.first_player;
  if (options.edition == Edition::y1995) json["edition"] = "1995";
  json["rules_revision"] = options.rules_revision;  // always: "absent" means the first
  return json;
}

Decoded<Options> options_from_json(const Json& json) {
  return decode(json, "bad_options", read_options);
}

std::optional<std::uint64_t> parse_seed(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

Json to_json(const GameRecord& record) {
  Json commands = Json::array();
  for (const RecordedCommand& entry : record.commands) {
    Json& written = commands.emplace_back(Json{{"seat", entry.seat}, {"command", to_json(entry.command)}});
    if (entry.played_for) written["played_for"] = true;  // absent: the seat's player's own
  }
  return {{"format", std::string(kRecordFormat)},
          {"version", kRecordVersion},
          {"options", to_json(record.options)},
          {"seed", std::to_string(record.seed)},
          {"commands", std::move(commands)}};
}

Decoded<GameRecord> record_from_json(const Json& json) {
  return decode(json, "bad_record", read_record);
}

}  // namespace elgrande::protocol
