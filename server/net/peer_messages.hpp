#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// Every message of a frame, in order; none if the frame is damaged anywhere (a kind not
// known, a length past the end): a peer that sends such a thing is not one of ours, or
// a different version, and its link is closed.
std::optional<std::vector<PeerMessage>> read_peer_frame(std::string_view frame);

}  // namespace elgrande::server
