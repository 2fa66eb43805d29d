// The replay viewer (docs/replays.md, docs/web-client.md#replays): a finished game's board at
// any version, the events of that step and what each seat alone knew, with controls to step,
// jump to a round or a scoring and play at a speed. Its address names the version shown.

import {h, clear} from './dom.js';
import {t} from './i18n.js';
import {applyViewPatch} from './viewpatch.js';
import {entryText} from './log.js';
import {gameModule} from './games/index.js';
import {seatNames} from './seats.js';
import {tableName} from './words.js';
import {reviewPanel} from './review.js';

export const replayHash = (id, version) => (version === undefined ? `#/replay/${id}` : `#/replay/${id}/${version}`);

const SPEEDS = [500, 1000, 2000, 4000];

// The views at every version of a replay document, and the steps that start a round or a
// scoring: {views, marks: [{version, kind, n}]}.
export function replaySteps(doc) {
  const views = [];
  const marks = [];
  let scorings = 0;
  doc.frames.forEach((frame, i) => {
    const p = frame.update.payload;
    views.push(i === 0 ? p.view : applyViewPatch(structuredClone(views[i - 1]), p.patch));
    for (const e of p.events || []) {
      if (e.type === 'round_started') marks.push({version: i, kind: 'round', n: e.round});
      if (e.type === 'general_scoring_started') marks.push({version: i, kind: 'scoring', n: ++scorings});
    }
  });
  return {views, marks};
}

// The replay in a saved file: a replay document, or an exported record that carries one under
// `replay` (docs/persistence.md); null for anything else.
export function replayOf(saved) {
  const doc = saved && saved.format === 'elgrande-record' ? saved.replay : saved;
  if (!doc || doc.format !== 'elgrande-replay' || !Array.isArray(doc.frames) || !doc.frames.length) return null;
  return {...doc, table: doc.table || {seats: [], options: doc.frames[0].update.payload.view.options}};
}

export class ReplayScreen {
  constructor(app, id, version) {
    this.app = app;
    this.id = id;
    this.version = version ?? 0;
    this.timer = null;
    this.speed = 1000;
    this.status = h('p', {class: 'muted', role: 'status', 'data-testid': 'replay-status'}, t('replay.loading'));
    this.heading = h('h1', {class: 'page-title', 'data-testid': 'replay-title'}, t('replay.title'));
    this.body = h('div', {class: 'replay-body'});
    this.file = h('input', {type: 'file', accept: 'application/json,.json', 'data-testid': 'replay-file',
      'aria-label': t('replay.open_file'), onChange: () => this.loadFile()});
    this.root = h('div', {class: 'replay-screen', 'data-testid': 'replay-screen'},
      this.heading, this.status, this.body,
      h('label', {class: 'replay-file'}, t('replay.open_file'), ' ', this.file));
    this.onKey = (event) => this.key(event);
    document.addEventListener('keydown', this.onKey);
    if (id !== null) this.load();
  }

  destroy() {
    this.stop();
    document.removeEventListener('keydown', this.onKey);
  }

  async load() {
    try {
      const response = await fetch(`/api/games/${this.id}/replay`);
      if (!response.ok) throw new Error(String(response.status));
      this.open(await response.json());
    } catch {
      this.status.hidden = false;
      this.status.textContent = t('replay.unavailable');
    }
  }

  loadFile() {
    const file = this.file.files[0];
    if (!file) return;
    file.text().then((text) => {
      const doc = replayOf(JSON.parse(text));
      if (!doc) throw new Error('format');
      this.id = null;
      this.version = 0;
      this.open(doc);
    }).catch(() => {
      this.status.hidden = false;
      this.status.textContent = t('replay.bad_file');
    });
  }

