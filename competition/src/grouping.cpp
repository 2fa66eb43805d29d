#include "elgrande/competition/grouping.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

#include "elgrande/competition/draw.hpp"

namespace elgrande::competition {

std::optional<std::string> TableSizes::problem() const {
  if (minimum < 2 || preferred > 5 || minimum > preferred) {
    return "table sizes need 2 ≤ minimum ≤ preferred ≤ 5";
  }
  return std::nullopt;
}

Seating seating(int players, TableSizes sizes) {
  for (int byes = 0; byes < players; ++byes) {
    const int seated = players - byes;
    const int tables = (seated + sizes.preferred - 1) / sizes.preferred;
    // More tables only make them smaller, so the fewest tables are the only ones to try.
    if (seated / tables < sizes.minimum) continue;
    Seating result{std::vector<int>(static_cast<std::size_t>(tables), seated / tables), byes};
    for (int t = 0; t < seated % tables; ++t) ++result.tables[static_cast<std::size_t>(t)];
    return result;
  }
  return {{}, players};
}

// ---- History

void History::add_table(const std::vector<PlayerId>& seats) {
  for (std::size_t s = 0; s < seats.size(); ++s) {
    Record& record = records_[seats[s]];
    if (s < record.seats.size()) ++record.seats[s];
    for (PlayerId other : seats) {
      if (other == seats[s]) continue;
      auto it = std::find_if(record.met.begin(), record.met.end(),
                             [other](const auto& m) { return m.first == other; });
      if (it == record.met.end()) {
        record.met.emplace_back(other, 1);
      } else {
        ++it->second;
      }
    }
  }
}

void History::add_bye(PlayerId player) { ++records_[player].byes; }

int History::meetings(PlayerId a, PlayerId b) const {
  for (const auto& [other, count] : opponents(a)) {
    if (other == b) return count;
  }
  return 0;
}

int History::in_seat(PlayerId player, int seat) const {
  const auto it = records_.find(player);
  return it == records_.end() || seat < 0 || seat >= 5 ? 0 : it->second.seats[static_cast<std::size_t>(seat)];
}

int History::byes(PlayerId player) const {
  const auto it = records_.find(player);
  return it == records_.end() ? 0 : it->second.byes;
}

const std::vector<std::pair<PlayerId, int>>& History::opponents(PlayerId player) const {
  static const std::vector<std::pair<PlayerId, int>> none;
  const auto it = records_.find(player);
  return it == records_.end() ? none : it->second.met;
}

int repeated_meetings(const std::vector<std::vector<PlayerId>>& tables, const History& history) {
  int total = 0;
  for (const auto& table : tables) {
    for (std::size_t a = 0; a < table.size(); ++a) {
      for (std::size_t b = a + 1; b < table.size(); ++b) total += history.meetings(table[a], table[b]);
    }
  }
  return total;
}

// ---- Grouping

namespace {

// Players by their standing place 0..n−1, with earlier meetings among them.
struct Field {
  std::vector<std::vector<std::pair<int, int>>> met;

  Field(const std::vector<PlayerId>& players, const History& history) : met(players.size()) {
    std::unordered_map<PlayerId, int> place;
    for (std::size_t i = 0; i < players.size(); ++i) place[players[i]] = static_cast<int>(i);
    for (std::size_t i = 0; i < players.size(); ++i) {
      for (const auto& [other, count] : history.opponents(players[i])) {
        if (const auto it = place.find(other); it != place.end()) met[i].emplace_back(it->second, count);
      }
    }
  }
  int meet(int a, int b) const {
    for (const auto& [other, count] : met[static_cast<std::size_t>(a)]) {
      if (other == b) return count;
    }
    return 0;
  }
};

using Cost = std::pair<long, long>;  // repeated meetings, then standing spread

// Every way to split the field into tables of the given sizes, best kept; a branch stops as
// soon as it cannot beat the best, since costs only grow.
class Exhaustive {
 public:
  Exhaustive(const Field& field, const std::vector<int>& sizes) : field_(field) {
    for (int s : sizes) ++left_[static_cast<std::size_t>(s)];
    taken_.assign(field.met.size(), false);
    tables_.reserve(sizes.size());  // `complete` holds a reference to the newest table
  }
  std::vector<std::vector<int>> best() {
    search({0, 0});
    return best_;
  }

