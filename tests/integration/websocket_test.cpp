// The WebSocket transport end to end against the real binary: the envelope, hello and
// ping, typed errors that leave the connection usable, the size and rate limits, and the
// goodbye on SIGTERM. The protocol is described in docs/protocol.md.

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server_process.hpp"
#include "support/test_database.hpp"
#include "ws_client.hpp"

namespace {

using namespace elgrande::test;

// The repository's config, its limits as shipped, with a debug log.
std::vector<std::string> shipped_config_args(const TempDir& dir) {
  std::vector<std::string> args = database_args(dir);
  args.insert(args.end(), {"--config", ELGRANDE_SOURCE_DIR "/config/server.json", "--bind", "127.0.0.1", "--port", "0",
                           "--web-root", (dir.path() / "no-web").string(), "--threads", "2", "--log-level", "debug"});
  return args;
}

WsClient connect(const ServerProcess& server) {
  return WsClient(server.address(), server.port());
}

std::string error_code_of(const Json& message) {
  if (message.value("type", "") != "error") return "not an error: " + message.dump();
  return message["payload"].value("code", "");
}

bool answers_ping(WsClient& client) {
  const Json reply = client.request({{"type", "ping"}, {"id", "alive"}});
  return reply["type"] == "ping.ok" && reply["id"] == "alive";
}

std::int64_t unix_milliseconds() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TEST_CASE("hello and ping round trips", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(shipped_config_args(dir));
  WsClient client = connect(server);

  const Json hello = client.request(
      {{"type", "hello"}, {"id", 1}, {"payload", {{"protocol", 1}, {"name", "Ana"}}}});
  CHECK(hello["type"] == "hello.ok");
  CHECK(hello["id"] == 1);
  CHECK(hello["payload"]["protocol"] == 1);
  CHECK(hello["payload"]["server"].get<std::string>().starts_with("elgrande-server/"));

  const Json wrong = client.request({{"type", "hello"}, {"id", 2}, {"payload", {{"protocol", 3}}}});
  CHECK(error_code_of(wrong) == "bad_payload");
  CHECK(wrong["id"] == 2);
  CHECK(wrong["payload"]["message"] == "protocol: this server speaks versions 1 to 2");

  const auto before = unix_milliseconds();
  const Json pong = client.request({{"type", "ping"}, {"id", "p1"}});
  CHECK(pong["type"] == "ping.ok");
  CHECK(pong["id"] == "p1");
  CHECK(pong["payload"]["time"].get<std::int64_t>() >= before - 60'000);
  CHECK(pong["payload"]["time"].get<std::int64_t>() <= unix_milliseconds() + 60'000);

  // Without an id the reply has none, and the payload may be left out.
  const Json anonymous = client.request(Json{{"type", "ping"}});
  CHECK(anonymous["type"] == "ping.ok");
  CHECK_FALSE(anonymous.contains("id"));

  client.close();
}

TEST_CASE("Bad input gets a typed error and the connection keeps working", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(shipped_config_args(dir));
  WsClient client = connect(server);

  client.send(std::string_view("{not json"));
  CHECK(error_code_of(client.read()) == "bad_json");
  CHECK(answers_ping(client));

  client.send(std::string_view(std::string(100, '[') + std::string(100, ']')));
  CHECK(error_code_of(client.read()) == "bad_json");

  for (const char* bad : {R"([1, 2])", R"("ping")", R"({})", R"({"type": 5})", R"({"type": ""})",
                          R"({"type": "ping", "payload": []})", R"({"type": "ping", "id": 1.5})",
                          R"({"type": "ping", "id": {"x": 1}})"}) {
    INFO(bad);
    client.send(std::string_view(bad));
    CHECK(error_code_of(client.read()) == "bad_envelope");
  }

  client.send(std::string_view(R"({"id": "r1", "payload": {}})"));
  const Json missing_type = client.read();
  CHECK(error_code_of(missing_type) == "bad_envelope");
  CHECK(missing_type["id"] == "r1");

  client.send_binary("\x01\x02\x03");
  CHECK(error_code_of(client.read()) == "bad_envelope");

  const Json unknown = client.request({{"type", "fly"}, {"id", "req-7"}});
  CHECK(error_code_of(unknown) == "unknown_type");
  CHECK(unknown["id"] == "req-7");
  CHECK_FALSE(unknown["payload"]["message"].get<std::string>().empty());

  CHECK(answers_ping(client));
  client.close();
}

TEST_CASE("An oversized message closes that connection with 1009 only", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(shipped_config_args(dir));
  WsClient client = connect(server);
  CHECK(answers_ping(client));

  // Beast closes with 1009 as soon as the frame header announces too many bytes and
  // tears the connection down with the rest of the frame unread, so the client may meet
  // a reset on its write, or on its next read, before or after the close frame arrives.
  const auto written = client.try_send(Json{{"type", "ping"}, {"payload", {{"junk", std::string(70'000, 'x')}}}}.dump());
  const WsReceived received = client.read_any();
  INFO("write: " << written.message() << ", read: " << received.error.message());
  REQUIRE(received.error);  // the connection is over, one way or the other
  if (client.close_code() != websocket::close_code::none) {
    CHECK(client.close_code() == websocket::close_code::too_big);
  }

  WsClient other = connect(server);
  CHECK(answers_ping(other));
  other.close();
}

TEST_CASE("A flood is rate limited and the connection recovers", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(shipped_config_args(dir));
  WsClient client = connect(server);

  constexpr int kFlood = 200;
  for (int i = 0; i < kFlood; ++i) client.send(Json{{"type", "ping"}, {"id", i}});

  int answered = 0;
  int limited = 0;
  for (int i = 0; i < kFlood; ++i) {
    const Json reply = client.read();
    if (reply["type"] == "ping.ok") {
      ++answered;
    } else if (error_code_of(reply) == "rate_limited") {
      ++limited;
    } else {
      FAIL("unexpected reply " << reply.dump());
    }
  }
  CHECK(answered + limited == kFlood);
  CHECK(answered >= 40);  // the burst
  CHECK(limited > 0);

  std::this_thread::sleep_for(std::chrono::seconds(2));
  CHECK(answers_ping(client));
  client.close();
}

TEST_CASE("A client flooding far past the limit is closed with 1008", "[no-storage][integration]") {
  TempDir dir;
  std::vector<std::string> args = shipped_config_args(dir);
  args.insert(args.end(), {"--messages-per-second", "5", "--message-burst", "5"});
  ServerProcess server(args);
  WsClient client = connect(server);

  // Ten bursts' worth of refusals within a second is the limit; 300 is well past it.
  try {
    for (int i = 0; i < 300; ++i) client.send(Json{{"type", "ping"}, {"id", i}});
  } catch (const std::runtime_error&) {
    // The server may close before the last messages are written.
  }
  WsReceived received;
  int messages = 0;
  while (!(received = client.read_any()).error) ++messages;
  INFO(received.error.message() << " after " << messages << " messages");
  CHECK(messages < 300);
  CHECK(client.close_code() == websocket::close_code::policy_error);

  WsClient other = connect(server);
  CHECK(answers_ping(other));
  other.close();
}

TEST_CASE("SIGTERM closes open WebSockets with 1001 and exits 0", "[no-storage][integration]") {
  TempDir dir;
  ServerProcess server(shipped_config_args(dir));
  WsClient first = connect(server);
  WsClient second = connect(server);
  CHECK(answers_ping(first));
  CHECK(answers_ping(second));

  server.signal(SIGTERM);
  for (WsClient* client : {&first, &second}) {
    const WsReceived received = client->read_any();
    CHECK(received.error == websocket::error::closed);
    CHECK(client->close_code() == websocket::close_code::going_away);
  }
  CHECK(server.wait_for_exit(15s) == std::optional<int>(0));
}
