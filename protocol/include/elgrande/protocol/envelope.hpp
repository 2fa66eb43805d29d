#pragma once

// The WebSocket protocol's envelope: every message in either direction is one JSON
// object {"type", "id"?, "payload"?}. The shapes are listed in docs/protocol.md.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "elgrande/protocol/codec.hpp"

namespace elgrande::protocol {

// Sent in hello and hello.ok; bumped on any change a deployed client could trip over.
// Version 2: a game update carries a patch of the view the connection holds
// (docs/protocol.md#view-patches). The server still speaks version 1 (whole views) to
// clients that say 1.
inline constexpr int kProtocolVersion = 2;
inline constexpr int kOldestProtocolVersion = 1;

// Why the server refused a message. The wire names are the enumerators' names.
enum class ErrorCode {
  bad_json,
  bad_envelope,
  unknown_type,
  bad_payload,
  too_large,
  rate_limited,
  not_identified,  // a table or game message before hello
  unknown_token,   // hello with a token the server does not know
  forbidden,       // the host's action by another player, or another player's seat
  wrong_state,     // the table or game is not in a state that allows it
  seat_taken,
  not_your_turn,
  illegal_command,
  stale_version,  // a game.command answering an older version than the game's; nothing changed
  limit_reached,  // a cap on creation: new identities per address, open tables per host
  name_taken,       // account.sign_up with a username someone has, ignoring case
  bad_credentials,  // an unknown username or a wrong password: the same answer for both
  banned,           // a banned player's hello or sign-in; the message says until when and why
  bad_token,        // a mailed link's token that is used, expired or unknown: the same answer for all three
  table_full,
  not_found,
  internal,
  // Last: the server's metrics count the codes up to this one, so new codes go above it.
  unavailable,  // the server cannot save changes now (its disk); nothing changed, try later
};

std::string_view to_string(ErrorCode code);

// The WebSocket close codes the server ends a connection with, besides the standard ones
// (1001 going away, 1008 policy, 1009 too big).
enum class CloseCode : std::uint16_t {
  session_ended = 4001,  // the account's session was ended: signed out, or the password changed
  banned = 4003,         // a moderator banned the player; the reason says until when and why
};
std::optional<ErrorCode> error_code_from_string(std::string_view name);

// The client's request id, echoed in the reply so it can match answers to requests.
using RequestId = std::variant<std::string, std::int64_t>;

// Longer request ids are refused, so an echo never costs more than a little.
inline constexpr std::size_t kMaxRequestIdBytes = 128;

struct Envelope {
  std::string type;
  std::optional<RequestId> id;
  Json payload = Json::object();  // always an object
};

// A refused message: the code and a message for humans, plus the request id when the
// envelope got far enough to have a usable one.
struct EnvelopeError {
  ErrorCode code;
  std::string message;
  std::optional<RequestId> id;
};

using DecodedEnvelope = std::variant<Envelope, EnvelopeError>;

// Decodes untrusted text. bad_json for text that is not JSON or nests deeper than
// max_depth; bad_envelope for a non-object, a missing, empty or non-string type, an id
// that is not a string or integer (or is too long), or a payload that is not an object.
// Unknown fields are ignored. Never throws on bad input.
DecodedEnvelope decode_envelope(std::string_view text, std::size_t max_depth = 32);

// A game.command whose every field is good: {"type": "game.command", "id"?, "payload":
// {"table", "version"?, "command"}}.
struct GameCommand {
  std::optional<RequestId> id;
  std::int64_t table = 0;
  std::optional<std::int64_t> version;  // never negative
  Command command;

  bool operator==(const GameCommand&) const = default;
};

// Every command a player sends goes through here first: it reads plain JSON without
// building nlohmann's document (docs/performance.md, step 18). A message that is not
// plain JSON or not a good game.command gives nullopt, for decode_envelope and the
// handlers to read or refuse as usual; one that it reads, they would read the same.
std::optional<GameCommand> read_game_command(std::string_view text);

// {"type": "<request_type>.ok", "id"?: id, "payload": payload}; the id is omitted when
// the request had none.
std::string reply_message(std::string_view request_type, const std::optional<RequestId>& id,
                          Json payload = Json::object());

// {"type": "error", "id"?: id, "payload": {"code", "message", "reason"?}}; `reason`, the
// engine's rejection code, only when not empty.
std::string error_message(ErrorCode code, std::string_view message,
                          const std::optional<RequestId>& id = std::nullopt,
                          std::string_view reason = {});
std::string error_message(const EnvelopeError& error);
// An error with facts the client shows the player in its own words, beside the code and the
// (English, for logs) message: {"code", "message", ...facts}, e.g. banned's `until` and
// `moderator_reason`, limit_reached's `limit` (docs/protocol.md#errors).
std::string error_message_with(ErrorCode code, std::string_view message, const std::optional<RequestId>& id,
                               const Json& facts);
// A rate_limited error that says when to try again: {"code", "message", "retry_after_ms"}.
std::string rate_limited_message(std::string_view message, std::int64_t retry_after_ms,
                                 const std::optional<RequestId>& id = std::nullopt);

// A message the server sends unasked: {"type", "payload"}, no id.
std::string push_message(std::string_view type, const Json& payload);

// A document as compact text: byte for byte what nlohmann's dump writes (keys in order,
// invalid UTF-8 replaced by U+FFFD), about twice as fast for the server's messages.
std::string serialise(const Json& document);
void append_serialised(std::string& out, const Json& document);

}  // namespace elgrande::protocol