 private:
  void search(Cost cost) {
    if (cost >= best_cost_) return;
    const auto first = std::find(taken_.begin(), taken_.end(), false);
    if (first == taken_.end()) {
      best_cost_ = cost;
      best_ = tables_;
      return;
    }
    const int f = static_cast<int>(first - taken_.begin());
    for (std::size_t size = left_.size(); size-- > 0;) {
      if (left_[size] == 0) continue;
      --left_[size];
      taken_[static_cast<std::size_t>(f)] = true;
      tables_.push_back({f});
      complete(static_cast<int>(size), f + 1, cost);
      tables_.pop_back();
      taken_[static_cast<std::size_t>(f)] = false;
      ++left_[size];
    }
  }
  // Adds members after `from` to the newest table until it has `size`.
  void complete(int size, int from, Cost cost) {
    auto& table = tables_.back();
    if (static_cast<int>(table.size()) == size) {
      search({cost.first, cost.second + table.back() - table.front()});
      return;
    }
    const int n = static_cast<int>(taken_.size());
    for (int p = from; p < n; ++p) {
      if (taken_[static_cast<std::size_t>(p)]) continue;
      long added = 0;
      for (int member : table) added += field_.meet(member, p);
      taken_[static_cast<std::size_t>(p)] = true;
      table.push_back(p);
      complete(size, p + 1, {cost.first + added, cost.second});
      table.pop_back();
      taken_[static_cast<std::size_t>(p)] = false;
    }
  }

  const Field& field_;
  std::array<int, 6> left_{};
  std::vector<bool> taken_;
  std::vector<std::vector<int>> tables_;
  std::vector<std::vector<int>> best_;
  Cost best_cost_{std::numeric_limits<long>::max(), 0};
};

double log_factorial(int n) {
  double sum = 0;
  for (int i = 2; i <= n; ++i) sum += std::log(i);
  return sum;
}

double ways_to_split(const std::vector<int>& sizes) {
  // n! / (Π size! · Π (tables of equal size)!)
  double ways = log_factorial(std::accumulate(sizes.begin(), sizes.end(), 0));
  std::array<int, 6> same{};
  for (int s : sizes) {
    ways -= log_factorial(s);
    ++same[static_cast<std::size_t>(s)];
  }
  for (int k : same) ways -= log_factorial(k);
  return std::exp(ways);
}

// Swaps players between tables while that lowers the cost: first the repeated meetings,
// trying the nearest tables first, then the spread between neighbouring tables.
class LocalSearch {
 public:
  LocalSearch(const Field& field, std::vector<std::vector<int>> tables)
      : field_(&field), tables_(std::move(tables)), table_of_(field.met.size()) {
    for (std::size_t t = 0; t < tables_.size(); ++t) {
      for (int p : tables_[t]) table_of_[static_cast<std::size_t>(p)] = static_cast<int>(t);
    }
  }

  void improve() {
    while (fewer_repeats() || closer_tables()) {
    }
  }

  // Random swaps between nearby tables: a way out of a local minimum.
  void shake(std::uint64_t seed, int swaps) {
    const int count = static_cast<int>(tables_.size());
    for (int i = 0; i < swaps && count > 1; ++i) {
      const auto r = lot(seed, static_cast<std::uint64_t>(i));
      const int a = static_cast<int>(r % static_cast<std::uint64_t>(count));
      const int b = (a + 1 + static_cast<int>((r >> 16) % 2)) % count;
      if (a == b) continue;
      const auto& ta = tables_[static_cast<std::size_t>(a)];
      const auto& tb = tables_[static_cast<std::size_t>(b)];
      swap(ta[(r >> 24) % ta.size()], tb[(r >> 40) % tb.size()]);
    }
  }

