// Who the server lets in, and how much each may take: the origins a browser page may
// connect from, the client address behind a reverse proxy, new identities per address
// per hour, the connection limit with its overflow, and the throttle on repeated log lines.
#include <catch2/catch.hpp>

#include <boost/asio/ip/address.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "net/proxy_protocol.hpp"
#include "identity/new_identity_quota.hpp"
#include "net/connection_limit.hpp"
#include "net/origin.hpp"
#include "ops/log_throttle.hpp"

using namespace elgrande::server;
using namespace std::chrono_literals;

namespace {

const std::vector<std::string> none;

boost::asio::ip::address ip(const char* text) { return boost::asio::ip::make_address(text); }

}  // namespace

TEST_CASE("Origins: the server's own host, the allowed ones, and programs without one", "[server][admission]") {
  CHECK(origin_allowed("http://play.example.org", "play.example.org", none));
  CHECK(origin_allowed("https://Play.Example.org", "play.example.org", none));  // host names are not case-sensitive
  CHECK(origin_allowed("https://play.example.org", "play.example.org:443", none));  // the default port is the same
  CHECK(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", none));
  CHECK(origin_allowed("", "127.0.0.1:8080", none));  // no Origin: not a browser

  CHECK_FALSE(origin_allowed("http://127.0.0.1:9090", "127.0.0.1:8080", none));  // another port is another site
  CHECK_FALSE(origin_allowed("https://evil.example", "play.example.org", none));
  CHECK_FALSE(origin_allowed("https://play.example.org.evil.example", "play.example.org", none));
  CHECK_FALSE(origin_allowed("null", "play.example.org", none));  // a sandboxed frame or a file
  CHECK_FALSE(origin_allowed("ftp://play.example.org", "play.example.org", none));
  CHECK_FALSE(origin_allowed("https://evil.example", "", none));

  const std::vector<std::string> allowed{"https://club.example.org", "http://localhost:3000"};
  CHECK(origin_allowed("https://club.example.org", "play.example.org", allowed));
  CHECK(origin_allowed("https://club.example.org:443", "play.example.org", allowed));
  CHECK(origin_allowed("http://localhost:3000", "play.example.org", allowed));
  CHECK_FALSE(origin_allowed("http://club.example.org", "play.example.org", allowed));  // the scheme counts
  CHECK_FALSE(origin_allowed("http://localhost:3001", "play.example.org", allowed));
  CHECK(origin_allowed("https://anyone.example", "play.example.org", {"*"}));
}

TEST_CASE("Client address: X-Forwarded-For is believed from trusted proxies only, and only its last entry",
          "[server][admission]") {
  const std::vector<std::string> proxies{"127.0.0.1", "::1"};
  CHECK(client_address(ip("203.0.113.9"), "", proxies) == "203.0.113.9");
  CHECK(client_address(ip("203.0.113.9"), "198.51.100.1", proxies) == "203.0.113.9");  // not a proxy: ignored
  CHECK(client_address(ip("127.0.0.1"), "198.51.100.1", proxies) == "198.51.100.1");
  CHECK(client_address(ip("::1"), "198.51.100.1", proxies) == "198.51.100.1");
  // The client may send its own X-Forwarded-For; the proxy appends what it saw.
  CHECK(client_address(ip("127.0.0.1"), "10.9.9.9, 198.51.100.1", proxies) == "198.51.100.1");
  CHECK(client_address(ip("127.0.0.1"), "garbage", proxies) == "127.0.0.1");
  CHECK(client_address(ip("127.0.0.1"), "198.51.100.1", none) == "127.0.0.1");
  CHECK(client_address(ip("::ffff:203.0.113.9"), "", none) == "203.0.113.9");  // IPv4 on an IPv6 socket
}

TEST_CASE("Client address behind a proxy that sends a PROXY line: it names the client, and only a well-formed one",
          "[server][admission]") {
  CHECK(proxied_client("PROXY TCP4 203.0.113.7 127.0.0.1 51000 8081") == "203.0.113.7");
  CHECK(proxied_client("PROXY TCP6 2001:db8::1 ::1 51000 8081") == "2001:db8::1");
  CHECK_FALSE(proxied_client("PROXY UNKNOWN"));
  CHECK_FALSE(proxied_client("PROXY TCP4 not-an-address 127.0.0.1 1 2"));
  CHECK_FALSE(proxied_client("GET / HTTP/1.1"));
}

TEST_CASE("New identities: so many per address in any hour, an IPv6 client counted by its /64",
          "[server][admission]") {
  NewIdentityQuota quota(3);
  const auto start = NewIdentityQuota::Clock::time_point{} + 24h;
  for (int i = 0; i < 3; ++i) CHECK(quota.take("203.0.113.9", start + i * 1min));
  CHECK_FALSE(quota.take("203.0.113.9", start + 10min));
  CHECK(quota.take("203.0.113.10", start + 10min));  // another address has its own
  // An hour after the first, one more; the others are still within the hour.
  CHECK(quota.take("203.0.113.9", start + 60min + 1s));
  CHECK_FALSE(quota.take("203.0.113.9", start + 60min + 30s));  // the second is not an hour old yet

  for (int i = 0; i < 3; ++i) CHECK(quota.take("2001:db8:1:2::" + std::to_string(i + 1), start));
  CHECK_FALSE(quota.take("2001:db8:1:2:ffff::9", start));  // same /64
  CHECK(quota.take("2001:db8:1:3::1", start));
  CHECK(NewIdentityQuota::key_of("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64");
  CHECK(NewIdentityQuota::key_of("203.0.113.9") == "203.0.113.9");

  NewIdentityQuota uncapped(0);
  for (int i = 0; i < 1000; ++i) CHECK(uncapped.take("203.0.113.9", start));
}

TEST_CASE("Connection limit: full places while there are any, then the overflow, and places come back",
          "[server][admission]") {
  auto limit = std::make_shared<ConnectionLimit>(2);
  std::vector<ConnectionLimit::Slot> held;
  held.push_back(limit->admit());
  held.push_back(limit->admit());
  CHECK_FALSE(held[0].overflow());
  CHECK_FALSE(held[1].overflow());
  CHECK(limit->open() == 2);
  {
    const ConnectionLimit::Slot extra = limit->admit();
    CHECK(extra.overflow());
    CHECK(limit->open() == 2);  // the overflow is not counted against the limit
  }
  held.pop_back();
  CHECK(limit->open() == 1);
  CHECK_FALSE(limit->admit().overflow());
  CHECK(limit->open() == 1);  // that one was given back at once
}

TEST_CASE("Connection limit from descriptors: a reserve of a thirty-second, at least 64, plus the overflow",
          "[server][admission]") {
  CHECK(connections_allowed(160) == 160 - 64 - 16);
  CHECK(connections_allowed(4096) == 4096 - 128 - 16);
  CHECK(connections_allowed(20000) == 20000 - 625 - 16);  // 19,359: the 19,000 of docs/performance.md
  CHECK(connections_allowed(50) == 1);  // too few to keep a reserve: one connection at a time
}

TEST_CASE("Log throttle: the first at once, then one line per interval with the count", "[server][admission]") {
  LogThrottle throttle(10s);
  const auto start = LogThrottle::Clock::time_point{} + 1h;
  CHECK(throttle.occurred(start) == 1);
  CHECK(throttle.occurred(start + 1s) == 0);
  CHECK(throttle.occurred(start + 2s) == 0);
  CHECK(throttle.occurred(start + 10s) == 3);
  CHECK(throttle.occurred(start + 11s) == 0);
}
