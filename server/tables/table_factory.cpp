#include "tables/table_factory.hpp"

#include <boost/asio/strand.hpp>

namespace elgrande::server {

TableFactory::TableFactory(net::io_context::executor_type executor, TableServices& services, IdSupply table_ids)
    : executor_(std::move(executor)), services_(services), table_ids_(std::move(table_ids)) {}

std::shared_ptr<Table> TableFactory::create(TableSpec spec, RecipientPtr creator,
                                            std::optional<protocol::RequestId> request_id) {
  const std::optional<TableId> id = table_ids_.take();
  if (!id) return nullptr;
  auto table = std::make_shared<Table>(net::make_strand(executor_), services_, *id, std::move(spec));
  services_.directory.add(table);
  table->open(std::move(creator), std::move(request_id));
  return table;
}

void TableFactory::restore(std::vector<db::RestoredTable> restored, TableId highest_id, const FindPlayer& find_player) {
  table_ids_.skip_past(highest_id);
  std::vector<std::shared_ptr<Table>> tables;
  for (db::RestoredTable& record : restored) {
    std::vector<Seat> seats;
    for (const db::SeatRecord& stored : record.table.seats) {
      Seat seat;
      seat.kind = seat_kind_from(stored.kind).value_or(Seat::Kind::empty);
      if (stored.player) seat.player = find_player(*stored.player).value_or(Player{*stored.player, "?"});
      seat.resigned = stored.resigned;
      seat.replaced = stored.replaced;
      seat.timeouts = stored.timeouts;
      // Bots from before levels existed played at random, and go on so.
      seat.bot_level = games::bot_level_from_name(stored.bot_level.value_or("random")).value_or(games::BotLevel::random);
      seats.push_back(std::move(seat));
    }
    seats.resize(static_cast<std::size_t>(services_.game.seats(record.table.options)));
    std::vector<std::optional<PlayerId>> members;
    for (const Seat& seat : seats) members.push_back(seat.player ? std::optional(seat.player->id) : std::nullopt);
    const TableStatus status = table_status_from(record.table.status).value_or(TableStatus::open);
    Seating seating(std::move(seats), record.table.host);
    auto table = std::make_shared<Table>(net::make_strand(executor_), services_, std::move(record), std::move(seating));
    services_.directory.add(table);
    // Indexed now, before any connection is served, so that a player's first hello finds
    // the table; its description follows when it resumes.
    services_.directory.publish(table->id(), status, protocol::Json(), std::move(members), record.table.host);
    tables.push_back(std::move(table));
  }
  for (const auto& table : tables) table->resume();
}

}  // namespace elgrande::server
