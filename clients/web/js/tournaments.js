// Tournaments (docs/tournaments.md): the list with the form that creates one (#/tournaments),
// and an event's page (#/tournament/ID) with registration and check-in, the rounds and their
// tables, the live standings, the elimination tree and the director's tools. The server
// judges every request; the page only says what the event's state allows.

import {h, replaceKeepingFocus, scrollRegion} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {TURN_CHOICES, dateText, durationText} from './time.js';
import {ordinal} from './texts.js';

const STATUS_WORDS = {
  registering: 'Registration open', running: 'Running', paused: 'Paused', finished: 'Finished', cancelled: 'Cancelled',
};
const FORMAT_WORDS = {swiss: 'Swiss', round_robin: 'Round robin', elimination: 'Elimination'};
const TIE_BREAK_WORDS = {
  tournament_points: 'Tournament points', sonneborn_berger: 'Sonneborn–Berger',
  percent_of_winner: '% of the winner’s score', game_points: 'Game points', wins: 'Wins',
};
const DEFAULT_TIE_BREAKS = Object.keys(TIE_BREAK_WORDS);
// A round's time limit: none, or from an evening's hour to the weeks of a correspondence event.
const ROUND_TIME_CHOICES = [
  ['0', 'No limit'], ['3600', '1 hour'], ['7200', '2 hours'], ['10800', '3 hours'],
  ['86400', '1 day'], ['259200', '3 days'], ['604800', '1 week'], ['1209600', '2 weeks'], ['2419200', '4 weeks'],
];
// The server's default placement points (docs/tournaments.md, Placings and points).
const DEFAULT_POINTS = {2: '6, 0', 3: '6, 3, 0', 4: '6, 4, 2, 0', 5: '6, 4.5, 3, 1.5, 0'};

// While an event's page shows, it is asked for again this often: results come in board by
// board, and only the entrants and the director hear of rounds by push.
const REFRESH_MS = 10_000;
const LIST_PAGE = 50;  // tournament.list's page

export const formatsText = (stages) => stages.map((f) => FORMAT_WORDS[f] || f).join(' → ');

