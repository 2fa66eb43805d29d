#include "elgrande/ai/search.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "answers.hpp"
#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/determinize.hpp"
#include "elgrande/engine/game.hpp"

namespace elgrande::ai {

std::string_view name(Level level) {
  switch (level) {
    case Level::random: return "random";
    case Level::easy: return "easy";
    case Level::medium: return "medium";
    case Level::strong: return "strong";
  }
  return "random";
}

std::optional<Level> level_from_name(std::string_view name) {
  for (Level level : {Level::random, Level::easy, Level::medium, Level::strong})
    if (ai::name(level) == name) return level;
  return std::nullopt;
}

Settings settings(Level level) {
  switch (level) {
    case Level::random: return {};
    case Level::easy: return {.iterations = 50, .width = 8, .exploration = 0.5};
    case Level::medium: return {.iterations = 400, .width = 12, .exploration = 0.5};
    case Level::strong: return {.iterations = 3000, .width = 16, .exploration = 0.5};
  }
  return {};
}

namespace {

// Single-observer information-set MCTS. A node is one of the searching seat's decisions,
// known by the view the seat has there; its edges are the candidate answers. The tree
// follows the seat's own answers for as long as it alone is asked and the view it gets
// next is one the tree has met; another seat's answer or a draw of chance ends the path,
// and a quick playout finishes the game. Every iteration plays a fresh determinisation of
// the root view, so the statistics average over what the seat cannot know.
class Search {
 public:
  Search(const View& root, const Settings& settings, std::uint64_t seed)
      : me_(root.viewer), settings_(settings), rng_{seed} {
    nodes_.push_back(Node{root, {}, 0, false});
    expand(0);
  }

  std::size_t candidates() const { return nodes_[0].edges.size(); }

  // Makes `command` one of the root's answers (after those drawn) and returns its edge.
  // The caller has checked that the rules take it.
  std::size_t include(const Command& command) {
    std::vector<Edge>& edges = nodes_[0].edges;
    for (std::size_t e = 0; e < edges.size(); ++e)
      if (edges[e].command == command) return e;
    edges.push_back(Edge{command, 0, 0.0, 0.0, {}});
    return edges.size() - 1;
  }

  void iterate() {
    GameState state = determinize(nodes_[0].view, rng_);
    path_.clear();
    std::size_t node = 0;
    for (;;) {
      if (!nodes_[node].expanded) expand(node);
      const std::size_t edge = select(node);
      path_.push_back({node, edge});
      events_.clear();
      if (const auto rejection = apply(state, me_, nodes_[node].edges[edge].command, events_))
        throw std::logic_error("ai: a candidate drawn from the view was refused: " + rejection->reason);
      if (is_over(state) || waiting_for(state) != (1u << me_)) break;
      const auto next = follow(node, edge, view(state, me_));
      if (!next) break;
      node = *next;
    }
    play_out(state, rng_, events_);
    const double value = reward(state, me_);
    const double share = win_share(state, me_);
    for (const auto& [n, e] : path_) {
      ++nodes_[n].visits;
      ++nodes_[n].edges[e].visits;
      nodes_[n].edges[e].total += value;
      nodes_[n].edges[e].won += share;
    }
  }

  // The root's answer visited most (the better mean between equals).
  std::size_t best_edge() const {
    const std::vector<Edge>& edges = nodes_[0].edges;
    std::size_t chosen = 0;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const Edge& edge = edges[e];
      if (edge.visits > edges[chosen].visits || (edge.visits == edges[chosen].visits && mean(edge) > mean(edges[chosen])))
        chosen = e;
    }
    return chosen;
  }

  Choice best() const {
    const Node& root = nodes_[0];
    const Edge& chosen = root.edges[best_edge()];
    return Choice{chosen.command, root.visits, static_cast<int>(root.edges.size()), mean(chosen)};
  }

  Review review(std::size_t played) const {
    const Node& root = nodes_[0];
    const std::size_t chosen = best_edge();
    const Edge& bot = root.edges[chosen];
    const Edge& seat = root.edges[played];
    return Review{bot.command, win_rate(bot), bot.visits, seat.command, win_rate(seat), seat.visits,
                  root.visits, static_cast<int>(root.edges.size()), chosen == played};
  }

