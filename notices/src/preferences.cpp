#include "elgrande/notices/preferences.hpp"

#include <charconv>

namespace elgrande::notices {
namespace {

using nlohmann::json;

std::variant<Channels, std::string> read_channels(const json& value, std::string_view where) {
  if (!value.is_object()) return std::string(where) + ": expected an object with mail and push";
  Channels channels;
  for (const auto& [key, flag] : value.items()) {
    if (!flag.is_boolean()) return std::string(where) + "." + key + ": expected true or false";
    if (key == "mail") {
      channels.mail = flag.get<bool>();
    } else if (key == "push") {
      channels.push = flag.get<bool>();
    } else {
      return std::string(where) + ": unknown key '" + key + "'";
    }
  }
  return channels;
}

json channels_json(const Channels& channels) { return {{"mail", channels.mail}, {"push", channels.push}}; }

}  // namespace

std::string_view name(Kind kind) {
  switch (kind) {
    case Kind::turn: return "turn";
    case Kind::game_ended: return "game_ended";
    case Kind::tournament: return "tournament";
  }
  return "turn";
}

std::optional<Kind> kind_from_name(std::string_view text) {
  for (const Kind kind : kKinds) {
    if (name(kind) == text) return kind;
  }
  return std::nullopt;
}

Channels Preferences::wanted(Kind kind, std::optional<std::int64_t> table) const {
  Channels channels = kinds.at(kind);
  if (table && kind != Kind::tournament) {
    if (const auto game = games.find(*table); game != games.end()) channels = game->second;
  }
  return channels;
}

json to_json(const Preferences& preferences) {
  json out = json::object();
  for (const auto& [kind, channels] : preferences.kinds) out[std::string(name(kind))] = channels_json(channels);
  out["digest"] = preferences.digest;
  json games = json::object();
  for (const auto& [table, channels] : preferences.games) games[std::to_string(table)] = channels_json(channels);
  out["games"] = std::move(games);
  return out;
}

std::variant<Preferences, std::string> read_preferences(const json& value) {
  if (!value.is_object()) return std::string("preferences: expected an object");
  Preferences preferences;
  for (const auto& [key, item] : value.items()) {
    if (const auto kind = kind_from_name(key)) {
      auto channels = read_channels(item, key);
      if (auto* wrong = std::get_if<std::string>(&channels)) return std::move(*wrong);
      preferences.kinds[*kind] = std::get<Channels>(channels);
    } else if (key == "digest") {
      if (!item.is_boolean()) return std::string("digest: expected true or false");
      preferences.digest = item.get<bool>();
    } else if (key == "games") {
      if (!item.is_object()) return std::string("games: expected an object of table ids");
      if (item.size() > kMaxGamePreferences) {
        return "games: at most " + std::to_string(kMaxGamePreferences) + " games may have channels of their own";
      }
      for (const auto& [id, channels_json] : item.items()) {
        std::int64_t table = 0;
        const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), table);
        if (error != std::errc() || end != id.data() + id.size() || table <= 0) {
          return "games: '" + id + "' is not a table id";
        }
        auto channels = read_channels(channels_json, "games." + id);
        if (auto* wrong = std::get_if<std::string>(&channels)) return std::move(*wrong);
        preferences.games[table] = std::get<Channels>(channels);
      }
    } else {
      return "preferences: unknown key '" + key + "'";
    }
  }
  return preferences;
}

}  // namespace elgrande::notices
