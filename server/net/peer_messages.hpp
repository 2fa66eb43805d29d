#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tables/directory.hpp"

namespace elgrande::server {

// What two server processes say to each other over a peer link (net/peer_link.hpp,
// docs/scaling.md): each message is about one client connection, named by the number the
// process that accepted it gave it. Many travel in one binary WebSocket frame, each as
// its kind (1 byte), the connection (8 bytes), the body's length (4 bytes, both little
// endian) and the body. Pure: no sockets.
enum class PeerKind : std::uint8_t {
  // From the process that holds the client's socket to the one that serves it:
  open = 1,    // a WebSocket client connected; body: its address, for caps and logs
  text = 2,    // a message it sent; body: the message
  closed = 3,  // its socket closed; no body
  http = 4,    // one plain HTTP request, whole; `connection` numbers the request
  // Back:
  deliver = 5,      // a message for the client; body: the message
  end = 6,          // close politely once what is queued is sent; body: code (2 bytes) and reason
  drop = 7,         // cut it now (it let messages pile up); no body
  http_answer = 8,  // the answer to an http request, whole, as its bytes go on the wire
  // From a process holding connections to the owner of a table they use (issue 47); the
  // owner answers with deliver, end and drop, and hears closed when a connection closes:
  table = 9,     // a request for the table; body: a TableCall with the message
  seat = 10,     // a member's connection opened (it gets the table and its view); body: a
                 // TableCall without a message
  renamed = 11,  // a player's new name, for the table; body: a TableCall; connection 0
  call_time = 12,  // a tournament round's limit; body: a TableCall, its player 0; connection 0
  // Back: a table's listing, as it published it, or its removal; connection 0.
  listing = 13,
  turns = 14,  // whose turn it is at a table, after each command; connection 0
};

struct PeerMessage {
  PeerKind kind = PeerKind::text;
  std::uint64_t connection = 0;
  std::string_view body;  // into the frame it was read from
};

// Appends one message to a frame being built.
void append_peer_message(std::string& frame, PeerKind kind, std::uint64_t connection, std::string_view body);
// An `end` message's body.
std::string end_body(std::uint16_t code, std::string_view reason);
struct EndReason {
  std::uint16_t code = 0;
  std::string_view reason;
};
std::optional<EndReason> read_end_body(std::string_view body);

// What a table's owner is told of a request or a connection: the table, who speaks on the
// connection (as its hello established), whether the connection reads view patches, and
// the message as its client sent it.
struct TableCall {
  std::int64_t table = 0;
  std::int64_t player = 0;
  std::string_view name;
  bool patches = false;
  std::string_view message;
};
std::string table_call_body(const TableCall& call);
std::optional<TableCall> read_table_call(std::string_view body);  // none if it is damaged

// A listing message's body: the table as published, or only its id once it is removed.
std::string listing_body(const PublishedTable& table);
std::string removal_body(TableId id);
std::optional<std::variant<PublishedTable, TableId>> read_listing(std::string_view body);  // none if damaged

// A turns message's body: the table (8 bytes), the seats owing a decision (1), each seat's
// deadline (8 each, kMaxSeats of them).
struct TableTurns {
  TableId table = 0;
  TableListing::Turns turns;
};
std::string turns_body(TableId table, const TableListing::Turns& turns);
std::optional<TableTurns> read_turns(std::string_view body);  // none if damaged

// Every message of a frame, in order; none if the frame is damaged anywhere (a kind not
// known, a length past the end): a peer that sends such a thing is not one of ours, or
// a different version, and its link is closed.
std::optional<std::vector<PeerMessage>> read_peer_frame(std::string_view frame);

}  // namespace elgrande::server
