#include "bot_client.hpp"

#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <limits>
#include <map>
#include <utility>

#include "elgrande/engine/bot.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/envelope.hpp"

namespace elgrande::bot {

std::optional<Url> parse_url(std::string_view text) {
  constexpr std::string_view kScheme = "ws://";
  if (text.substr(0, kScheme.size()) != kScheme) return std::nullopt;
  text.remove_prefix(kScheme.size());
  Url url;
  const auto slash = text.find('/');
  if (slash != std::string_view::npos) url.path = std::string(text.substr(slash));
  const std::string_view authority = text.substr(0, slash);
  const auto colon = authority.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == authority.size()) {
    return std::nullopt;
  }
  url.host = std::string(authority.substr(0, colon));
  url.port = std::string(authority.substr(colon + 1));
  return url;
}

// --- Client ---

Client::Client(Swarm& swarm, std::size_t index, std::string name, std::uint64_t seed)
    : swarm_(swarm),
      index_(index),
      name_(std::move(name)),
      rng_{seed},
      resolver_(swarm.io()),
      retry_(swarm.io()),
      think_(swarm.io()) {}

void Client::connect() {
  ws_ = std::make_unique<websocket::stream<beast::tcp_stream, false>>(swarm_.io());
  outbox_.clear();
  buffer_.clear();
  // Whatever was in flight may or may not have reached the server: the view the server
  // sends on reconnection decides.
  in_flight_.reset();
  retry_.cancel();
  acted_version_ = -1;
  const Url& url = this->url();
  resolver_.async_resolve(
      url.host, url.port,
      [self = shared_from_this()](beast::error_code ec, const tcp::resolver::results_type& found) {
        if (ec) return self->fail("resolve", ec);
        beast::get_lowest_layer(*self->ws_).expires_after(std::chrono::seconds(10));
        beast::get_lowest_layer(*self->ws_)
            .async_connect(found, [self](beast::error_code connect_ec, const tcp::endpoint&) {
              self->on_connect(connect_ec);
            });
      });
}

const Url& Client::url() const {
  const SwarmSettings& settings = swarm_.settings();
  const std::size_t which = (index_ + reconnections_) % (1 + settings.more_urls.size());
  return which == 0 ? settings.url : settings.more_urls[which - 1];
}

void Client::on_connect(beast::error_code ec) {
  if (ec) return fail("connect", ec);
  beast::get_lowest_layer(*ws_).expires_never();
  // Commands are small; Nagle would hold each one back for the server's delayed ACK.
  beast::get_lowest_layer(*ws_).socket().set_option(tcp::no_delay(true), ec);
  ws_->set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  const Url& url = this->url();
  ws_->async_handshake(url.host + ":" + url.port, url.path,
                       beast::bind_front_handler(&Client::on_handshake, shared_from_this()));
}

void Client::on_handshake(beast::error_code ec) {
  if (ec) return fail("handshake", ec);
  open_ = true;
  Json hello = {{"protocol", swarm_.settings().protocol}, {"name", name_}};
  if (!token_.empty()) hello["token"] = token_;
  send({{"type", "hello"}, {"payload", std::move(hello)}});
  do_read();
}

void Client::drop() {
  if (!open_) return;
  open_ = false;
  beast::error_code ignored;
  beast::get_lowest_layer(*ws_).socket().close(ignored);
}

void Client::send(const Json& message) {
  if (!open_) return;
  Json copy = message;
  if (!copy.contains("id")) copy["id"] = next_id_++;
  if (swarm_.settings().on_send) swarm_.settings().on_send(*this, copy);
  outbox_.push_back(copy.dump());
  if (outbox_.size() == 1) do_write();
}

void Client::do_write() {
  ws_->text(true);
  ws_->async_write(net::buffer(outbox_.front()),
                   beast::bind_front_handler(&Client::on_write, shared_from_this()));
}

void Client::on_write(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec) return fail("write", ec);
  outbox_.pop_front();
  if (!outbox_.empty()) do_write();
}