  open(doc) {
    this.stop();
    this.doc = doc;
    this.game = gameModule(doc.game);
    ({views: this.views, marks: this.marks} = replaySteps(doc));
    this.names = seatNames(doc.table, null);
    this.last = this.views.length - 1;
    this.board = this.game.replayBoard();
    this.seats = h('ol', {class: 'replay-seats', 'data-testid': 'replay-seats', 'aria-label': t('replay.seats')});
    this.log = h('ol', {class: 'log-list', 'data-testid': 'replay-log'});
    this.counter = h('strong', {'data-testid': 'replay-version'});
    this.mover = h('span', {class: 'muted', 'data-testid': 'replay-mover'});
    this.review = reviewPanel(this.app, doc, this.id, this.game, this.names);
    const button = (key, icon, onClick, testid) => h('button', {type: 'button', class: 'secondary replay-button',
      'aria-label': t(key), title: t(key), 'data-testid': testid, onClick}, icon);
    this.firstButton = button('replay.first', '|◀', () => this.show(0), 'replay-first');
    this.prevButton = button('replay.previous', '◀', () => this.show(this.version - 1), 'replay-previous');
    this.playButton = button('replay.play', '▶', () => this.toggle(), 'replay-play');
    this.nextButton = button('replay.next', '▶▶', () => this.show(this.version + 1), 'replay-next');
    this.lastButton = button('replay.last', '▶|', () => this.show(this.last), 'replay-last');
    this.slider = h('input', {type: 'range', min: 0, max: this.last, value: this.version, class: 'replay-slider',
      'aria-label': t('replay.slider'), 'data-testid': 'replay-slider', onInput: () => this.show(Number(this.slider.value))});
    this.jump = h('select', {'aria-label': t('replay.jump'), 'data-testid': 'replay-jump', onChange: () => {
      if (this.jump.value !== '') this.show(Number(this.jump.value));
    }}, h('option', {value: ''}, t('replay.jump')),
    this.marks.map((m) => h('option', {value: m.version}, t(m.kind === 'round' ? 'replay.mark.round' : 'replay.mark.scoring', {n: m.n}))));
    this.speedSelect = h('select', {'aria-label': t('replay.speed'), 'data-testid': 'replay-speed', onChange: () => {
      this.speed = Number(this.speedSelect.value);
      if (this.timer) this.play();
    }}, SPEEDS.map((ms) => h('option', {value: ms, selected: ms === this.speed}, t('replay.speed_step', {seconds: ms / 1000}))));
    this.heading.textContent = doc.table.name ? t('replay.title_of', {table: tableName(doc.table)}) : t('replay.title');
    clear(this.body).append(
      ...(doc.secrets === false ? [h('p', {class: 'replay-closed muted', 'data-testid': 'replay-closed'}, t('replay.secrets_closed'))] : []),
      h('div', {class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls')},
        h('div', {class: 'replay-buttons'}, this.firstButton, this.prevButton, this.playButton, this.nextButton, this.lastButton),
        this.slider,
        h('div', {class: 'replay-pickers'}, this.jump, this.speedSelect)),
      h('p', {class: 'replay-where'}, this.counter, ' ', this.mover),
      this.review.root,
      h('div', {class: 'replay-main'},
        h('div', {class: 'replay-map'}, this.board.root),
        h('div', {class: 'replay-side'},
          h('h2', {class: 'panel-title'}, t('replay.seats')), this.seats,
          h('h2', {class: 'panel-title'}, t('replay.step_log')), this.log)));
    this.status.textContent = '';
    this.status.hidden = true;
    this.show(Math.min(this.version, this.last));
  }

  // Shows version `v` (clamped), and names it in the address.
  show(v) {
    if (!this.views) return;
    v = Math.max(0, Math.min(this.last, v));
    this.version = v;
    const view = this.views[v];
    const frame = this.doc.frames[v];
    this.board.update(view, this.names);
    this.seats.replaceChildren(...this.game.replaySeats(view, this.names, frame.secrets));
    const events = frame.update.payload.events || [];
    const options = this.doc.table.options;
    this.log.replaceChildren(...(events.length ? events.map((event) => h('li', {class: ['log-entry', this.game.eventTone(event)]},
      entryText({event, names: this.names, options}, this.game))) : [h('li', {class: 'muted'}, t('replay.no_events'))]));
    this.counter.textContent = t('replay.version', {v, n: this.last});
    this.counter.dataset.version = String(v);
    this.root.dataset.version = String(v);
    const move = v > 0 && this.doc.moves ? this.doc.moves[v - 1] : null;
    this.mover.textContent = move ? t(`replay.move.${move.source === 'bot' || move.source === 'timeout' ? move.source : 'player'}`,
      {who: this.names[move.seat] ?? t('seats.seat_n', {n: String(move.seat + 1)})}) : '';
    this.slider.value = String(v);
    this.firstButton.disabled = this.prevButton.disabled = v === 0;
    this.nextButton.disabled = this.lastButton.disabled = v === this.last;
    const mark = this.marks.findLast((m) => m.version <= v);
    this.jump.value = mark && mark.version === v ? String(v) : '';
    this.review.show(v);
    if (v === this.last) this.stop();
    if (this.id !== null) history.replaceState(null, '', replayHash(this.id, v));
  }

  toggle() {
    if (this.timer) this.stop();
    else this.play();
  }

  play() {
    clearInterval(this.timer);
    if (this.version === this.last) this.show(0);
    this.timer = setInterval(() => this.show(this.version + 1), this.speed);
    this.playButton.textContent = '❚❚';
    this.playButton.setAttribute('aria-label', t('replay.pause'));
    this.playButton.title = t('replay.pause');
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    if (!this.playButton) return;
    this.playButton.textContent = '▶';
    this.playButton.setAttribute('aria-label', t('replay.play'));
    this.playButton.title = t('replay.play');
  }

  // ←/→ step, Home/End, space plays or pauses; not while typing or choosing in a field, and
  // space on a button or link is that control's.
  key(event) {
    if (!this.views || event.altKey || event.ctrlKey || event.metaKey) return;
    const field = event.target.closest ? event.target.closest('input, select, textarea, button, a') : null;
    if (field && (field.matches('input, select, textarea') || event.key === ' ')) return;
    const actions = {ArrowLeft: () => this.show(this.version - 1), ArrowRight: () => this.show(this.version + 1),
      Home: () => this.show(0), End: () => this.show(this.last), ' ': () => this.toggle()};
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }
}

// Shows the replay the route names, keeping the screen when only its version changed.
export function showReplay(app, route) {
  if (app.screen instanceof ReplayScreen && app.screen.id === route.id && app.main.contains(app.screen.root)) {
    if (route.version !== undefined && route.version !== app.screen.version) app.screen.show(route.version);
    return;
  }
  app.showScreen(new ReplayScreen(app, route.id, route.version), t('shell.title.replay'));
}
