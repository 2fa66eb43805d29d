#pragma once

// GIVEN-state builder for the rulebook scenarios: start from a real new game, then set up a
// situation by editing the plain GameState, keeping every colour at 30 caballeros (what goes
// onto the board or into the court comes out of the province, and back).

#include <catch2/catch.hpp>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/events.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande::testing {

// The first card of the classic deck with this special action (in the given stack, if any).
inline CardId card_of(CardKind kind, int stack = 0) {
  for (const ActionCard& card : classic_deck())
    if (card.kind == kind && (stack == 0 || card.stack == stack)) return card.id;
  throw std::invalid_argument("no such card");
}

inline Options players(int n) {
  Options options;
  options.players = n;
  return options;
}

inline Options automa_game() {
  Options options;
  options.players = 2;
  options.automa = true;
  return options;
}

class Given {
 public:
  // A new game with an empty board: every caballero back in its province (or beside the
  // board for the automa), 7 in each court, no scoreboards, no vetoes, scores 0.
  explicit Given(const Options& options, std::uint64_t seed = 7) : s_(new_game(options, seed)) {
    for (auto& area : s_.caballeros) area.fill(0);
    for (Seat p = 0; p < options.players; ++p) {
      s_.players[p].court = 7;
      s_.players[p].province = kCaballerosPerColour - 7;
      s_.players[p].score = 0;
    }
    if (options.automa) s_.automa.supply = kCaballerosPerColour;
    s_.scoreboards = {};
    check_invariants(s_);
  }

  // Continues from a state reached by play, to set up the next situation.
  explicit Given(GameState state) : s_(std::move(state)) {}

  Given& king(Area region) {
    s_.king = region;
    return *this;
  }
  Given& grande(Seat seat, Area region) {
    s_.players[seat].grande = region;
    return *this;
  }
  // Sets a colour's count in one area; the difference comes from / goes to its province.
  Given& caballeros(Colour colour, Area area, int count) {
    auto& here = s_.caballeros[index(area)][colour];
    const int delta = count - here;
    std::uint8_t& pool = colour == automa_colour(s_) ? s_.automa.supply : s_.players[colour].province;
    if (pool < delta) throw std::invalid_argument("not enough caballeros in the province");
    pool = static_cast<std::uint8_t>(pool - delta);
    here = static_cast<std::uint8_t>(count);
    return *this;
  }
  // One area's counts for the seats 0, 1, 2... in order.
  Given& area(Area area, std::initializer_list<int> counts) {
    Colour c = 0;
    for (int n : counts) caballeros(c++, area, n);
    return *this;
  }
  Given& court(Seat seat, int count) {
    Player& p = s_.players[seat];
    const int total = p.court + p.province;
    if (count > total) throw std::invalid_argument("not enough caballeros for that court");
    p.court = static_cast<std::uint8_t>(count);
    p.province = static_cast<std::uint8_t>(total - count);
    return *this;
  }
  // Moves caballeros between the province and the court so the province holds `count`.
  Given& province(Seat seat, int count) {
    Player& p = s_.players[seat];
    return court(seat, p.court + p.province - count);
  }
  Given& score(Seat seat, int points) {
    s_.players[seat].score = static_cast<std::int16_t>(points);
    return *this;
  }
  Given& scoreboard(Scoreboard board, std::optional<Area> at) {
    s_.scoreboards[static_cast<int>(board)] = at;
    return *this;
  }
  Given& veto(int card, Seat holder, int expires_after) {
    s_.vetoes[static_cast<std::size_t>(card)] = VetoCard{holder, static_cast<std::uint8_t>(expires_after)};
    return *this;
  }
  Given& round(int number, int played) {
    s_.round = static_cast<std::uint8_t>(number);
    s_.rounds_played = static_cast<std::uint8_t>(played);
    return *this;
  }
  Given& round(int number) { return round(number, number); }
  Given& general_scorings(int done) {
    s_.general_scorings = static_cast<std::uint8_t>(done);
    return *this;
  }

  // This round's power cards, one per seat in seat order (the automa's last, if any): each
  // goes from the hand to the discards, and the turn order follows by descending value.
  Given& power_cards(std::initializer_list<int> values) {
    Colour c = 0;
    for (int v : values) {
      if (c == automa_colour(s_)) {
        s_.automa.played = static_cast<std::uint8_t>(v);
      } else {
        Player& p = s_.players[c];
        p.hand = static_cast<PowerCards>(kAllPowerCards & ~power_bit(v));
        p.discards = power_bit(v);
        p.played = static_cast<std::uint8_t>(v);
      }
      ++c;
    }
    s_.turn_order.clear();
    for (Colour k = 0; k < c; ++k) s_.turn_order.push_back(k);
    auto value = [&](Colour k) { return k == automa_colour(s_) ? s_.automa.played : s_.players[k].played; };
    std::sort(s_.turn_order.begin(), s_.turn_order.end(), [&](Colour a, Colour b) { return value(a) > value(b); });
    s_.phase = Phase::take_caballeros;
    s_.turn_index = 0;
    s_.turn = Turn{};
    return *this;
  }
  Given& hand(Seat seat, PowerCards hand) {
    Player& p = s_.players[seat];
    p.hand = hand;
    p.discards = static_cast<PowerCards>(kAllPowerCards & ~hand);
    return *this;
  }