void Client::do_read() {
  ws_->async_read(buffer_, beast::bind_front_handler(&Client::on_read, shared_from_this()));
}

void Client::on_read(beast::error_code ec, std::size_t /*bytes*/) {
  if (ec) return fail("read", ec);
  std::string text = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  Json message;
  try {
    message = Json::parse(text);
  } catch (const Json::parse_error& error) {
    swarm_.failure("client " + std::to_string(index_) + ": server sent invalid JSON: " + error.what());
    return do_read();
  }
  if (swarm_.settings().record_frames) frames_.push_back(std::move(text));
  on_message(message);
  if (swarm_.settings().on_message) swarm_.settings().on_message(*this, message);
  if (open_) do_read();
}

void Client::fail(std::string_view what, beast::error_code ec) {
  const bool was_open = open_;
  open_ = false;
  if (done() || ec == net::error::operation_aborted) return;
  if (swarm_.settings().reconnect && (was_open || what == "connect" || what == "handshake")) {
    // The server went away (a restart): come back with the token until it answers.
    ++reconnections_;
    retry_.expires_after(swarm_.settings().reconnect_pause);
    retry_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
      if (!wait_ec) self->connect();
    });
    return;
  }
  if (was_open) {
    swarm_.failure("client " + std::to_string(index_) + ": " + std::string(what) + ": " +
                   ec.message());
  }
}

void Client::on_message(const Json& message) {
  const std::string& type = message.at("type").get_ref<const std::string&>();
  const Json& payload = message.contains("payload") ? message["payload"] : Json::object();
  if (type == "hello.ok") {
    player_id_ = payload.at("player").at("id").get<std::int64_t>();
    token_ = payload.at("token").get<std::string>();
    return swarm_.on_hello(*this);
  }
  if (type == "game.update") return on_game_update(payload);
  if (type == "game.over") {
    if (entrant_ && payload.value("table", std::int64_t{0}) != table_.value_or(0)) return;
    game_over_ = true;
    result_ = payload.at("result");
    return swarm_.check_done();
  }
  if (type == "tournament.update" && entrant_ && payload.at("tournament").at("id") == entrant_->tournament) {
    const std::string status = payload["tournament"].at("status");
    tournament_over_ = status == "finished" || status == "cancelled";
    return swarm_.check_done();
  }
  if (type == "account.sign_up.ok" && entrant_) {
    token_ = payload.at("token").get<std::string>();  // the session's: the guest's no longer works
    entrant_->account = true;
  }
  if (type == "game.command.ok" || (type == "error" && in_flight_)) {
    // Replies come in request order and a client has one command in flight, so an
    // error while one is in flight is its answer.
    const auto sent = std::exchange(in_flight_, std::nullopt);
    if (type == "error" && payload.value("code", "") == "rate_limited") {
      // The command was not read: send it again (or a fresh one) a little later.
      acted_version_ = -1;
      in_flight_ = sent;  // nothing else goes out meanwhile
      retry_.expires_after(std::chrono::milliseconds(250));
      retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (ec) return;
        self->in_flight_.reset();
        self->act();
      });
      return swarm_.on_reply(*this, message, std::nullopt);
    }
    if (type == "game.command.ok") {
      // Updates older than the state our command made are stale: acting on one would
      // answer the same decision twice.
      acted_version_ = std::max(acted_version_, message["payload"]["version"].get<std::int64_t>() - 1);
    }
    // A refusal changed nothing, so the next update is answered as usual. Most are races
    // with another seat's answer; stale_version means our decision changed after the
    // update we answered, and its successor is here already (act answers it) or on its way.
    swarm_.on_reply(*this, message, sent);
    return act();
  }
  if (type == "error" || type.ends_with(".ok")) swarm_.on_reply(*this, message, std::nullopt);
}

