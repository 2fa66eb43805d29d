#pragma once

#include <cstdint>

#include "requests/answers.hpp"

namespace elgrande::server {

class Accounts;
class Tournaments;
enum class Role : std::uint8_t;

// What the tournament requests need.
struct TournamentRequestsEnv : RequestEnv {
  Tournaments* tournaments = nullptr;
  Accounts* accounts = nullptr;
  Role creators{};  // the least role that may create tournaments (player: any account)
  bool guests_enter = false;  // guests may register too (tournament_entrants "everyone")
};

// The tournament.* requests (docs/tournaments.md#messages): creating one, the list and
// one event's detail (answered from the connection's strand, from what was last saved),
// and everything else handed to the tournament's strand.
void create_tournament(const TournamentRequestsEnv& env, Client& client, Request& request);
void list_tournaments(const TournamentRequestsEnv& env, Client& client, Request& request);
void get_tournament(const TournamentRequestsEnv& env, Client& client, Request& request);
void forward_to_tournament(const TournamentRequestsEnv& env, Client& client, Request& request);

}  // namespace elgrande::server
