// What two server processes say over a peer link (server/net/peer_messages.hpp): messages
// of many connections in one frame, read back exactly, and a damaged frame refused whole.

#include <catch2/catch.hpp>
#include <string>

#include "net/peer_messages.hpp"

using namespace elgrande::server;

TEST_CASE("a peer frame carries many connections' messages, read back in order and exactly", "[server][cluster]") {
  std::string frame;
  append_peer_message(frame, PeerKind::open, 1, "203.0.113.7");
  append_peer_message(frame, PeerKind::text, 1, R"({"type":"hello","id":1,"payload":{"name":"Ana"}})");
  append_peer_message(frame, PeerKind::closed, 0xfedcba9876543210ull, "");
  const std::string binary("\0\xff\r\n", 4);  // any bytes: a body is not text
  append_peer_message(frame, PeerKind::deliver, 2, binary);
  append_peer_message(frame, PeerKind::end, 3, end_body(4001, "session_ended"));

  const auto messages = read_peer_frame(frame);
  REQUIRE(messages);
  REQUIRE(messages->size() == 5);
  CHECK((*messages)[0].kind == PeerKind::open);
  CHECK((*messages)[0].connection == 1);
  CHECK((*messages)[0].body == "203.0.113.7");
  CHECK((*messages)[1].body == R"({"type":"hello","id":1,"payload":{"name":"Ana"}})");
  CHECK((*messages)[2].kind == PeerKind::closed);
  CHECK((*messages)[2].connection == 0xfedcba9876543210ull);
  CHECK((*messages)[2].body.empty());
  CHECK((*messages)[3].body == binary);
  const auto ended = read_end_body((*messages)[4].body);
  REQUIRE(ended);
  CHECK(ended->code == 4001);
  CHECK(ended->reason == "session_ended");
  CHECK(read_peer_frame("")->empty());
}

TEST_CASE("a damaged peer frame is refused whole, wherever it is damaged", "[server][cluster]") {
  std::string frame;
  append_peer_message(frame, PeerKind::text, 7, "first");
  append_peer_message(frame, PeerKind::deliver, 8, "second");
  // Cut anywhere but between messages: a header or a body left short.
  const std::size_t between = 13 + 5;
  for (std::size_t length = 1; length < frame.size(); ++length) {
    INFO("cut to " << length << " bytes");
    CHECK(read_peer_frame(frame.substr(0, length)).has_value() == (length == between));
  }
  // A kind no process knows.
  for (const unsigned char kind : {0u, 9u, 255u}) {
    std::string unknown = frame;
    unknown[between] = static_cast<char>(kind);
    CHECK_FALSE(read_peer_frame(unknown));
  }
  // A length past the end.
  std::string long_claim = frame;
  long_claim[9] = '\x7f';
  CHECK_FALSE(read_peer_frame(long_claim));
  CHECK_FALSE(read_end_body("x"));
}
