#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "elgrande/db/id_blocks.hpp"

namespace elgrande::server {

// Hands out the ids of one kind (tables, players, chat lines), from any thread. Alone on
// SQLite a process counts on from the highest id stored. Processes sharing PostgreSQL
// reserve blocks of ids there instead (elgrande/db/id_blocks.hpp), so that no two give the
// same one: the next block is asked for once half of the one in hand is used, so no
// request waits for it. Copies share one supply.
class IdSupply {
 public:
  static constexpr std::int64_t kBlock = 1000;
  // Runs once the block is reserved, or with nothing when the reservation failed (it is
  // asked for again at the next take).
  using Granted = std::function<void(std::optional<db::IdBlock>)>;
  using Reserve = std::function<void(std::int64_t count, Granted granted)>;

  // Every id after `highest`, one after another.
  static IdSupply after(std::int64_t highest);
  // Blocks of `block` ids from `reserve`, the first of them already reserved.
  IdSupply(db::IdBlock first, Reserve reserve, std::int64_t block = kBlock);

  // The next id, or nothing when the ids in hand ran out before the next block came (more
  // than half a block taken within one reservation's round trip): the caller refuses, or
  // tries again shortly.
  std::optional<std::int64_t> take();
  // No id at or below `id` is handed out (the ids restored at start).
  void skip_past(std::int64_t id);

 private:
  struct State;
  explicit IdSupply(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

// What a request that found no id at hand is told.
inline constexpr const char* kNoIdAtHand = "the server is reserving more ids; nothing changed, try again shortly";

}  // namespace elgrande::server
