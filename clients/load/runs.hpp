#pragma once

// elgrande-load's tables: each played over and over by its seats, paced to a rate (TableRun),
// or the same turns against elgrande-relay (RelayRun). Included by load.cpp after
// connection.hpp, inside its anonymous namespace (Arguments, Tally, Connection, SeatRun).

#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/protocol/codec.hpp"
#include "elgrande/protocol/plain_json.hpp"

// --- Pacing: with a rate, a table takes its turn at fixed intervals (not bursting to catch
// up after a stall); without, at once. ---

class Pacer {
 public:
  // `phase` in [0, 1): where in the interval this table's slots fall, so that the tables'
  // commands spread evenly over time rather than arriving all at once.
  Pacer(net::io_context& io, double interval_s, double phase)
      : timer_(io), interval_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval_s))),
        next_slot_(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval_s * phase))) {}

  // Calls `act` now if this table's slot has come, else once when it comes (a call while
  // one is waiting is dropped: `act` looks afresh at who owes an answer).
  void then(const std::function<void()>& act) {
    if (interval_ <= Clock::duration::zero()) return act();
    const auto now = Clock::now();
    // After a stall, the slots missed are skipped, keeping the phase (no burst to catch up).
    if (next_slot_ < now - interval_) next_slot_ += (now - next_slot_) / interval_ * interval_;
    if (next_slot_ <= now) {
      next_slot_ += interval_;
      return act();
    }
    if (waiting_) return;
    waiting_ = true;
    timer_.expires_at(next_slot_);
    timer_.async_wait([this, act](beast::error_code ec) {
      waiting_ = false;
      if (!ec) then(act);
    });
  }

 private:
  net::steady_timer timer_;
  const Clock::duration interval_;
  Clock::time_point next_slot_;
  bool waiting_ = false;
};

void count_received(Tally& tally, const std::string& text, bool ack) {
  if (!tally.measuring) return;
  (ack ? tally.ack_frames : tally.other_frames) += 1;
  (ack ? tally.ack_bytes : tally.other_bytes) += text.size();
}

// A message's fields from either kind of document: the updates and acknowledgements, most
// of what arrives, are read plainly (plain_json.hpp), the rest as nlohmann's documents.
const Json* field(const Json& object, std::string_view key) {
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}
const protocol::PlainValue* field(const protocol::PlainValue& object, std::string_view key) { return object.member(key); }
std::optional<std::int64_t> integer(const Json* value) {
  return value && value->is_number_integer() ? std::optional(value->get<std::int64_t>()) : std::nullopt;
}
std::optional<std::int64_t> integer(const protocol::PlainValue* value) {
  return value && value->is_number_integer() ? std::optional(value->number) : std::nullopt;
}
Json document(const Json& value) { return value; }
Json document(const protocol::PlainValue& value) { return protocol::to_json(value); }

// --- A table played over and over by its seats. ---

class Run {
 public:
  virtual ~Run() = default;
  virtual void start(const std::vector<tcp::endpoint>& servers, const std::function<net::ip::address()>& next_source) = 0;
  // When the table last moved on (a new version, or a command answered by the relay): a
  // table that stops moving has lost a command or an answer somewhere.
  Clock::time_point last_progress() const { return last_progress_; }

 protected:
  Clock::time_point last_progress_ = Clock::now();
};

class TableRun : public Run {
 public:
  TableRun(net::io_context& io, Tally& tally, const Arguments& args, int number, double interval_s)
      : io_(io), tally_(tally), args_(args), number_(number), pacer_(io, interval_s, static_cast<double>(number) / std::max(1, args.tables)) {
    for (int s = 0; s < args.players; ++s) {
      SeatRun seat;
      seat.rng = Rng{static_cast<std::uint64_t>(number) * 131 + static_cast<std::uint64_t>(s)};
      seats_.push_back(std::move(seat));
    }
  }

