#pragma once

// Short names for the Boost namespaces, as in the Beast examples, plus the one place
// that decides which network errors are worth a warning.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/error.hpp>
#include <functional>
#include <string_view>

namespace elgrande::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
using tcp = boost::asio::ip::tcp;

// What the server calls itself in Server and User-Agent headers.
inline constexpr std::string_view kServerName = "elgrande-server/" ELGRANDE_VERSION;

// A connection's executor: a strand of the I/O context, named by its type rather than held
// as any_io_executor, whose type erasure cost about 3% of the CPU per command in copies,
// property queries and indirect calls (docs/performance.md, step 15).
using Strand = net::strand<net::io_context::executor_type>;
using StrandSocket = tcp::socket::rebind_executor<Strand>::other;

// Reports a failed network operation. Peers that disconnect, idle timeouts and our own
// shutdown are routine and only logged at debug level; anything else is a warning.
void fail(beast::error_code ec, std::string_view what);

// Delivers an HTTP answer made later, on another thread (a reader's): the session posts it
// to its own strand.
using Respond = std::function<void(http::response<http::string_body>)>;

}  // namespace elgrande::server
