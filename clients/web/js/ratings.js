// Ratings (docs/ratings.md): a rating beside a name, a rated game's change, the leaderboards
// (#/ratings/LADDER/PAGE) and a player's profile (#/player/ID) with their rating over time.
// Everything comes from rating.leaderboard and rating.profile; nothing is worked out here.

import {h, replaceKeepingFocus, s, scrollRegion} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {gameModule, gameOf} from './games/index.js';
import {ordinal} from './words.js';
import {dateText} from './time.js';
import {playerName} from './seats.js';
import {formatDate, t, tParts} from './i18n.js';

const PAGE_SIZE = 50;  // rating.leaderboard's largest page

// "1062", and while the rating is not yet sure, "provisional" in words beside it. The word
// "rating" before it is for screen readers only, unless `label` shows it.
export function ratingBadge(rating, attrs = {}, {label = false} = {}) {
  if (!rating) return null;
  const badge = h('span', {
    class: ['rating', rating.provisional && 'provisional'], 'data-rating': String(rating.rating),
    'data-provisional': String(rating.provisional), ...attrs,
    title: t(rating.provisional ? 'ratings.badge.title.provisional' : 'ratings.badge.title', {ladder: ladderName(rating.ladder), games: rating.games}),
  },
  label ? null : h('span', {class: 'sr-only'}, `${t('ratings.badge.sr')} `),
  h('span', {class: 'rating-value'}, String(rating.rating)),
  rating.provisional ? h('span', {class: 'rating-provisional'}, ` ${t('ratings.provisional')}`) : null);
  return label ? [h('span', {class: 'rating-label'}, `${t('ratings.badge.label')} `), badge] : badge;
}

// "+62", "−18", "±0": the change of one rated game.
function signed(delta) {
  if (delta > 0) return `+${delta}`;
  return delta < 0 ? `−${-delta}` : '±0';
}

// "1000 → 1062 (+62)": before → after and the difference.
export function changeText(before, after) {
  return `${before} → ${after} (${signed(after - before)})`;
}

// The cell of a final-scores table for a seat's change from table.rated, or a dash for a
// seat nobody's rating follows (a bot, a guest).
export function ratingChangeCell(change, testid) {
  if (!change) return h('td', {class: 'rating-change muted', 'data-testid': testid}, h('span', {'aria-hidden': 'true'}, '—'), h('span', {class: 'sr-only'}, t('ratings.not_rated')));
  const delta = change.after - change.before;
  return h('td', {class: ['rating-change', delta > 0 && 'up', delta < 0 && 'down'], 'data-testid': testid, 'data-before': String(change.before), 'data-after': String(change.after)},
    changeText(change.before, change.after), change.provisional ? h('span', {class: 'rating-provisional'}, ` ${t('ratings.provisional')}`) : null);
}

// What table.rated said of a seat's player, if anything.
export function changeOf(rated, table, seat) {
  const player = rated && table && table.seats[seat] && table.seats[seat].player;
  return player ? rated.changes.find((c) => c.player === player.id) || null : null;
}

// Why a table moves no rating, from the server's `unrated` (docs/ratings.md, What is rated).
const UNRATED_KEYS = {table: 'ratings.unrated.table', accounts: 'ratings.unrated.accounts', time_called: 'ratings.unrated.time_called'};
export function unratedText(table) {
  return t(UNRATED_KEYS[table && table.unrated] || 'ratings.unrated.other');
}
// Why a game played out at a rated table still did not count, from table.rated's `unrated`.
const UNCOUNTED_KEYS = {
  aborted: 'ratings.uncounted.aborted', repeated_pairing: 'ratings.uncounted.repeated_pairing', too_few_accounts: 'ratings.unrated.accounts',
};

// What one rated player's change came from: their rank among the rated players (a
// resignation or a seat lost to timeouts ranks behind all who finished), then the change.
function changeStory(change, seat, name, changes) {
  const tied = changes.filter((c) => c.rank === change.rank).length > 1 ? 'yes' : 'no';
  const how = seat && seat.resigned ? 'resigned' : seat && seat.replaced ? 'replaced' : 'placed';
  return t(`ratings.story.${how}`, {
    name, tied, rank: ordinal(change.rank), n: changes.length, change: changeText(change.before, change.after),
  });
}

