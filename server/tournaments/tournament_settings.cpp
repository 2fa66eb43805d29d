#include "tournaments/tournament_settings.hpp"

#include <cmath>
#include <set>
#include <string>

#include "common/known_keys.hpp"

namespace elgrande::server {
namespace {

using competition::Format;
using competition::Points;
using competition::Stage;
using competition::TieBreak;
using protocol::DecodeError;
using protocol::Json;

DecodeError refused(std::string message) { return DecodeError{"bad_payload", std::move(message)}; }

// An optional whole number in [lo, hi]: absent leaves `value` as it is.
std::optional<DecodeError> read_int(const Json& object, const char* key, int lo, int hi, int& value,
                                    const std::string& where = "") {
  const auto field = object.find(key);
  if (field == object.end()) return std::nullopt;
  if (!field->is_number_integer() || field->get<std::int64_t>() < lo || field->get<std::int64_t>() > hi) {
    return refused(where + key + ": a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  value = field->get<int>();
  return std::nullopt;
}

std::optional<Points> read_points(const Json& value) {
  if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > 1000) return std::nullopt;
  const double halves = value.get<double>() * 2;
  if (halves != std::floor(halves)) return std::nullopt;
  return Points::halves(static_cast<std::int64_t>(halves));
}

protocol::Decoded<Stage> read_stage(const Json& json, const std::string& where) {
  if (!json.is_object()) return refused(where + "must be an object");
  Stage stage;
  const auto format = json.find("format");
  const auto named = format != json.end() && format->is_string() ? competition::format_named(format->get<std::string>())
                                                                  : std::nullopt;
  if (!named) return refused(where + "format: \"swiss\", \"round_robin\" or \"elimination\"");
  stage.format = *named;
  // Each format reads its own keys; another format's (a Swiss stage's "pools") is refused.
  const auto stray = [&] {
    switch (stage.format) {
      case Format::swiss: return unknown_key(json, {"format", "table_sizes", "qualifiers", "rounds"});
      case Format::round_robin: return unknown_key(json, {"format", "table_sizes", "qualifiers", "pools", "meetings"});
      case Format::elimination: return unknown_key(json, {"format", "table_sizes", "qualifiers", "advance_per_table"});
    }
    return std::optional<std::string>{};
  }();
  if (stray) return refused(where + *stray + ": not a setting of a " + std::string(competition::name(stage.format)) + " stage");
  if (const auto sizes = json.find("table_sizes"); sizes != json.end()) {
    if (!sizes->is_object()) return refused(where + "table_sizes: an object with preferred and minimum");
    if (const auto key = unknown_key(*sizes, {"preferred", "minimum"})) {
      return refused(where + "table_sizes." + *key + ": not a table size (preferred, minimum)");
    }
    if (auto e = read_int(*sizes, "preferred", 2, 5, stage.sizes.preferred, where + "table_sizes.")) return *e;
    stage.sizes.minimum = std::min(stage.sizes.minimum, stage.sizes.preferred);
    if (auto e = read_int(*sizes, "minimum", 2, 5, stage.sizes.minimum, where + "table_sizes.")) return *e;
  }
  for (const auto& [key, field, hi] : {std::tuple{"rounds", &stage.rounds, 50}, {"pools", &stage.pools, 1000},
                                       {"meetings", &stage.meetings, 10}, {"advance_per_table", &stage.advance_per_table, 2},
                                       {"qualifiers", &stage.qualifiers, kMaxTournamentPlayers}}) {
    if (auto e = read_int(json, key, std::string_view(key) == "qualifiers" ? 0 : 1, hi, *field, where)) return *e;
  }
  if (auto wrong = stage.problem()) return refused(where + *wrong);
  return stage;
}

}  // namespace

Json to_json(Points p) { return p.n % Points::unit == 0 ? Json(p.n / Points::unit) : Json(p.value()); }

protocol::Decoded<TournamentSettings> tournament_settings_from_json(const Json& payload, const games::GameModule& module) {
  if (!payload.is_object()) return refused("settings: must be an object");
  if (const auto key = unknown_key(payload, {"stages", "placement_points", "bye_points", "tie_breaks", "game", "max_players",
                                             "starts_at", "check_in_minutes", "round_time_seconds", "withdraw_replaced",
                                             "seeding"})) {
    return refused(*key + ": not a tournament setting");
  }
  TournamentSettings settings;

  const auto stages = payload.find("stages");
  if (stages == payload.end() || !stages->is_array() || stages->empty() || stages->size() > 8) {
    return refused("stages: a list of 1 to 8 stages");
  }
  for (std::size_t i = 0; i < stages->size(); ++i) {
    auto stage = read_stage((*stages)[i], "stages[" + std::to_string(i) + "].");
    if (!stage) return stage.error();
    settings.stages.push_back(stage.value());
  }
  int smallest = 5, largest = 2;
  for (const Stage& s : settings.stages) {
    smallest = std::min(smallest, s.sizes.minimum);
    largest = std::max(largest, s.sizes.preferred);
  }

