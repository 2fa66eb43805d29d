#pragma once

#include "app/client.hpp"
#include "app/services.hpp"

namespace elgrande::server {

// mod.mute: a player's chat is refused until a time (moderators and admins).
void mute(const Services& services, Client& client, Request& request);
// mod.ban: a player may not sign in until a time; their connections close (moderators and admins).
void ban(const Services& services, Client& client, Request& request);
// mod.kick: takes a player's seat at a table that has not started (moderators and admins).
void kick(const Services& services, Client& client, Request& request);
// mod.delete_chat: removes a chat line for everyone; its text goes to the audit log
// (moderators and admins).
void delete_chat(const Services& services, Client& client, Request& request);
// admin.set_role: makes an account a player, moderator or admin (admins).
void set_role(const Services& services, Client& client, Request& request);
// admin.audit: every moderator's action, newest first (admins).
void read_audit_log(const Services& services, Client& client, Request& request);

}  // namespace elgrande::server
