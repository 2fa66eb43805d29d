#include "ws_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <array>
#include <utility>

#include "history.hpp"
#include "table.hpp"
#include "unix_time.hpp"

namespace elgrande::server {
namespace {

namespace protocol = elgrande::protocol;
using protocol::ErrorCode;

constexpr std::size_t kMaxNameBytes = 32;
constexpr std::size_t kMaxTableNameBytes = 64;
// A turn limit: none (0), or from a second (blitz, and tests) to two weeks (games by mail).
constexpr std::int64_t kMinTurnSeconds = 1;
constexpr std::int64_t kMaxTurnSeconds = 14 * 24 * 3600;
// With on_timeout "replace_seat": the timeouts in a row that cost a seat, unless chosen.
constexpr int kDefaultReplaceAfter = 3;
constexpr int kMaxReplaceAfter = 10;
constexpr int kHistoryPage = 50;  // finished games per history.list answer, at most

std::string describe_peer(const tcp::socket& socket) {
  beast::error_code ec;
  const tcp::endpoint endpoint = socket.remote_endpoint(ec);
  if (ec) return "unknown peer";
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

}  // namespace

WsSession::WsSession(tcp::socket&& socket, std::shared_ptr<const ServerContext> context)
    : ws_(std::move(socket)),
      context_(std::move(context)),
      bucket_(context_->ws_limits.messages_per_second, context_->ws_limits.message_burst,
              Clock::now()),
      flood_window_start_(Clock::now()) {
  peer_ = describe_peer(beast::get_lowest_layer(ws_).socket());
}

WsSession::~WsSession() {
  spdlog::debug("websocket {}: session ended", peer_);
  context_->sessions->leave(this);
  Lobby& lobby = *context_->lobby;
  lobby.unsubscribe(this);
  for (const TableId id : spectating_) {
    if (const auto table = lobby.find_table(id)) table->spectator_left(this);
  }
  if (player_) {
    for (const auto& table : lobby.detach(player_->id, this)) table->player_disconnected(player_->id);
  }
}

void WsSession::run(http::request<http::string_body> upgrade) {
  upgrade_ = std::move(upgrade);
  net::dispatch(ws_.get_executor(), [self = shared_from_this()] {
    // Shutdown has begun: a connection that upgrades now is simply not served.
    if (!self->context_->sessions->join(self)) return;

    // The tcp_stream's own timer would fight the websocket timeouts, which cover the
    // handshake, idle peers and keep-alive pings.
    beast::get_lowest_layer(self->ws_).expires_never();
    self->ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    self->ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(http::field::server, "elgrande-server/" ELGRANDE_VERSION);
    }));
    // Beast fails a read past this size with message_too_big and closes with 1009.
    self->ws_.read_message_max(self->context_->ws_limits.max_message_bytes);
    self->ws_.async_accept(self->upgrade_, beast::bind_front_handler(&WsSession::on_accept, self));
  });
}

void WsSession::go_away() {
  net::dispatch(ws_.get_executor(), [self = shared_from_this()] {
    if (!self->accepted_) {
      // Mid-handshake: there is no WebSocket yet to say goodbye on.
      beast::get_lowest_layer(self->ws_).close();
      return;
    }
    if (self->closing_ && self->close_when_flushed_ == std::nullopt) return;  // already closing
    // Replies still queued would only delay the goodbye; the one in flight must finish.
    if (self->queue_.size() > 1) self->queue_.erase(self->queue_.begin() + 1, self->queue_.end());
    self->close_after_flush(websocket::close_code::going_away);
  });
}

void WsSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "websocket handshake");
  accepted_ = true;
  context_->metrics->connections_total.fetch_add(1, std::memory_order_relaxed);
  spdlog::debug("websocket {}: connected", peer_);
  upgrade_ = {};
  do_read();
}

void WsSession::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
}

void WsSession::on_read(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec == websocket::error::message_too_big) {
    // Beast has already sent the close frame (1009) and torn the connection down.
    spdlog::debug("websocket {}: message over {} bytes, closed with 1009", peer_,
                  context_->ws_limits.max_message_bytes);
    return;
  }
  if (ec) return fail(ec, "websocket read");
  if (closing_) return;
  const auto received = Clock::now();
  context_->metrics->messages_in.fetch_add(1, std::memory_order_relaxed);

  if (!ws_.got_text()) {
    buffer_.consume(buffer_.size());
    if (bucket_.take(received)) {
      send_error(ErrorCode::bad_envelope, "binary frames are not accepted; send JSON text");
    } else {
      refuse_flood();
    }
  } else {
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (bucket_.take(received)) {
      handle(text, received);
    } else {
      refuse_flood();
    }
  }
  if (!closing_ && !awaiting_save_) do_read();
}