  void start(const std::vector<tcp::endpoint>& servers, const std::function<net::ip::address()>& next_source) override {
    const auto server = [&](int connection) { return servers[static_cast<std::size_t>(number_ + connection) % servers.size()]; };
    for (int s = 0; s < args_.players; ++s) {
      seats_[s].connection = std::make_shared<Connection>(io_, tally_);
      seats_[s].connection->start(server(s), next_source(), args_.host,
                                  [this, s](const std::string& text) { on_seat_message(s, text); },
                                  [this, s] { hello(*seats_[s].connection, "T" + std::to_string(number_) + "S" + std::to_string(s)); });
    }
    for (int w = 0; w < args_.spectators; ++w) {
      auto connection = std::make_shared<Connection>(io_, tally_);
      spectators_.push_back(connection);
      connection->start(server(args_.players + w), next_source(), args_.host, [this](const std::string& text) { on_spectator_message(text); },
                        [this, connection, w] { hello(*connection, "T" + std::to_string(number_) + "W" + std::to_string(w)); });
    }
  }

 private:
  std::vector<protocol::PlainValue> plain_;  // the message being read, reused

  struct SeatRun {
    std::shared_ptr<Connection> connection;
    Rng rng;
    Json view;                  // held, patched
    std::int64_t version = -1;  // of the view held
    std::int64_t acted = -1;    // the version last answered
    bool in_flight = false;     // one command at a time, as a person sends them
    bool greeted = false;
    std::uint64_t answers = 0;  // commands sent
  };

  // A move needs only the options and the decision; every kWholeViewEvery-th answer of a
  // seat checks the whole view it holds too (a view a bad patch broke stays broken, so it
  // is found soon), which costs the generator a sixth of its CPU if done every time.
  static constexpr std::uint64_t kWholeViewEvery = 16;

  void hello(Connection& connection, const std::string& name) {
    connection.send(Json{{"type", "hello"}, {"id", "hello"}, {"payload", {{"protocol", 2}, {"name", name}}}});
  }

  void create() {
    const Json options = {{"players", args_.players}, {"short_game", args_.short_game}, {"automa", false}, {"four_stacks", false}};
    seats_[0].connection->send(Json{{"type", "table.create"},
                                    {"id", "create"},
                                    {"payload", {{"name", "Load " + std::to_string(number_)}, {"options", options}}}});
  }

  void on_spectator_message(const std::string& text) {
    count_received(tally_, text, false);
    if (text.find("\"hello.ok\"") != std::string::npos) {
      ++tally_.ready;
      if (table_) spectate_all();
    }
  }
  void spectate_all() {
    for (auto& connection : spectators_)
      connection->send(Json{{"type", "table.spectate"}, {"payload", {{"table", *table_}}}});
  }

  void on_seat_message(int s, const std::string& text) {
    if (protocol::read_plain_json(text, plain_) && plain_.front().is_object()) {
      const protocol::PlainValue& m = plain_.front();
      const protocol::PlainValue* type = m.member("type");
      const protocol::PlainValue* payload = m.member("payload");
      if (type && type->is_string() && payload && payload->is_object()) {
        if (type->text == "game.update") {
          count_received(tally_, text, false);
          return on_update(s, *payload);
        }
        if (type->text == "game.command.ok") {
          count_received(tally_, text, true);
          return on_command_answered(s, m);
        }
      }
    }
    const Json m = Json::parse(text, nullptr, false);
    const std::string& type = m.is_object() ? m.value("type", std::string()) : std::string();
    count_received(tally_, text, type == "game.command.ok");
    SeatRun& seat = seats_[s];
    if (type == "hello.ok") {
      ++tally_.ready;
      seat.greeted = true;
      if (std::all_of(seats_.begin(), seats_.end(), [](const SeatRun& x) { return x.greeted; })) create();
    } else if (type == "table.create.ok") {
      table_ = m["payload"]["table"]["id"].get<std::int64_t>();
      joined_ = 1;
      for (int o = 1; o < args_.players; ++o)
        seats_[o].connection->send(Json{{"type", "table.join"}, {"id", "join"}, {"payload", {{"table", *table_}, {"seat", o}}}});
      spectate_all();
    } else if (type == "table.join.ok") {
      if (++joined_ == args_.players) seats_[0].connection->send(Json{{"type", "table.start"}, {"payload", {{"table", *table_}}}});
    } else if (type == "game.update") {
      on_update(s, m["payload"]);
    } else if (type == "game.command.ok") {
      on_command_answered(s, m);
    } else if (type == "game.over") {
      if (s == 0 && m["payload"]["table"] == table_) {
        // The host sets up the next game at once; what is still on its way from this one is
        // not listened to.
        ++tally_.games;
        table_.reset();
        for (SeatRun& each : seats_) each.view = Json(), each.version = each.acted = -1, each.in_flight = false;
        awaiting_.clear();
        game_first_request_ = request_ + 1;
        if (!tally_.stopping) create();
      }
    } else if (type == "error") {
      const Json& payload = m["payload"];
      const auto id = m.find("id");
      const bool command = id != m.end() && id->is_number_integer();
      tally_.error(std::string(command ? "game.command: " : "setup: ") + payload.value("code", "?") +
                   (payload.contains("reason") ? "/" + payload.value("reason", "") : ""));
      if (command && id->get<std::int64_t>() >= game_first_request_) {
        awaiting_.erase(id->get<std::int64_t>());
        seat.in_flight = false;
        if (seat.view.contains("decision") && seat.version > seat.acted) pace();
      }
    }
  }

