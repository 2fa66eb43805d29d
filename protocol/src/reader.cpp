#include "reader.hpp"

#include <utility>

namespace elgrande::protocol::detail {

std::string quote_if_safe(std::string_view text) {
  // Echo only short printable ASCII: error messages are sent back as JSON and logged.
  constexpr std::size_t kMaxEcho = 40;
  bool printable = text.size() <= kMaxEcho;
  for (char c : text) printable = printable && c >= 0x20 && c < 0x7F;
  if (!printable) return "(a name)";
  std::string out;
  out.reserve(text.size() + 2);
  out.append(1, '"').append(text).append(1, '"');
  return out;
}

namespace {

std::string child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string range_text(std::int64_t lo, std::int64_t hi) {
  return "must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
}

// What differs between the two kinds of document.
const Json* member(const Json& json, std::string_view key) {
  const auto it = json.find(key);
  return it == json.end() ? nullptr : &*it;
}
const PlainValue* member(const PlainValue& value, std::string_view key) { return value.member(key); }

std::size_t size(const Json& json) { return json.size(); }
std::size_t size(const PlainValue& value) { return value.size; }

std::uint64_t unsigned_value(const Json& json) { return json.get<std::uint64_t>(); }
std::uint64_t unsigned_value(const PlainValue& value) { return static_cast<std::uint64_t>(value.number); }
std::int64_t signed_value(const Json& json) { return json.get<std::int64_t>(); }
std::int64_t signed_value(const PlainValue& value) { return value.number; }

bool truth(const Json& json) { return json.get<bool>(); }
bool truth(const PlainValue& value) { return value.truth; }

std::string_view text(const Json& json) { return json.get_ref<const std::string&>(); }
std::string_view text(const PlainValue& value) { return value.text; }

template <class Visit>
void for_each_member(const Json& json, Visit visit) {
  for (const auto& [key, value] : json.items()) visit(std::string_view(key), value);
}
template <class Visit>
void for_each_member(const PlainValue& value, Visit visit) {
  for (const PlainValue* m = value.first(); m != value.next(); m = m->next()) visit(m->key, *m);
}

}  // namespace

template <class Value>
void BasicReader<Value>::fail(std::string_view what, std::string code) const {
  throw Failure{std::move(code),
                (path_.empty() ? std::string("(root)") : path_) + ": " + std::string(what)};
}

template <class Value>
void BasicReader<Value>::expect_object() const {
  if (!json_.is_object()) fail("must be an object");
}

template <class Value>
BasicReader<Value> BasicReader<Value>::field(std::string_view key) const {
  expect_object();
  const Value* found = member(json_, key);
  std::string path = child(path_, key);
  if (!found) throw Failure{{}, path + ": missing"};
  return BasicReader(*found, std::move(path));
}

template <class Value>
std::optional<BasicReader<Value>> BasicReader<Value>::optional_field(std::string_view key) const {
  expect_object();
  const Value* found = member(json_, key);
  if (!found) return std::nullopt;
  return BasicReader(*found, child(path_, key));
}

template <class Value>
BasicReader<Value> BasicReader<Value>::element(std::size_t index) const {
  return BasicReader(json_.at(index), path_ + "[" + std::to_string(index) + "]");
}

template <class Value>
std::size_t BasicReader<Value>::array_size(std::size_t max) const {
  if (!json_.is_array()) fail("must be an array");
  if (size(json_) > max) fail("must have at most " + std::to_string(max) + " elements");
  return size(json_);
}

template <class Value>
std::int64_t BasicReader<Value>::integer(std::int64_t lo, std::int64_t hi) const {
  // Non-negative integers parse as unsigned, negative ones as signed, anything with a
  // fraction or exponent (1e30, 2.0) as floating point, which is refused.
  if (json_.is_number_unsigned()) {
    const std::uint64_t value = unsigned_value(json_);
    if (hi >= 0 && value <= static_cast<std::uint64_t>(hi) &&
        static_cast<std::int64_t>(value) >= lo)
      return static_cast<std::int64_t>(value);
  } else if (json_.is_number_integer()) {
    const std::int64_t value = signed_value(json_);
    if (value >= lo && value <= hi) return value;
  }
  fail(range_text(lo, hi));
}

template <class Value>
bool BasicReader<Value>::boolean() const {
  if (!json_.is_boolean()) fail("must be true or false");
  return truth(json_);
}

template <class Value>
std::string_view BasicReader<Value>::string() const {
  if (!json_.is_string()) fail("must be a string");
  return text(json_);
}

template <class Value>
Area BasicReader<Value>::area() const {
  if (!json_.is_string()) fail("must be an area id");
  const auto area = area_from_name(text(json_));
  if (!area) fail("unknown area");
  return *area;
}

template <class Value>
Scoreboard BasicReader<Value>::scoreboard() const {
  if (!json_.is_string()) fail("must be a scoreboard id");
  const auto board = scoreboard_from_name(text(json_));
  if (!board) fail("unknown scoreboard");
  return *board;
}

template <class Value>
CardId BasicReader<Value>::card() const {
  return static_cast<CardId>(integer(0, kActionCardCount - 1));
}

template <class Value>
Colour BasicReader<Value>::colour() const {
  return static_cast<Colour>(integer(0, kMaxColours - 1));
}

template <class Value>
Seat BasicReader<Value>::seat() const {
  return static_cast<Seat>(integer(0, kMaxPlayers - 1));
}

template <class Value>
std::uint8_t BasicReader<Value>::power_value() const {
  return static_cast<std::uint8_t>(integer(1, kPowerCardCount));
}

template <class Value>
AreaCounts BasicReader<Value>::area_counts() const {
  if (!json_.is_object()) fail("must be an object of counts keyed by area id");
  AreaCounts counts;
  for_each_member(json_, [&](std::string_view key, const Value& value) {
    const auto area = area_from_name(key);
    if (!area) fail("unknown area " + quote_if_safe(key));
    counts[*area] = BasicReader(value, child(path_, key)).byte();
  });
  return counts;
}

template class BasicReader<Json>;
template class BasicReader<PlainValue>;

Json area_counts_json(const AreaCounts& counts) {
  Json json = Json::object();
  for (int i = 0; i < kAreaCount; ++i)
    if (counts[area_at(i)] != 0) json[std::string(name(area_at(i)))] = counts[area_at(i)];
  return json;
}

}  // namespace elgrande::protocol::detail
