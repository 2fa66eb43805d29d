#include "tables/seating.hpp"

#include <algorithm>

namespace elgrande::server {
namespace {

using protocol::ErrorCode;

constexpr std::array<std::string_view, 3> kKindNames{"empty", "human", "bot"};

std::string seat_text(int seat) { return "seat " + std::to_string(seat); }

}  // namespace

std::string_view name(Seat::Kind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }

std::optional<Seat::Kind> seat_kind_from(std::string_view name) {
  for (std::size_t k = 0; k < kKindNames.size(); ++k) {
    if (kKindNames[k] == name) return static_cast<Seat::Kind>(k);
  }
  return std::nullopt;
}

protocol::Json seat_json(std::size_t seat, std::string_view kind, const std::optional<Player>& player,
                         bool resigned, bool replaced, int timeouts, std::optional<std::string_view> bot_level) {
  protocol::Json entry = {{"seat", seat}, {"kind", kind}};
  if (player) entry["player"] = to_json(*player);
  if (bot_level && kind == name(Seat::Kind::bot)) entry["level"] = *bot_level;
  if (resigned) entry["resigned"] = true;
  if (replaced) entry["replaced"] = true;
  if (timeouts > 0) entry["timeouts"] = timeouts;
  return entry;
}

Seating::Seating(std::vector<Seat> seats, PlayerId host) : seats_(std::move(seats)), host_(host) {}

Seating Seating::from(const TableSpec& spec, int seat_count, games::BotLevel bots) {
  std::vector<Seat> seats(static_cast<std::size_t>(seat_count));
  for (std::size_t s = 0; s < seats.size() && s < spec.seats.size(); ++s) {
    switch (spec.seats[s].kind) {
      case TableSpec::SeatSpec::Kind::player:
        seats[s].kind = Seat::Kind::human;
        seats[s].player = spec.seats[s].player;
        break;
      case TableSpec::SeatSpec::Kind::bot:
        seats[s].kind = Seat::Kind::bot;
        seats[s].bot_level = bots;
        break;
      case TableSpec::SeatSpec::Kind::empty:
        break;
    }
  }
  return Seating(std::move(seats), spec.host);
}

std::optional<int> Seating::seat_of(PlayerId player) const {
  for (int s = 0; s < size(); ++s) {
    if ((*this)[s].kind == Seat::Kind::human && (*this)[s].player->id == player) return s;
  }
  return std::nullopt;
}

std::optional<int> Seating::member_seat(PlayerId player) const {
  for (int s = 0; s < size(); ++s) {
    const Seat& seat = (*this)[s];
    if (seat.player && seat.player->id == player && !seat.left) return s;
  }
  return std::nullopt;
}

std::vector<PlayerId> Seating::members() const {
  std::vector<PlayerId> members;
  for (const Seat& seat : seats_) {
    if (seat.player && !seat.left) members.push_back(seat.player->id);
  }
  return members;
}

std::optional<int> Seating::first_empty() const {
  for (int s = 0; s < size(); ++s) {
    if ((*this)[s].kind == Seat::Kind::empty) return s;
  }
  return std::nullopt;
}

bool Seating::anyone_human() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const Seat& seat) { return seat.kind == Seat::Kind::human; });
}

std::optional<Refusal> Seating::require_host(PlayerId by) const {
  if (by == host_) return std::nullopt;
  return Refusal{ErrorCode::forbidden, "only the table's host may do this"};
}

std::optional<Refusal> Seating::require_empty(int seat) const {
  if ((*this)[seat].kind == Seat::Kind::empty) return std::nullopt;
  return Refusal{ErrorCode::seat_taken, seat_text(seat) + " is taken"};
}

SeatOrRefusal Seating::join(const Player& player, std::optional<int> seat) {
  if (const auto mine = seat_of(player.id)) {
    return Refusal{ErrorCode::wrong_state, "you already sit at " + seat_text(*mine)};
  }
  if (!seat) seat = first_empty();
  if (!seat) return Refusal{ErrorCode::table_full, "every seat is taken"};
  if (auto refusal = require_empty(*seat)) return *refusal;
  (*this)[*seat] = Seat{Seat::Kind::human, player};
  return *seat;
}

SeatOrRefusal Seating::move(PlayerId player, int seat) {
  const auto mine = seat_of(player);
  if (!mine) return Refusal{ErrorCode::wrong_state, "you do not sit at this table"};
  if (seat == *mine) return seat;
  if (auto refusal = require_empty(seat)) return *refusal;
  std::swap((*this)[seat], (*this)[*mine]);
  return seat;
}

std::optional<Refusal> Seating::leave(PlayerId player) {
  const auto mine = seat_of(player);
  if (!mine) return Refusal{ErrorCode::wrong_state, "you are not at this table"};
  (*this)[*mine] = Seat{};
  if (player == host_) {
    for (const Seat& seat : seats_) {
      if (seat.kind == Seat::Kind::human) {
        host_ = seat.player->id;
        break;
      }
    }
  }
  return std::nullopt;
}

SeatOrRefusal Seating::add_bot(PlayerId by, std::optional<int> seat, games::BotLevel level) {
  if (auto refusal = require_host(by)) return *refusal;
  if (!seat) seat = first_empty();
  if (!seat) return Refusal{ErrorCode::table_full, "every seat is taken"};
  if (auto refusal = require_empty(*seat)) return *refusal;
  (*this)[*seat].kind = Seat::Kind::bot;
  (*this)[*seat].bot_level = level;
  return *seat;
}

std::optional<Refusal> Seating::remove_bot(PlayerId by, int seat) {
  if (auto refusal = require_host(by)) return refusal;
  if ((*this)[seat].kind != Seat::Kind::bot) return Refusal{ErrorCode::wrong_state, seat_text(seat) + " is not a bot"};
  (*this)[seat] = Seat{};
  return std::nullopt;
}

std::optional<Refusal> Seating::may_start(PlayerId by) const {
  if (auto refusal = require_host(by)) return refusal;
  if (const auto empty = first_empty()) {
    return Refusal{ErrorCode::wrong_state, seat_text(*empty) + " is empty: seat a player or a bot"};
  }
  return std::nullopt;
}

void Seating::resign(int seat, games::BotLevel level) {
  (*this)[seat].resigned = true;
  (*this)[seat].kind = Seat::Kind::bot;
  (*this)[seat].bot_level = level;
}

void Seating::replace(int seat, games::BotLevel level) {
  (*this)[seat].replaced = true;
  (*this)[seat].kind = Seat::Kind::bot;
  (*this)[seat].bot_level = level;
}

bool Seating::forget(PlayerId player) {
  const auto seat = member_seat(player);
  if (!seat) return false;
  (*this)[*seat].left = true;
  return true;
}

bool Seating::rename(const Player& player) {
  bool found = false;
  for (Seat& seat : seats_) {
    if (seat.player && seat.player->id == player.id) {
      seat.player->name = player.name;
      found = true;
    }
  }
  return found;
}

}  // namespace elgrande::server
