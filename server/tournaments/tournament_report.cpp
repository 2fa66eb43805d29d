#include "tournaments/tournament_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace elgrande::server {
namespace {

using db::EntrantStatus;
using protocol::Json;

// Registered, or in the event: not removed (nor unregistered) before the start.
bool counted(const db::EntrantRecord& entrant) { return entrant.status != EntrantStatus::removed; }

// Who the event counts once it has started: whoever played, withdrawn or not.
bool in_event(const db::EntrantRecord& entrant) {
  return entrant.status == EntrantStatus::playing || entrant.status == EntrantStatus::withdrawn ||
         entrant.status == EntrantStatus::disqualified;
}

Json player_json(std::int64_t id, const NameOf& name_of) { return {{"id", id}, {"name", name_of(id)}}; }

Json optional_time(const std::optional<std::int64_t>& time) { return time ? Json(*time) : Json(nullptr); }

// Why an entrant is no longer in, as a code and its facts for the client to word
// (docs/tournaments.md#messages), read from the reason the event saved in English.
void add_why(Json& row, const db::EntrantRecord& e) {
  constexpr std::string_view kRemoved = "removed by the director: ";
  constexpr std::string_view kReplaced = "replaced by a bot after timeouts in round ";
  const std::string_view reason = e.reason;
  if (e.status == EntrantStatus::disqualified) {
    row["why"] = "disqualified";
    row["director_reason"] = e.reason;
  } else if (reason.starts_with(kRemoved)) {
    row["why"] = "removed";
    row["director_reason"] = std::string(reason.substr(kRemoved.size()));
  } else if (reason.starts_with(kReplaced)) {
    row["why"] = "timeouts";
    const std::string round(reason.substr(kReplaced.size()));
    if (!round.empty() && std::all_of(round.begin(), round.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      row["round"] = std::stoll(round);
    }
  } else if (reason == "did not check in") {
    row["why"] = "no_check_in";
  } else if (reason == "unregistered" || reason == "withdrew") {
    row["why"] = std::string(reason);
  }
}

// Percentages to two decimals: the export is compared by value, and the doubles behind
// them need not print the same everywhere.
double two_decimals(double value) { return std::round(value * 100) / 100; }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_value(const Json& value) {
  if (value.is_string()) return csv_field(value.get<std::string>());
  if (value.is_null()) return "";
  return value.dump();
}

std::string csv(const std::vector<std::string>& header, const std::vector<std::vector<Json>>& rows) {
  std::string out;
  for (std::size_t i = 0; i < header.size(); ++i) out += (i ? "," : "") + header[i];
  out += "\r\n";
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_value(row[i]);
    out += "\r\n";
  }
  return out;
}

}  // namespace

competition::Event event_of(const db::StoredTournament& stored, const TournamentSettings& settings) {
  competition::Event event;
  event.stages = settings.stages;
  event.scoring = settings.scoring;
  event.scoring.seed = stored.tournament.seed;
  for (const db::EntrantRecord& entrant : stored.entrants) {
    if (!in_event(entrant)) continue;
    event.entrants.push_back({entrant.player, entrant.status == EntrantStatus::withdrawn,
                              entrant.status == EntrantStatus::disqualified,
                              static_cast<int>(entrant.seeding.value_or(0))});
  }
  for (const db::RoundRecord& round : stored.rounds) {
    competition::Round played;
    played.stage = round.stage;
    for (const db::BoardRecord& board : round.boards) played.plan.tables.push_back(board.seats);
    played.plan.byes = round.byes;
    played.results.resize(round.boards.size());
    event.rounds.push_back(std::move(played));
  }
  for (const db::BoardResult& result : stored.results) {
    auto& round = event.rounds.at(static_cast<std::size_t>(result.round - 1));
    round.results.at(static_cast<std::size_t>(result.board - 1)) =
        competition::TableResult{result.seats, result.scores, result.forfeited};
  }
  return event;
}

Json tournament_summary(const db::StoredTournament& stored, const TournamentSettings& settings, const NameOf& name_of) {
  const db::TournamentRecord& t = stored.tournament;
  const auto players = std::count_if(stored.entrants.begin(), stored.entrants.end(), counted);
  Json formats = Json::array();
  for (const competition::Stage& stage : settings.stages) formats.push_back(competition::name(stage.format));
  return {{"id", t.id},
          {"name", t.name},
          {"director", player_json(t.director, name_of)},
          {"status", db::name(t.status)},
          {"stages", std::move(formats)},
          {"players", players},
          {"max_players", settings.max_players},
          {"starts_at", optional_time(settings.starts_at)},
          {"check_in_minutes", settings.check_in_minutes},
          {"rounds", stored.rounds.size()},
          {"created_at", t.created_at},
          {"started_at", optional_time(t.started_at)},
          {"finished_at", optional_time(t.finished_at)}};
}