void WsSession::refuse_flood() {
  const auto now = Clock::now();
  if (now - flood_window_start_ >= std::chrono::seconds(1)) {
    flood_window_start_ = now;
    refused_in_window_ = 0;
  }
  ++refused_in_window_;
  // Ten bursts' worth of refusals within a second is no client bug: stop reading it.
  const auto limit = static_cast<std::size_t>(10 * context_->ws_limits.message_burst);
  if (refused_in_window_ > limit) {
    spdlog::info("websocket {}: closed for flooding", peer_);
    send_error(ErrorCode::rate_limited, "too many messages; closing");
    close_after_flush(
        websocket::close_reason(websocket::close_code::policy_error, "rate limit exceeded"));
    return;
  }
  send_error(ErrorCode::rate_limited, "too many messages; this one was ignored");
}

void WsSession::handle(std::string_view text, Clock::time_point received) {
  protocol::DecodedEnvelope decoded = protocol::decode_envelope(text);
  if (const auto* error = std::get_if<protocol::EnvelopeError>(&decoded)) {
    context_->metrics->count_error(error->code);
    return send(protocol::error_message(*error));
  }
  auto& request = std::get<protocol::Envelope>(decoded);
  const std::string_view type = request.type;
  if (type == "hello") return handle_hello(request);
  if (type == "ping") return handle_ping(request);

  static constexpr std::array<std::string_view, 5> kLobby{
      "lobby.list", "lobby.subscribe", "lobby.unsubscribe", "player.games", "history.list"};
  static constexpr std::array<std::string_view, 11> kAtTable{
      "table.join",     "table.seat",  "table.leave",  "table.add_bot",
      "table.remove_bot", "table.start", "table.spectate", "table.chat",
      "game.command",   "game.resign", "table.create"};
  const bool lobby = std::find(kLobby.begin(), kLobby.end(), type) != kLobby.end();
  const bool at_table = std::find(kAtTable.begin(), kAtTable.end(), type) != kAtTable.end();
  if (!lobby && !at_table) {
    return send_error(ErrorCode::unknown_type, "unknown message type '" + request.type + "'",
                      request.id);
  }
  if (!player_) {
    return send_error(ErrorCode::not_identified, "say hello first", request.id);
  }
  if (lobby) return handle_lobby(request);
  if (type == "table.create") return handle_create_table(request);
  handle_at_table(std::move(request), received);
}

void WsSession::handle_hello(const protocol::Envelope& request) {
  const protocol::Json& payload = request.payload;
  const auto version = payload.find("protocol");
  if (version == payload.end() || !version->is_number_integer() ||
      version->get<std::int64_t>() != protocol::kProtocolVersion) {
    return send_error(
        ErrorCode::bad_payload,
        "protocol: this server speaks version " + std::to_string(protocol::kProtocolVersion),
        request.id);
  }
  std::optional<std::string> name;
  if (const auto field = payload.find("name"); field != payload.end()) {
    if (!field->is_string() || field->get_ref<const std::string&>().empty() ||
        field->get_ref<const std::string&>().size() > kMaxNameBytes) {
      return send_error(
          ErrorCode::bad_payload,
          "name: must be a string of 1 to " + std::to_string(kMaxNameBytes) + " bytes",
          request.id);
    }
    name = field->get<std::string>();
  }
  std::optional<std::string> token;
  if (const auto field = payload.find("token"); field != payload.end()) {
    if (!field->is_string()) {
      return send_error(ErrorCode::bad_payload, "token: must be a string", request.id);
    }
    token = field->get<std::string>();
  }

  Lobby& lobby = *context_->lobby;
  std::optional<Player> player;
  std::string secret;
  bool renamed = false;
  if (token) {
    player = lobby.find_player(*token);
    if (!player) {
      return send_error(ErrorCode::unknown_token,
                        "this token is unknown here; say hello without it for a new identity",
                        request.id);
    }
    secret = std::move(*token);
    if (name && *name != player->name) {
      player->name = std::move(*name);
      renamed = true;
    }
  }
  if (player_ && (!player || player->id != player_->id)) {
    return send_error(ErrorCode::wrong_state,
                      "this connection already speaks for another player; open a new one",
                      request.id);
  }
  // A new identity or a new name is saved before hello.ok hands it out; the connection
  // reads nothing more until then, so no later request can overtake the answer.
  const auto answer = [self = shared_from_this(), id = request.id](const Lobby::Identity& identity,
                                                                     bool saved) {
    net::post(self->ws_.get_executor(), [self, id, identity, saved] {
      self->finish_hello(id, saved ? std::optional(identity.player) : std::nullopt, identity.token);
    });
  };
  if (!player) {
    awaiting_save_ = true;
    lobby.create_player(std::move(name), answer);
    return;
  }
  if (renamed) {
    awaiting_save_ = true;
    lobby.rename(player->id, player->name,
                 [answer, identity = Lobby::Identity{*player, secret}](bool saved) { answer(identity, saved); });
    return;
  }
  finish_hello(request.id, player, secret);
}

