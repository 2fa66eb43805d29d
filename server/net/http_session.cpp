#include "net/http_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <memory>
#include <string_view>
#include <utility>

#include "history/history_requests.hpp"
#include "net/router.hpp"
#include "net/ws_session.hpp"

namespace elgrande::server {

HttpSession::HttpSession(tcp::socket&& socket, std::shared_ptr<const Services> services)
    : stream_(std::move(socket)), services_(std::move(services)) {}

void HttpSession::run() {
  // Start on the session's strand, so no two of its handlers ever run concurrently.
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->body_limit(kMaxBodyBytes);
  parser_->header_limit(kMaxHeaderBytes);
  stream_.expires_after(kReadTimeout);
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec == http::error::end_of_stream) return do_close();
  if (ec == http::error::body_limit) {
    // The header is complete, so the client can be told why; the unread body makes the
    // connection unusable afterwards.
    return send(text_response(parser_->get(), http::status::payload_too_large,
                              "request body too large\n", false));
  }
  if (ec) return fail(ec, "http read");

  if (websocket::is_upgrade(parser_->get())) {
    const std::string_view target = parser_->get().target();
    if (target.substr(0, target.find('?')) == kWebSocketPath) {
      // The game protocol takes over the socket and this request, on the same strand.
      std::make_shared<WsSession>(stream_.release_socket(), services_)->run(parser_->release());
      return;
    }
    return send(text_response(parser_->get(), http::status::not_found,
                              "no WebSocket endpoint here; use /ws\n",
                              parser_->get().keep_alive()));
  }

  const bool from_database = export_game_record(
      parser_->get(), *services_, [self = shared_from_this()](http::response<http::string_body> response) {
        net::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
          self->send(http::message_generator(std::move(response)));
        });
      });
  if (!from_database) send(handle_request(parser_->get(), *services_));
}

void HttpSession::send(http::message_generator&& message) {
  const bool keep_alive = message.keep_alive();
  stream_.expires_after(kWriteTimeout);
  beast::async_write(
      stream_, std::move(message),
      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t /*bytes*/) {
  if (ec) return fail(ec, "http write");
  if (!keep_alive) return do_close();
  do_read();
}

void HttpSession::do_close() {
  // A half-close lets the peer read everything we sent before it sees the end.
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

}  // namespace elgrande::server
