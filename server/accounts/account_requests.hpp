#pragma once

#include "app/client.hpp"
#include "app/services.hpp"

namespace elgrande::server {

// account.sign_up: the connection's guest becomes an account, keeping its id.
void sign_up(const Services& services, Client& client, Request& request);
// account.sign_in: the connection speaks for the account from now on, on a new session.
void sign_in(const Services& services, Client& client, Request& request);
// account.sessions: the account's signed-in devices.
void list_sessions(const Services& services, Client& client, Request& request);
// account.end_sessions: signs one device, the others, or all of them out.
void end_sessions(const Services& services, Client& client, Request& request);
// account.change_password: a new password, which signs the other devices out.
void change_password(const Services& services, Client& client, Request& request);

}  // namespace elgrande::server
