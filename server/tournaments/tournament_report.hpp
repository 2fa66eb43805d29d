#pragma once

#include <functional>
#include <string>

#include "elgrande/competition/event.hpp"
#include "elgrande/db/tournaments.hpp"
#include "elgrande/protocol/codec.hpp"
#include "tournaments/tournament_settings.hpp"

namespace elgrande::server {

// What a tournament is, as the competition library reads it: its stages and scoring from
// the settings, its seed, the entrants still counted (not those removed before the start)
// and every round with the results stored so far.
competition::Event event_of(const db::StoredTournament& stored, const TournamentSettings& settings);

// A player's display name, for reports.
using NameOf = std::function<std::string(std::int64_t)>;

// The shapes of docs/tournaments.md#messages: one line of the list, and the whole event
// (settings, entrants, rounds with their boards and results, standings with every column).
// The detail is also the JSON export.
protocol::Json tournament_summary(const db::StoredTournament& stored, const TournamentSettings& settings,
                                  const NameOf& name_of);
protocol::Json tournament_detail(const db::StoredTournament& stored, const TournamentSettings& settings,
                                 const NameOf& name_of);

// The CSV exports (RFC 4180): the standings, a row per player with every column, and the
// results, a row per seat of every finished board.
std::string standings_csv(const protocol::Json& detail);
std::string results_csv(const protocol::Json& detail);

}  // namespace elgrande::server
