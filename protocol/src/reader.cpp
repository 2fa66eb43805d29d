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

}  // namespace

void Reader::fail(std::string_view what, std::string code) const {
  throw Failure{std::move(code),
                (path_.empty() ? std::string("(root)") : path_) + ": " + std::string(what)};
}

void Reader::expect_object() const {
  if (!json_.is_object()) fail("must be an object");
}

Reader Reader::field(std::string_view key) const {
  expect_object();
  const auto it = json_.find(key);
  std::string path = child(path_, key);
  if (it == json_.end()) throw Failure{{}, path + ": missing"};
  return Reader(*it, std::move(path));
}

std::optional<Reader> Reader::optional_field(std::string_view key) const {
  expect_object();
  const auto it = json_.find(key);
  if (it == json_.end()) return std::nullopt;
  return Reader(*it, child(path_, key));
}

Reader Reader::element(std::size_t index) const {
  return Reader(json_.at(index), path_ + "[" + std::to_string(index) + "]");
}

std::size_t Reader::array_size(std::size_t max) const {
  if (!json_.is_array()) fail("must be an array");
  if (json_.size() > max) fail("must have at most " + std::to_string(max) + " elements");
  return json_.size();
}

std::int64_t Reader::integer(std::int64_t lo, std::int64_t hi) const {
  // Non-negative integers parse as unsigned, negative ones as signed, anything with a
  // fraction or exponent (1e30, 2.0) as floating point, which is refused.
  if (json_.is_number_unsigned()) {
    const auto value = json_.get<std::uint64_t>();
    if (hi >= 0 && value <= static_cast<std::uint64_t>(hi) &&
        static_cast<std::int64_t>(value) >= lo)
      return static_cast<std::int64_t>(value);
  } else if (json_.is_number_integer()) {
    const auto value = json_.get<std::int64_t>();
    if (value >= lo && value <= hi) return value;
  }
  fail(range_text(lo, hi));
}

bool Reader::boolean() const {
  if (!json_.is_boolean()) fail("must be true or false");
  return json_.get<bool>();
}

const std::string& Reader::string() const {
  if (!json_.is_string()) fail("must be a string");
  return json_.get_ref<const std::string&>();
}

Area Reader::area() const {
  if (!json_.is_string()) fail("must be an area id");
  const auto area = area_from_name(json_.get_ref<const std::string&>());
  if (!area) fail("unknown area");
  return *area;
}

Scoreboard Reader::scoreboard() const {
  if (!json_.is_string()) fail("must be a scoreboard id");
  const auto board = scoreboard_from_name(json_.get_ref<const std::string&>());
  if (!board) fail("unknown scoreboard");
  return *board;
}

CardId Reader::card() const {
  return static_cast<CardId>(integer(0, kActionCardCount - 1));
}

Colour Reader::colour() const {
  return static_cast<Colour>(integer(0, kMaxColours - 1));
}

Seat Reader::seat() const {
  return static_cast<Seat>(integer(0, kMaxPlayers - 1));
}

std::uint8_t Reader::power_value() const {
  return static_cast<std::uint8_t>(integer(1, kPowerCardCount));
}

AreaCounts Reader::area_counts() const {
  if (!json_.is_object()) fail("must be an object of counts keyed by area id");
  AreaCounts counts;
  for (const auto& [key, value] : json_.items()) {
    const auto area = area_from_name(key);
    if (!area) fail("unknown area " + quote_if_safe(key));
    counts[*area] = Reader(value, child(path_, key)).byte();
  }
  return counts;
}

Json area_counts_json(const AreaCounts& counts) {
  Json json = Json::object();
  for (int i = 0; i < kAreaCount; ++i)
    if (counts[area_at(i)] != 0) json[std::string(name(area_at(i)))] = counts[area_at(i)];
  return json;
}

}  // namespace elgrande::protocol::detail