void WsSession::finish_hello(const std::optional<protocol::RequestId>& id,
                             const std::optional<Player>& player, const std::string& token) {
  const bool resume_reading = std::exchange(awaiting_save_, false);
  if (!player) {
    send_error(ErrorCode::unavailable, "the server could not save your identity; try again", id);
  } else {
    const bool first = !player_;
    player_ = player;
    spdlog::debug("websocket {}: hello from player {} ({})", peer_, player_->id, player_->name);
    send(protocol::reply_message("hello", id,
                                 {{"protocol", protocol::kProtocolVersion},
                                  {"server", "elgrande-server/" ELGRANDE_VERSION},
                                  {"player", to_json(*player_)},
                                  {"token", token}}));
    if (first) {
      // Every table the player sits at sends this connection the table and the seat's view.
      for (const auto& table : context_->lobby->attach(player_->id, shared_from_this())) {
        table->player_connected(shared_from_this(), player_->id);
      }
    }
  }
  if (resume_reading && !closing_) do_read();
}

void WsSession::handle_ping(const protocol::Envelope& request) {
  send(protocol::reply_message(request.type, request.id, {{"time", unix_milliseconds()}}));
}

void WsSession::handle_lobby(const protocol::Envelope& request) {
  Lobby& lobby = *context_->lobby;
  if (request.type == "lobby.list") {
    return send(protocol::reply_message(request.type, request.id, {{"tables", lobby.list()}}));
  }
  if (request.type == "lobby.subscribe") {
    return send(protocol::reply_message(request.type, request.id,
                                        {{"tables", lobby.subscribe(shared_from_this())}}));
  }
  if (request.type == "player.games") {
    return send(protocol::reply_message(request.type, request.id, {{"games", lobby.games_of(player_->id)}}));
  }
  if (request.type == "history.list") return handle_history(request);
  lobby.unsubscribe(this);
  send(protocol::reply_message(request.type, request.id));
}

void WsSession::handle_history(const protocol::Envelope& request) {
  const protocol::Json& payload = request.payload;
  std::optional<PlayerId> player = player_->id;
  if (const auto field = payload.find("everyone"); field != payload.end()) {
    if (!field->is_boolean()) return send_error(ErrorCode::bad_payload, "everyone: must be a boolean", request.id);
    if (field->get<bool>()) player.reset();
  }
  std::optional<TableId> before;
  if (const auto field = payload.find("before"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1) {
      return send_error(ErrorCode::bad_payload, "before: must be a table id", request.id);
    }
    before = field->get<TableId>();
  }
  int limit = kHistoryPage;
  if (const auto field = payload.find("limit"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1 ||
        field->get<std::int64_t>() > kHistoryPage) {
      return send_error(ErrorCode::bad_payload, "limit: 1 to " + std::to_string(kHistoryPage), request.id);
    }
    limit = field->get<int>();
  }
  // The query runs on the database thread; the answer comes back to this strand.
  context_->lobby->storage().read([self = shared_from_this(), id = request.id, player, before,
                                   limit](db::Store& store) {
    protocol::Json games = protocol::Json::array();
    for (const db::FinishedGame& game : store.finished_games(player, before, limit)) {
      games.push_back(history_entry(game));
    }
    self->deliver(protocol::reply_message("history.list", id, {{"games", std::move(games)}}));
  });
}

