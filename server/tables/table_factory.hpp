#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "elgrande/db/store.hpp"
#include "common/net.hpp"
#include "tables/table.hpp"

namespace elgrande::server {

// The one way tables come to be: made from a spec (the lobby's, tournaments' and "play
// now"'s), or brought back from the database at start. Each table gets a
// strand of its own and is listed in the directory before it serves anyone.
class TableFactory {
 public:
  TableFactory(net::io_context::executor_type executor, TableServices& services,
               IdSupply table_ids = IdSupply::after(0));

  // Listed, saved, and (with `creator`) answered with table.create.ok to `request_id`.
  // None when no table id is at hand (IdSupply::take): nothing was made, try again shortly.
  std::shared_ptr<Table> create(TableSpec spec, RecipientPtr creator = nullptr,
                                std::optional<protocol::RequestId> request_id = std::nullopt);

  // The game its tables play, for what makes a table's spec (the lobby, play now, tournaments).
  const games::GameModule& game() const { return services_.game; }

  // Lists the restored tables and restarts their games' bots and clocks; `find_player`
  // names the seats' players. No id up to `highest_id` is given to a new table.
  using FindPlayer = std::function<std::optional<Player>(PlayerId)>;
  void restore(std::vector<db::RestoredTable> tables, TableId highest_id, const FindPlayer& find_player);

 private:
  net::io_context::executor_type executor_;
  TableServices& services_;
  IdSupply table_ids_;
};

// Stands in for a table's creator when the server makes the table: the table answers its
// creator once it is saved, and that answer is when its players may hear of it.
class WhenTableSaved final : public Recipient {
 public:
  explicit WhenTableSaved(std::function<void()> saved) : saved_(std::move(saved)) {}
  void deliver(std::shared_ptr<const std::string> /*message*/) override {
    if (saved_) std::exchange(saved_, nullptr)();
  }
  void close() override {}

 private:
  std::function<void()> saved_;
};

}  // namespace elgrande::server