void Client::on_game_update(const Json& payload) {
  const std::int64_t table = payload.at("table").get<std::int64_t>();
  Json& held = views_[table];
  if (const auto whole = payload.find("view"); whole != payload.end()) {
    held = *whole;
  } else if (held.is_object() && held.value("version", std::int64_t{-1}) == payload.at("base").get<std::int64_t>()) {
    protocol::apply_merge_patch(held, payload.at("patch"));
  } else {
    // A patch of a view it does not hold: the server's bookkeeping is wrong. Ask again.
    swarm_.failure("client " + std::to_string(index_) + ": a view patch for another view than the one held");
    send({{"type", "game.view"}, {"payload", {{"table", table}}}});
    return;
  }
  if (entrant_ && table != table_) {
    // The tournament seated it at its next table: a new game from its first version.
    table_ = table;
    latest_version_ = acted_version_ = -1;
    latest_ = Json();
    in_flight_.reset();
    game_over_ = false;
  }
  const std::int64_t version = payload.at("version").get<std::int64_t>();
  if (version < latest_version_) {
    swarm_.failure("client " + std::to_string(index_) + ": game.update went back in time");
  }
  latest_version_ = version;
  latest_ = payload;
  if (entrant_ && entrant_->play_now && !entrant_->first_decision && held.contains("decision")) {
    entrant_->first_decision = Clock::now();
  }
  swarm_.on_version_seen(*this, version);
  act();
}

void Client::act(bool thought) {
  if (game_over_ || in_flight_ || thinking_ || latest_.is_null() || !open_) return;
  if (latest_version_ <= acted_version_) return;  // already answered this state
  const Json& view_json = views_[*table_];
  if (!view_json.contains("decision")) return;
  if (swarm_.settings().think.count() > 0 && !thought) {
    // A pause before answering, as a person would take; the newest view then decides.
    thinking_ = true;
    think_.expires_after(swarm_.settings().think);
    think_.async_wait([self = shared_from_this()](beast::error_code ec) {
      self->thinking_ = false;
      if (ec) return;
      self->act(true);
    });
    return;
  }
  protocol::Decoded<View> decoded = protocol::view_from_json(view_json);
  if (!decoded) {
    swarm_.failure("client " + std::to_string(index_) + ": undecodable view: " +
                   decoded.error().message);
    return;
  }
  const Command command = random_command(decoded.value(), rng_);
  acted_version_ = latest_version_;
  in_flight_ = Clock::now();
  // The version answered, so that the server refuses the command if the game has moved on.
  send({{"type", "game.command"},
        {"payload",
         {{"table", *table_}, {"command", protocol::to_json(command)}, {"version", latest_version_}}}});
}

// --- Swarm ---

Swarm::Swarm(SwarmSettings settings) : settings_(std::move(settings)) {}

Swarm::~Swarm() {
  for (const auto& client : clients_) client->drop();
}

void Swarm::add_table(const TableSpec& spec) {
  TableRun run;
  run.spec = spec;
  const int humans = spec.options.players - spec.server_bots;
  for (int i = 0; i < humans; ++i) {
    const std::size_t index = clients_.size();
    clients_.push_back(std::make_shared<Client>(*this, index,
                                                "bot " + std::to_string(index),
                                                settings_.seed * 1000003 + index));
    run.seated.push_back(index);
    table_of_client_[index] = tables_.size();
  }
  for (int i = 0; i < spec.spectators; ++i) {
    const std::size_t index = clients_.size();
    clients_.push_back(std::make_shared<Client>(*this, index, "watcher " + std::to_string(index),
                                                settings_.seed * 1000003 + index));
    clients_.back()->spectator_ = true;
    run.watching.push_back(index);
    table_of_client_[index] = tables_.size();
  }
  tables_.push_back(std::move(run));
}

Report Swarm::run(std::chrono::seconds limit) {
  report_ = Report{};
  report_.tables = tables_.size();
  const auto started = Clock::now();
  net::steady_timer deadline(io_, limit);
  deadline.async_wait([this](beast::error_code ec) {
    if (ec) return;
    failure("time limit reached before every game ended");
    io_.stop();
  });
  for (const auto& client : clients_) client->connect();
  io_.restart();
  io_.run();
  report_.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  for (const TableRun& table : tables_) {
    if (clients_[table.seated.front()]->game_over()) ++report_.games_finished;
  }
  report_.join_to_decision_ms = join_to_decision_ms();
  return report_;
}

