// peer_frame: one binary frame of a peer link as a server process reads it from another
// (server/net/peer_messages.cpp, compiled in), then each message's body as its kind is read.
// Properties: a frame either reads whole or not at all, and one that reads is exactly its
// messages written again; an end body, a table call and a turns body that read write back
// to the same bytes; a listing that reads writes back to a listing that reads the same.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "check.hpp"
#include "net/peer_messages.hpp"

namespace {

using namespace elgrande::server;

void check_body(const PeerMessage& message) {
  switch (message.kind) {
    case PeerKind::end:
      if (const auto reason = read_end_body(message.body)) {
        FUZZ_REQUIRE(end_body(reason->code, reason->reason) == message.body);
      }
      return;
    case PeerKind::table:
    case PeerKind::seat:
    case PeerKind::renamed:
    case PeerKind::call_time:
      if (const auto call = read_table_call(message.body)) FUZZ_REQUIRE(table_call_body(*call) == message.body);
      return;
    case PeerKind::listing:
      if (const auto listing = read_listing(message.body)) {
        if (const auto* removed = std::get_if<TableId>(&*listing)) {
          const auto again = read_listing(removal_body(*removed));
          FUZZ_REQUIRE(again && std::get<TableId>(*again) == *removed);
          return;
        }
        const auto& table = std::get<PublishedTable>(*listing);
        const auto again = read_listing(listing_body(table));
        FUZZ_REQUIRE(again && std::holds_alternative<PublishedTable>(*again));
        const auto& read = std::get<PublishedTable>(*again);
        FUZZ_REQUIRE(read.id == table.id && read.status == table.status && read.description == table.description &&
                     read.seats == table.seats && read.host == table.host);
      }
      return;
    case PeerKind::turns:
      if (const auto turns = read_turns(message.body)) FUZZ_REQUIRE(turns_body(turns->table, turns->turns) == message.body);
      return;
    default:
      return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view frame(reinterpret_cast<const char*>(data), size);
  const auto messages = read_peer_frame(frame);
  if (!messages) return 0;
  std::string again;
  for (const PeerMessage& message : *messages) {
    append_peer_message(again, message.kind, message.connection, message.body);
    check_body(message);
  }
  FUZZ_REQUIRE(again == frame);
  return 0;
}
