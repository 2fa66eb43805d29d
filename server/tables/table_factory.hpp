#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "elgrande/db/store.hpp"
#include "net/net.hpp"
#include "tables/table.hpp"

namespace elgrande::server {

// The one way tables come to be: made from a spec (the lobby's today; tournaments' and
// "play now"'s tomorrow), or brought back from the database at start. Each table gets a
// strand of its own and is listed in the directory before it serves anyone.
class TableFactory {
 public:
  TableFactory(net::any_io_executor executor, TableServices& services);

  // Listed, saved, and (with `creator`) answered with table.create.ok to `request_id`.
  std::shared_ptr<Table> create(TableSpec spec, RecipientPtr creator = nullptr,
                                std::optional<protocol::RequestId> request_id = std::nullopt);

  // Lists the restored tables and restarts their games' bots and clocks; `find_player`
  // names the seats' players.
  using FindPlayer = std::function<std::optional<Player>(PlayerId)>;
  void restore(std::vector<db::RestoredTable> tables, TableId highest_id, const FindPlayer& find_player);

 private:
  net::any_io_executor executor_;
  TableServices& services_;
};

}  // namespace elgrande::server
