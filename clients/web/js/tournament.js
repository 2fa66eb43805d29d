// A tournament's page (#/tournament/ID, docs/tournaments.md): registration and check-in, the
// rounds and their tables, the live standings, the elimination tree and the director's
// tools. The server judges every request; the page only says what the event's state allows.

import {h, replaceKeepingFocus, scrollRegion} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {dateText, durationText} from './time.js';
import {ordinal} from './words.js';
import {gameModule} from './games/index.js';
import {badge} from './tournaments.js';
import {
  FORMAT_WORDS, TIE_BREAK_WORDS, entryText, numberText, playersText, seatOrder, stagesText, startText,
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
          this.error.code === 'not_found' ? `There is no tournament ${this.id}.` : refusalText(this.error, 'Could not open the tournament')),
        h('p', {}, h('a', {href: '#/tournaments'}, 'All tournaments')))
        : h('p', {class: 'loading'}, 'Opening the tournament…'));
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
    const game = [gameModule().optionsText(s.game, 'tournament'),
      s.game.turn_seconds ? `${durationText(s.game.turn_seconds)} per decision` : 'no time limit'];
    if (s.round_time_seconds) game.push(`rounds of at most ${durationText(s.round_time_seconds)}`);
    const checkIn = s.check_in_minutes && d.starts_at ? `check-in from ${dateText(d.starts_at - s.check_in_minutes * 60_000)}` : null;
    return h('section', {class: 'panel tournament-head', 'aria-labelledby': 'tournament-title'},
      h('div', {class: 'panel-head'}, h('h1', {id: 'tournament-title', 'data-testid': 'tournament-title'}, d.name), badge(d.status)),
      h('p', {}, `${stagesText(s.stages)}. `, `${game.join(', ')}.`),
      h('p', {class: 'muted'}, `Directed by ${d.director.name} · ${playersText(d)} · ${startText(d)}`, checkIn ? ` · ${checkIn}` : '',
        d.finished_at ? ` · ended ${dateText(d.finished_at)}` : ''),
      h('p', {class: 'muted small-print'}, 'Every draw follows from the seed ', h('code', {'data-testid': 'tournament-seed'}, d.seed),
        ' and the stored results: ',
        h('a', {href: `/api/tournaments/${d.id}`, 'data-testid': 'export-json'}, 'everything (JSON)'), ', ',
        h('a', {href: `/api/tournaments/${d.id}/standings.csv`, download: `tournament-${d.id}-standings.csv`, 'data-testid': 'export-standings'}, 'standings (CSV)'), ', ',
        h('a', {href: `/api/tournaments/${d.id}/results.csv`, download: `tournament-${d.id}-results.csv`, 'data-testid': 'export-results'}, 'results (CSV)'), '.'),
      this.message ? h('p', {class: [this.message.error ? 'error' : 'ok', this.message.temporary && 'temporary'], role: this.message.error ? 'alert' : 'status',
        'data-testid': 'tournament-message'}, this.message.text) : null,
      h('p', {}, h('a', {href: '#/tournaments'}, '← All tournaments')));
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
        parts.push(h('p', {'data-testid': 'register-need-account'}, 'Registering here is for accounts: ', h('a', {href: '#/account'}, 'make an account'),
          '. You keep your name and games.'));
      } else if (!active) {
        parts.push(entry && entry.status === 'removed' && entry.reason !== 'unregistered'
          ? h('p', {}, `The director removed you: ${entry.reason}.`)
          : h('button', {type: 'button', class: 'primary', 'data-testid': 'register', onClick: async () => {
            if (await this.act('tournament.register', {}, 'You are registered.')) return;
            if (!this.app.store.account && this.message.code === 'forbidden') {
              this.needAccount = true;
              this.message = null;
              this.render();
            }
          }}, 'Register'));
      } else {
        const s = d.settings;
        const opens = s.check_in_minutes && d.starts_at ? d.starts_at - s.check_in_minutes * 60_000 : null;
        if (entry.checked_in_at) parts.push(h('p', {class: 'ok', 'data-testid': 'checked-in'}, `You checked in ${dateText(entry.checked_in_at)}.`));
        else if (opens !== null && Date.now() >= opens) parts.push(button('check-in', 'Check in', 'tournament.check_in', 'You are checked in.'));
        else if (opens !== null) parts.push(h('p', {class: 'muted'}, `Check in from ${dateText(opens)}, or you are left out at the start.`));
        parts.unshift(h('p', {'data-testid': 'my-entry', 'data-status': entry.status}, 'You are registered.'));
        parts.push(button('unregister', 'Unregister', 'tournament.unregister', 'You are no longer registered.', 'secondary'));
      }
    } else if (entry && entry.status !== 'removed') {
      const standing = d.status === 'finished' && entry.status === 'playing' && d.standings.find((r) => r.player.id === entry.player.id);
      parts.push(h('p', {'data-testid': 'my-entry', 'data-status': entry.status}, standing
        ? `You finished ${ordinal(standing.rank)} of ${d.standings.length}${standing.rank === 1 ? ': you won the event' : ''}.`
        : entryText(entry, true)));
      const table = this.myTable();
      if (table) {
        parts.push(h('p', {}, h('a', {href: `#/table/${table.table}`, class: 'button primary', 'data-testid': 'my-tournament-table'},
          `Your table in round ${table.round}: play`)));
      }
      if (entry.status === 'playing' && (d.status === 'running' || d.status === 'paused')) {
        parts.push(this.confirming === 'withdraw'
          ? h('p', {class: 'confirm'}, 'Withdraw for good? You keep your results and play no more rounds; a game in play is yours to finish or resign. ',
            h('button', {type: 'button', class: 'danger', 'data-testid': 'withdraw-confirm', onClick: () => {
              this.confirming = null;
              this.act('tournament.withdraw', {}, 'You withdrew.');
            }}, 'Withdraw'), ' ',
            h('button', {type: 'button', class: 'secondary', onClick: () => { this.confirming = null; this.render(); }}, 'Stay in'))
          : h('button', {type: 'button', class: 'secondary', 'data-testid': 'withdraw', onClick: () => { this.confirming = 'withdraw'; this.render(); }}, 'Withdraw'));
      }
    }
    if (!parts.length) return null;
    return h('section', {class: 'panel my-entry', 'aria-labelledby': 'my-entry-title', 'data-testid': 'my-entry-panel'},
      h('h2', {id: 'my-entry-title'}, 'You'), h('div', {class: 'actions'}, parts));
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
    if (d.status === 'registering') buttons.push(act('director-start', 'Start now', 'tournament.start', 'The tournament started.', 'primary'));
    if (d.status === 'running') buttons.push(act('director-pause', 'Pause', 'tournament.pause', 'Paused: the next round waits. Tables in play go on.'));
    if (d.status === 'paused') buttons.push(act('director-resume', 'Resume', 'tournament.resume', 'Resumed.', 'primary'));
    const open = ['registering', 'running', 'paused'].includes(d.status);
    if (open) {
      buttons.push(this.confirming === 'cancel'
        ? h('span', {class: 'confirm'}, 'Cancel the whole event? Tables in play go on as ordinary games. ',
          h('button', {type: 'button', class: 'danger', 'data-testid': 'director-cancel-confirm', onClick: () => {
            this.confirming = null;
            this.act('tournament.cancel', {}, 'The tournament is cancelled.');
          }}, 'Cancel the event'), ' ',
          h('button', {type: 'button', class: 'secondary', onClick: () => { this.confirming = null; this.render(); }}, 'Keep it'))
        : h('button', {type: 'button', class: 'secondary', 'data-testid': 'director-cancel', onClick: () => { this.confirming = 'cancel'; this.render(); }}, 'Cancel the event…'));
    }
    const still = d.entrants.filter((e) => e.status === 'registered' || e.status === 'playing');
    let players = null;
    if (open && still.length) {
      const draft = this.drafts.get('players') || {};
      const who = h('select', {'data-testid': 'director-player', 'aria-label': 'Player'},
        still.map((e) => h('option', {value: String(e.player.id), selected: String(e.player.id) === draft.player}, e.player.name)));
      const what = h('select', {'data-testid': 'director-action', 'aria-label': 'What to do'},
        h('option', {value: 'tournament.remove'}, d.status === 'registering' ? 'Remove (ends the registration)' : 'Remove (no more rounds, results kept)'),
        h('option', {value: 'tournament.disqualify', selected: draft.action === 'tournament.disqualify'}, 'Disqualify (ranked last, no more rounds)'));
      const reason = h('input', {type: 'text', maxlength: 200, value: draft.reason || '', 'data-testid': 'director-reason', 'aria-label': 'Reason', placeholder: 'Reason (shown to everyone)'});
      const keep = () => this.drafts.set('players', {player: who.value, action: what.value, reason: reason.value});
      players = h('form', {class: 'director-players', 'data-testid': 'director-players', onInput: keep, onChange: keep, onSubmit: async (event) => {
        event.preventDefault();
        if (!reason.value.trim()) {
          this.message = {text: 'Give a reason: it is kept in the audit log and shown with the player.', error: true};
          this.render();
          return;
        }
        const name = who.selectedOptions[0].textContent;
        const done = await this.act(what.value, {player: Number(who.value), reason: reason.value.trim()},
          `${name} is ${what.value === 'tournament.remove' ? 'removed' : 'disqualified'}.`);
        if (done) {
          this.drafts.delete('players');
          this.render();
        }
      }}, who, what, reason, h('button', {type: 'submit', class: 'secondary', 'data-testid': 'director-apply'}, 'Apply'));
    }
    return h('section', {class: 'panel director', 'aria-labelledby': 'director-title', 'data-testid': 'director-panel'},
      h('h2', {id: 'director-title'}, 'Director'),
      h('div', {class: 'actions'}, buttons),
      players,
      d.rounds.length ? h('p', {class: 'note muted'}, 'To set a board’s result (a table that cannot finish, or a wrong result), open its round below.') : null);
  }

  // The standings with every column, in the event's tie-break order; before the start, none.
  standings() {
    const d = this.detail;
    if (!d.standings.length) return null;
    const order = d.settings.tie_breaks.filter((k) => k !== 'tournament_points');
    const cell = {
      sonneborn_berger: (r) => numberText(r.sonneborn_berger),
      percent_of_winner: (r) => `${numberText(r.percent_of_winner)}%`,
      game_points: (r) => String(r.game_points),
      wins: (r) => String(r.wins),
    };
    const heads = {sonneborn_berger: 'SB', percent_of_winner: '% of winner', game_points: 'Game points', wins: 'Wins'};
    const rows = d.standings.map((r) => {
      const mine = this.me && r.player.id === this.me.id;
      const notes = [r.withdrawn && 'withdrawn', r.disqualified && 'disqualified'].filter(Boolean);
      return h('tr', {class: [mine && 'mine', r.disqualified && 'disqualified'], 'data-testid': `standing-${r.player.id}`, 'data-rank': String(r.rank), 'data-points': String(r.points)},
        h('td', {class: 'num'}, r.tied_with_previous ? h('span', {title: 'Tied with the row above'}, '=') : String(r.rank)),
        h('th', {scope: 'row'}, r.player.name, mine ? ' (you)' : '', notes.length ? h('span', {class: 'muted'}, ` · ${notes.join(', ')}`) : null),
        h('td', {class: 'num strong'}, numberText(r.points)),
        order.map((k) => h('td', {class: 'num'}, cell[k](r))),
        h('td', {class: 'num'}, String(r.played)), h('td', {class: 'num'}, String(r.byes)), h('td', {class: 'num'}, String(r.forfeits)));
    });
    return h('section', {class: 'panel', 'aria-labelledby': 'standings-title', 'data-testid': 'standings'},
      h('div', {class: 'panel-head'}, h('h2', {id: 'standings-title'}, 'Standings'),
        h('span', {class: 'muted'}, d.status === 'finished' ? 'final' : 'live: updated as results come in')),
      scrollRegion('Table of the standings', h('table', {class: 'standings-table'},
        h('caption', {class: 'sr-only'}, `Standings of ${d.name}, ranked by ${d.settings.tie_breaks.map((k) => TIE_BREAK_WORDS[k]).join(', then ')}`),
        h('thead', {}, h('tr', {},
          h('th', {scope: 'col'}, 'Rank'), h('th', {scope: 'col'}, 'Player'), h('th', {scope: 'col', class: 'num'}, 'Points'),
          order.map((k) => h('th', {scope: 'col', class: 'num', title: TIE_BREAK_WORDS[k]}, heads[k])),
          h('th', {scope: 'col', class: 'num'}, 'Played'), h('th', {scope: 'col', class: 'num'}, 'Byes'), h('th', {scope: 'col', class: 'num'}, 'Forfeits'))),
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
          h('h3', {}, final ? 'Final table' : `Round ${round.round}`),
          h('ol', {class: 'tree-boards'}, round.boards.map((board) => h('li', {class: 'tree-board', 'data-testid': `tree-board-${round.round}-${board.board}`},
            h('div', {class: 'tree-board-head'}, `Board ${board.board}`, board.table ? h('a', {href: `#/table/${board.table}`, class: 'small-link'}, board.result ? 'replay' : 'watch') : null),
            h('ul', {}, seatOrder(board).map(({player, seat}) => {
              const r = board.result;
              const advanced = onward.has(player.id);
              const champion = final && r && r.places[seat] === 1;
              return h('li', {class: [advanced && 'advanced', champion && 'champion'], 'data-testid': `tree-player-${round.round}-${player.id}`,
                'data-advanced': String(advanced)},
              champion ? h('span', {class: 'crown', 'aria-label': 'Winner'}, '♛ ') : null,
              h('span', {}, player.name),
              r ? h('span', {class: 'muted'}, ` ${r.scores[seat]}`) : null,
              advanced ? h('span', {class: 'advance-mark'}, ' ▲', h('span', {class: 'sr-only'}, ' advanced')) : null);
            }))))));
      });
      trees.push(h('ol', {class: 'elimination-tree', 'aria-label': `Stage ${index + 1}: elimination`}, columns));
    });
    if (!trees.length) return null;
    return h('section', {class: 'panel', 'aria-labelledby': 'tree-title', 'data-testid': 'elimination-tree'},
      h('h2', {id: 'tree-title'}, 'Elimination'), trees);
  }

  // Every round, the newest first and open: its boards with their tables, results and byes.
  rounds() {
    const d = this.detail;
    if (!d.rounds.length) return null;
    const director = this.isDirector();
    const last = d.rounds.at(-1).round;
    return h('section', {class: 'panel', 'aria-labelledby': 'rounds-title', 'data-testid': 'rounds'},
      h('h2', {id: 'rounds-title'}, 'Rounds'),
      [...d.rounds].reverse().map((round) => {
        const done = round.boards.filter((b) => b.result).length;
        const details = h('details', {class: 'event-round', 'data-testid': `round-${round.round}`, open: this.roundsOpen.get(round.round) ?? round.round === last},
          h('summary', {}, h('strong', {}, `Round ${round.round}`),
            h('span', {class: 'muted'}, ` · stage ${round.stage + 1} (${FORMAT_WORDS[d.settings.stages[round.stage].format]}) · `,
              round.finished_at ? 'finished' : `${done} of ${round.boards.length} tables finished`,
              !round.finished_at && d.settings.round_time_seconds
                ? ` · time is called at ${dateText(round.started_at + d.settings.round_time_seconds * 1000)}` : '')),
          h('ol', {class: 'board-list'}, round.boards.map((board) => this.board(round, board, director))),
          round.byes.length ? h('p', {class: 'muted', 'data-testid': `byes-${round.round}`},
            `Bye (${numberText(d.settings.bye_points)} points): ${round.byes.map((p) => p.name).join(', ')}`) : null);
        details.addEventListener('toggle', () => this.roundsOpen.set(round.round, details.open));
        return details;
      }));
  }

  board(round, board, director) {
    const r = board.result;
    const mine = this.me && board.seats.some((p) => p.id === this.me.id);
    const link = board.table
      ? h('a', {href: `#/table/${board.table}`, class: ['button', 'small', mine && !r ? 'primary' : 'secondary'], 'data-testid': `board-table-${round.round}-${board.board}`},
        mine && !r ? 'Play' : (r ? 'See the game' : 'Watch'))
      : h('span', {class: 'muted'}, 'table being made…');
    const seats = h('table', {class: 'board-seats'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Seat'), h('th', {scope: 'col'}, 'Player'),
        r ? [h('th', {scope: 'col', class: 'num'}, 'Score'), h('th', {scope: 'col', class: 'num'}, 'Place'), h('th', {scope: 'col', class: 'num'}, 'Points'),
          h('th', {scope: 'col', class: 'num'}, '% of winner')] : null)),
      h('tbody', {}, board.seats.map((player, seat) => h('tr', {class: [this.me && player.id === this.me.id && 'mine', r && r.places[seat] === 1 && 'winner']},
        h('td', {}, String(seat + 1)),
        h('td', {}, player.name, r && r.forfeited[seat] ? h('span', {class: 'muted'}, ' · forfeited') : null),
        r ? [h('td', {class: 'num'}, String(r.scores[seat])), h('td', {class: 'num'}, ordinal(r.places[seat])),
          h('td', {class: 'num'}, numberText(r.points[seat])), h('td', {class: 'num'}, `${numberText(r.percent_of_winner[seat])}%`)] : null))));
    const override = r && r.override
      ? h('p', {class: 'note override-note', 'data-testid': `board-override-${round.round}-${board.board}`},
        `Result set by ${r.override.director.name} (${dateText(r.override.time)}): ${r.override.reason}`)
      : null;
    return h('li', {class: 'event-board', 'data-testid': `board-${round.round}-${board.board}`, 'data-finished': String(Boolean(r))},
      h('div', {class: 'table-title'}, h('strong', {}, `Board ${board.board}`), board.table ? h('span', {class: 'muted'}, `table ${board.table}`) : null, link),
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
      'data-testid': `${prefix}-score-${seat}`, 'aria-label': `${p.name}'s score`,
    }));
    const forfeits = board.seats.map((p, seat) => h('input', {type: 'checkbox', checked: draft.forfeits[seat], 'data-testid': `${prefix}-forfeit-${seat}`,
      'aria-label': `${p.name} forfeited`}));
    const reason = h('input', {type: 'text', maxlength: 200, value: draft.reason, 'data-testid': `${prefix}-reason`, 'aria-label': 'Reason', placeholder: 'Reason (kept in the audit log)'});
    const error = h('p', {class: 'error', role: 'alert', hidden: true});
    const keep = () => this.drafts.set(prefix, {
      open: details.open, scores: scores.map((input) => input.value), forfeits: forfeits.map((box) => box.checked), reason: reason.value,
    });
    const form = h('form', {class: 'override-form', onInput: keep, onChange: keep, onSubmit: async (event) => {
      event.preventDefault();
      const values = scores.map((input) => Number(input.value));
      const problem = scores.some((input) => input.value.trim() === '') || values.some((v) => !Number.isInteger(v) || v < 0)
        ? 'Every seat needs its score, a whole number from 0 up.'
        : (!reason.value.trim() ? 'Give a reason: it is kept in the audit log and shown with the result.' : null);
      if (problem) {
        error.textContent = problem;
        error.hidden = false;
        return;
      }
      const payload = {round: round.round, board: board.board, scores: values, reason: reason.value.trim()};
      if (forfeits.some((box) => box.checked)) payload.forfeited = forfeits.map((box) => box.checked);
      this.drafts.delete(prefix);
      if (await this.act('tournament.override', payload, `The result of round ${round.round}, board ${board.board} is set.`)) return;
      keep();  // refused: what was typed stays, for another try
      this.render();
    }},
    h('table', {class: 'board-seats'}, h('tbody', {}, board.seats.map((p, seat) => h('tr', {},
      h('td', {}, p.name), h('td', {}, scores[seat]), h('td', {}, h('label', {}, forfeits[seat], ' forfeited')))))),
    reason, error,
    h('button', {type: 'submit', class: 'secondary small', 'data-testid': `${prefix}-submit`}, 'Set the result'));
    const details = h('details', {class: 'override', 'data-testid': prefix, open: draft.open, onToggle: keep},
      h('summary', {'data-testid': `${prefix}-open`}, r ? 'Change the result…' : 'Set the result…'), form);
    return details;
  }

  entrants() {
    const d = this.detail;
    const counted = d.entrants.filter((e) => e.status !== 'removed');
    const removed = d.entrants.filter((e) => e.status === 'removed');
    const row = (e) => h('li', {class: ['entrant', e.status], 'data-testid': `entrant-${e.player.id}`, 'data-status': e.status},
      h('span', {}, e.player.name, this.me && e.player.id === this.me.id ? ' (you)' : ''),
      h('span', {class: 'muted'}, ` · ${entryText(e)}`),
      e.seeding !== undefined ? h('span', {class: 'muted', 'data-testid': 'entrant-seeding'}, ` · seeded at ${e.seeding}`) : null);
    return h('section', {class: 'panel entrants', 'aria-labelledby': 'entrants-title', 'data-testid': 'entrants'},
      h('h2', {id: 'entrants-title'}, `Players (${counted.length})`),
      counted.length ? h('ol', {class: 'entrant-list'}, counted.map(row)) : h('p', {class: 'muted'}, 'Nobody has registered yet.'),
      removed.length ? h('details', {}, h('summary', {}, `Left before the start (${removed.length})`), h('ul', {class: 'entrant-list'}, removed.map(row))) : null);
  }
}