void Swarm::add_entrants(std::size_t count, std::int64_t tournament, const std::string& prefix) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t index = clients_.size();
    clients_.push_back(std::make_shared<Client>(*this, index, "bot " + std::to_string(index),
                                                settings_.seed * 1000003 + index));
    clients_.back()->entrant_.emplace();
    clients_.back()->entrant_->tournament = tournament;
    clients_.back()->entrant_->username = prefix + std::to_string(i + 1);
  }
}

void Swarm::add_seekers(std::size_t count, const Json& play_join, const std::string& prefix) {
  const std::size_t first = clients_.size();
  add_entrants(count, 0, prefix);
  for (std::size_t i = first; i < clients_.size(); ++i) clients_[i]->entrant_->play_now = play_join;
}

void Swarm::on_hello(Client& client) {
  if (client.entrant_) {
    if (client.entrant_->account) return;  // a reconnection: the server pushes its table and view
    if (std::exchange(client.entrant_->signing_up, false)) --signing_up_;  // lost with the connection
    return sign_up_later(client);
  }
  TableRun& table = tables_[table_of_client_.at(client.index())];
  if (client.table_) return;  // a reconnection: the server pushes the table and the view
  const bool host = table.seated.front() == client.index();
  if (host && !table.id) {
    Json create = {{"options", protocol::to_json(table.spec.options)}};
    if (table.spec.turn_seconds) create["turn_seconds"] = table.spec.turn_seconds;
    return client.send({{"type", "table.create"}, {"payload", std::move(create)}});
  }
  if (table.id) join(client, *table.id);
}

void Swarm::sign_up_later(Client& client) {
  to_sign_up_.push_back(client.index());
  sign_up_next();
}

void Swarm::sign_up_next() {
  while (signing_up_ < kSignUpsAtOnce && !to_sign_up_.empty()) {
    Client& client = *clients_[to_sign_up_.front()];
    to_sign_up_.pop_front();
    if (!client.open_ || client.entrant_->account || client.entrant_->signing_up) continue;
    client.entrant_->signing_up = true;
    ++signing_up_;
    client.send({{"type", "account.sign_up"},
                 {"payload", {{"username", client.entrant_->username},
                              {"password", "elgrande-bot password"},
                              {"device", "elgrande-bot"}}}});
  }
}

void Swarm::on_sign_up_answer(Client& client, const Json& message) {
  client.entrant_->signing_up = false;
  --signing_up_;
  const Json& payload = message.at("payload");
  if (message.at("type") == "error" && payload.value("code", "") == "unavailable") {
    client.retry_.expires_after(std::chrono::seconds(1));
    client.retry_.async_wait([this, self = client.shared_from_this()](beast::error_code ec) {
      if (!ec) sign_up_later(*self);
    });
  }
  sign_up_next();
}

void Swarm::join(Client& client, std::int64_t table) {
  client.send({{"type", client.spectator_ ? "table.spectate" : "table.join"},
               {"payload", {{"table", table}}}});
}