// The ladders of the game, in its order, and their names (docs/ratings.md).
function ladders() {
  return gameModule().ladderGroups().flatMap((group) => group.ladders.map(([ladder]) => ladder));
}
function ladderName(ladder) {
  return gameModule().ladderName(ladder);
}

// Under a final-scores table: whether the game was rated and why not, or each seat's change
// explained, and why a rating still provisional may rise after a game that was not won.
export function ratingStory(rated, table, names) {
  if (rated && rated.unrated) {
    const key = UNCOUNTED_KEYS[rated.unrated];
    return h('p', {class: 'muted small-print', 'data-testid': 'rated-line', 'data-rated': 'false'}, key ? t(key) : unratedText(table));
  }
  if (!rated && (!table || !table.rated)) {
    return h('p', {class: 'muted small-print', 'data-testid': 'rated-line', 'data-rated': 'false'}, unratedText(table));
  }
  const game = gameOf(table);
  const ladder = game.ladderName(rated ? rated.ladder : game.ladderOf(table.options));
  if (!rated) return h('p', {class: 'muted small-print', 'data-testid': 'rated-line', 'data-rated': 'true'}, t('ratings.rated_on.pending', {ladder}));
  const notes = table.seats.map((seat, i) => {
    const change = changeOf(rated, table, i);
    const text = change ? changeStory(change, seat, names[i], rated.changes)
      : t(seat.player ? 'ratings.story.guest' : 'ratings.story.bot', {name: names[i]});
    return h('li', {'data-testid': `rating-note-${i}`}, text);
  });
  const roseAnyway = rated.changes.some((c) => c.after > c.before && rated.changes.some((o) => o !== c && o.rank <= c.rank));
  return h('div', {class: 'rating-story small-print', 'data-testid': 'rating-story'},
    h('p', {class: 'muted', 'data-testid': 'rated-line', 'data-rated': 'true'}, t('ratings.rated_on', {ladder})),
    h('ul', {class: 'rating-notes'}, notes),
    roseAnyway ? h('p', {class: 'muted', 'data-testid': 'rating-why-up'},
      t('ratings.why_up')) : null);
}

// A player's name leading to their profile.
export function profileLink(player, text = playerName(player), attrs = {}) {
  return h('a', {href: `#/player/${player.id}`, class: 'player-link', ...attrs}, text);
}

function refusalLine(err, prefix) {
  return h('p', {class: ['error', isTemporary(err) && 'temporary'], role: 'alert', 'data-testid': 'ratings-error'}, refusalText(err, prefix));
}

// --- leaderboards ----------------------------------------------------------------------------

export class LeaderboardScreen {
  constructor(app) {
    this.app = app;
    this.ladder = null;
    this.page = 1;
    this.counts = new Map();  // ladder → players, for the picker
    this.countsLoaded = false;
    this.board = null;  // the page shown: rating.leaderboard's answer
    this.error = null;
    this.serial = 0;
    this.picker = h('nav', {class: 'panel ladder-picker', 'aria-labelledby': 'ladders-title', 'data-testid': 'ladder-picker'});
    // tabindex -1: focus stays in the section when a redraw removes the control that had it.
    this.main = h('section', {class: 'panel leaderboard', 'aria-labelledby': 'leaderboard-title', tabindex: -1});
    this.root = h('div', {class: 'ratings-page', 'data-testid': 'leaderboard'}, h('h1', {class: 'sr-only'}, t('ratings.title')), this.picker, this.main);
    this.loadCounts();
  }

  destroy() {}

  // The screen for another ladder or page (the address changed); no ladder: the one most
  // people play, once the counts tell which.
  show(ladder, page) {
    this.ladder = ladder || (this.countsLoaded ? this.busiest() : null);
    this.page = Math.max(1, page || 1);
    this.render();
    if (ladders().includes(this.ladder)) this.load();
  }

  busiest() {
    return ladders().reduce((best, l) => ((this.counts.get(l) || 0) > (this.counts.get(best) || 0) ? l : best), gameModule().defaultLadder);
  }

  // How many players each ladder has, for the picker, from the first entry of each.
  async loadCounts() {
    const answers = await Promise.all(ladders().map((ladder) => this.app.conn.request('rating.leaderboard', {ladder, limit: 1})
      .then(({players}) => [ladder, players], () => [ladder, null])));
    for (const [ladder, players] of answers) if (players !== null && !this.counts.has(ladder)) this.counts.set(ladder, players);
    this.countsLoaded = true;
    if (!this.ladder) this.show(null, 1);
    else this.render();
  }

