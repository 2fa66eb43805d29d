#include "common/net.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/websocket/error.hpp>

namespace elgrande::server {
namespace {

bool is_routine(beast::error_code ec) {
  return ec == net::error::operation_aborted || ec == net::error::eof ||
         ec == net::error::connection_reset || ec == net::error::broken_pipe ||
         ec == beast::error::timeout || ec == http::error::end_of_stream ||
         ec == websocket::error::closed ||
         ec == net::ssl::error::stream_truncated;  // a TLS peer that left without close_notify
}

}  // namespace

void fail(beast::error_code ec, std::string_view what) {
  if (is_routine(ec)) {
    spdlog::debug("{}: {}", what, ec.message());
  } else {
    spdlog::warn("{}: {}", what, ec.message());
  }
}

}  // namespace elgrande::server
