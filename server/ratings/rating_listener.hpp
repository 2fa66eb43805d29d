#pragma once

namespace elgrande::server {

class Bus;
class Ratings;

// Ratings hear of finished games on the bus: a rated table's game is rated inside the
// transaction that saves its result (neither is ever stored without the other), then,
// once committed, `ratings` in memory move and the table's members are told `table.rated`
// (the changes, or why the game does not count: docs/ratings.md#what-is-rated).
void rate_finished_games(Bus& bus, Ratings& ratings);

}  // namespace elgrande::server
