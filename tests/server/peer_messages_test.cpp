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
  for (const unsigned char kind : {0u, 15u, 255u}) {
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

TEST_CASE("a table's owner reads back the table, the player, the connection's protocol and the message of a call",
          "[server][cluster]") {
  const std::string message = R"({"type":"game.command","id":9,"payload":{"table":42,"command":{"take":3}}})";
  const TableCall sent{42, -7, "Zsófia", true, message};
  const std::string sent_body = table_call_body(sent);
  const auto read = read_table_call(sent_body);
  REQUIRE(read);
  CHECK(read->table == 42);
  CHECK(read->player == -7);
  CHECK(read->name == "Zsófia");
  CHECK(read->patches);
  CHECK(read->message == message);

  const std::string seat_body = table_call_body({1, 2, "", false, {}});
  const auto seat = read_table_call(seat_body);
  REQUIRE(seat);
  CHECK(seat->name.empty());
  CHECK_FALSE(seat->patches);
  CHECK(seat->message.empty());

  const std::string body = table_call_body(sent);
  CHECK_FALSE(read_table_call(body.substr(0, 18)));  // cut before the name's length ends
  std::string long_name = table_call_body({1, 2, "Ana", false, {}});
  long_name[17] = 4;  // a name longer than the body
  CHECK_FALSE(read_table_call(long_name));
  std::string bad_flag = body;
  bad_flag[16] = 2;
  CHECK_FALSE(read_table_call(bad_flag));
}

TEST_CASE("a table's listing reads back as its owner published it, and a removal as the table's id",
          "[server][cluster]") {
  const PublishedTable table{42, TableStatus::playing, {{"id", 42}, {"name", "Ana's table"}}, {7, std::nullopt, 9}, 7};
  const auto read = read_listing(listing_body(table));
  REQUIRE(read);
  const auto* published = std::get_if<PublishedTable>(&*read);
  REQUIRE(published);
  CHECK(published->id == 42);
  CHECK(published->status == TableStatus::playing);
  CHECK(published->description == table.description);
  CHECK(published->seats == table.seats);
  CHECK(published->host == 7);

  const auto removal = read_listing(removal_body(42));
  REQUIRE(removal);
  CHECK(std::get<TableId>(*removal) == 42);

  CHECK_FALSE(read_listing("not json"));
  CHECK_FALSE(read_listing(R"({"table":1,"status":"lost","description":null,"seats":[],"host":7})"));
  CHECK_FALSE(read_listing(R"({"table":1,"status":"open","description":null,"seats":["x"],"host":7})"));
}

TEST_CASE("whose turn it is at a table reads back exactly, and a body of another length is refused",
          "[server][cluster]") {
  TableListing::Turns turns;
  turns.waiting = 0b101;
  turns.deadlines[0] = 1'795'000'000'123;
  turns.deadlines[2] = -1;
  turns.deadlines[7] = 42;
  const std::string body = turns_body(42, turns);
  const auto read = read_turns(body);
  REQUIRE(read);
  CHECK(read->table == 42);
  CHECK(read->turns.waiting == 0b101);
  CHECK(read->turns.deadlines == turns.deadlines);
  CHECK_FALSE(read_turns(body.substr(1)));
  CHECK_FALSE(read_turns(body + "x"));
}
