#pragma once

#include "requests/answers.hpp"

namespace elgrande::server {

class Matchmaker;

// What play-now's requests need.
struct PlayRequestsEnv : RequestEnv {
  Matchmaker* matchmaker = nullptr;
};

// play.join {players, short_game?, automa?, clock?, bots_after_seconds?} and play.leave.
void join_play_now(const PlayRequestsEnv& env, Client& client, Request& request);
void leave_play_now(const PlayRequestsEnv& env, Client& client, Request& request);

}  // namespace elgrande::server