 private:
  // Where an answer led, by the view the seat got: a few such views are kept per answer
  // (the same answer may meet a different new round in different determinisations).
  static constexpr std::size_t kOutcomesPerEdge = 4;

  struct Edge {
    Command command;
    int visits = 0;
    double total = 0.0;             // of the rewards, which the search chooses by
    double won = 0.0;               // of the win shares, which a review reports
    std::vector<std::size_t> next;  // nodes
  };
  struct Node {
    View view;
    std::vector<Edge> edges;
    int visits = 0;
    bool expanded = false;
  };

  static double mean(const Edge& edge) { return edge.visits ? edge.total / edge.visits : 0.0; }
  static double win_rate(const Edge& edge) { return edge.visits ? edge.won / edge.visits : 0.0; }

  void expand(std::size_t node) {
    for (Command& command : ai::candidates(nodes_[node].view, settings_.width, rng_))
      nodes_[node].edges.push_back(Edge{std::move(command), 0, 0.0, 0.0, {}});
    nodes_[node].expanded = true;
  }

  // UCB1: every answer once, in candidate order, then the best mean plus an exploration bonus.
  std::size_t select(std::size_t node) const {
    const Node& n = nodes_[node];
    const double log_visits = std::log(static_cast<double>(n.visits) + 1.0);
    std::size_t best = 0;
    double best_score = -1.0;
    for (std::size_t e = 0; e < n.edges.size(); ++e) {
      const Edge& edge = n.edges[e];
      if (edge.visits == 0) return e;
      const double score = mean(edge) + settings_.exploration * std::sqrt(log_visits / edge.visits);
      if (score > best_score) best_score = score, best = e;
    }
    return best;
  }

  std::optional<std::size_t> follow(std::size_t node, std::size_t edge, View seen) {
    for (std::size_t next : nodes_[node].edges[edge].next)
      if (nodes_[next].view == seen) return next;
    if (nodes_[node].edges[edge].next.size() >= kOutcomesPerEdge) return std::nullopt;
    nodes_.push_back(Node{std::move(seen), {}, 0, false});
    nodes_[node].edges[edge].next.push_back(nodes_.size() - 1);
    return nodes_.size() - 1;
  }

  const Seat me_;
  const Settings settings_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<std::pair<std::size_t, std::size_t>> path_;
  Events events_;
};

// The budget's playouts, or the level's; `out_of_time` is asked before each but the first.
void run(Search& search, const Settings& chosen, const Budget& budget) {
  const int iterations = budget.iterations > 0 ? budget.iterations : chosen.iterations;
  for (int i = 0; i < iterations; ++i) {
    if (i > 0 && budget.out_of_time && budget.out_of_time()) break;
    search.iterate();
  }
}

}  // namespace

Choice choose(const View& view, Level level, std::uint64_t seed, const Budget& budget) {
  if (!view.decision) throw std::logic_error("ai::choose: the seat owes no decision");
  if (level == Level::random) {
    Rng rng{seed};
    return Choice{random_command(view, rng), 0, 0, 0.0};
  }
  const Settings chosen = settings(level);
  Search search(view, chosen, seed);
  if (search.candidates() == 1) return search.best();
  run(search, chosen, budget);
  return search.best();
}

Review review(const View& view, const Command& played, Level level, std::uint64_t seed, const Budget& budget) {
  if (!view.decision) throw std::invalid_argument("ai::review: the seat owes no decision");
  if (level == Level::random) throw std::invalid_argument("ai::review: the random level has no opinion");
  {
    // Whether the rules take an answer is the view's to say (as for every candidate), so any
    // state drawn from it will do; drawn apart from the search's generator.
    Rng drawing{seed};
    GameState trial = determinize(view, drawing);
    Events ignored;
    if (const auto rejection = apply(trial, view.viewer, played, ignored))
      throw std::invalid_argument("ai::review: the played answer is refused: " + rejection->reason);
  }
  const Settings chosen = settings(level);
  Search search(view, chosen, seed);
  const std::size_t played_edge = search.include(played);
  if (search.candidates() > 1) run(search, chosen, budget);
  return search.review(played_edge);
}

}  // namespace elgrande::ai
