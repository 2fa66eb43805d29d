#pragma once

// Internal to the engine: the steps `apply` and `new_game` are built from.

#include <optional>
#include <string>

#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/events.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande::rules {

inline std::uint8_t seat_bit(Seat s) { return static_cast<std::uint8_t>(1u << s); }
inline Seat next_seat(const GameState& s, Seat seat) {
  return static_cast<Seat>((seat + 1) % s.options.players);
}
inline std::uint8_t all_seats(const GameState& s) {
  return static_cast<std::uint8_t>((1u << s.options.players) - 1);
}
// Each event is built in its place at the end of the list: building it apart and copying it
// in (up to 48 bytes, written a byte at a time) stalled the stores of the hottest steps.
template <class Body>
void tell_all(Events& ev, const Body& body) {
  ev.emplace_back(Audience{}, body);
}
template <class Body>
void tell_only(Events& ev, Seat seat, const Body& body) {
  ev.emplace_back(Audience{Audience::Kind::only, seat}, body);
}
template <class Body>
void tell_all_but(Events& ev, Seat seat, const Body& body) {
  ev.emplace_back(Audience{Audience::Kind::all_but, seat}, body);
}

inline Rejection illegal(std::string reason) {
  return Rejection{Rejection::Code::illegal, std::move(reason)};
}
inline Rejection malformed(std::string reason) {
  return Rejection{Rejection::Code::malformed, std::move(reason)};
}

// Flow (setup.cpp / rules.cpp).
void start_round(GameState& s, std::uint8_t round, Events& ev);
void end_round(GameState& s, Events& ev);
void advance(GameState& s, Events& ev);  // runs automatic steps until someone owes a decision
void open_disks(GameState& s, DiskPurpose purpose, std::uint8_t seats, Events& ev);
void resolve_disks(GameState& s, Events& ev);
void general_scoring(GameState& s, const DisksRevealed& disks, Events& ev);

// Placement limits shared by decisions, validation and the bot.
AreaMask placement_areas(const GameState& s);
int returnable(const GameState& s, Seat seat);  // court + regions other than the king's
AreaMask disk_allowed(const GameState& s, Seat seat, DiskPurpose purpose);
AreaCounts takeable_regions(const GameState& s, Colour colour);  // not the king's, not castillo
int takeable_count(const GameState& s, Colour colour);  // their total, summed in place
// `at_least` from the province: the 1995 rules' take in full (taken_in_full), else 0.
std::optional<Rejection> check_take(const GameState& s, Seat seat, const TakeCaballeros& c,
                                    int up_to, int at_least = 0);
// How many of the power card's caballeros the seat must take from the province: under the
// 1995 rules all of them (as many as the province holds); under 2023's "up to", none.
int taken_in_full(const GameState& s, Seat seat);
void take(GameState& s, Seat seat, const TakeCaballeros& c, Events& ev);
// Whether the `court` card may take own caballeros from regions once the province is empty:
// 2023 yes; the 1995 card moves them "from the province" only (from rules revision 3).
bool court_card_takes_regions(const GameState& s);
// Court and/or regions -> province (the automa's supply for the automa), announced.
void return_to_province(GameState& s, Colour colour, std::uint8_t from_court,
                        const AreaCounts& from_regions, Events& ev);
AreaCounts only(Area area, std::uint8_t count);
PowerCards played_mask(const GameState& s);

// Special actions (specials.cpp).
Command public_part(const Command& announced);  // what others may know of it
std::optional<Rejection> check_special(const GameState& s, Seat actor, CardKind kind,
                                       const Command& c);
void perform_special(GameState& s, Seat actor, CardKind kind, const Command& c, Events& ev);
// The veto card before `actor`, live until the end of the next round.
void lay_veto(GameState& s, Seat actor, Events& ev);
std::uint8_t live_veto_holders(const GameState& s, Seat except);
// What check_special accepts, for the decisions to list.
CaballerosByColour movable_caballeros(const GameState& s, Seat actor, const MoveLimits& limits);
CaballerosByColour removable_caballeros(const GameState& s, Seat actor);  // remove_one_each
AreaMask scoreboard_destinations(const GameState& s, Scoreboard board);

// Scoring (scoring.cpp).
void score_area(GameState& s, Area area, int places, Events& ev);
void score_areas(GameState& s, AreaMask areas, int places, Events& ev);  // in scoring order
int area_total(const GameState& s, Area area);

}  // namespace elgrande::rules
