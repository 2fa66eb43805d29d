#include "elgrande/protocol/plain_json.hpp"

#include <charconv>
#include <stdexcept>
#include <string>

namespace elgrande::protocol {
namespace {

constexpr std::size_t kMaxDepth = 32;  // as parse_json's
constexpr std::uint32_t kMaxMembers = 64;
constexpr std::size_t kMaxDigits = 18;  // fits in 64 signed bits

// Recursive descent over the plain subset; false for anything outside it.
class PlainParser {
 public:
  PlainParser(std::string_view text, std::vector<PlainValue>& values) : text_(text), values_(values) {}

  bool document() {
    skip_space();
    if (!value(0, {})) return false;
    skip_space();
    return at_ == text_.size();
  }

 private:
  bool value(std::size_t depth, std::string_view key) {
    const std::size_t index = values_.size();
    values_.emplace_back().key = key;
    if (at_ == text_.size()) return false;
    switch (text_[at_]) {
      case '{': return container(index, depth + 1, '}');
      case '[': return container(index, depth + 1, ']');
      case '"': {
        values_[index].kind = PlainValue::Kind::string;
        return string(values_[index].text);
      }
      case 't': return literal(index, "true", PlainValue::Kind::boolean, true);
      case 'f': return literal(index, "false", PlainValue::Kind::boolean, false);
      case 'n': return literal(index, "null", PlainValue::Kind::null, false);
      default: return number(values_[index]);
    }
  }

  // An object (`close` '}') or an array (']'), at_ on its opening bracket.
  bool container(std::size_t index, std::size_t depth, char close) {
    if (depth > kMaxDepth) return false;
    const bool object = close == '}';
    ++at_;
    skip_space();
    std::uint32_t size = 0;
    if (at_ < text_.size() && text_[at_] == close) {
      ++at_;
    } else {
      for (;;) {
        std::string_view key;
        if (object) {
          if (!string(key)) return false;
          // nlohmann keeps the last of repeated names: leave those to it.
          for (std::size_t m = index + 1; m < values_.size(); m += values_[m].span)
            if (values_[m].key == key) return false;
          skip_space();
          if (!skip(':')) return false;
          skip_space();
          if (size == kMaxMembers) return false;
        }
        ++size;
        if (!value(depth, key)) return false;
        skip_space();
        if (skip(',')) {
          skip_space();
          continue;
        }
        if (skip(close)) break;
        return false;
      }
    }
    PlainValue& v = values_[index];
    v.kind = object ? PlainValue::Kind::object : PlainValue::Kind::array;
    v.size = size;
    v.span = static_cast<std::uint32_t>(values_.size() - index);
    return true;
  }

  // at_ on the opening quote.
  bool string(std::string_view& out) {
    if (!skip('"')) return false;
    const std::size_t start = at_;
    for (; at_ < text_.size(); ++at_) {
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        out = text_.substr(start, at_ - start);
        ++at_;
        return true;
      }
      if (c < 0x20 || c > 0x7E || c == '\\') return false;
    }
    return false;
  }

  bool literal(std::size_t index, std::string_view word, PlainValue::Kind kind, bool truth) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    values_[index].kind = kind;
    values_[index].truth = truth;
    return true;
  }

  bool number(PlainValue& v) {
    const bool negative = skip('-');
    const std::size_t start = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    const std::size_t digits = at_ - start;
    if (digits == 0 || digits > kMaxDigits) return false;
    std::int64_t magnitude = 0;
    for (std::size_t i = start; i < at_; ++i) magnitude = magnitude * 10 + (text_[i] - '0');
    if (digits > 1 && text_[start] == '0') return false;  // not JSON
    if (negative && magnitude == 0) return false;         // nlohmann's -0 is signed
    if (at_ < text_.size() && (text_[at_] == '.' || text_[at_] == 'e' || text_[at_] == 'E')) return false;
    v.kind = PlainValue::Kind::integer;
    v.number = negative ? -magnitude : magnitude;
    return true;
  }

  bool skip(char c) {
    if (at_ == text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }

  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t'))
      ++at_;
  }

  std::string_view text_;
  std::vector<PlainValue>& values_;
  std::size_t at_ = 0;
};

}  // namespace

const PlainValue* PlainValue::member(std::string_view name) const {
  for (const PlainValue* m = first(); m != next(); m = m->next())
    if (m->key == name) return m;
  return nullptr;
}

const PlainValue& PlainValue::at(std::size_t index) const {
  const PlainValue* element = first();
  for (; index > 0; --index) element = element->next();
  return *element;
}

bool read_plain_json(std::string_view text, std::vector<PlainValue>& values) {
  values.clear();
  return PlainParser(text, values).document();
}

Json to_json(const PlainValue& value) {
  switch (value.kind) {
    case PlainValue::Kind::null: return nullptr;
    case PlainValue::Kind::boolean: return value.truth;
    // nlohmann reads a number without a sign as unsigned.
    case PlainValue::Kind::integer:
      return value.number < 0 ? Json(value.number) : Json(static_cast<std::uint64_t>(value.number));
    case PlainValue::Kind::string: return std::string(value.text);
    case PlainValue::Kind::array: {
      Json array = Json::array();
      for (const PlainValue* e = value.first(); e != value.next(); e = e->next()) array.push_back(to_json(*e));
      return array;
    }
    case PlainValue::Kind::object: break;
  }
  Json object = Json::object();
  for (const PlainValue* m = value.first(); m != value.next(); m = m->next()) object[std::string(m->key)] = to_json(*m);
  return object;
}

void apply_merge_patch(Json& target, const PlainValue& patch) {
  if (!patch.is_object()) {
    target = to_json(patch);
    return;
  }
  if (target.is_array()) {
    for (const PlainValue* m = patch.first(); m != patch.next(); m = m->next()) {
      std::size_t index = 0;
      const auto [end, error] = std::from_chars(m->key.data(), m->key.data() + m->key.size(), index);
      if (error != std::errc() || end != m->key.data() + m->key.size() || index >= target.size())
        throw std::invalid_argument("view patch: no element " + std::string(m->key) + " to patch");
      apply_merge_patch(target[index], *m);
    }
    return;
  }
  if (!target.is_object()) target = Json::object();
  for (const PlainValue* m = patch.first(); m != patch.next(); m = m->next()) {
    const auto found = target.find(m->key);
    if (m->is_null()) {
      if (found != target.end()) target.erase(found);
    } else {
      apply_merge_patch(found != target.end() ? *found : target[std::string(m->key)], *m);
    }
  }
}

}  // namespace elgrande::protocol
