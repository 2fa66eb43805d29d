#pragma once

#include <chrono>
#include <string_view>

#include "app/services.hpp"
#include "requests/client.hpp"
#include "tables/table.hpp"

namespace elgrande::server {

// Who may send a message type. Accounts will add roles (moderator, organiser) here.
enum class Access : std::uint8_t { anyone, identified };

using RequestHandler = void (*)(const Services&, Client&, Request&);
// A check on the connection's strand before a table's handler: false when it refused.
using RequestGate = bool (*)(const Services&, Client&, Request&);

// Where a message type goes: a handler on the connection's strand, or a table's handler
// on the table's strand (after the table is found, and after the gate, if any, let it by).
struct Route {
  Access access = Access::identified;
  RequestHandler handle = nullptr;
  Table::Handler at_table = nullptr;
  RequestGate gate = nullptr;
};

// The one list of the message types the server takes (docs/protocol.md).
const Route* route_for(std::string_view type);

// Decodes one message from `client`, checks who may send it, and hands it to its handler;
// every refusal is a typed error. Runs on the connection's strand.
void dispatch(const Services& services, Client& client, std::string_view text,
              std::chrono::steady_clock::time_point received);

// The connection is closing: it leaves presence, the listing's subscribers, and the
// tables it belonged to are told. Called once, from the connection's destructor.
void farewell(const Services& services, const Client& client);

}  // namespace elgrande::server