  template <class Value>
  void on_command_answered(int s, const Value& answer) {
    SeatRun& seat = seats_[s];
    const std::optional<std::int64_t> id = integer(field(answer, "id"));
    const Value* payload = field(answer, "payload");
    const std::optional<std::int64_t> version = payload ? integer(field(*payload, "version")) : std::nullopt;
    if (!id || !version) return tally_.failure("an acknowledgement without its id and version");
    // An answer to a command of the game before (this seat's connection may be read
    // after the host's has seen that game end) says nothing of this one.
    if (*id < game_first_request_) return;
    if (tally_.measuring) ++tally_.commands;
    seat.in_flight = false;
    // Updates older than the one this command made may still be on their way: never
    // answer them (another seat's answer to a simultaneous decision came first).
    seat.acted = std::max(seat.acted, *version - 1);
    if (seat.view.contains("decision") && seat.version > seat.acted) pace();
  }

  template <class Value>
  void on_update(int s, const Value& update) {
    SeatRun& seat = seats_[s];
    if (!table_ || integer(field(update, "table")) != *table_) return;
    const std::optional<std::int64_t> version = integer(field(update, "version"));
    const Value* patch = field(update, "patch");
    if (!version) return tally_.failure("an update without its version");
    if (const Value* whole = field(update, "view")) {
      seat.view = document(*whole);
    } else if (patch && integer(field(update, "base")) == seat.version) {
      protocol::apply_merge_patch(seat.view, *patch);
    } else {
      tally_.failure("a patch for another view than the one held");
      seat.connection->send(Json{{"type", "game.view"}, {"payload", {{"table", *table_}}}});
      return;
    }
    seat.version = *version;
    last_progress_ = Clock::now();
    settle_latency();
    if (seat.view.contains("decision") && seat.version > seat.acted && !seat.in_flight) pace();
  }

  // The commands every seat now holds the result of.
  void settle_latency() {
    std::int64_t everyone = std::numeric_limits<std::int64_t>::max();
    for (const SeatRun& seat : seats_) everyone = std::min(everyone, seat.version);
    const auto now = Clock::now();
    for (auto it = awaiting_.begin(); it != awaiting_.end();) {
      if (it->second.first > everyone) {
        ++it;
        continue;
      }
      if (tally_.measuring) {
        const double us = std::chrono::duration<double, std::micro>(now - it->second.second).count();
        const std::lock_guard guard(tally_.lock);
        tally_.latency_us.push_back(us);
      }
      it = awaiting_.erase(it);
    }
  }

  void pace() {
    pacer_.then([this] {
      for (int o = 0; o < args_.players; ++o)
        if (seats_[o].view.contains("decision") && seats_[o].version > seats_[o].acted && !seats_[o].in_flight)
          return act(o);
    });
  }

