#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "elgrande/competition/event.hpp"
#include "elgrande/protocol/decoded.hpp"
#include "tables/table_config.hpp"

namespace elgrande::server {

// What a tournament's creator chose (docs/tournaments.md#settings): its stages, scoring,
// the game every table plays, and registration. Fixed once the event starts.
struct TournamentSettings {
  std::vector<competition::Stage> stages;
  competition::ScoringRules scoring;  // its seed is the event's, drawn at creation
  // Every table's game: its options but the player count (the table's size), its clock.
  TableConfig game;
  int max_players = 0;  // 0: no cap
  std::optional<std::int64_t> starts_at;  // Unix ms; none: the director starts it
  int check_in_minutes = 0;  // before starts_at; 0: no check-in
  // How long a round may last from its start; then time is called on the games still in
  // play, which end with the scores as they stand. 0: a round lasts until its last game ends.
  int round_time_seconds = 0;
  // A player whose seat was handed to a bot after timeouts plays no later rounds.
  bool withdraw_replaced = true;
  // Whether the players' ratings on the event's ladder, fixed when it begins, order the field
  // before the lot (docs/tournaments.md#seeding); false: the lot alone.
  bool seed_by_rating = true;
};

inline constexpr int kMaxTournamentPlayers = 10'000;
inline constexpr int kMaxCheckInMinutes = 7 * 24 * 60;
inline constexpr int kMaxRoundTimeSeconds = 31 * 24 * 60 * 60;

// Reads tournament.create's settings; the error's message names the field.
protocol::Decoded<TournamentSettings> tournament_settings_from_json(const protocol::Json& payload,
                                                                const games::GameModule& game);
// Points as JSON: a whole number, or one with a half.
protocol::Json to_json(competition::Points points);
// The same object back (also what the database keeps).
protocol::Json to_json(const TournamentSettings& settings);

}  // namespace elgrande::server