void WsSession::handle_create_table(const protocol::Envelope& request) {
  const protocol::Json& payload = request.payload;
  std::string name;
  if (const auto field = payload.find("name"); field != payload.end()) {
    if (!field->is_string() || field->get_ref<const std::string&>().empty() ||
        field->get_ref<const std::string&>().size() > kMaxTableNameBytes) {
      return send_error(
          ErrorCode::bad_payload,
          "name: must be a string of 1 to " + std::to_string(kMaxTableNameBytes) + " bytes",
          request.id);
    }
    name = field->get<std::string>();
  }
  const auto options_field = payload.find("options");
  if (options_field == payload.end()) {
    return send_error(ErrorCode::bad_payload, "options: missing", request.id);
  }
  protocol::Decoded<Options> options = protocol::options_from_json(*options_field);
  if (!options) {
    return send_error(ErrorCode::bad_payload, "options: " + options.error().message, request.id);
  }
  TableConfig config{std::move(name), options.value()};
  if (const auto field = payload.find("turn_seconds"); field != payload.end()) {
    const bool valid = field->is_number_integer() &&
                       (field->get<std::int64_t>() == 0 ||
                        (field->get<std::int64_t>() >= kMinTurnSeconds &&
                         field->get<std::int64_t>() <= kMaxTurnSeconds));
    if (!valid) {
      return send_error(ErrorCode::bad_payload,
                        "turn_seconds: 0 (no limit) or " + std::to_string(kMinTurnSeconds) +
                            " to " + std::to_string(kMaxTurnSeconds),
                        request.id);
    }
    config.turn_seconds = field->get<int>();
  }
  if (const auto field = payload.find("on_timeout"); field != payload.end()) {
    const auto policy = field->is_string() ? on_timeout_from(field->get<std::string>()) : std::nullopt;
    if (!policy) {
      return send_error(ErrorCode::bad_payload, "on_timeout: \"bot_answers\" or \"replace_seat\"", request.id);
    }
    config.on_timeout = *policy;
  }
  if (config.on_timeout == OnTimeout::replace_seat) {
    config.replace_after = kDefaultReplaceAfter;
    if (const auto field = payload.find("replace_after"); field != payload.end()) {
      if (!field->is_number_integer() || field->get<std::int64_t>() < 1 ||
          field->get<std::int64_t>() > kMaxReplaceAfter) {
        return send_error(ErrorCode::bad_payload,
                          "replace_after: 1 to " + std::to_string(kMaxReplaceAfter), request.id);
      }
      config.replace_after = field->get<int>();
    }
  }
  const auto table = context_->lobby->create_table(*player_, std::move(config));
  spdlog::debug("websocket {}: player {} created table {}", peer_, player_->id, table->id());
  table->open(shared_from_this(), request.id);
}

void WsSession::handle_at_table(protocol::Envelope request, Clock::time_point received) {
  const auto field = request.payload.find("table");
  if (field == request.payload.end() || !field->is_number_integer()) {
    return send_error(ErrorCode::bad_payload, "table: must be a table id", request.id);
  }
  const auto table = context_->lobby->find_table(field->get<TableId>());
  if (!table) {
    return send_error(ErrorCode::not_found,
                      "no table " + std::to_string(field->get<TableId>()), request.id);
  }
  if (request.type == "table.spectate") spectating_.insert(table->id());
  table->handle(shared_from_this(), *player_, std::move(request), received);
}

void WsSession::deliver(std::shared_ptr<const std::string> message) {
  net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)] {
    self->send(std::move(message));
  });
}

void WsSession::send_error(ErrorCode code, std::string_view message,
                           const std::optional<protocol::RequestId>& id) {
  context_->metrics->count_error(code);
  send(protocol::error_message(code, message, id));
}

void WsSession::send(std::string message) {
  send(std::make_shared<const std::string>(std::move(message)));
}

void WsSession::send(std::shared_ptr<const std::string> message) {
  if (closing_) return;
  if (queue_.size() >= context_->ws_limits.max_queued_messages) {
    return drop("outgoing queue full; the peer is not reading");
  }
  context_->metrics->messages_out.fetch_add(1, std::memory_order_relaxed);
  queue_.push_back(std::move(message));
  if (queue_.size() == 1) do_write();
}

void WsSession::do_write() {
  ws_.text(true);
  ws_.async_write(net::buffer(*queue_.front()),
                  beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
}

void WsSession::on_write(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec) return fail(ec, "websocket write");
  queue_.pop_front();
  if (!queue_.empty()) return do_write();
  if (close_when_flushed_) do_close(*std::exchange(close_when_flushed_, std::nullopt));
}

void WsSession::close_after_flush(websocket::close_reason reason) {
  closing_ = true;
  if (queue_.empty()) return do_close(reason);
  close_when_flushed_ = reason;
}

void WsSession::do_close(websocket::close_reason reason) {
  ws_.async_close(reason, beast::bind_front_handler(&WsSession::on_close, shared_from_this()));
}

void WsSession::on_close(beast::error_code ec) {
  if (ec) return fail(ec, "websocket close");
  spdlog::debug("websocket {}: closed", peer_);
}

void WsSession::drop(std::string_view why) {
  spdlog::info("websocket {}: dropped: {}", peer_, why);
  closing_ = true;
  close_when_flushed_.reset();
  // Pending operations end with operation_aborted and release the session.
  beast::get_lowest_layer(ws_).close();
}

}  // namespace elgrande::server