  if (const auto table = payload.find("placement_points"); table != payload.end()) {
    if (!table->is_object()) return refused("placement_points: an object of lists by table size");
    for (const auto& [size, places] : table->items()) {
      const int n = size.size() == 1 && size[0] >= '2' && size[0] <= '5' ? size[0] - '0' : 0;
      if (n == 0 || !places.is_array()) return refused("placement_points: keys \"2\" to \"5\", each a list of points");
      auto& list = settings.scoring.placement.by_table_size[static_cast<std::size_t>(n)];
      list.clear();
      for (const Json& value : places) {
        const auto points = read_points(value);
        if (!points) return refused("placement_points." + size + ": whole or half points from 0 to 1000");
        list.push_back(*points);
      }
    }
    if (auto wrong = settings.scoring.placement.problem(smallest, largest)) return refused("placement_points: " + *wrong);
  }
  if (const auto bye = payload.find("bye_points"); bye != payload.end()) {
    const auto points = read_points(*bye);
    if (!points) return refused("bye_points: whole or half points from 0 to 1000");
    settings.scoring.bye = *points;
  }
  if (const auto order = payload.find("tie_breaks"); order != payload.end()) {
    if (!order->is_array() || order->empty()) return refused("tie_breaks: a list of tie-break names");
    settings.scoring.order.clear();
    std::set<TieBreak> seen;
    for (const Json& name : *order) {
      const auto tie_break = name.is_string() ? competition::tie_break_named(name.get<std::string>()) : std::nullopt;
      if (!tie_break || !seen.insert(*tie_break).second) {
        return refused("tie_breaks: each of tournament_points, sonneborn_berger, percent_of_winner, game_points, "
                   "wins at most once");
      }
      settings.scoring.order.push_back(*tie_break);
    }
  }

  // The game: a table config whose player count each table's size sets. Its one choice of
  // the game's options, short_game, is still El Grande's (docs/modules.md).
  Json game = payload.contains("game") ? payload.at("game") : Json::object();
  if (!game.is_object()) return refused("game: an object");
  // Every table's options but short_game follow from the event (its table sizes; no automa,
  // no four stacks, the 2023 edition): a client that names them is told so.
  if (const auto key = unknown_key(game, {"short_game", "turn_seconds", "on_timeout", "replace_after", "rated"})) {
    return refused("game." + *key + ": not a game setting of a tournament (short_game, turn_seconds, on_timeout, "
                   "replace_after, rated)");
  }
  bool short_game = false;
  if (const auto field = game.find("short_game"); field != game.end()) {
    if (!field->is_boolean()) return refused("game.short_game: true or false");
    short_game = field->get<bool>();
  }
  game["options"] = {{"players", largest}, {"short_game", short_game}, {"automa", false}, {"four_stacks", false}};
  game.erase("short_game");
  game.erase("name");
  auto config = table_config_from_json(game, module);
  if (!config) return refused("game." + config.error().message);
  settings.game = config.value();
  settings.game.rated = settings.game.rated.value_or(true);  // an event's games count, unless it says not

  if (auto e = read_int(payload, "max_players", 0, kMaxTournamentPlayers, settings.max_players)) return *e;
  if (const auto start = payload.find("starts_at"); start != payload.end() && !start->is_null()) {
    if (!start->is_number_integer() || start->get<std::int64_t>() <= 0) return refused("starts_at: Unix time in ms");
    settings.starts_at = start->get<std::int64_t>();
  }
  if (auto e = read_int(payload, "check_in_minutes", 0, kMaxCheckInMinutes, settings.check_in_minutes)) return *e;
  if (settings.check_in_minutes > 0 && !settings.starts_at) return refused("check_in_minutes: needs starts_at");
  if (auto e = read_int(payload, "round_time_seconds", 0, kMaxRoundTimeSeconds, settings.round_time_seconds)) return *e;
  if (const auto field = payload.find("withdraw_replaced"); field != payload.end()) {
    if (!field->is_boolean()) return refused("withdraw_replaced: true or false");
    settings.withdraw_replaced = field->get<bool>();
  }
  if (const auto field = payload.find("seeding"); field != payload.end()) {
    if (*field != "rating" && *field != "lot") return refused("seeding: \"rating\" or \"lot\"");
    settings.seed_by_rating = *field == "rating";
  }
  return settings;
}

Json to_json(const TournamentSettings& s) {
  Json stages = Json::array();
  for (const Stage& stage : s.stages) {
    Json json{{"format", competition::name(stage.format)},
              {"table_sizes", {{"preferred", stage.sizes.preferred}, {"minimum", stage.sizes.minimum}}},
              {"qualifiers", stage.qualifiers}};
    switch (stage.format) {
      case Format::swiss: json["rounds"] = stage.rounds; break;
      case Format::round_robin: json["pools"] = stage.pools; json["meetings"] = stage.meetings; break;
      case Format::elimination: json["advance_per_table"] = stage.advance_per_table; break;
    }
    stages.push_back(std::move(json));
  }
  Json points = Json::object();
  for (int size = 2; size <= 5; ++size) {
    Json list = Json::array();
    for (Points p : s.scoring.placement.by_table_size[static_cast<std::size_t>(size)]) list.push_back(to_json(p));
    points[std::to_string(size)] = std::move(list);
  }
  Json order = Json::array();
  for (TieBreak t : s.scoring.order) order.push_back(competition::name(t));
  Json game{{"short_game", s.game.options.value("short_game", false)},
            {"turn_seconds", s.game.turn_seconds},
            {"on_timeout", name(s.game.on_timeout)},
            {"rated", s.game.rated.value_or(true)}};
  if (s.game.on_timeout == OnTimeout::replace_seat) game["replace_after"] = s.game.replace_after;
  Json json{{"stages", std::move(stages)},       {"placement_points", std::move(points)},
            {"bye_points", to_json(s.scoring.bye)}, {"tie_breaks", std::move(order)},
            {"game", std::move(game)},           {"max_players", s.max_players},
            {"check_in_minutes", s.check_in_minutes}, {"round_time_seconds", s.round_time_seconds},
            {"withdraw_replaced", s.withdraw_replaced}, {"seeding", s.seed_by_rating ? "rating" : "lot"}};
  json["starts_at"] = s.starts_at ? Json(*s.starts_at) : Json(nullptr);
  return json;
}

}  // namespace elgrande::server