  async load() {
    const serial = ++this.serial;
    const {ladder, page} = this;
    this.board = null;
    this.error = null;
    this.render();
    try {
      const board = await this.app.conn.request('rating.leaderboard', {ladder, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE});
      if (serial !== this.serial) return;
      this.board = board;
      this.counts.set(ladder, board.players);
    } catch (err) {
      if (serial !== this.serial) return;
      this.error = err;
    }
    this.render();
  }

  go(ladder, page) {
    this.app.navigate(`#/ratings/${ladder}${page > 1 ? `/${page}` : ''}`);
  }

  render() {
    this.app.pageTitle(this.ladder ? t('ratings.title.ladder', {ladder: ladderName(this.ladder)}) : t('ratings.title'));
    this.root.dataset.ladder = this.ladder || '';
    this.renderPicker();
    this.renderBoard();
  }

  renderPicker() {
    const group = ({title, ladders}) => [
      h('h3', {}, title),
      h('ul', {class: 'ladder-list'}, ladders.map(([ladder, label]) => {
        const count = this.counts.get(ladder);
        return h('li', {}, h('a', {
          href: `#/ratings/${ladder}`, 'data-testid': `ladder-${ladder}`, 'aria-current': ladder === this.ladder ? 'page' : null,
        }, label,
        count !== undefined ? h('span', {class: 'muted'}, ' ', h('span', {'aria-hidden': 'true'}, `(${count})`),
          h('span', {class: 'sr-only'}, t('ratings.players', {n: count}))) : null));
      }))];
    const me = this.app.store.me;
    replaceKeepingFocus(this.picker,
      h('h2', {id: 'ladders-title'}, t('ratings.ladders')),
      ...gameModule().ladderGroups().map(group),
      h('p', {class: 'note muted'}, t('ratings.ladders_note')),
      me ? h('p', {}, h('a', {href: `#/player/${me.id}`, 'data-testid': 'my-profile'}, t('ratings.my_profile'))) : null);
  }

  renderBoard() {
    const ladder = this.ladder;
    if (!ladder) {
      replaceKeepingFocus(this.main, h('h2', {id: 'leaderboard-title'}, t('ratings.title')), loadingLine());
      return;
    }
    if (!ladders().includes(ladder)) {
      replaceKeepingFocus(this.main, h('h2', {id: 'leaderboard-title'}, t('ratings.no_such_ladder')),
        h('p', {'data-testid': 'no-such-ladder'}, t('ratings.no_such_ladder.text', {ladder})));
      return;
    }
    const board = this.board;
    const players = board ? board.players : this.counts.get(ladder);
    const pages = Math.max(1, Math.ceil((players || 0) / PAGE_SIZE));
    const first = (this.page - 1) * PAGE_SIZE;
    let body;
    if (this.error) body = refusalLine(this.error, t('ratings.leaderboard_refused'));
    else if (!board) body = loadingLine();
    else if (!board.entries.length) {
      body = h('p', {class: 'muted', 'data-testid': 'leaderboard-empty'},
        t(board.players ? 'ratings.leaderboard.past_end' : 'ratings.leaderboard.empty'));
    } else body = this.table(board);
    const range = board && board.entries.length
      ? t('ratings.pager.range', {first: first + 1, last: first + board.entries.length, n: players, page: this.page, pages})
      : t('ratings.pager.range.none', {page: this.page, pages});
    replaceKeepingFocus(this.main,
      h('div', {class: 'panel-head'},
        h('h2', {id: 'leaderboard-title', 'data-testid': 'leaderboard-title'}, ladderName(ladder)),
        players !== undefined ? h('span', {class: 'status-badge', 'data-testid': 'ladder-players', 'data-players': String(players)},
          t('ratings.players', {n: players})) : null),
      h('p', {class: 'muted small-print'},
        ...tParts('ratings.ranked_by', {provisional: h('span', {class: 'rating-provisional'}, t('ratings.ranked_by.provisional'))})),
      body,
      // Kept while the next page loads, so that focus stays on the button pressed.
      players > PAGE_SIZE ? h('nav', {class: 'pager', 'aria-label': t('ratings.pager')},
        h('button', {type: 'button', class: 'secondary', 'data-testid': 'leaderboard-previous', disabled: this.page <= 1,
          onClick: () => this.go(ladder, this.page - 1)}, t('ratings.pager.previous', {n: PAGE_SIZE})),
        h('span', {class: 'muted', 'data-testid': 'leaderboard-range'}, range),
        h('button', {type: 'button', class: 'secondary', 'data-testid': 'leaderboard-next', disabled: this.page >= pages,
          onClick: () => this.go(ladder, this.page + 1)}, t('ratings.pager.next', {n: PAGE_SIZE}))) : null);
  }