Json tournament_detail(const db::StoredTournament& stored, const TournamentSettings& settings, const NameOf& name_of) {
  Json detail = tournament_summary(stored, settings, name_of);
  detail["seed"] = std::to_string(stored.tournament.seed);
  detail["settings"] = to_json(settings);

  Json entrants = Json::array();
  for (const db::EntrantRecord& e : stored.entrants) {
    Json row{{"player", player_json(e.player, name_of)}, {"status", db::name(e.status)}, {"registered_at", e.registered_at},
             {"checked_in_at", optional_time(e.checked_in_at)}};
    if (!e.reason.empty()) {
      row["reason"] = e.reason;
      add_why(row, e);
    }
    if (e.seeding) row["seeding"] = *e.seeding;
    entrants.push_back(std::move(row));
  }
  detail["entrants"] = std::move(entrants);

  std::map<std::pair<int, int>, const db::BoardResult*> results;
  for (const db::BoardResult& r : stored.results) results[{r.round, r.board}] = &r;
  std::map<std::pair<int, int>, const db::ResultOverride*> overrides;
  for (const db::ResultOverride& o : stored.overrides) overrides[{o.round, o.board}] = &o;
  Json rounds = Json::array();
  for (const db::RoundRecord& round : stored.rounds) {
    Json boards = Json::array();
    for (const db::BoardRecord& board : round.boards) {
      Json seats = Json::array();
      for (const std::int64_t p : board.seats) seats.push_back(player_json(p, name_of));
      Json json{{"board", board.board}, {"table", board.table ? Json(*board.table) : Json(nullptr)}, {"seats", seats}};
      if (const auto found = results.find({round.round, board.board}); found != results.end()) {
        const db::BoardResult& r = *found->second;
        const competition::TableResult table{r.seats, r.scores, r.forfeited};
        Json places = Json::array(), points = Json::array(), percents = Json::array(), forfeited = Json::array();
        const auto placings = competition::placings(table, settings.scoring.placement);
        for (std::size_t s = 0; s < placings.size(); ++s) {
          places.push_back(placings[s].place + 1);
          points.push_back(to_json(placings[s].points));
          percents.push_back(two_decimals(competition::percent_of_winner(table, s)));
          forfeited.push_back(table.forfeit(s));
        }
        json["result"] = {{"scores", r.scores}, {"forfeited", forfeited}, {"places", places},
                          {"points", points},   {"percent_of_winner", percents}};
        if (const auto o = overrides.find({round.round, board.board}); o != overrides.end()) {
          json["result"]["override"] = {{"reason", o->second->reason},
                                        {"director", player_json(o->second->director, name_of)},
                                        {"time", o->second->time}};
        }
      }
      boards.push_back(std::move(json));
    }
    Json byes = Json::array();
    for (const std::int64_t p : round.byes) byes.push_back(player_json(p, name_of));
    rounds.push_back({{"round", round.round},
                      {"stage", round.stage},
                      {"started_at", round.started_at},
                      {"finished_at", optional_time(round.finished_at)},
                      {"boards", std::move(boards)},
                      {"byes", std::move(byes)}});
  }
  detail["rounds"] = std::move(rounds);

  Json standings = Json::array();
  const competition::Event event = event_of(stored, settings);
  if (!event.rounds.empty()) {
    for (const competition::Standing& row : competition::event_standings(event)) {
      standings.push_back({{"rank", row.rank},
                           {"player", player_json(row.player, name_of)},
                           {"points", to_json(row.points)},
                           {"sonneborn_berger", to_json(row.sonneborn_berger)},
                           {"percent_of_winner", two_decimals(row.percent_of_winner)},
                           {"game_points", row.game_points},
                           {"wins", row.wins},
                           {"played", row.played},
                           {"byes", row.byes},
                           {"forfeits", row.forfeits},
                           {"withdrawn", row.withdrawn},
                           {"disqualified", row.disqualified},
                           {"tied_with_previous", row.tied_with_previous}});
    }
  }
  detail["standings"] = std::move(standings);
  return detail;
}

std::string standings_csv(const Json& detail) {
  std::vector<std::vector<Json>> rows;
  for (const Json& row : detail.at("standings")) {
    rows.push_back({row["rank"], row["player"]["id"], row["player"]["name"], row["points"], row["sonneborn_berger"],
                    row["percent_of_winner"], row["game_points"], row["wins"], row["played"], row["byes"],
                    row["forfeits"], row["withdrawn"], row["disqualified"], row["tied_with_previous"]});
  }
  return csv({"rank", "player", "name", "points", "sonneborn_berger", "percent_of_winner", "game_points", "wins",
              "played", "byes", "forfeits", "withdrawn", "disqualified", "tied_with_previous"},
             rows);
}

std::string results_csv(const Json& detail) {
  std::vector<std::vector<Json>> rows;
  for (const Json& round : detail.at("rounds")) {
    for (const Json& board : round["boards"]) {
      if (!board.contains("result")) continue;
      const Json& result = board["result"];
      for (std::size_t s = 0; s < board["seats"].size(); ++s) {
        rows.push_back({round["round"], round["stage"], board["board"], board["table"], static_cast<int>(s),
                        board["seats"][s]["id"], board["seats"][s]["name"], result["scores"][s],
                        result["forfeited"][s], result["places"][s], result["points"][s],
                        result["percent_of_winner"][s], result.contains("override")});
      }
    }
    for (const Json& bye : round["byes"]) {
      rows.push_back({round["round"], round["stage"], nullptr, nullptr, nullptr, bye["id"], bye["name"], nullptr,
                      false, nullptr, detail["settings"]["bye_points"], nullptr, false});
    }
  }
  return csv({"round", "stage", "board", "table", "seat", "player", "name", "score", "forfeited", "place", "points",
              "percent_of_winner", "overridden"},
             rows);
}

}  // namespace elgrande::server
