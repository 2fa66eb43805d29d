#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "elgrande/engine/cards.hpp"
#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/events.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/options.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/state.hpp"
#include "elgrande/engine/view.hpp"
#include "elgrande/protocol/decoded.hpp"

// JSON codecs for the engine's types. The shapes are listed in docs/protocol-codecs.md.
// Conventions: ids are the engine's snake_case names; an AreaCounts is an object of its
// non-zero counts keyed by area id; bit masks become arrays (areas, power card values,
// seats); an empty std::optional and a seat of -1 ("nobody") are omitted; per-seat arrays
// hold options.players entries, per-colour arrays one more with the automa.
namespace elgrande::protocol {

using Json = nlohmann::json;

// Parses untrusted text. Rejects malformed JSON and nesting deeper than `max_depth`
// (nlohmann's recursive copy and dump must not overflow the stack).
Decoded<Json> parse_json(std::string_view text, std::size_t max_depth = 32);

// --- Inputs: encoded and decoded. ---

Json to_json(const Options& options);
// Rejects wrong types and options the engine would refuse (elgrande::check).
Decoded<Options> options_from_json(const Json& json);

Json to_json(const Command& command);
// The same as text, byte for byte to_json(command).dump(), without the document.
std::string command_text(const Command& command);
// Strict: checks every type and range the command's C++ type can hold and every id
// (areas, scoreboards, cards 0..44, colours 0..4, power values 1..13, at most kMaxMoves
// moves); whether the command is legal now is the engine's question. Unknown fields are
// ignored. Codes: "unknown_type" for an unknown "type", "bad_command" otherwise.
Decoded<Command> command_from_json(const Json& json);

inline constexpr std::string_view kRecordFormat = "elgrande-record";
inline constexpr int kRecordVersion = 1;
Json to_json(const GameRecord& record);
Decoded<GameRecord> record_from_json(const Json& json);  // code "bad_record"

// A seed as written in records: decimal digits only, no sign, at most 2^64 - 1.
std::optional<std::uint64_t> parse_seed(std::string_view text);

// --- Outputs: what the server sends. Views and decisions decode too, for C++ clients. ---

Json to_json(const Decision& decision);  // {"seat", "kind", ...constraints}
Json to_json(const View& view);
// A view patch from the document of `before` to that of `after`: only what changed. It is a
// JSON merge patch (RFC 7386: objects merged key by key, null removes a key, any other value
// replaces) with one addition: an object applied to an array patches the elements it names
// by index (a player's entry). A client that holds to_json(before) and applies it has
// to_json(after) (docs/protocol.md#view-patches).
Json view_patch(const View& before, const View& after);
// Both as compact text appended to `out`: what the server sends (updates.hpp). The
// documents above are this text, parsed.
void append_view(std::string& out, const View& view);
void append_view_patch(std::string& out, const View& before, const View& after);
// Applies a view patch to `target`. Throws std::invalid_argument for an index the array
// lacks (a patch meant for another document).
void apply_merge_patch(Json& target, const Json& patch);
// Exact inverses of the two above: decision_from_json(to_json(d)) == d, and the same for
// every view the engine makes. Strict like command_from_json, and a view must also agree
// with itself: seats within its table, per-seat and per-colour arrays of the table's size,
// secrets only in the viewer's own entry, a decision only for the viewer. Unknown fields
// are ignored. Codes: "bad_decision", "bad_view" (also for a bad decision inside a view).
Decoded<Decision> decision_from_json(const Json& json);
Decoded<View> view_from_json(const Json& json);
// {"type": event_name, ...fields}. The audience is not written: filter with
// elgrande::visible_to first. `options` sizes the per-seat and per-colour arrays.
Json to_json(const EventBody& body, const Options& options);
Json to_json(const Event& event, const Options& options);
// The same as text, byte for byte as nlohmann writes to_json's document, appended to `out`.
void append_event_text(std::string& out, const EventBody& body, const Options& options);
Json to_json(const Rejection& rejection);  // {"code", "reason"}
Json to_json(const DecodeError& error);    // {"code", "message"}
Json to_json(const ActionCard& card);      // {"id", "stack", "kind"}
Json deck_json();                          // the 45 classic cards, by id

// The outcome of a game (or of its current state): phase, round, version, scores,
// winners (once over) and the state hash as 16 lower-case hex digits.
Json summary_json(const GameState& state);
std::string hash_hex(std::uint64_t hash);

// Stable ids for engine enums that have no name() in the engine.
std::string_view phase_name(Phase phase);
std::string_view disk_purpose_name(DiskPurpose purpose);

}  // namespace elgrande::protocol