  table(board) {
    const me = this.app.store.me;
    const rows = board.entries.map((e) => {
      const mine = me && e.player.id === me.id;
      return h('tr', {class: [mine && 'mine'], 'data-testid': `leader-${e.player.id}`, 'data-rank': String(e.rank), 'data-provisional': String(e.provisional)},
        h('td', {class: 'num'}, String(e.rank)),
        h('th', {scope: 'row'}, ...youParts(profileLink(e.player, e.player.name, {'data-testid': `leader-link-${e.player.id}`}), mine)),
        h('td', {class: 'num'}, ratingBadge(e)),
        h('td', {class: 'num'}, String(e.games)));
    });
    return scrollRegion(t('ratings.leaderboard.region'), h('table', {class: 'standings-table leaderboard-table'},
      h('caption', {class: 'sr-only'}, t('ratings.leaderboard.caption', {ladder: ladderName(board.ladder)})),
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col', class: 'num'}, t('ratings.col.rank')), h('th', {scope: 'col'}, t('ratings.col.player')),
        h('th', {scope: 'col', class: 'num'}, t('ratings.col.rating')), h('th', {scope: 'col', class: 'num'}, t('ratings.col.games')))),
      h('tbody', {}, rows)));
  }
}

function loadingLine() {
  return h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), t('ratings.loading'));
}

// A name, or an element naming someone, marked when it is the viewer's own.
function youParts(name, mine) {
  return mine ? tParts('ratings.you', {name}) : [name];
}

// --- a player's profile ---------------------------------------------------------------------

const GAMES_SHOWN = 20;  // rated games listed at first; "Show more" adds as many again