  Cost cost() const {
    Cost c{0, 0};
    for (const auto& table : tables_) {
      for (std::size_t i = 0; i < table.size(); ++i) {
        for (std::size_t j = i + 1; j < table.size(); ++j) c.first += field_->meet(table[i], table[j]);
      }
      c.second += spread(table);
    }
    return c;
  }
  const std::vector<std::vector<int>>& tables() const { return tables_; }

 private:
  static long spread(const std::vector<int>& table) {
    const auto [lo, hi] = std::minmax_element(table.begin(), table.end());
    return *hi - *lo;
  }
  static long spread_with(const std::vector<int>& table, int out, int in) {
    int lo = in, hi = in;
    for (int p : table) {
      if (p == out) continue;
      lo = std::min(lo, p);
      hi = std::max(hi, p);
    }
    return hi - lo;
  }
  long meetings_at(int player, int table, int without) const {
    long total = 0;
    for (int other : tables_[static_cast<std::size_t>(table)]) {
      if (other != player && other != without) total += field_->meet(player, other);
    }
    return total;
  }
  Cost change(int a, int b) const {
    const int ta = table_of_[static_cast<std::size_t>(a)], tb = table_of_[static_cast<std::size_t>(b)];
    const auto& A = tables_[static_cast<std::size_t>(ta)];
    const auto& B = tables_[static_cast<std::size_t>(tb)];
    const long repeats = meetings_at(b, ta, a) - meetings_at(a, ta, a) + meetings_at(a, tb, b) -
                         meetings_at(b, tb, b);
    const long spreads = spread_with(A, a, b) + spread_with(B, b, a) - spread(A) - spread(B);
    return {repeats, spreads};
  }
  void swap(int a, int b) {
    const int ta = table_of_[static_cast<std::size_t>(a)], tb = table_of_[static_cast<std::size_t>(b)];
    auto& A = tables_[static_cast<std::size_t>(ta)];
    auto& B = tables_[static_cast<std::size_t>(tb)];
    *std::find(A.begin(), A.end(), a) = b;
    *std::find(B.begin(), B.end(), b) = a;
    table_of_[static_cast<std::size_t>(a)] = tb;
    table_of_[static_cast<std::size_t>(b)] = ta;
  }

  bool fewer_repeats() {
    bool improved = false;
    const int count = static_cast<int>(tables_.size());
    for (int a = 0; a < static_cast<int>(table_of_.size()); ++a) {
      const int ta = table_of_[static_cast<std::size_t>(a)];
      if (meetings_at(a, ta, -1) == 0) continue;
      for (int distance = 1; distance < count; ++distance) {
        std::optional<std::pair<Cost, int>> best;
        for (int tb : {ta - distance, ta + distance}) {
          if (tb < 0 || tb >= count) continue;
          for (int b : tables_[static_cast<std::size_t>(tb)]) {
            const Cost c = change(a, b);
            if (c.first < 0 && (!best || c < best->first)) best = {c, b};
          }
        }
        if (best) {
          swap(a, best->second);
          improved = true;
          break;
        }
      }
    }
    return improved;
  }

  bool closer_tables() {
    bool improved = false;
    for (std::size_t t = 0; t + 1 < tables_.size(); ++t) {
      for (std::size_t i = 0; i < tables_[t].size(); ++i) {
        for (std::size_t j = 0; j < tables_[t + 1].size(); ++j) {
          const int a = tables_[t][i], b = tables_[t + 1][j];
          if (change(a, b) < Cost{0, 0}) {
            swap(a, b);
            improved = true;
          }
        }
      }
    }
    return improved;
  }

