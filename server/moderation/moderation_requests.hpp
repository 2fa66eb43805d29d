#pragma once

#include "requests/answers.hpp"

namespace elgrande::server {

class Accounts;
class BlockLists;
class Identities;
class Presence;
class Reader;
class Sanctions;

// What the moderators' and admins' requests, and players' block lists, need.
struct ModerationRequestsEnv : RequestEnv {
  Accounts* accounts = nullptr;
  Identities* identities = nullptr;
  Presence* presence = nullptr;
  Reader* reader = nullptr;  // the audit log
  Sanctions* sanctions = nullptr;
  BlockLists* block_lists = nullptr;
};

// mod.mute: a player's chat is refused until a time (moderators and admins).
void mute(const ModerationRequestsEnv& env, Client& client, Request& request);
// mod.ban: a player may not sign in until a time; their connections close (moderators and admins).
void ban(const ModerationRequestsEnv& env, Client& client, Request& request);
// mod.kick and mod.delete_chat are done by the table (Table::kick, Table::remove_chat): these
// check the asker's role and the payload first, answer a refusal and return false otherwise.
// A kick takes a player's seat at a table that has not started; deleting a chat line removes
// it for everyone, its text going to the audit log (moderators and admins).
bool may_kick(const ModerationRequestsEnv& env, Client& client, Request& request);
bool may_delete_chat(const ModerationRequestsEnv& env, Client& client, Request& request);
// admin.set_role: makes an account a player, moderator or admin (admins).
void set_role(const ModerationRequestsEnv& env, Client& client, Request& request);
// admin.audit: every moderator's action, newest first (admins).
void read_audit_log(const ModerationRequestsEnv& env, Client& client, Request& request);

// player.block and player.unblock: the asker's own block list (`blocked`: which).
void block(const ModerationRequestsEnv& env, Client& client, Request& request);
void unblock(const ModerationRequestsEnv& env, Client& client, Request& request);
// player.blocks: whom the asker blocks.
void list_blocks(const ModerationRequestsEnv& env, Client& client, Request& request);

}  // namespace elgrande::server