export class ProfileScreen {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.profile = null;
    this.error = null;
    this.shownGames = GAMES_SHOWN;
    this.chart = null;
    this.root = h('div', {class: 'ratings-page profile-page', 'data-testid': 'profile', 'data-player': String(id), tabindex: -1});
    this.load();
  }

  destroy() {
    if (this.chart) this.chart.disconnect();
  }

  async load() {
    this.render();
    try {
      this.profile = await this.app.conn.request('rating.profile', {player: this.id});
      this.error = null;
    } catch (err) {
      if (err.code !== 'disconnected') this.error = err;
    }
    this.render();
  }

  render() {
    if (this.chart) this.chart.disconnect();
    this.chart = null;
    const p = this.profile;
    if (!p) {
      const body = this.error
        ? (this.error.code === 'not_found' ? h('p', {'data-testid': 'no-such-player'}, t('ratings.no_such_player')) : refusalLine(this.error, t('ratings.profile_refused')))
        : loadingLine();
      replaceKeepingFocus(this.root, h('section', {class: 'panel'}, h('h1', {}, t('ratings.player')), body));
      return;
    }
    const mine = this.app.store.me && this.app.store.me.id === p.player.id;
    this.app.pageTitle(t('ratings.title.player', {name: p.player.name}));
    replaceKeepingFocus(this.root,
      h('section', {class: 'panel profile-head', 'aria-labelledby': 'profile-name'},
        h('h1', {id: 'profile-name', 'data-testid': 'profile-name'}, ...youParts(p.player.name, mine)),
        p.ratings.length ? h('ul', {class: 'profile-ratings', 'data-testid': 'profile-ratings'}, p.ratings.map((r) => h('li', {
          'data-testid': `profile-rating-${r.ladder}`, 'data-rank': String(r.rank), 'data-players': String(r.players),
        },
        h('a', {href: `#/ratings/${r.ladder}${r.rank > PAGE_SIZE ? `/${Math.ceil(r.rank / PAGE_SIZE)}` : ''}`, class: 'ladder-name'}, ladderName(r.ladder)),
        h('div', {}, ratingBadge(r), h('span', {class: 'muted'}, ' · ', t('ratings.profile.rank', {rank: ordinal(r.rank), n: r.players, games: r.games}))))))
          : h('p', {class: 'muted', 'data-testid': 'profile-unrated'}, mine
            ? t('ratings.profile.unrated.mine')
            : t('ratings.profile.unrated')),
        h('p', {}, h('a', {href: '#/ratings'}, t('ratings.all_leaderboards')))),
      p.games.length ? this.chartSection(p) : null,
      p.games.length ? this.gamesSection(p) : null);
  }

  chartSection(p) {
    const series = seriesOf(p.games);
    const holder = h('div', {class: 'chart-holder'});
    // Drawn at the width it gets, so that its text stays readable on a phone as on a desktop.
    this.chart = new ResizeObserver(() => {
      const width = Math.floor(holder.clientWidth);
      if (width > 0 && width !== Number(holder.dataset.width)) {
        holder.dataset.width = String(width);
        replaceKeepingFocus(holder, ratingChart(series, width));
      }
    });
    this.chart.observe(holder);
    return h('section', {class: 'panel', 'aria-labelledby': 'chart-title'},
      h('h2', {id: 'chart-title', class: 'section-title'}, t('ratings.chart')),
      h('figure', {class: 'rating-figure', 'data-testid': 'rating-chart'},
        holder,
        h('figcaption', {}, h('ul', {class: 'chart-legend'}, series.map((line, i) => h('li', {},
          s('svg', {width: 28, height: 10, 'aria-hidden': 'true', focusable: 'false'},
            s('line', {x1: 1, y1: 5, x2: 27, y2: 5, stroke: LINE_STYLES[i % LINE_STYLES.length].colour, 'stroke-width': 2.5, 'stroke-dasharray': LINE_STYLES[i % LINE_STYLES.length].dash})),
          ` ${ladderName(line.ladder)}`))))),
      h('details', {class: 'chart-data'},
        h('summary', {}, t('ratings.chart.figures')),
        series.map((line) => h('div', {},
          h('h3', {}, ladderName(line.ladder)),
          h('ol', {}, line.games.map((g) => h('li', {}, t('ratings.chart.point', {date: dateText(g.rated_at), change: changeText(g.before, g.after)}))))))));
  }

  gamesSection(p) {
    const games = p.games.slice(0, this.shownGames);
    return h('section', {class: 'panel', 'aria-labelledby': 'games-title'},
      h('div', {class: 'panel-head'}, h('h2', {id: 'games-title', class: 'section-title'}, t('ratings.games')), h('span', {class: 'muted'}, t('ratings.games.order'))),
      h('ol', {class: 'rated-games', 'data-testid': 'rated-games'}, games.map((g) => {
        const delta = g.after - g.before;
        return h('li', {'data-testid': `rated-game-${g.table}`},
          h('a', {href: `#/table/${g.table}`, class: 'game-link'}, t('ratings.table_n', {n: String(g.table)})),
          h('a', {href: `#/replay/${g.table}`, class: 'small-link', 'data-testid': `rated-game-replay-${g.table}`,
            'aria-label': t('ratings.replay_label', {n: String(g.table)})}, t('lobby.history.replay')),
          h('span', {class: 'muted'}, ladderName(g.ladder)),
          h('span', {}, t('ratings.placed', {rank: ordinal(g.rank)})),
          h('span', {class: ['rating-change', delta > 0 && 'up', delta < 0 && 'down']}, changeText(g.before, g.after)),
          h('time', {class: 'muted', datetime: new Date(g.rated_at).toISOString()}, dateText(g.rated_at)));
      })),
      p.games.length > this.shownGames ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'rated-games-more', onClick: () => {
        this.shownGames += GAMES_SHOWN;
        this.render();
      }}, t('ratings.show_more')) : null);
  }
}

// --- the chart ---------------------------------------------------------------------------------

// Lines told apart by dash as well as by colour (Okabe–Ito), for those who see few colours.
const LINE_STYLES = [
  {colour: '#0072b2', dash: null}, {colour: '#d55e00', dash: '7 4'}, {colour: '#009e73', dash: '2 3'},
  {colour: '#cc79a7', dash: '9 3 2 3'}, {colour: '#8a6400', dash: '4 4'},
];

