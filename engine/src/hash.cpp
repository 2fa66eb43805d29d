#include <bit>
#include <string>

#include "rules.hpp"

namespace elgrande {

namespace {

// FNV-1a over the fields in a fixed order: independent of padding, layout and compiler.
struct Hasher {
  std::uint64_t h = 0xCBF29CE484222325ull;
  void add(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      h ^= (value >> (8 * i)) & 0xFF;
      h *= 0x100000001B3ull;
    }
  }
  template <typename T>
  void add(const std::optional<T>& value) {
    add(value.has_value());
    if (value) add(static_cast<std::uint64_t>(*value));
  }
  template <typename T, std::size_t N>
  void add(const FixedVector<T, N>& items) {
    add(items.size());
    for (const T& item : items) add(static_cast<std::uint64_t>(item));
  }
  void add(const AreaCounts& counts) {
    for (auto n : counts.n) add(n);
  }
};

void add_command(Hasher& h, const Command& command) {
  h.add(command.index());
  std::visit(
      [&](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, MoveCaballeros>) {
          h.add(c.moves.size());
          for (const Move& m : c.moves) {
            h.add(static_cast<std::uint64_t>(m.colour));
            h.add(static_cast<std::uint64_t>(m.from));
            h.add(static_cast<std::uint64_t>(m.to));
            h.add(m.count);
          }
        } else if constexpr (std::is_same_v<C, PlaceExtraCaballeros>) {
          h.add(c.to);
        } else if constexpr (std::is_same_v<C, RemoveCaballeros>) {
          h.add(c.picks.size());
          for (const ColourRegion& p : c.picks) {
            h.add(static_cast<std::uint64_t>(p.colour));
            h.add(static_cast<std::uint64_t>(p.region));
          }
        } else if constexpr (std::is_same_v<C, TakeCaballeros>) {
          h.add(c.from_province);
          h.add(c.from_regions);
        } else if constexpr (std::is_same_v<C, ScoreArea>) {
          h.add(static_cast<std::uint64_t>(c.area));
        } else if constexpr (std::is_same_v<C, PlaceScoreboard>) {
          h.add(static_cast<std::uint64_t>(c.board));
          h.add(static_cast<std::uint64_t>(c.to));
        } else if constexpr (std::is_same_v<C, MoveKing> || std::is_same_v<C, MoveGrande>) {
          h.add(static_cast<std::uint64_t>(c.to));
        } else if constexpr (std::is_same_v<C, Evict>) {
          h.add(static_cast<std::uint64_t>(c.region));
        } else if constexpr (std::is_same_v<C, TakeBackPowerCard>) {
          h.add(c.value);
        }
        // Announced specials are only ever these kinds or parameterless.
      },
      command);
}

}  // namespace

std::uint64_t hash(const GameState& s) {
  Hasher h;
  h.add(static_cast<std::uint64_t>(s.options.players));
  h.add(s.options.short_game);
  h.add(s.options.automa);
  h.add(s.options.four_stacks);
  h.add(static_cast<std::uint64_t>(s.options.edition));
  h.add(static_cast<std::uint64_t>(s.options.rules_revision));
  h.add(s.rng.state);
  h.add(static_cast<std::uint64_t>(s.phase));
  h.add(s.round);
  h.add(s.rounds_played);
  h.add(s.general_scorings);
  h.add(s.version);
  h.add(static_cast<std::uint64_t>(s.king));
  for (const auto& at : s.scoreboards) h.add(at);
  for (const auto& area : s.caballeros)
    for (auto n : area) h.add(n);
  for (const Player& p : s.players) {
    h.add(p.hand);
    h.add(p.discards);
    h.add(p.played);
    h.add(p.court);
    h.add(p.province);
    h.add(static_cast<std::uint64_t>(p.grande));
    h.add(static_cast<std::uint64_t>(static_cast<std::uint16_t>(p.score)));
    h.add(p.disk);
  }
  h.add(s.automa.supply);
  h.add(s.automa.power_deck);
  h.add(s.automa.played);
  h.add(s.automa.region_deck);
  for (const ActionStack& stack : s.stacks) {
    h.add(stack.face_down);
    h.add(stack.revealed);
  }
  h.add(s.stack_count);
  h.add(s.king_card_available);
  for (const VetoCard& v : s.vetoes) {
    h.add(static_cast<std::uint64_t>(static_cast<std::uint8_t>(v.holder)));
    h.add(v.expires_after);
  }
  h.add(static_cast<std::uint64_t>(s.first_player));
  h.add(static_cast<std::uint64_t>(s.power_seat));
  h.add(s.turn_order.size());
  for (Colour c : s.turn_order) h.add(static_cast<std::uint64_t>(c));
  h.add(s.turn_index);
  h.add(s.turn.card);
  h.add(s.turn.placed);
  h.add(s.turn.special_done);
  h.add(s.turn.announced.has_value());
  if (s.turn.announced) add_command(h, *s.turn.announced);
  h.add(s.veto_owed);
  h.add(s.veto_yes);
  h.add(static_cast<std::uint64_t>(s.disk_purpose));
  h.add(s.disks_owed);
  h.add(s.disks_asked);
  h.add(static_cast<std::uint64_t>(s.evicted_from));
  h.add(s.returners.size());
  for (Seat p : s.returners) h.add(static_cast<std::uint64_t>(p));
  return h.h;
}

void check_invariants(const GameState& s) {
  auto fail = [](const std::string& what) { throw InvariantBroken(what); };
  for (Seat p = 0; p < s.options.players; ++p) {
    const Player& player = s.players[p];
    int total = player.court + player.province;
    for (int a = 0; a < kAreaCount; ++a) total += s.caballeros[a][p];
    if (total != kCaballerosPerColour) fail("seat " + std::to_string(p) + " has " + std::to_string(total) + " caballeros");
    if (player.hand & player.discards) fail("a power card is both in hand and discarded");
    if ((player.hand | player.discards) != kAllPowerCards) fail("a power card went missing");
    if (!is_region(player.grande)) fail("a grande left the regions");
  }
  if (s.options.automa) {
    int total = s.automa.supply;
    for (int a = 0; a < kAreaCount; ++a) total += s.caballeros[a][automa_colour(s)];
    if (total != kCaballerosPerColour) fail("the automa has " + std::to_string(total) + " caballeros");
  }
  for (int c = colour_count(s); c < kMaxColours; ++c)
    for (int a = 0; a < kAreaCount; ++a)
      if (s.caballeros[a][c]) fail("caballeros of a colour not in play");
  if (!is_region(s.king)) fail("the king left the regions");
  if (s.scoreboards[0] && s.scoreboards[0] == s.scoreboards[1]) fail("two scoreboards on one area");
  if (s.general_scorings > kGeneralScorings) fail("more than three general scorings");
  if ((s.phase == Phase::game_over) != (s.general_scorings == kGeneralScorings)) fail("game over without three general scorings");
}

}  // namespace elgrande