void Swarm::on_reply(Client& client, const Json& message,
                     std::optional<Clock::time_point> sent) {
  const std::string& type = message.at("type").get_ref<const std::string&>();
  const Json& payload = message.at("payload");
  if (client.entrant_ && client.entrant_->signing_up && (type == "account.sign_up.ok" || type == "error")) {
    on_sign_up_answer(client, message);
  }
  if (type == "error") {
    // By code and, for refused game commands, the engine's reason.
    std::string key = payload.at("code").get<std::string>();
    if (payload.contains("reason")) key += "/" + payload["reason"].get<std::string>();
    if (++report_.errors[key] == 1) report_.error_examples[key] = payload.value("message", "");
    return;
  }
  if (client.entrant_) {
    if (type == "account.sign_up.ok" && client.entrant_->play_now) {
      client.entrant_->joined_queue = Clock::now();
      client.send({{"type", "play.join"}, {"payload", *client.entrant_->play_now}});
    } else if (type == "account.sign_up.ok") {
      client.send({{"type", "tournament.register"}, {"payload", {{"tournament", client.entrant_->tournament}}}});
    }
    if (type == "game.command.ok") ++report_.commands;
    return;
  }
  TableRun& table = tables_[table_of_client_.at(client.index())];
  if (type == "table.create.ok") {
    table.id = payload.at("table").at("id").get<std::int64_t>();
    client.table_ = table.id;
    client.seat_ = 0;
    for (int b = 0; b < table.spec.server_bots; ++b) {
      Json payload = {{"table", *table.id}};
      if (!table.spec.server_bot_level.empty()) payload["level"] = table.spec.server_bot_level;
      client.send({{"type", "table.add_bot"}, {"payload", std::move(payload)}});
    }
    for (std::size_t i = 1; i < table.seated.size(); ++i) {
      Client& other = *clients_[table.seated[i]];
      if (other.player_id_) join(other, *table.id);
    }
    for (const std::size_t index : table.watching) {
      Client& watcher = *clients_[index];
      if (watcher.player_id_) join(watcher, *table.id);
    }
  } else if (type == "table.join.ok") {
    client.table_ = table.id;
    client.seat_ = payload.at("seat").get<int>();
    ++table.joined;
  } else if (type == "table.add_bot.ok") {
    ++table.joined;
  } else if (type == "table.spectate.ok") {
    client.table_ = table.id;
    ++table.joined;
  } else if (type == "game.command.ok") {
    ++report_.commands;
    if (sent) table.pending[payload.at("version").get<std::int64_t>()] = *sent;
    on_version_seen(client, -1);
  }
  // Spectators are in before the start, so that they see the whole game.
  const std::size_t others = table.seated.size() - 1 + table.watching.size() +
                             static_cast<std::size_t>(table.spec.server_bots);
  if (!table.started && table.id && table.joined == others) {
    table.started = true;
    clients_[table.seated.front()]->send({{"type", "table.start"}, {"payload", {{"table", *table.id}}}});
  }
}

void Swarm::on_version_seen(Client& client, std::int64_t /*version*/) {
  if (client.entrant_) return;
  TableRun& table = tables_[table_of_client_.at(client.index())];
  if (table.pending.empty()) return;
  std::int64_t everyone = std::numeric_limits<std::int64_t>::max();
  for (const std::size_t index : table.seated) {
    everyone = std::min(everyone, clients_[index]->latest_version_);
  }
  const auto now = Clock::now();
  while (!table.pending.empty() && table.pending.begin()->first <= everyone) {
    report_.latencies_us.push_back(
        std::chrono::duration<double, std::micro>(now - table.pending.begin()->second).count());
    table.pending.erase(table.pending.begin());
  }
}

std::vector<double> Swarm::join_to_decision_ms() const {
  struct Span {
    Clock::time_point last_join = Clock::time_point::min();
    Clock::time_point first_decision = Clock::time_point::max();
  };
  std::map<std::int64_t, Span> tables;
  for (const auto& client : clients_) {
    const auto& entrant = client->entrant_;
    if (!entrant || !entrant->joined_queue || !entrant->first_decision || !client->table_) continue;
    Span& span = tables[*client->table_];
    span.last_join = std::max(span.last_join, *entrant->joined_queue);
    span.first_decision = std::min(span.first_decision, *entrant->first_decision);
  }
  std::vector<double> spans;
  for (const auto& [table, span] : tables) {
    const auto span_ms = std::chrono::duration<double, std::milli>(span.first_decision - span.last_join);
    spans.push_back(span_ms.count());
  }
  return spans;
}

void Swarm::failure(std::string what) { report_.failures.push_back(std::move(what)); }

void Swarm::check_done() {
  const bool done = std::all_of(clients_.begin(), clients_.end(),
                                [](const auto& client) { return client->done(); });
  if (done) io_.stop();
}

}  // namespace elgrande::bot