// One series per ladder, oldest game first, in the order of the game's ladders.
function seriesOf(games) {
  const by = new Map();
  for (const g of games) {
    if (!by.has(g.ladder)) by.set(g.ladder, []);
    by.get(g.ladder).push(g);
  }
  return ladders().filter((l) => by.has(l)).map((ladder) => ({ladder, games: by.get(ladder).sort((a, b) => a.rated_at - b.rated_at)}));
}

// A round step for `span` giving at most about `count` ticks.
function niceStep(span, count) {
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= rough);
}

function timeLabel(ms, span) {
  if (span > 2 * 86_400_000) return formatDate(ms, {day: 'numeric', month: 'short'});
  const seconds = span < 10 * 60_000;
  return formatDate(ms, {hour: '2-digit', minute: '2-digit', second: seconds ? '2-digit' : undefined});
}

// The rating over time as a step line per ladder: level between games, a jump at each one.
function ratingChart(series, width) {
  const height = 240;
  const pad = {left: 48, right: 14, top: 12, bottom: 30};
  const games = series.flatMap((line) => line.games);
  const values = games.flatMap((g) => [g.before, g.after]);
  let [t0, t1] = [Math.min(...games.map((g) => g.rated_at)), Math.max(...games.map((g) => g.rated_at))];
  if (t1 - t0 < 60_000) [t0, t1] = [t0 - 30_000, t1 + 30_000];  // games within a minute: a minute wide
  const step = niceStep(Math.max(40, Math.max(...values) - Math.min(...values)), 4);
  const r0 = Math.floor(Math.min(...values) / step) * step;
  const r1 = Math.max(r0 + step, Math.ceil(Math.max(...values) / step) * step);
  const x = (t) => pad.left + ((t - t0) / (t1 - t0)) * (width - pad.left - pad.right);
  const y = (r) => pad.top + ((r1 - r) / (r1 - r0)) * (height - pad.top - pad.bottom);
  const yTicks = [];
  for (let r = r0; r <= r1; r += step) yTicks.push(r);
  const xCount = width < 420 ? 3 : 5;
  const xTicks = Array.from({length: xCount}, (_, i) => t0 + ((t1 - t0) * i) / (xCount - 1));
  const summary = series.map((line) => {
    const first = line.games[0];
    const last = line.games.at(-1);
    return t('ratings.chart.summary', {ladder: ladderName(line.ladder), from: String(first.before), to: String(last.after), n: line.games.length});
  }).join('; ');
  return s('svg', {
    class: 'rating-chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': t('ratings.chart.label', {from: dateText(games.reduce((a, g) => Math.min(a, g.rated_at), Infinity)), to: dateText(t1), summary}),
  },
  s('g', {class: 'chart-grid'}, yTicks.map((r) => [
    s('line', {x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r)}),
    s('text', {x: pad.left - 6, y: y(r) + 4, 'text-anchor': 'end'}, String(r))])),
  s('g', {class: 'chart-axis'},
    s('line', {x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom}),
    xTicks.map((tick, i) => s('text', {
      x: x(tick), y: height - pad.bottom + 18, 'text-anchor': i === 0 ? 'start' : i === xTicks.length - 1 ? 'end' : 'middle',
    }, timeLabel(tick, t1 - t0)))),
  series.map((line, i) => {
    const style = LINE_STYLES[i % LINE_STYLES.length];
    const d = line.games.map((g, k) => `${k ? 'L' : 'M'}${x(g.rated_at).toFixed(1)} ${y(g.before).toFixed(1)}V${y(g.after).toFixed(1)}`).join('');
    return s('g', {class: 'chart-line', 'data-ladder': line.ladder},
      s('path', {class: 'rating-line', d, fill: 'none', stroke: style.colour, 'stroke-width': 2.5, 'stroke-dasharray': style.dash, 'stroke-linejoin': 'round'}),
      // Where the line starts (hollow), then the rating after each game.
      s('circle', {cx: x(line.games[0].rated_at), cy: y(line.games[0].before), r: 3.5, fill: '#fffaf0', stroke: style.colour, 'stroke-width': 2}),
      line.games.map((g) => s('circle', {cx: x(g.rated_at), cy: y(g.after), r: 3.5, fill: style.colour})));
  }));
}