  void act(int s) {
    SeatRun& seat = seats_[s];
    if (tally_.stopping || seat.in_flight || !table_) return;
    if (seat.answers++ % kWholeViewEvery == 0) {
      const auto whole = protocol::view_from_json(seat.view);
      if (!whole.ok()) return tally_.failure("undecodable view: " + whole.error().message);
    }
    const auto options = protocol::options_from_json(seat.view.value("options", Json()));
    const auto decision = protocol::decision_from_json(seat.view.value("decision", Json()));
    if (!options.ok()) return tally_.failure("undecodable options: " + options.error().message);
    if (!decision.ok()) return tally_.failure("undecodable decision: " + decision.error().message);
    const Command command = random_command(options.value(), decision.value(), seat.rng);
    seat.acted = seat.version;
    seat.in_flight = true;
    const std::int64_t id = ++request_;
    awaiting_[id] = {seat.version + 1, Clock::now()};
    std::string text = Json{{"type", "game.command"},
                            {"id", id},
                            {"payload", {{"table", *table_}, {"command", protocol::to_json(command)}, {"version", seat.version}}}}
                           .dump();
    if (tally_.measuring) tally_.command_bytes += text.size();
    seat.connection->send(std::move(text));
  }

  net::io_context& io_;
  Tally& tally_;
  const Arguments& args_;
  const int number_;
  std::vector<SeatRun> seats_;
  std::vector<std::shared_ptr<Connection>> spectators_;
  std::optional<std::int64_t> table_;
  int joined_ = 0;
  std::int64_t request_ = 0;
  std::int64_t game_first_request_ = 1;  // the id of this game's first command
  // Per command in flight (by request id): the version it makes, and when it was sent.
  std::map<std::int64_t, std::pair<std::int64_t, Clock::time_point>> awaiting_;
  Pacer pacer_;
};

// --- The same turns against elgrande-relay: a seat sends a command of the measured size,
// the relay acknowledges it and sends every connection of the table an update; once all
// have it, the next seat goes. ---

class RelayRun : public Run {
 public:
  RelayRun(net::io_context& io, Tally& tally, const Arguments& args, int number, double interval_s)
      : io_(io), tally_(tally), args_(args), number_(number), pacer_(io, interval_s, static_cast<double>(number) / std::max(1, args.tables)) {}

  void start(const std::vector<tcp::endpoint>& servers, const std::function<net::ip::address()>& next_source) override {
    for (int c = 0; c < args_.players + args_.spectators; ++c) {
      auto connection = std::make_shared<Connection>(io_, tally_);
      members_.push_back(connection);
      connection->start(servers[static_cast<std::size_t>(number_ + c) % servers.size()], next_source(), args_.host, [this](const std::string& text) { on_message(text); },
                        [this, connection] { connection->send("J" + std::to_string(number_)); });
    }
  }

 private:
  void on_message(const std::string& text) {
    if (text == "J") {
      ++tally_.ready;
      if (++joined_ == static_cast<int>(members_.size())) pacer_.then([this] { act(); });
      return;
    }
    count_received(tally_, text, text[0] == 'A');
    if (text[0] == 'A' && tally_.measuring) ++tally_.commands;
    if (--owed_ > 0) return;
    last_progress_ = Clock::now();
    if (tally_.measuring) {
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - sent_).count();
      const std::lock_guard guard(tally_.lock);
      tally_.latency_us.push_back(us);
    }
    turn_ = (turn_ + 1) % args_.players;
    pacer_.then([this] { act(); });
  }

  void act() {
    if (tally_.stopping) return;
    std::string text = "C" + std::to_string(args_.ack_bytes) + " " + std::to_string(args_.update_bytes) + " ";
    text.resize(std::max(text.size(), args_.command_bytes), ' ');
    if (tally_.measuring) tally_.command_bytes += text.size();
    owed_ = 1 + static_cast<int>(members_.size());
    sent_ = Clock::now();
    members_[static_cast<std::size_t>(turn_)]->send(std::move(text));
  }

  net::io_context& io_;
  Tally& tally_;
  const Arguments& args_;
  const int number_;
  std::vector<std::shared_ptr<Connection>> members_;  // the seats, then the spectators
  int joined_ = 0;
  int turn_ = 0;
  int owed_ = 0;  // frames the command in flight still makes
  Clock::time_point sent_;
  Pacer pacer_;
};