// 4.5 → "4.5", 1.3333 → "1.33", 6 → "6".
function numberText(n) {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

function badge(status) {
  return h('span', {class: `status-badge tournament-${status}`, 'data-testid': 'tournament-status', 'data-status': status}, STATUS_WORDS[status] || status);
}

function startText(t) {
  if (t.started_at) return `Started ${dateText(t.started_at)}`;
  if (t.starts_at) return `Starts ${dateText(t.starts_at)}`;
  return 'The director starts it';
}

function playersText(t) {
  return t.max_players ? `${t.players} of ${t.max_players} players` : `${t.players} player${t.players === 1 ? '' : 's'}`;
}

// A labelled control for the create form.
function labelled(id, label, control, hint) {
  control.id = id;
  if (hint) control.setAttribute('aria-describedby', `${id}-hint`);
  return [h('label', {for: id}, label), control, hint ? h('span', {class: 'note muted', id: `${id}-hint`}, hint) : null];
}

function numberInput(testid, value, min, max, step = 1) {
  return h('input', {type: 'number', min, max, step, value: String(value), inputmode: 'decimal', 'data-testid': testid});
}

// --- the list ------------------------------------------------------------------------------

export class TournamentListScreen {
  constructor(app) {
    this.app = app;
    this.status = '';  // all
    this.tournaments = [];
    this.more = false;
    this.loading = false;
    this.error = null;
    this.listBox = h('div', {class: 'tournament-list-box', tabindex: -1});
    const canCreate = Boolean(app.account);
    this.root = h('div', {class: 'lobby tournaments-page', 'data-testid': 'tournaments'},
      h('h1', {class: 'sr-only'}, 'Tournaments'),
      h('section', {class: 'panel create', 'aria-labelledby': 'create-tournament-title'},
        h('h2', {id: 'create-tournament-title'}, 'Create a tournament'),
        canCreate ? new CreateForm(app).root
          : h('p', {'data-testid': 'tournaments-need-account'}, 'Creating a tournament needs an account: ',
            h('a', {href: '#/account'}, 'make one'), '. You keep your name and games.')),
      h('section', {class: 'panel', 'aria-labelledby': 'tournaments-title'},
        h('div', {class: 'panel-head'},
          h('h2', {id: 'tournaments-title'}, 'Tournaments'),
          this.filter()),
        this.listBox));
    this.load();
  }

  destroy() {}

  filter() {
    const select = h('select', {'aria-label': 'Which tournaments', 'data-testid': 'tournaments-filter', onChange: () => {
      this.status = select.value;
      this.load();
    }}, [['', 'All'], ['registering', 'Registration open'], ['running', 'Running'], ['paused', 'Paused'],
      ['finished', 'Finished'], ['cancelled', 'Cancelled']].map(([v, text]) => h('option', {value: v}, text)));
    return select;
  }

  async load({older = false} = {}) {
    const payload = {};
    if (this.status) payload.status = this.status;
    if (older && this.tournaments.length) payload.before = Math.min(...this.tournaments.map((t) => t.id));
    this.loading = true;
    this.update();
    try {
      const {tournaments, more} = await this.app.conn.request('tournament.list', payload);
      this.tournaments = older ? this.tournaments.concat(tournaments) : tournaments;
      this.more = more;
      this.error = null;
    } catch (err) {
      if (err.code !== 'disconnected') this.error = err;
    }
    this.loading = false;
    this.update();
  }

  // A push about one event: its row follows.
  onSummary(summary) {
    const i = this.tournaments.findIndex((t) => t.id === summary.id);
    if (i >= 0) this.tournaments[i] = summary;
    this.update();
  }

  update() {
    const rows = this.tournaments.map((t) => h('li', {class: 'table-row tournament-row', 'data-testid': `tournament-${t.id}`},
      h('div', {class: 'table-main'},
        h('div', {class: 'table-title'}, h('a', {href: `#/tournament/${t.id}`, class: 'game-link'}, t.name), badge(t.status)),
        h('div', {class: 'muted'}, `${formatsText(t.stages)} · ${playersText(t)} · directed by ${t.director.name}`),
        h('div', {class: 'muted'}, t.rounds ? `${startText(t)} · round ${t.rounds}` : startText(t))),
      h('div', {class: 'table-actions'},
        h('a', {href: `#/tournament/${t.id}`, class: 'button secondary', 'data-testid': `open-tournament-${t.id}`, 'aria-label': `Open ${t.name}`}, 'Open'))));
    let body;
    if (rows.length) body = h('ul', {class: 'table-list'}, rows);
    else if (this.loading) body = h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), 'Loading…');
    else body = h('p', {class: 'muted', 'data-testid': 'tournaments-empty'}, 'No tournament here yet.');
    replaceKeepingFocus(this.listBox,
      this.error ? h('p', {class: ['error', isTemporary(this.error) && 'temporary'], role: 'alert'}, refusalText(this.error, 'Could not list the tournaments')) : null,
      body,
      this.more ? h('button', {
        type: 'button', class: 'secondary', 'data-testid': 'tournaments-older', 'aria-busy': String(this.loading),
        onClick: () => { if (!this.loading) this.load({older: true}); },
      }, this.loading ? 'Loading…' : 'Older tournaments') : null);
  }
}

// --- creating one --------------------------------------------------------------------------

// The form keeps what was typed in `app.tournamentForm`, so that a reconnection or a visit to
// another page does not lose it.
class CreateForm {
  constructor(app) {
    this.app = app;
    app.tournamentForm ||= {
      name: '', stages: [newStage('swiss')], short_game: false, turn: '86400', on_timeout: 'replace_seat', replace_after: 3,
      round_time: '0', max_players: '', starts_at: '', check_in_minutes: '', bye_points: '3', withdraw_replaced: true, seed_by_rating: true,
      tie_breaks: [...DEFAULT_TIE_BREAKS], points: {...DEFAULT_POINTS},
    };
    this.f = app.tournamentForm;
    this.stagesBox = h('div', {class: 'stages-box'});
    this.tieBreaksBox = h('ol', {class: 'tie-break-list', 'aria-label': 'Tie-breaks, first first'});
    this.error = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': 'tournament-create-error'});
    this.root = this.build();
    this.renderStages();
    this.renderTieBreaks();
  }

