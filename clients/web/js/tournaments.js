// Tournaments (docs/tournaments.md): the list with the form that creates one (#/tournaments).
// An event's page is tournament.js. The server judges every request; the page only says
// what the event's state allows.

import {h, replaceKeepingFocus} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {turnChoices} from './time.js';
import {gameModule} from './games/index.js';
import {t, tParts} from './i18n.js';
import {
  DEFAULT_POINTS, DEFAULT_TIE_BREAKS, FORMATS, STATUSES, formatText, formatsText, playersText, roundTimeChoices, startText,
  statusText, tieBreakText,
} from './tournamentwords.js';

export function badge(status) {
  return h('span', {class: `status-badge tournament-${status}`, 'data-testid': 'tournament-status', 'data-status': status}, statusText(status));
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
    const canCreate = Boolean(app.store.account);
    this.root = h('div', {class: 'lobby tournaments-page', 'data-testid': 'tournaments'},
      h('h1', {class: 'sr-only'}, t('tournaments.title')),
      h('section', {class: 'panel create', 'aria-labelledby': 'create-tournament-title'},
        h('h2', {id: 'create-tournament-title'}, t('tournaments.create.title')),
        canCreate ? new CreateForm(app).root
          : h('p', {'data-testid': 'tournaments-need-account'},
            ...tParts('tournaments.need_account', {link: h('a', {href: '#/account'}, t('tournaments.need_account.link'))}))),
      h('section', {class: 'panel', 'aria-labelledby': 'tournaments-title'},
        h('div', {class: 'panel-head'},
          h('h2', {id: 'tournaments-title'}, t('tournaments.title')),
          this.filter()),
        this.listBox));
    this.load();
  }

  destroy() {}

  filter() {
    const select = h('select', {'aria-label': t('tournaments.filter'), 'data-testid': 'tournaments-filter', onChange: () => {
      this.status = select.value;
      this.load();
    }}, [['', t('tournaments.filter.all')], ...STATUSES.map((v) => [v, statusText(v)])]
      .map(([v, text]) => h('option', {value: v, selected: v === this.status}, text)));
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
    const rows = this.tournaments.map((tour) => h('li', {class: 'table-row tournament-row', 'data-testid': `tournament-${tour.id}`},
      h('div', {class: 'table-main'},
        h('div', {class: 'table-title'}, h('a', {href: `#/tournament/${tour.id}`, class: 'game-link'}, tour.name), badge(tour.status)),
        h('div', {class: 'muted'}, formatsText(tour.stages), ' · ', playersText(tour), ' · ', t('tournaments.directed_by', {name: tour.director.name})),
        h('div', {class: 'muted'}, startText(tour), tour.rounds ? [' · ', t('tournaments.round_n', {n: String(tour.rounds)})] : null)),
      h('div', {class: 'table-actions'},
        h('a', {href: `#/tournament/${tour.id}`, class: 'button secondary', 'data-testid': `open-tournament-${tour.id}`,
          'aria-label': t('tournaments.open.label', {name: tour.name})}, t('tournaments.open')))));
    let body;
    if (rows.length) body = h('ul', {class: 'table-list'}, rows);
    else if (this.loading) body = h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), t('tournaments.loading'));
    else body = h('p', {class: 'muted', 'data-testid': 'tournaments-empty'}, t('tournaments.empty'));
    replaceKeepingFocus(this.listBox,
      this.error ? h('p', {class: ['error', isTemporary(this.error) && 'temporary'], role: 'alert'}, refusalText(this.error, t('tournaments.list_refused'))) : null,
      body,
      this.more ? h('button', {
        type: 'button', class: 'secondary', 'data-testid': 'tournaments-older', 'aria-busy': String(this.loading),
        onClick: () => { if (!this.loading) this.load({older: true}); },
      }, t(this.loading ? 'tournaments.loading' : 'tournaments.older')) : null);
  }
}

// --- creating one --------------------------------------------------------------------------