  // It is `seat`'s turn (power cards must have been set), at the given step.
  Given& turn_of(Seat seat, Phase phase = Phase::take_caballeros) {
    for (std::size_t i = 0; i < s_.turn_order.size(); ++i)
      if (s_.turn_order[i] == seat) s_.turn_index = static_cast<std::uint8_t>(i);
    s_.phase = phase;
    s_.turn = Turn{};
    return *this;
  }
  // It is `seat`'s turn and they hold this action card, neither part used yet.
  Given& using_card(Seat seat, CardId card) {
    turn_of(seat, Phase::use_action_card);
    s_.turn.card = card;
    if (card == kKingCard) s_.king_card_available = false;
    for (ActionStack& stack : s_.stacks)
      if (stack.revealed == card) stack.revealed.reset();
    return *this;
  }
  Given& using_card(Seat seat, CardKind kind, int stack = 0) { return using_card(seat, card_of(kind, stack)); }
  Given& placed() {
    s_.turn.placed = true;
    return *this;
  }

  // Free-form edits for anything the builder does not name.
  template <typename F>
  Given& with(F&& edit) {
    edit(s_);
    return *this;
  }

  GameState build() const {
    check_invariants(s_);
    return s_;
  }
  operator GameState() const { return build(); }  // NOLINT: reads as `GameState s = Given(...)`

 private:
  GameState s_;
};

// A seat's accepted command; returns its events and checks the invariants after it.
inline Events play(GameState& state, Seat seat, const Command& command) {
  Events events;
  const auto rejection = apply(state, seat, command, events);
  INFO(command_name(command) << " by seat " << int(seat) << " refused: " << (rejection ? rejection->reason : ""));
  REQUIRE_FALSE(rejection);
  check_invariants(state);
  return events;
}

// A refused command: nothing at all may change, and no event is produced.
inline Rejection::Code refused(GameState& state, Seat seat, const Command& command) {
  const GameState before = state;
  Events events;
  const auto rejection = apply(state, seat, command, events);
  INFO(command_name(command) << " by seat " << int(seat));
  REQUIRE(rejection.has_value());
  REQUIRE(state == before);
  REQUIRE(events.empty());
  check_invariants(state);
  return rejection->code;
}

// A command the rules refuse as illegal, changing nothing.
inline void illegal(GameState& state, Seat seat, const Command& command) {
  CHECK(refused(state, seat, command) == Rejection::Code::illegal);
}

template <typename E>
std::vector<E> events_of(const Events& events) {
  std::vector<E> out;
  for (const Event& e : events)
    if (const E* body = std::get_if<E>(&e.body)) out.push_back(*body);
  return out;
}

template <typename E>
E only_event(const Events& events) {
  const auto all = events_of<E>(events);
  REQUIRE(all.size() == 1);
  return all[0];
}

// The AreaScored events of one scoring, by area.
inline std::optional<AreaScored> scored(const Events& events, Area area) {
  for (const AreaScored& s : events_of<AreaScored>(events))
    if (s.area == area) return s;
  return std::nullopt;
}

inline AreaMask scored_areas(const Events& events) {
  AreaMask mask = 0;
  for (const AreaScored& s : events_of<AreaScored>(events)) mask = static_cast<AreaMask>(mask | bit(s.area));
  return mask;
}

inline std::vector<int> scores(const GameState& state) {
  std::vector<int> out;
  for (Seat p = 0; p < state.options.players; ++p) out.push_back(state.players[p].score);
  return out;
}

inline std::vector<int> points(const AreaScored& scored, int seats) {
  return std::vector<int>(scored.points.begin(), scored.points.begin() + seats);
}

inline AreaCounts counts(std::initializer_list<std::pair<Area, int>> items) {
  AreaCounts c;
  for (auto [area, n] : items) c[area] = static_cast<std::uint8_t>(n);
  return c;
}

inline MoveCaballeros moves(std::initializer_list<Move> items) {
  MoveCaballeros m;
  for (const Move& move : items) m.moves.push_back(move);
  return m;
}

inline int at(const GameState& state, Area area, Colour colour) {
  return state.caballeros[index(area)][colour];
}

inline std::optional<Decision> decision_of(const GameState& state, Seat seat) {
  for (const Decision& d : pending(state))
    if (d.seat == seat) return d;
  return std::nullopt;
}

}  // namespace elgrande::testing
