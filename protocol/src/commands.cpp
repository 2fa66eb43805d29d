#include <array>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "encode.hpp"
#include "reader.hpp"
#include "text.hpp"

namespace elgrande::protocol {
namespace {

using detail::area_counts_json;
using detail::BasicReader;
using detail::Failure;
using detail::id;
using detail::Reader;

// --- Encoding: the fields of each alternative; "type" is added by to_json. ---

void write(Json& j, const PlayPowerCard& c) {
  j["value"] = c.value;
}
void write(Json& j, const TakeCaballeros& c) {
  j["from_province"] = c.from_province;
  j["from_regions"] = area_counts_json(c.from_regions);
}
void write(Json& j, const TakeActionCard& c) {
  j["card"] = c.card;
}
void write(Json& j, const PlaceCaballeros& c) {
  j["to"] = area_counts_json(c.to);
}
void write(Json&, const SkipSpecialAction&) {}
void write(Json&, const PerformSpecialAction&) {}
void write(Json&, const Undo&) {}
void write(Json& j, const MoveCaballeros& c) {
  j["moves"] = detail::moves_json(c.moves);
}
void write(Json& j, const PlaceExtraCaballeros& c) {
  j["to"] = area_counts_json(c.to);
}
void write(Json& j, const ScoreArea& c) {
  j["area"] = id(c.area);
}
void write(Json& j, const RemoveCaballeros& c) {
  Json picks = Json::array();
  for (const ColourRegion& p : c.picks)
    picks.push_back({{"colour", p.colour}, {"region", id(p.region)}});
  j["picks"] = std::move(picks);
}
void write(Json& j, const PlaceScoreboard& c) {
  j["board"] = std::string(name(c.board));
  j["to"] = id(c.to);
}
void write(Json& j, const MoveKing& c) {
  j["to"] = id(c.to);
}
void write(Json& j, const Evict& c) {
  j["region"] = id(c.region);
}
void write(Json& j, const MoveGrande& c) {
  j["to"] = id(c.to);
}
void write(Json& j, const TakeBackPowerCard& c) {
  j["value"] = c.value;
}
void write(Json& j, const AnswerVeto& c) {
  j["veto"] = c.veto;
}
void write(Json& j, const ReturnCaballeros& c) {
  j["from_court"] = c.from_court;
  j["from_regions"] = area_counts_json(c.from_regions);
}
void write(Json& j, const SetDisk& c) {
  j["region"] = id(c.region);
}

// --- As text: byte for byte what to_json and nlohmann's dump write, the keys in
// alphabetical order with "type" among them. Every command is logged so (db::Store), and as
// a document it was 1.3% of the server's CPU (docs/performance.md, step 17). ---

using detail::open;
using detail::put;
using detail::put_counts;
using detail::put_id;
using detail::put_key;

// A key and its value: a number, a truth value, an area or {area: n}.
template <class Value>
void put_field(std::string& out, std::string_view key, const Value& value) {
  put_key(out, key);
  if constexpr (std::is_same_v<Value, AreaCounts>) {
    put_counts(out, value);
  } else {
    put(out, value);
  }
}
void put_type(std::string& out, std::string_view type) {
  put_key(out, "type");
  put_id(out, type);
}

void put_text(std::string& out, std::string_view type, const PlayPowerCard& c) {
  put_type(out, type);
  put_field(out, "value", c.value);
}
void put_text(std::string& out, std::string_view type, const TakeCaballeros& c) {
  put_field(out, "from_province", c.from_province);
  put_field(out, "from_regions", c.from_regions);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const TakeActionCard& c) {
  put_field(out, "card", c.card);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const SkipSpecialAction&) { put_type(out, type); }
void put_text(std::string& out, std::string_view type, const PerformSpecialAction&) { put_type(out, type); }
void put_text(std::string& out, std::string_view type, const Undo&) { put_type(out, type); }
void put_text(std::string& out, std::string_view type, const MoveCaballeros& c) {
  put_key(out, "moves");
  open(out, '[');
  for (const Move& m : c.moves) {
    open(out, '{');
    put_field(out, "colour", m.colour);
    put_field(out, "count", m.count);
    put_field(out, "from", m.from);
    put_field(out, "to", m.to);
    out += '}';
  }
  out += ']';
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const RemoveCaballeros& c) {
  put_key(out, "picks");
  open(out, '[');
  for (const ColourRegion& p : c.picks) {
    open(out, '{');
    put_field(out, "colour", p.colour);
    put_field(out, "region", p.region);
    out += '}';
  }
  out += ']';
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const PlaceScoreboard& c) {
  put_key(out, "board");
  put_id(out, name(c.board));
  put_field(out, "to", c.to);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const TakeBackPowerCard& c) {
  put_type(out, type);
  put_field(out, "value", c.value);
}
void put_text(std::string& out, std::string_view type, const AnswerVeto& c) {
  put_type(out, type);
  put_field(out, "veto", c.veto);
}
void put_text(std::string& out, std::string_view type, const ReturnCaballeros& c) {
  put_field(out, "from_court", c.from_court);
  put_field(out, "from_regions", c.from_regions);
  put_type(out, type);
}
// One field, then "type".
void put_text(std::string& out, std::string_view type, const PlaceCaballeros& c) {
  put_field(out, "to", c.to);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const PlaceExtraCaballeros& c) {
  put_field(out, "to", c.to);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const MoveKing& c) {
  put_field(out, "to", c.to);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const MoveGrande& c) {
  put_field(out, "to", c.to);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const ScoreArea& c) {
  put_field(out, "area", c.area);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const Evict& c) {
  put_field(out, "region", c.region);
  put_type(out, type);
}
void put_text(std::string& out, std::string_view type, const SetDisk& c) {
  put_field(out, "region", c.region);
  put_type(out, type);
}

// --- Decoding: every field is required; unknown ones are ignored. ---

void read(const auto& r, PlayPowerCard& c) {
  c.value = r.field("value").power_value();
}
void read(const auto& r, TakeCaballeros& c) {
  c.from_province = r.field("from_province").byte();
  c.from_regions = r.field("from_regions").area_counts();
}
void read(const auto& r, TakeActionCard& c) {
  c.card = r.field("card").card();
}
void read(const auto& r, PlaceCaballeros& c) {
  c.to = r.field("to").area_counts();
}
void read(const auto&, SkipSpecialAction&) {}
void read(const auto&, PerformSpecialAction&) {}
void read(const auto&, Undo&) {}
void read(const auto& r, MoveCaballeros& c) {
  const auto moves = r.field("moves");
  const std::size_t n = moves.array_size(kMaxMoves);
  for (std::size_t i = 0; i < n; ++i) {
    const auto m = moves.element(i);
    c.moves.push_back(Move{m.field("colour").colour(), m.field("from").area(), m.field("to").area(),
                           m.field("count").byte()});
  }
}
void read(const auto& r, PlaceExtraCaballeros& c) {
  c.to = r.field("to").area_counts();
}
void read(const auto& r, ScoreArea& c) {
  c.area = r.field("area").area();
}
void read(const auto& r, RemoveCaballeros& c) {
  const auto picks = r.field("picks");
  const std::size_t n = picks.array_size(kMaxColours);
  for (std::size_t i = 0; i < n; ++i) {
    const auto p = picks.element(i);
    c.picks.push_back(ColourRegion{p.field("colour").colour(), p.field("region").area()});
  }
}
void read(const auto& r, PlaceScoreboard& c) {
  c.board = r.field("board").scoreboard();
  c.to = r.field("to").area();
}
void read(const auto& r, MoveKing& c) {
  c.to = r.field("to").area();
}
void read(const auto& r, Evict& c) {
  c.region = r.field("region").area();
}
void read(const auto& r, MoveGrande& c) {
  c.to = r.field("to").area();
}
void read(const auto& r, TakeBackPowerCard& c) {
  c.value = r.field("value").power_value();
}
void read(const auto& r, AnswerVeto& c) {
  c.veto = r.field("veto").boolean();
}
void read(const auto& r, ReturnCaballeros& c) {
  c.from_court = r.field("from_court").byte();
  c.from_regions = r.field("from_regions").area_counts();
}
void read(const auto& r, SetDisk& c) {
  c.region = r.field("region").area();
}

// One decoder per alternative, indexed like Command; the type names are the engine's.
constexpr std::size_t kAlternatives = std::variant_size_v<Command>;
template <class Value>
using AlternativeDecoder = Command (*)(const BasicReader<Value>&);

template <class Value, std::size_t I>
Command decode_alternative(const BasicReader<Value>& r) {
  std::variant_alternative_t<I, Command> command{};
  read(r, command);
  return Command(std::in_place_index<I>, command);
}

template <class Value, std::size_t... I>
constexpr std::array<AlternativeDecoder<Value>, kAlternatives> make_decoders(std::index_sequence<I...>) {
  return {&decode_alternative<Value, I>...};
}

template <std::size_t... I>
std::array<std::string_view, kAlternatives> make_names(std::index_sequence<I...>) {
  return {command_name(Command(std::in_place_index<I>))...};
}

const std::array<std::string_view, kAlternatives>& type_names() {
  static const auto names = make_names(std::make_index_sequence<kAlternatives>{});
  return names;
}

}  // namespace

namespace detail {

template <class Value>
Command read_command(const BasicReader<Value>& root) {
  static constexpr auto decoders = make_decoders<Value>(std::make_index_sequence<kAlternatives>{});
  const BasicReader<Value> type_field = root.field("type");
  const std::string_view type = type_field.string();
  const auto& names = type_names();
  for (std::size_t i = 0; i < kAlternatives; ++i)
    if (names[i] == type) return decoders[i](root);
  type_field.fail("unknown command type " + quote_if_safe(type), "unknown_type");
}

template Command read_command(const Reader&);
template Command read_command(const PlainReader&);

}  // namespace detail

Json to_json(const Command& command) {
  Json j = Json::object();
  j["type"] = std::string(command_name(command));
  std::visit([&j](const auto& alternative) { write(j, alternative); }, command);
  return j;
}

std::string command_text(const Command& command) {
  std::string out = "{";
  std::visit([&](const auto& alternative) { put_text(out, command_name(command), alternative); }, command);
  out += '}';
  return out;
}

Decoded<Command> command_from_json(const Json& json) {
  try {
    return detail::read_command(Reader(json, ""));
  } catch (const Failure& failure) {
    return DecodeError{failure.code.empty() ? "bad_command" : failure.code, failure.message};
  } catch (const std::exception& e) {
    // A safety net: the readers check before they touch, so this is not expected.
    return DecodeError{"bad_command", e.what()};
  }
}

}  // namespace elgrande::protocol