// The form keeps what was typed in `app.store.tournamentForm`, so that a reconnection or a visit to
// another page does not lose it.
class CreateForm {
  constructor(app) {
    this.app = app;
    app.store.tournamentForm ||= {
      name: '', stages: [newStage('swiss')], ...gameModule().defaultOptions('tournament'), turn: '86400', on_timeout: 'replace_seat', replace_after: 3,
      round_time: '0', max_players: '', starts_at: '', check_in_minutes: '', bye_points: '3', withdraw_replaced: true, seed_by_rating: true,
      tie_breaks: [...DEFAULT_TIE_BREAKS], points: {...DEFAULT_POINTS},
    };
    this.f = app.store.tournamentForm;
    this.stagesBox = h('div', {class: 'stages-box'});
    this.tieBreaksBox = h('ol', {class: 'tie-break-list', 'aria-label': t('tournaments.tie_breaks.label')});
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
    const name = bind(h('input', {type: 'text', maxlength: 48, value: f.name, placeholder: t('tournaments.name.placeholder'), 'data-testid': 'tournament-name', required: true}), 'name');
    const turn = bind(h('select', {'data-testid': 'tournament-turn'},
      turnChoices().filter(([v]) => v !== 'custom').map(([v, text]) => h('option', {value: v, selected: v === f.turn}, text))), 'turn');
    const onTimeout = bind(h('select', {'data-testid': 'tournament-on-timeout'},
      h('option', {value: 'replace_seat', selected: f.on_timeout === 'replace_seat'}, t('tournaments.on_timeout.replace_seat')),
      h('option', {value: 'bot_answers', selected: f.on_timeout === 'bot_answers'}, t('tournaments.on_timeout.bot_answers'))), 'on_timeout');
    const replaceAfter = bind(numberInput('tournament-replace-after', f.replace_after, 1, 10), 'replace_after', (e) => Number(e.value));
    const roundTime = bind(h('select', {'data-testid': 'tournament-round-time'},
      roundTimeChoices().map(([v, text]) => h('option', {value: v, selected: v === f.round_time}, text))), 'round_time');
    const policy = h('div', {class: 'form-group'},
      ...labelled('tournament-on-timeout', t('tournaments.on_timeout'), onTimeout),
      ...labelled('tournament-replace-after', t('tournaments.replace_after'), replaceAfter));
    const max = bind(numberInput('tournament-max-players', f.max_players, 2, 10000), 'max_players');
    max.placeholder = t('tournaments.max_players.placeholder');
    const startsAt = bind(h('input', {type: 'datetime-local', value: f.starts_at, 'data-testid': 'tournament-starts-at'}), 'starts_at');
    const checkIn = bind(numberInput('tournament-check-in', f.check_in_minutes, 0, 10080), 'check_in_minutes');
    checkIn.placeholder = t('tournaments.check_in.placeholder');
    const bye = bind(numberInput('tournament-bye-points', f.bye_points, 0, 100, 0.5), 'bye_points');
    const withdraw = bind(h('input', {type: 'checkbox', id: 'tournament-withdraw-replaced', checked: f.withdraw_replaced, 'data-testid': 'tournament-withdraw-replaced'}),
      'withdraw_replaced', (e) => e.checked);
    const seeding = bind(h('input', {type: 'checkbox', id: 'tournament-seed-by-rating', checked: f.seed_by_rating !== false, 'data-testid': 'tournament-seed-by-rating'}),
      'seed_by_rating', (e) => e.checked);
    const points = [2, 3, 4, 5].map((n) => {
      const input = h('input', {type: 'text', value: f.points[n], inputmode: 'decimal', 'data-testid': `tournament-points-${n}`});
      input.addEventListener('input', () => { f.points[n] = input.value; });
      return labelled(`tournament-points-${n}`, t('tournaments.points.at_tables_of', {n}), input);
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
    ...labelled('tournament-name', t('tournaments.name'), name, t('tournaments.name.hint')),
    h('fieldset', {class: 'stages'}, h('legend', {}, t('tournaments.stages')), this.stagesBox,
      h('button', {type: 'button', class: 'secondary small', 'data-testid': 'add-stage', onClick: () => {
        f.stages.push(newStage('elimination'));
        this.renderStages();
      }}, t('tournaments.stages.add'))),
    h('fieldset', {}, h('legend', {}, t('tournaments.games')),
      ...gameModule().optionsForm(f, 'tournament'),
      ...labelled('tournament-turn', t('tournaments.turn'), turn), policy,
      ...labelled('tournament-round-time', t('tournaments.round_time'), roundTime, t('tournaments.round_time.hint'))),
    h('fieldset', {}, h('legend', {}, t('tournaments.players_and_start')),
      ...labelled('tournament-max-players', t('tournaments.max_players'), max, t('tournaments.max_players.hint')),
      ...labelled('tournament-starts-at', t('tournaments.starts_at'), startsAt, t('tournaments.starts_at.hint')),
      ...labelled('tournament-check-in', t('tournaments.check_in'), checkIn, t('tournaments.check_in.hint'))),
    h('details', {class: 'advanced'}, h('summary', {'data-testid': 'tournament-advanced'}, t('tournaments.scoring')),
      h('p', {class: 'note muted'}, t('tournaments.scoring.note')),
      ...points.flat(),
      ...labelled('tournament-bye-points', t('tournaments.bye_points'), bye),
      h('span', {class: 'label'}, t('tournaments.tie_breaks')), this.tieBreaksBox,
      h('label', {}, withdraw, ' ', t('tournaments.withdraw_replaced')),
      h('label', {}, seeding, ' ', t('tournaments.seed_by_rating'))),
    this.error,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'create-tournament'}, t('tournaments.create')));
  }

  renderStages() {
    const f = this.f;
    const rows = f.stages.map((stage, i) => {
      const format = h('select', {'data-testid': `stage-${i}-format`, 'aria-label': t('tournaments.stage.format', {n: String(i + 1)}), onChange: () => {
        f.stages[i] = {...newStage(format.value), table_sizes: stage.table_sizes, qualifiers: stage.qualifiers};
        this.renderStages();
      }}, FORMATS.map((v) => h('option', {value: v, selected: v === stage.format}, formatText(v))));
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
        swiss: () => num('rounds', t('tournaments.stage.rounds'), 1, 50),
        round_robin: () => [...num('pools', t('tournaments.stage.pools'), 1, 1000), ...num('meetings', t('tournaments.stage.meetings'), 1, 10)],
        elimination: () => num('advance_per_table', t('tournaments.stage.advance'), 1, 2),
      }[stage.format]();
      return h('div', {class: 'stage-row', 'data-testid': `stage-${i}`},
        h('div', {class: 'stage-head'}, h('strong', {}, t('tournaments.stage.n', {n: String(i + 1)})), format,
          f.stages.length > 1 ? h('button', {type: 'button', class: 'link-button', 'data-testid': `remove-stage-${i}`, onClick: () => {
            f.stages.splice(i, 1);
            this.renderStages();
          }}, t('tournaments.stage.remove')) : null),
        ...own,
        ...size('preferred', t('tournaments.stage.preferred')),
        ...size('minimum', t('tournaments.stage.minimum')),
        i > 0 ? num('qualifiers', t('tournaments.stage.qualifiers'), 0, 10000) : null);
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
      h('span', {}, tieBreakText(key)),
      h('button', {type: 'button', class: 'secondary small', disabled: i === 0, 'data-testid': `tie-break-up-${key}`,
        'aria-label': t('tournaments.tie_break.up', {name: tieBreakText(key)}), onClick: () => move(i, -1)}, '↑'),
      h('button', {type: 'button', class: 'secondary small', disabled: i === order.length - 1, 'data-testid': `tie-break-down-${key}`,
        'aria-label': t('tournaments.tie_break.down', {name: tieBreakText(key)}), onClick: () => move(i, 1)}, '↓'))));
  }

  // The settings of docs/tournaments.md#settings, or the first problem in words.
  settings() {
    const f = this.f;
    const whole = (text, what, min, max) => {
      const n = Number(text);
      if (String(text).trim() === '' || !Number.isInteger(n) || n < min || n > max) throw new Error(t('tournaments.error.whole', {what, min, max}));
      return n;
    };
    const stages = f.stages.map((stage, i) => {
      const out = {format: stage.format, table_sizes: {...stage.table_sizes}};
      const what = (field) => t('tournaments.error.stage_field', {n: String(i + 1), field});
      if (stage.table_sizes.minimum > stage.table_sizes.preferred) throw new Error(t('tournaments.error.table_sizes', {n: String(i + 1)}));
      if (stage.format === 'swiss') out.rounds = whole(stage.rounds, what('rounds'), 1, 50);
      if (stage.format === 'round_robin') {
        out.pools = whole(stage.pools, what('pools'), 1, 1000);
        out.meetings = whole(stage.meetings, what('meetings'), 1, 10);
      }
      if (stage.format === 'elimination') out.advance_per_table = whole(stage.advance_per_table, what('advance'), 1, 2);
      if (i > 0 && String(stage.qualifiers).trim() !== '') out.qualifiers = whole(stage.qualifiers, what('qualifiers'), 0, 10000);
      return out;
    });
    const settings = {
      stages,
      game: {...gameModule().formOptions(f, 'tournament'), turn_seconds: Number(f.turn)},
      withdraw_replaced: f.withdraw_replaced,
      seeding: f.seed_by_rating === false ? 'lot' : 'rating',
      tie_breaks: f.tie_breaks,
    };
    if (Number(f.round_time) > 0) settings.round_time_seconds = Number(f.round_time);
    if (settings.game.turn_seconds > 0) {
      settings.game.on_timeout = f.on_timeout;
      if (f.on_timeout === 'replace_seat') settings.game.replace_after = whole(f.replace_after, t('tournaments.error.replace_after'), 1, 10);
    }
    if (String(f.max_players).trim()) settings.max_players = whole(f.max_players, t('tournaments.max_players'), 2, 10000);
    if (f.starts_at) {
      const at = new Date(f.starts_at).getTime();
      if (!Number.isFinite(at)) throw new Error(t('tournaments.error.starts_at'));
      settings.starts_at = at;
      if (String(f.check_in_minutes).trim()) settings.check_in_minutes = whole(f.check_in_minutes, t('tournaments.error.check_in'), 0, 10080);
    }
    const bye = Number(f.bye_points);
    if (String(f.bye_points).trim() === '' || !Number.isFinite(bye) || bye < 0) throw new Error(t('tournaments.error.bye_points'));
    settings.bye_points = bye;
    const points = {};
    for (const n of [2, 3, 4, 5]) {
      const text = String(f.points[n]).trim();
      if (text === DEFAULT_POINTS[n]) continue;
      const values = text.split(/[\s,;]+/).filter(Boolean).map(Number);
      if (values.length !== n || values.some((v) => !Number.isFinite(v) || v < 0)) {
        throw new Error(t('tournaments.error.points', {n, example: DEFAULT_POINTS[n]}));
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
      if (!name) throw new Error(t('tournaments.error.name'));
      settings = this.settings();
    } catch (err) {
      this.showError(err.message);
      return;
    }
    try {
      const {tournament} = await this.app.conn.request('tournament.create', {name, settings});
      this.app.store.tournamentForm = null;
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