  build() {
    const f = this.f;
    const bind = (el, key, read = (e) => e.value) => {
      el.addEventListener(el.type === 'checkbox' || el.tagName === 'SELECT' ? 'change' : 'input', () => { f[key] = read(el); sync(); });
      return el;
    };
    const name = bind(h('input', {type: 'text', maxlength: 48, value: f.name, placeholder: 'e.g. Autumn Cup', 'data-testid': 'tournament-name', required: true}), 'name');
    const short = bind(h('input', {type: 'checkbox', id: 'tournament-short', checked: f.short_game, 'data-testid': 'tournament-short'}), 'short_game', (e) => e.checked);
    const turn = bind(h('select', {'data-testid': 'tournament-turn'},
      TURN_CHOICES.filter(([v]) => v !== 'custom').map(([v, text]) => h('option', {value: v, selected: v === f.turn}, text))), 'turn');
    const onTimeout = bind(h('select', {'data-testid': 'tournament-on-timeout'},
      h('option', {value: 'replace_seat', selected: f.on_timeout === 'replace_seat'}, 'A bot takes the seat'),
      h('option', {value: 'bot_answers', selected: f.on_timeout === 'bot_answers'}, 'A bot answers that decision')), 'on_timeout');
    const replaceAfter = bind(numberInput('tournament-replace-after', f.replace_after, 1, 10), 'replace_after', (e) => Number(e.value));
    const roundTime = bind(h('select', {'data-testid': 'tournament-round-time'},
      ROUND_TIME_CHOICES.map(([v, text]) => h('option', {value: v, selected: v === f.round_time}, text))), 'round_time');
    const policy = h('div', {class: 'form-group'},
      ...labelled('tournament-on-timeout', 'When time runs out', onTimeout),
      ...labelled('tournament-replace-after', 'Timeouts in a row before a bot takes the seat', replaceAfter));
    const max = bind(numberInput('tournament-max-players', f.max_players, 2, 10000), 'max_players');
    max.placeholder = 'no cap';
    const startsAt = bind(h('input', {type: 'datetime-local', value: f.starts_at, 'data-testid': 'tournament-starts-at'}), 'starts_at');
    const checkIn = bind(numberInput('tournament-check-in', f.check_in_minutes, 0, 10080), 'check_in_minutes');
    checkIn.placeholder = 'no check-in';
    const bye = bind(numberInput('tournament-bye-points', f.bye_points, 0, 100, 0.5), 'bye_points');
    const withdraw = bind(h('input', {type: 'checkbox', id: 'tournament-withdraw-replaced', checked: f.withdraw_replaced, 'data-testid': 'tournament-withdraw-replaced'}),
      'withdraw_replaced', (e) => e.checked);
    const seeding = bind(h('input', {type: 'checkbox', id: 'tournament-seed-by-rating', checked: f.seed_by_rating !== false, 'data-testid': 'tournament-seed-by-rating'}),
      'seed_by_rating', (e) => e.checked);
    const points = [2, 3, 4, 5].map((n) => {
      const input = h('input', {type: 'text', value: f.points[n], inputmode: 'decimal', 'data-testid': `tournament-points-${n}`});
      input.addEventListener('input', () => { f.points[n] = input.value; });
      return labelled(`tournament-points-${n}`, `At tables of ${n}`, input);
    });
    const sync = () => {
      policy.hidden = f.turn === '0';
      replaceAfter.disabled = f.on_timeout !== 'replace_seat';
      checkIn.disabled = !f.starts_at;
    };
    sync();
    return h('form', {class: 'create-form tournament-form', novalidate: true, onSubmit: (event) => {
      event.preventDefault();
      this.create();
    }},
    ...labelled('tournament-name', 'Name', name, 'Shown in the name of every table of the event.'),
    h('fieldset', {class: 'stages'}, h('legend', {}, 'Stages, played in order'), this.stagesBox,
      h('button', {type: 'button', class: 'secondary small', 'data-testid': 'add-stage', onClick: () => {
        f.stages.push(newStage('elimination'));
        this.renderStages();
      }}, 'Add a stage')),
    h('fieldset', {}, h('legend', {}, 'Games'),
      h('label', {}, short, ' Short game (6 rounds)'),
      ...labelled('tournament-turn', 'Time per decision', turn), policy,
      ...labelled('tournament-round-time', 'Time limit of a round', roundTime,
        'Without one, a round waits for its last game; when it runs out, the games still in play end with the scores as they stand.')),
    h('fieldset', {}, h('legend', {}, 'Players and start'),
      ...labelled('tournament-max-players', 'Most players', max, 'Empty: no cap.'),
      ...labelled('tournament-starts-at', 'Starts at', startsAt, 'Your local time. Empty: you start it yourself.'),
      ...labelled('tournament-check-in', 'Check-in opens (minutes before the start)', checkIn,
        'Those registered who do not check in are left out at the start.')),
    h('details', {class: 'advanced'}, h('summary', {'data-testid': 'tournament-advanced'}, 'Scoring and tie-breaks'),
      h('p', {class: 'note muted'}, 'Placement points per place, first to last. Tied places share the points of the places they cover.'),
      ...points.flat(),
      ...labelled('tournament-bye-points', 'Points for a bye', bye),
      h('span', {class: 'label'}, 'Tie-breaks, in order'), this.tieBreaksBox,
      h('label', {}, withdraw, ' A player whose seat a bot took for timeouts plays no later round'),
      h('label', {}, seeding, ' Seed by rating: the first round orders players by their ratings, then by lot')),
    this.error,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'create-tournament'}, 'Create the tournament'));
  }

  renderStages() {
    const f = this.f;
    const rows = f.stages.map((stage, i) => {
      const format = h('select', {'data-testid': `stage-${i}-format`, 'aria-label': `Stage ${i + 1}: format`, onChange: () => {
        f.stages[i] = {...newStage(format.value), table_sizes: stage.table_sizes, qualifiers: stage.qualifiers};
        this.renderStages();
      }}, Object.entries(FORMAT_WORDS).map(([v, text]) => h('option', {value: v, selected: v === stage.format}, text)));
      const num = (key, label, min, max) => {
        const input = numberInput(`stage-${i}-${key}`, stage[key], min, max);
        input.addEventListener('input', () => { stage[key] = input.value; });
        return labelled(`stage-${i}-${key}`, label, input);
      };
      const size = (key, label) => {
        const select = h('select', {'data-testid': `stage-${i}-${key}`, onChange: () => { stage.table_sizes[key] = Number(select.value); }},
          [2, 3, 4, 5].map((n) => h('option', {value: String(n), selected: n === stage.table_sizes[key]}, String(n))));
        return labelled(`stage-${i}-${key}`, label, select);
      };
      const own = {
        swiss: () => num('rounds', 'Rounds', 1, 50),
        round_robin: () => [...num('pools', 'Pools', 1, 1000), ...num('meetings', 'Times every pair meets', 1, 10)],
        elimination: () => num('advance_per_table', 'Players who advance from each table', 1, 2),
      }[stage.format]();
      return h('div', {class: 'stage-row', 'data-testid': `stage-${i}`},
        h('div', {class: 'stage-head'}, h('strong', {}, `Stage ${i + 1}`), format,
          f.stages.length > 1 ? h('button', {type: 'button', class: 'link-button', 'data-testid': `remove-stage-${i}`, onClick: () => {
            f.stages.splice(i, 1);
            this.renderStages();
          }}, 'Remove') : null),
        ...own,
        ...size('preferred', 'Players per table'),
        ...size('minimum', 'Fewest players per table, where the count needs it'),
        i > 0 ? num('qualifiers', 'Players who enter (the top of the standings; 0: all still in)', 0, 10000) : null);
    });
    replaceKeepingFocus(this.stagesBox, rows);
  }

  renderTieBreaks() {
    const order = this.f.tie_breaks;
    const move = (i, step) => {
      [order[i], order[i + step]] = [order[i + step], order[i]];
      this.renderTieBreaks();
    };
    replaceKeepingFocus(this.tieBreaksBox, order.map((key, i) => h('li', {class: 'tie-break', 'data-testid': `tie-break-${i}`, 'data-key': key},
      h('span', {}, TIE_BREAK_WORDS[key]),
      h('button', {type: 'button', class: 'secondary small', disabled: i === 0, 'data-testid': `tie-break-up-${key}`,
        'aria-label': `Move ${TIE_BREAK_WORDS[key]} up`, onClick: () => move(i, -1)}, '↑'),
      h('button', {type: 'button', class: 'secondary small', disabled: i === order.length - 1, 'data-testid': `tie-break-down-${key}`,
        'aria-label': `Move ${TIE_BREAK_WORDS[key]} down`, onClick: () => move(i, 1)}, '↓'))));
  }

  // The settings of docs/tournaments.md#settings, or the first problem in words.
  settings() {
    const f = this.f;
    const whole = (text, what, min, max) => {
      const n = Number(text);
      if (String(text).trim() === '' || !Number.isInteger(n) || n < min || n > max) throw new Error(`${what}: a whole number from ${min} to ${max}.`);
      return n;
    };
    const stages = f.stages.map((stage, i) => {
      const out = {format: stage.format, table_sizes: {...stage.table_sizes}};
      const what = (label) => `Stage ${i + 1}, ${label}`;
      if (stage.table_sizes.minimum > stage.table_sizes.preferred) throw new Error(`${what('table sizes')}: the fewest players per table cannot exceed the players per table.`);
      if (stage.format === 'swiss') out.rounds = whole(stage.rounds, what('rounds'), 1, 50);
      if (stage.format === 'round_robin') {
        out.pools = whole(stage.pools, what('pools'), 1, 1000);
        out.meetings = whole(stage.meetings, what('meetings'), 1, 10);
      }
      if (stage.format === 'elimination') out.advance_per_table = whole(stage.advance_per_table, what('players who advance'), 1, 2);
      if (i > 0 && String(stage.qualifiers).trim() !== '') out.qualifiers = whole(stage.qualifiers, what('players who enter'), 0, 10000);
      return out;
    });
    const settings = {
      stages,
      game: {short_game: f.short_game, turn_seconds: Number(f.turn)},
      withdraw_replaced: f.withdraw_replaced,
      seeding: f.seed_by_rating === false ? 'lot' : 'rating',
      tie_breaks: f.tie_breaks,
    };
    if (Number(f.round_time) > 0) settings.round_time_seconds = Number(f.round_time);
    if (settings.game.turn_seconds > 0) {
      settings.game.on_timeout = f.on_timeout;
      if (f.on_timeout === 'replace_seat') settings.game.replace_after = whole(f.replace_after, 'Timeouts before a bot takes the seat', 1, 10);
    }
    if (String(f.max_players).trim()) settings.max_players = whole(f.max_players, 'Most players', 2, 10000);
    if (f.starts_at) {
      const at = new Date(f.starts_at).getTime();
      if (!Number.isFinite(at)) throw new Error('Starts at: pick a date and a time.');
      settings.starts_at = at;
      if (String(f.check_in_minutes).trim()) settings.check_in_minutes = whole(f.check_in_minutes, 'Check-in', 0, 10080);
    }
    const bye = Number(f.bye_points);
    if (String(f.bye_points).trim() === '' || !Number.isFinite(bye) || bye < 0) throw new Error('Points for a bye: a number from 0 up.');
    settings.bye_points = bye;
    const points = {};
    for (const n of [2, 3, 4, 5]) {
      const text = String(f.points[n]).trim();
      if (text === DEFAULT_POINTS[n]) continue;
      const values = text.split(/[\s,;]+/).filter(Boolean).map(Number);
      if (values.length !== n || values.some((v) => !Number.isFinite(v) || v < 0)) {
        throw new Error(`Placement points at tables of ${n}: ${n} numbers from 0 up, first place first, e.g. ${DEFAULT_POINTS[n]}.`);
      }
      points[n] = values;
    }
    if (Object.keys(points).length) settings.placement_points = points;
    return settings;
  }

  async create() {
    const name = this.f.name.trim();
    this.error.hidden = true;
    let settings;
    try {
      if (!name) throw new Error('Give the tournament a name.');
      settings = this.settings();
    } catch (err) {
      this.showError(err.message);
      return;
    }
    try {
      const {tournament} = await this.app.conn.request('tournament.create', {name, settings});
      this.app.tournamentForm = null;
      this.app.navigate(`#/tournament/${tournament.id}`);
    } catch (err) {
      this.showError(refusalText(err), isTemporary(err));
    }
  }

  showError(text, temporary = false) {
    this.error.textContent = text;
    this.error.classList.toggle('temporary', temporary);
    this.error.hidden = false;
  }
}