  const Field* field_;
  std::vector<std::vector<int>> tables_;
  std::vector<int> table_of_;
};

constexpr double exhaustive_limit = 200'000;
constexpr int shakes = 8;

}  // namespace

std::vector<std::vector<PlayerId>> group(const std::vector<PlayerId>& players,
                                         const std::vector<int>& table_sizes,
                                         const History& history, std::uint64_t seed) {
  const Field field(players, history);
  std::vector<std::vector<int>> tables;
  if (ways_to_split(table_sizes) <= exhaustive_limit) {
    tables = Exhaustive(field, table_sizes).best();
  } else {
    // Start from the standing cut into consecutive tables, larger tables first.
    int next = 0;
    for (int size : table_sizes) {
      tables.emplace_back(static_cast<std::size_t>(size));
      std::iota(tables.back().begin(), tables.back().end(), next);
      next += size;
    }
    LocalSearch best(field, tables);
    best.improve();
    for (int attempt = 0; attempt < shakes && best.cost().first > 0; ++attempt) {
      LocalSearch trial = best;
      trial.shake(lot(seed, static_cast<std::uint64_t>(attempt)), static_cast<int>(players.size()) / 4 + 1);
      trial.improve();
      if (trial.cost() < best.cost()) best = trial;
    }
    tables = best.tables();
  }
  for (auto& table : tables) std::sort(table.begin(), table.end());
  std::sort(tables.begin(), tables.end());  // board order: by each table's best player
  std::vector<std::vector<PlayerId>> result;
  for (const auto& table : tables) {
    auto& out = result.emplace_back();
    for (int p : table) out.push_back(players[static_cast<std::size_t>(p)]);
  }
  return result;
}

std::vector<PlayerId> seat_order(std::vector<PlayerId> table, const History& history,
                                 std::uint64_t seed) {
  if (table.empty()) return table;
  std::vector<std::size_t> order(table.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<std::vector<std::size_t>> best;
  std::pair<int, int> best_cost{std::numeric_limits<int>::max(), 0};
  do {
    std::pair<int, int> cost{history.starts(table[order[0]]), 0};
    for (std::size_t s = 0; s < order.size(); ++s) cost.second += history.in_seat(table[order[s]], static_cast<int>(s));
    if (cost < best_cost) {
      best_cost = cost;
      best.clear();
    }
    if (cost == best_cost) best.push_back(order);
  } while (std::next_permutation(order.begin(), order.end()));

  std::uint64_t key = 0;
  for (PlayerId p : table) key = lot(key, static_cast<std::uint64_t>(p));
  const auto& chosen = best[lot(seed, key) % best.size()];
  std::vector<PlayerId> seated;
  for (std::size_t i : chosen) seated.push_back(table[i]);
  return seated;
}

std::vector<PlayerId> choose_byes(const std::vector<PlayerId>& standing, int count,
                                  const History& history) {
  std::vector<std::size_t> order(standing.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tuple{history.byes(standing[a]), -static_cast<long>(a)} <
           std::tuple{history.byes(standing[b]), -static_cast<long>(b)};
  });
  std::vector<PlayerId> byes;
  for (int i = 0; i < count && i < static_cast<int>(order.size()); ++i) byes.push_back(standing[order[static_cast<std::size_t>(i)]]);
  return byes;
}

RoundPlan swiss_round(const std::vector<PlayerId>& standing, TableSizes sizes,
                      const History& history, std::uint64_t seed) {
  const Seating plan = seating(static_cast<int>(standing.size()), sizes);
  RoundPlan round;
  round.byes = choose_byes(standing, plan.byes, history);
  std::vector<PlayerId> seated;
  for (PlayerId p : standing) {
    if (std::find(round.byes.begin(), round.byes.end(), p) == round.byes.end()) seated.push_back(p);
  }
  std::size_t board = 0;
  for (auto& table : group(seated, plan.tables, history, seed)) {
    round.tables.push_back(seat_order(std::move(table), history, lot(seed, ++board)));
  }
  return round;
}

}  // namespace elgrande::competition
