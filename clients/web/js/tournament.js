// A tournament's page (#/tournament/ID, docs/tournaments.md): registration and check-in, the
// rounds and their tables, the live standings, the elimination tree and the director's
// tools. The server judges every request; the page only says what the event's state allows.

import {h, replaceKeepingFocus, scrollRegion} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {dateText, durationText} from './time.js';
import {ordinal} from './words.js';
import {gameModule} from './games/index.js';
import {badge} from './tournaments.js';
import {formatList, t, tParts} from './i18n.js';
import {
  entryText, formatText, numberText, playersText, seatOrder, stagesText, startText, tieBreakText,
} from './tournamentwords.js';

// While an event's page shows, it is asked for again this often: results come in board by
// board, and only the entrants and the director hear of rounds by push.
const REFRESH_MS = 10_000;

export class TournamentScreen {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.detail = null;
    this.error = null;
    this.message = null;  // what the last action did, or why it was refused: {text, error, temporary, code}
    this.needAccount = false;  // a guest's registration was refused: this server wants accounts
    // What the director has typed or opened in a form, by form, kept across redraws.
    this.drafts = new Map();
    this.confirming = null;  // 'withdraw' or 'cancel' while the page asks "really?"
    this.roundsOpen = new Map();  // round → open, for rounds opened or closed by hand
    this.root = h('div', {class: 'tournament-page', 'data-testid': 'tournament', 'data-tournament': String(id), tabindex: -1});
    this.timer = setInterval(() => {
      if (!document.hidden && this.live()) this.load();
    }, REFRESH_MS);
    this.render();
    this.load();
  }

  destroy() {
    clearInterval(this.timer);
  }

  live() {
    return !this.detail || ['registering', 'running', 'paused'].includes(this.detail.status);
  }

  // Asks for the event again, and redraws only if something changed (or an action's outcome
  // waits to be shown), so that a refresh does not disturb what the reader is doing.
  async load() {
    const serial = (this.serial = (this.serial || 0) + 1);
    try {
      const {tournament} = await this.app.conn.request('tournament.get', {tournament: this.id});
      if (serial !== this.serial) return;
      const text = JSON.stringify(tournament);
      if (text === this.shown && !this.error && !this.redraw) return;
      this.shown = text;
      this.detail = tournament;
      this.error = null;
      this.app.pageTitle(tournament.name);
    } catch (err) {
      if (serial !== this.serial || err.code === 'disconnected') return;
      this.error = err;
    }
    this.redraw = false;
    this.render();
  }

  // A push about this event (it started, began or finished a round, …), or a round's table
  // for me: what the page shows is asked for again.
  onPush() {
    this.load();
  }

  get me() {
    return this.app.store.me;
  }

  isDirector() {
    const d = this.detail;
    return Boolean(d && this.me && (d.director.id === this.me.id || (this.app.store.account && this.app.store.account.role === 'admin')));
  }

  myEntry() {
    return this.detail && this.me ? this.detail.entrants.find((e) => e.player.id === this.me.id) || null : null;
  }

  async act(type, payload = {}, done = null) {
    this.message = null;
    try {
      await this.app.conn.request(type, {tournament: this.id, ...payload});
      if (done) this.message = {text: done};
    } catch (err) {
      this.message = {text: refusalText(err), error: true, temporary: isTemporary(err), code: err.code};
    }
    this.redraw = true;
    await this.load();
    return this.message === null || !this.message.error;
  }

  render() {
    const d = this.detail;
    if (!d) {
      replaceKeepingFocus(this.root, this.error
        ? h('div', {class: 'panel'}, h('p', {class: 'error', role: 'alert', 'data-testid': 'tournament-error'},
          this.error.code === 'not_found' ? t('tournament.not_found', {id: String(this.id)}) : refusalText(this.error, t('tournament.open_refused'))),
        h('p', {}, h('a', {href: '#/tournaments'}, t('tournament.all'))))
        : h('p', {class: 'loading'}, t('tournament.opening')));
      return;
    }
    this.root.dataset.status = d.status;
    replaceKeepingFocus(this.root,
      h('div', {class: 'tournament-main'},
        this.header(),
        this.mine(),
        this.isDirector() ? this.directorPanel() : null,
        this.standings(),
        this.eliminationTree(),
        this.rounds()),
      h('div', {class: 'tournament-side'}, this.entrants()));
  }

  header() {
    const d = this.detail;
    const s = d.settings;
    const options = gameModule().optionsText(s.game, 'tournament');
    const limit = s.game.turn_seconds ? t('tournament.head.per_decision', {duration: durationText(s.game.turn_seconds)}) : t('tournament.head.no_limit');
    const game = s.round_time_seconds
      ? t('tournament.head.game.round_time', {options, limit, round: durationText(s.round_time_seconds)})
      : t('tournament.head.game', {options, limit});
    const checkIn = s.check_in_minutes && d.starts_at ? t('tournament.head.check_in', {at: dateText(d.starts_at - s.check_in_minutes * 60_000)}) : null;
    const link = (href, text, attrs) => h('a', {href, ...attrs}, text);
    return h('section', {class: 'panel tournament-head', 'aria-labelledby': 'tournament-title'},
      h('div', {class: 'panel-head'}, h('h1', {id: 'tournament-title', 'data-testid': 'tournament-title'}, d.name), badge(d.status)),
      h('p', {}, t('tournament.head.stages', {stages: stagesText(s.stages)}), ' ', game),
      h('p', {class: 'muted'}, t('tournament.head.directed_by', {name: d.director.name}), ' · ', playersText(d), ' · ', startText(d),
        checkIn ? ` · ${checkIn}` : '', d.finished_at ? ` · ${t('tournament.head.ended', {at: dateText(d.finished_at)})}` : ''),
      h('p', {class: 'muted small-print'}, ...tParts('tournament.head.seed', {
        seed: h('code', {'data-testid': 'tournament-seed'}, d.seed),
        json: link(`/api/tournaments/${d.id}`, t('tournament.export.json'), {'data-testid': 'export-json'}),
        standings: link(`/api/tournaments/${d.id}/standings.csv`, t('tournament.export.standings'),
          {download: `tournament-${d.id}-standings.csv`, 'data-testid': 'export-standings'}),
        results: link(`/api/tournaments/${d.id}/results.csv`, t('tournament.export.results'),
          {download: `tournament-${d.id}-results.csv`, 'data-testid': 'export-results'}),
      })),
      this.message ? h('p', {class: [this.message.error ? 'error' : 'ok', this.message.temporary && 'temporary'], role: this.message.error ? 'alert' : 'status',
        'data-testid': 'tournament-message'}, this.message.text) : null,
      h('p', {}, h('a', {href: '#/tournaments'}, t('tournament.back'))));
  }

  // What I may do: register, unregister, check in, withdraw; my table in the current round.
  mine() {
    const d = this.detail;
    const entry = this.myEntry();
    const parts = [];
    const button = (testid, text, type, done, kind = 'primary') =>
      h('button', {type: 'button', class: kind, 'data-testid': testid, onClick: () => this.act(type, {}, done)}, text);
    const active = entry && (entry.status === 'registered' || entry.status === 'playing');
    if (d.status === 'registering') {
      if (!this.app.store.account && this.needAccount) {
        // Refused to a guest: this server's tournaments are for accounts (tournament_entrants).
        parts.push(h('p', {'data-testid': 'register-need-account'},
          ...tParts('tournament.need_account', {link: h('a', {href: '#/account'}, t('tournament.need_account.link'))})));
      } else if (!active) {
        parts.push(entry && entry.status === 'removed' && (entry.why ? entry.why === 'removed' : entry.reason !== 'unregistered')
          ? h('p', {}, t('tournament.removed_you', {reason: entry.director_reason || entry.reason}))
          : h('button', {type: 'button', class: 'primary', 'data-testid': 'register', onClick: async () => {
            if (await this.act('tournament.register', {}, t('tournament.registered'))) return;
            if (!this.app.store.account && this.message.code === 'forbidden') {
              this.needAccount = true;
              this.message = null;
              this.render();
            }
          }}, t('tournament.register')));
      } else {
        const s = d.settings;
        const opens = s.check_in_minutes && d.starts_at ? d.starts_at - s.check_in_minutes * 60_000 : null;
        if (entry.checked_in_at) parts.push(h('p', {class: 'ok', 'data-testid': 'checked-in'}, t('tournament.checked_in_at', {at: dateText(entry.checked_in_at)})));
        else if (opens !== null && Date.now() >= opens) parts.push(button('check-in', t('tournament.check_in'), 'tournament.check_in', t('tournament.checked_in')));
        else if (opens !== null) parts.push(h('p', {class: 'muted'}, t('tournament.check_in_from', {at: dateText(opens)})));
        parts.unshift(h('p', {'data-testid': 'my-entry', 'data-status': entry.status}, t('tournament.registered')));
        parts.push(button('unregister', t('tournament.unregister'), 'tournament.unregister', t('tournament.unregistered'), 'secondary'));
      }
    } else if (entry && entry.status !== 'removed') {
      const standing = d.status === 'finished' && entry.status === 'playing' && d.standings.find((r) => r.player.id === entry.player.id);
      parts.push(h('p', {'data-testid': 'my-entry', 'data-status': entry.status}, standing
        ? t(standing.rank === 1 ? 'tournament.finished.won' : 'tournament.finished', {rank: ordinal(standing.rank), n: d.standings.length})
        : entryText(entry, true)));
      const table = this.myTable();
      if (table) {
        parts.push(h('p', {}, h('a', {href: `#/table/${table.table}`, class: 'button primary', 'data-testid': 'my-tournament-table'},
          t('tournament.my_table', {round: String(table.round)}))));
      }
      if (entry.status === 'playing' && (d.status === 'running' || d.status === 'paused')) {
        parts.push(this.confirming === 'withdraw'
          ? h('p', {class: 'confirm'}, t('tournament.withdraw.confirm'), ' ',
            h('button', {type: 'button', class: 'danger', 'data-testid': 'withdraw-confirm', onClick: () => {
              this.confirming = null;
              this.act('tournament.withdraw', {}, t('tournament.withdrew'));
            }}, t('tournament.withdraw')), ' ',
            h('button', {type: 'button', class: 'secondary', onClick: () => { this.confirming = null; this.render(); }}, t('tournament.withdraw.stay')))
          : h('button', {type: 'button', class: 'secondary', 'data-testid': 'withdraw', onClick: () => { this.confirming = 'withdraw'; this.render(); }}, t('tournament.withdraw')));
      }
    }
    if (!parts.length) return null;
    return h('section', {class: 'panel my-entry', 'aria-labelledby': 'my-entry-title', 'data-testid': 'my-entry-panel'},
      h('h2', {id: 'my-entry-title'}, t('tournament.you')), h('div', {class: 'actions'}, parts));
  }

  // My board without a result in the last round, if the server made its table.
  myTable() {
    const last = this.detail.rounds.at(-1);
    if (!last || last.finished_at) return null;
    const board = last.boards.find((b) => !b.result && b.table && b.seats.some((p) => p.id === this.me.id));
    return board ? {round: last.round, table: board.table} : null;
  }

  directorPanel() {
    const d = this.detail;
    const buttons = [];
    const act = (testid, text, type, done, kind = 'secondary') =>
      h('button', {type: 'button', class: kind, 'data-testid': testid, onClick: () => this.act(type, {}, done)}, text);
    if (d.status === 'registering') buttons.push(act('director-start', t('tournament.director.start'), 'tournament.start', t('tournament.director.started'), 'primary'));
    if (d.status === 'running') buttons.push(act('director-pause', t('tournament.director.pause'), 'tournament.pause', t('tournament.director.paused')));
    if (d.status === 'paused') buttons.push(act('director-resume', t('tournament.director.resume'), 'tournament.resume', t('tournament.director.resumed'), 'primary'));
    const open = ['registering', 'running', 'paused'].includes(d.status);
    if (open) {
      buttons.push(this.confirming === 'cancel'
        ? h('span', {class: 'confirm'}, t('tournament.director.cancel.confirm'), ' ',
          h('button', {type: 'button', class: 'danger', 'data-testid': 'director-cancel-confirm', onClick: () => {
            this.confirming = null;
            this.act('tournament.cancel', {}, t('tournament.director.cancelled'));
          }}, t('tournament.director.cancel.yes')), ' ',
          h('button', {type: 'button', class: 'secondary', onClick: () => { this.confirming = null; this.render(); }}, t('tournament.director.cancel.no')))
        : h('button', {type: 'button', class: 'secondary', 'data-testid': 'director-cancel', onClick: () => { this.confirming = 'cancel'; this.render(); }}, t('tournament.director.cancel')));
    }
    const still = d.entrants.filter((e) => e.status === 'registered' || e.status === 'playing');
    let players = null;
    if (open && still.length) {
      const draft = this.drafts.get('players') || {};
      const who = h('select', {'data-testid': 'director-player', 'aria-label': t('tournament.director.player')},
        still.map((e) => h('option', {value: String(e.player.id), selected: String(e.player.id) === draft.player}, e.player.name)));
      const what = h('select', {'data-testid': 'director-action', 'aria-label': t('tournament.director.action')},
        h('option', {value: 'tournament.remove'}, t(d.status === 'registering' ? 'tournament.director.remove.registering' : 'tournament.director.remove')),
        h('option', {value: 'tournament.disqualify', selected: draft.action === 'tournament.disqualify'}, t('tournament.director.disqualify')));
      const reason = h('input', {type: 'text', maxlength: 200, value: draft.reason || '', 'data-testid': 'director-reason',
        'aria-label': t('tournament.reason'), placeholder: t('tournament.director.reason.placeholder')});
      const keep = () => this.drafts.set('players', {player: who.value, action: what.value, reason: reason.value});
      players = h('form', {class: 'director-players', 'data-testid': 'director-players', onInput: keep, onChange: keep, onSubmit: async (event) => {
        event.preventDefault();
        if (!reason.value.trim()) {
          this.message = {text: t('tournament.director.reason.missing'), error: true};
          this.render();
          return;
        }
        const name = who.selectedOptions[0].textContent;
        const done = await this.act(what.value, {player: Number(who.value), reason: reason.value.trim()},
          t(what.value === 'tournament.remove' ? 'tournament.director.removed' : 'tournament.director.disqualified', {name}));
        if (done) {
          this.drafts.delete('players');
          this.render();
        }
      }}, who, what, reason, h('button', {type: 'submit', class: 'secondary', 'data-testid': 'director-apply'}, t('tournament.director.apply')));
    }
    return h('section', {class: 'panel director', 'aria-labelledby': 'director-title', 'data-testid': 'director-panel'},
      h('h2', {id: 'director-title'}, t('tournament.director')),
      h('div', {class: 'actions'}, buttons),
      players,
      d.rounds.length ? h('p', {class: 'note muted'}, t('tournament.director.override_note')) : null);
  }

  // The standings with every column, in the event's tie-break order; before the start, none.
  standings() {
    const d = this.detail;
    if (!d.standings.length) return null;
    const order = d.settings.tie_breaks.filter((k) => k !== 'tournament_points');
    const cell = {
      sonneborn_berger: (r) => numberText(r.sonneborn_berger),
      percent_of_winner: (r) => percentText(r.percent_of_winner),
      game_points: (r) => String(r.game_points),
      wins: (r) => String(r.wins),
    };
    const head = (key) => t('tournament.standings.head', {key});
    const rows = d.standings.map((r) => {
      const mine = this.me && r.player.id === this.me.id;
      const notes = [r.withdrawn && t('tournament.standings.withdrawn'), r.disqualified && t('tournament.standings.disqualified')].filter(Boolean);
      return h('tr', {class: [mine && 'mine', r.disqualified && 'disqualified'], 'data-testid': `standing-${r.player.id}`, 'data-rank': String(r.rank), 'data-points': String(r.points)},
        h('td', {class: 'num'}, r.tied_with_previous ? h('span', {title: t('tournament.standings.tied')}, '=') : String(r.rank)),
        h('th', {scope: 'row'}, youText(r.player.name, mine), notes.length ? h('span', {class: 'muted'}, ` · ${formatList(notes)}`) : null),
        h('td', {class: 'num strong'}, numberText(r.points)),
        order.map((k) => h('td', {class: 'num'}, cell[k](r))),
        h('td', {class: 'num'}, String(r.played)), h('td', {class: 'num'}, String(r.byes)), h('td', {class: 'num'}, String(r.forfeits)));
    });
    return h('section', {class: 'panel', 'aria-labelledby': 'standings-title', 'data-testid': 'standings'},
      h('div', {class: 'panel-head'}, h('h2', {id: 'standings-title'}, t('tournament.standings')),
        h('span', {class: 'muted'}, t(d.status === 'finished' ? 'tournament.standings.final' : 'tournament.standings.live'))),
      scrollRegion(t('tournament.standings.region'), h('table', {class: 'standings-table'},
        h('caption', {class: 'sr-only'}, t('tournament.standings.caption', {name: d.name, order: d.settings.tie_breaks.map(tieBreakText).join(t('tournament.standings.then'))})),
        h('thead', {}, h('tr', {},
          h('th', {scope: 'col'}, head('rank')), h('th', {scope: 'col'}, head('player')), h('th', {scope: 'col', class: 'num'}, head('points')),
          order.map((k) => h('th', {scope: 'col', class: 'num', title: tieBreakText(k)}, head(k))),
          h('th', {scope: 'col', class: 'num'}, head('played')), h('th', {scope: 'col', class: 'num'}, head('byes')), h('th', {scope: 'col', class: 'num'}, head('forfeits')))),
        h('tbody', {}, rows))));
  }

  // Each elimination stage as columns of rounds: who advanced from every table, down to the
  // final table and its winner.
  eliminationTree() {
    const d = this.detail;
    const trees = [];
    d.settings.stages.forEach((stage, index) => {
      if (stage.format !== 'elimination') return;
      const rounds = d.rounds.filter((r) => r.stage === index);
      if (!rounds.length) return;
      const columns = rounds.map((round, i) => {
        const next = rounds[i + 1];
        const onward = new Set(next ? next.boards.flatMap((b) => b.seats.map((p) => p.id)) : []);
        const final = !next && round.boards.length === 1 && (d.status === 'finished' || d.status === 'cancelled' || round.finished_at);
        return h('li', {class: 'tree-round', 'data-testid': `tree-round-${round.round}`},
          h('h3', {}, final ? t('tournament.tree.final') : t('tournament.round_n', {n: String(round.round)})),
          h('ol', {class: 'tree-boards'}, round.boards.map((board) => h('li', {class: 'tree-board', 'data-testid': `tree-board-${round.round}-${board.board}`},
            h('div', {class: 'tree-board-head'}, t('tournament.board_n', {n: String(board.board)}),
              board.table ? h('a', {href: board.result ? `#/replay/${board.table}` : `#/table/${board.table}`, class: 'small-link'},
                t(board.result ? 'tournament.tree.replay' : 'tournament.tree.watch')) : null),
            h('ul', {}, seatOrder(board).map(({player, seat}) => {
              const r = board.result;
              const advanced = onward.has(player.id);
              const champion = final && r && r.places[seat] === 1;
              return h('li', {class: [advanced && 'advanced', champion && 'champion'], 'data-testid': `tree-player-${round.round}-${player.id}`,
                'data-advanced': String(advanced)},
              champion ? h('span', {class: 'crown', 'aria-label': t('tournament.tree.winner')}, '♛ ') : null,
              h('span', {}, player.name),
              r ? h('span', {class: 'muted'}, ` ${r.scores[seat]}`) : null,
              advanced ? h('span', {class: 'advance-mark'}, ' ▲', h('span', {class: 'sr-only'}, ` ${t('tournament.tree.advanced')}`)) : null);
            }))))));
      });
      trees.push(h('ol', {class: 'elimination-tree', 'aria-label': t('tournament.tree.label', {n: String(index + 1)})}, columns));
    });
    if (!trees.length) return null;
    return h('section', {class: 'panel', 'aria-labelledby': 'tree-title', 'data-testid': 'elimination-tree'},
      h('h2', {id: 'tree-title'}, t('tournament.tree')), trees);
  }

  // Every round, the newest first and open: its boards with their tables, results and byes.
  rounds() {
    const d = this.detail;
    if (!d.rounds.length) return null;
    const director = this.isDirector();
    const last = d.rounds.at(-1).round;
    return h('section', {class: 'panel', 'aria-labelledby': 'rounds-title', 'data-testid': 'rounds'},
      h('h2', {id: 'rounds-title'}, t('tournament.rounds')),
      [...d.rounds].reverse().map((round) => {
        const done = round.boards.filter((b) => b.result).length;
        const details = h('details', {class: 'event-round', 'data-testid': `round-${round.round}`, open: this.roundsOpen.get(round.round) ?? round.round === last},
          h('summary', {}, h('strong', {}, t('tournament.round_n', {n: String(round.round)})),
            h('span', {class: 'muted'}, ' · ', t('tournament.round.stage', {n: String(round.stage + 1), format: formatText(d.settings.stages[round.stage].format)}), ' · ',
              round.finished_at ? t('tournament.round.finished') : t('tournament.round.progress', {done, n: round.boards.length}),
              !round.finished_at && d.settings.round_time_seconds
                ? ` · ${t('tournament.round.time_called_at', {at: dateText(round.started_at + d.settings.round_time_seconds * 1000)})}` : '')),
          h('ol', {class: 'board-list'}, round.boards.map((board) => this.board(round, board, director))),
          round.byes.length ? h('p', {class: 'muted', 'data-testid': `byes-${round.round}`},
            t('tournament.round.byes', {points: d.settings.bye_points, names: formatList(round.byes.map((p) => p.name))})) : null);
        details.addEventListener('toggle', () => this.roundsOpen.set(round.round, details.open));
        return details;
      }));
  }

  board(round, board, director) {
    const r = board.result;
    const mine = this.me && board.seats.some((p) => p.id === this.me.id);
    const link = board.table
      ? h('a', {href: `#/table/${board.table}`, class: ['button', 'small', mine && !r ? 'primary' : 'secondary'], 'data-testid': `board-table-${round.round}-${board.board}`},
        t(mine && !r ? 'tournament.board.play' : (r ? 'tournament.board.see' : 'tournament.board.watch')))
      : h('span', {class: 'muted'}, t('tournament.board.being_made'));
    const seats = h('table', {class: 'board-seats'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('tournament.board.head', {key: 'seat'})), h('th', {scope: 'col'}, t('tournament.board.head', {key: 'player'})),
        r ? ['score', 'place', 'points', 'percent_of_winner'].map((key) => h('th', {scope: 'col', class: 'num'}, t('tournament.board.head', {key}))) : null)),
      h('tbody', {}, board.seats.map((player, seat) => h('tr', {class: [this.me && player.id === this.me.id && 'mine', r && r.places[seat] === 1 && 'winner']},
        h('td', {}, String(seat + 1)),
        h('td', {}, player.name, r && r.forfeited[seat] ? h('span', {class: 'muted'}, ` · ${t('tournament.board.forfeited')}`) : null),
        r ? [h('td', {class: 'num'}, String(r.scores[seat])), h('td', {class: 'num'}, ordinal(r.places[seat])),
          h('td', {class: 'num'}, numberText(r.points[seat])), h('td', {class: 'num'}, percentText(r.percent_of_winner[seat]))] : null))));
    const override = r && r.override
      ? h('p', {class: 'note override-note', 'data-testid': `board-override-${round.round}-${board.board}`},
        t('tournament.board.override', {name: r.override.director.name, at: dateText(r.override.time), reason: r.override.reason}))
      : null;
    return h('li', {class: 'event-board', 'data-testid': `board-${round.round}-${board.board}`, 'data-finished': String(Boolean(r))},
      h('div', {class: 'table-title'}, h('strong', {}, t('tournament.board_n', {n: String(board.board)})),
        board.table ? h('span', {class: 'muted'}, t('tournament.board.table_n', {n: String(board.table)})) : null, link,
        board.table && r ? h('a', {href: `#/replay/${board.table}`, class: 'button small secondary', 'data-testid': `board-replay-${round.round}-${board.board}`},
          t('lobby.history.replay')) : null),
      seats, override,
      director && this.detail.status !== 'cancelled' ? this.overrideForm(round, board) : null);
  }

  // The director sets a board's result: every seat's score, forfeits, and a reason.
  overrideForm(round, board) {
    const prefix = `override-${round.round}-${board.board}`;
    const r = board.result;
    const draft = this.drafts.get(prefix) || {
      open: false, scores: board.seats.map((p, seat) => (r ? String(r.scores[seat]) : '')), forfeits: board.seats.map((p, seat) => Boolean(r && r.forfeited[seat])), reason: '',
    };
    const scores = board.seats.map((p, seat) => h('input', {
      type: 'number', min: 0, max: 1000, step: 1, inputmode: 'numeric', value: draft.scores[seat],
      'data-testid': `${prefix}-score-${seat}`, 'aria-label': t('tournament.override.score', {name: p.name}),
    }));
    const forfeits = board.seats.map((p, seat) => h('input', {type: 'checkbox', checked: draft.forfeits[seat], 'data-testid': `${prefix}-forfeit-${seat}`,
      'aria-label': t('tournament.override.forfeited', {name: p.name})}));
    const reason = h('input', {type: 'text', maxlength: 200, value: draft.reason, 'data-testid': `${prefix}-reason`,
      'aria-label': t('tournament.reason'), placeholder: t('tournament.override.reason.placeholder')});
    const error = h('p', {class: 'error', role: 'alert', hidden: true});
    const keep = () => this.drafts.set(prefix, {
      open: details.open, scores: scores.map((input) => input.value), forfeits: forfeits.map((box) => box.checked), reason: reason.value,
    });
    const form = h('form', {class: 'override-form', onInput: keep, onChange: keep, onSubmit: async (event) => {
      event.preventDefault();
      const values = scores.map((input) => Number(input.value));
      const problem = scores.some((input) => input.value.trim() === '') || values.some((v) => !Number.isInteger(v) || v < 0)
        ? t('tournament.override.scores_missing')
        : (!reason.value.trim() ? t('tournament.override.reason.missing') : null);
      if (problem) {
        error.textContent = problem;
        error.hidden = false;
        return;
      }
      const payload = {round: round.round, board: board.board, scores: values, reason: reason.value.trim()};
      if (forfeits.some((box) => box.checked)) payload.forfeited = forfeits.map((box) => box.checked);
      this.drafts.delete(prefix);
      if (await this.act('tournament.override', payload, t('tournament.override.done', {round: String(round.round), board: String(board.board)}))) return;
      keep();  // refused: what was typed stays, for another try
      this.render();
    }},
    h('table', {class: 'board-seats'}, h('tbody', {}, board.seats.map((p, seat) => h('tr', {},
      h('td', {}, p.name), h('td', {}, scores[seat]), h('td', {}, h('label', {}, forfeits[seat], ' ', t('tournament.board.forfeited'))))))),
    reason, error,
    h('button', {type: 'submit', class: 'secondary small', 'data-testid': `${prefix}-submit`}, t('tournament.override.submit')));
    const details = h('details', {class: 'override', 'data-testid': prefix, open: draft.open, onToggle: keep},
      h('summary', {'data-testid': `${prefix}-open`}, t(r ? 'tournament.override.change' : 'tournament.override.set')), form);
    return details;
  }

  entrants() {
    const d = this.detail;
    const counted = d.entrants.filter((e) => e.status !== 'removed');
    const removed = d.entrants.filter((e) => e.status === 'removed');
    const row = (e) => h('li', {class: ['entrant', e.status], 'data-testid': `entrant-${e.player.id}`, 'data-status': e.status},
      h('span', {}, youText(e.player.name, this.me && e.player.id === this.me.id)),
      h('span', {class: 'muted'}, ` · ${entryText(e)}`),
      e.seeding !== undefined ? h('span', {class: 'muted', 'data-testid': 'entrant-seeding'}, ` · ${t('tournament.entrant.seeded', {n: e.seeding})}`) : null);
    return h('section', {class: 'panel entrants', 'aria-labelledby': 'entrants-title', 'data-testid': 'entrants'},
      h('h2', {id: 'entrants-title'}, t('tournament.entrants', {n: counted.length})),
      counted.length ? h('ol', {class: 'entrant-list'}, counted.map(row)) : h('p', {class: 'muted'}, t('tournament.entrants.none')),
      removed.length ? h('details', {}, h('summary', {}, t('tournament.entrants.left', {n: removed.length})),
        h('ul', {class: 'entrant-list'}, removed.map(row))) : null);
  }
}

// A player's name, marked when it is the reader's own.
function youText(name, mine) {
  return mine ? t('tournament.you_name', {name}) : name;
}

// 66.67 → "66.67%": a share of the winner's score.
function percentText(n) {
  return t('tournament.percent', {n: numberText(n)});
}