function newStage(format) {
  return {
    format, table_sizes: {preferred: 5, minimum: format === 'elimination' ? 5 : 4},
    rounds: 3, pools: 1, meetings: 1, advance_per_table: 1, qualifiers: '',
  };
}

// --- one event -----------------------------------------------------------------------------

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
    return this.app.me;
  }

  isDirector() {
    const d = this.detail;
    return Boolean(d && this.me && (d.director.id === this.me.id || (this.app.account && this.app.account.role === 'admin')));
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
    const game = [s.game.short_game ? 'Short game' : 'Full game',
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
      if (!this.app.account && this.needAccount) {
        // Refused to a guest: this server's tournaments are for accounts (tournament_entrants).
        parts.push(h('p', {'data-testid': 'register-need-account'}, 'Registering here is for accounts: ', h('a', {href: '#/account'}, 'make an account'),
          '. You keep your name and games.'));
      } else if (!active) {
        parts.push(entry && entry.status === 'removed' && entry.reason !== 'unregistered'
          ? h('p', {}, `The director removed you: ${entry.reason}.`)
          : h('button', {type: 'button', class: 'primary', 'data-testid': 'register', onClick: async () => {
            if (await this.act('tournament.register', {}, 'You are registered.')) return;
            if (!this.app.account && this.message.code === 'forbidden') {
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

// "Swiss of 3 rounds at tables of 4–5, then an elimination (top 1 of each table) of the top 10".
function stagesText(stages) {
  return stages.map((s, i) => {
    const sizes = s.table_sizes.minimum === s.table_sizes.preferred ? `tables of ${s.table_sizes.preferred}` : `tables of ${s.table_sizes.minimum}–${s.table_sizes.preferred}`;
    let text = {
      swiss: () => `Swiss, ${s.rounds} round${s.rounds === 1 ? '' : 's'}`,
      round_robin: () => `round robin in ${s.pools} pool${s.pools === 1 ? '' : 's'}${s.meetings > 1 ? `, every pair meeting ${s.meetings} times` : ''}`,
      elimination: () => `elimination, the top ${s.advance_per_table} of each table advancing`,
    }[s.format]();
    text += ` at ${sizes}`;
    if (i > 0 && s.qualifiers) text += `, for the top ${s.qualifiers}`;
    return i === 0 ? text.charAt(0).toUpperCase() + text.slice(1) : `then ${text}`;
  }).join('; ');
}

// An entrant's state in words.
function entryText(e, mine = false) {
  const you = (yes, other) => (mine ? yes : other);
  switch (e.status) {
    case 'registered': return e.checked_in_at ? 'checked in' : 'registered';
    case 'playing': return you('You are playing in this event.', 'playing');
    // The server's reasons say who ended the entry: "withdrew", "removed by the director: …",
    // "replaced by a bot after timeouts in round 2", "did not check in", "unregistered".
    case 'withdrawn': return e.reason === 'withdrew' || !e.reason
      ? you('You withdrew: your results stay.', 'withdrew')
      : you(`You play no more games here (${e.reason}): your results stay.`, `withdrawn: ${e.reason}`);
    case 'disqualified': return you(`You were disqualified: ${e.reason}.`, `disqualified: ${e.reason}`);
    case 'removed': return e.reason || 'removed';
    default: return e.status;
  }
}

// A board's players with their seats, best placed first once it has a result.
function seatOrder(board) {
  const seats = board.seats.map((player, seat) => ({player, seat}));
  if (board.result) seats.sort((a, b) => board.result.places[a.seat] - board.result.places[b.seat] || a.seat - b.seat);
  return seats;
}

// A push of a table of mine in a new round, or a bye, in words with a link.
export function roundNoticeText(push, name) {
  const round = name ? `${name}, round ${push.round}` : `Tournament round ${push.round}`;
  if (push.bye) return {text: `${round}: you have a bye this round.`};
  return {text: `${round}: your table is ready.`, href: `#/table/${push.table}`};
}
