// The lobby (play now, create a table, my games, open tables, finished games) and the
// waiting room of an open table.

import {h, icon, replaceKeepingFocus, segmented} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {gameModule, gameOf} from './games/index.js';
import {BOT_LEVELS, botLevelName, mySeatAt, seatNames, seatNote} from './seats.js';
import {ordinal} from './words.js';
import {playerButton} from './blocks.js';
import {PlayNowPanel} from './playnow.js';
import {alertControls} from './alerts.js';
import {profileLink, ratingBadge, unratedText} from './ratings.js';
import {MAX_TURN_SECONDS, TURN_CHOICES, countdown, dateText, durationText, limitText, policyText} from './time.js';

const STATUS_WORDS = {open: 'Open', playing: 'Playing', finished: 'Finished'};

// Every 30 s while the lobby shows, "my games" is asked again (deadlines, others' moves).
const MY_GAMES_PERIOD_MS = 30_000;

export function optionsSummary(table, {time = true} = {}) {
  const text = gameOf(table).optionsText(table.options);
  if (!(time && table.turn_seconds)) return text;
  // The clock as an icon: a list of nodes, for h().
  return [text, ' · ', icon('clock'), ` ${limitText(table)}${table.on_timeout ? ` (${policyText(table, true)})` : ''}`];
}

function seatChip(table, seat, me) {
  const col = gameOf(table).seatColour(seat.seat, table.options);
  let label;
  if (seat.kind === 'empty') label = 'empty seat';
  else if (seat.kind === 'bot') label = seat.player ? `${seat.player.name} (bot)` : `Bot (${botLevelName(seat.level)})`;
  else label = seat.player.name + (me && seat.player.id === me.id ? ' (you)' : '');
  const note = seatNote(seat, table);
  return h('span', {class: `seat-chip ${seat.kind}`, style: {'--c': col.fill, '--ink': col.ink}},
    h('span', {class: 'seat-symbol', 'aria-hidden': 'true'}, col.symbol), label,
    seat.kind === 'human' ? ratingBadge(seat.rating) : null,
    note ? h('span', {class: `seat-note ${note.kind}`}, ' · ', icon(note.icon), ` ${note.text}`) : null);
}

export class LobbyScreen {
  constructor(app) {
    this.app = app;
    this.form = app.store.createForm;
    this.tablesBox = h('div', {class: 'table-list-box'});
    this.myGamesBox = h('section', {class: 'panel my-games', 'aria-labelledby': 'my-games-title', 'data-testid': 'my-games'});
    // tabindex -1: focus stays in the section when a redraw removes the control that had it.
    this.historyBox = h('section', {class: 'panel history', 'aria-labelledby': 'history-title', 'data-testid': 'history', tabindex: -1});
    this.formError = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': 'create-error'});
    this.playNow = new PlayNowPanel(app);
    // "My games" first, the home of a player who comes back when a game waits for them; on
    // a wide screen it heads the right column, beside play now and the create form.
    this.root = h('div', {class: 'lobby lobby-home', 'data-testid': 'lobby'},
      h('h1', {class: 'sr-only'}, 'Lobby'),
      this.myGamesBox,
      h('div', {class: 'lobby-side'},
        this.playNow.root,
        h('section', {class: 'panel create', 'aria-labelledby': 'create-title'},
          h('h2', {id: 'create-title'}, 'Create a table'),
          this.buildForm())),
      h('div', {class: 'lobby-lists'},
        h('section', {class: 'panel tables', 'aria-labelledby': 'tables-title'},
          h('h2', {id: 'tables-title'}, 'Tables'),
          this.tablesBox),
        this.historyBox));
    this.timer = setInterval(() => app.store.refreshMyGames(), MY_GAMES_PERIOD_MS);
    this.update();
  }

  destroy() {
    clearInterval(this.timer);
  }

  buildForm() {
    const f = this.form;
    const game = gameModule();
    // The turn limit: a choice of usual ones or seconds of one's own; the timeout policy
    // matters only with a limit.
    const limit = h('select', {id: 'opt-turn', 'data-testid': 'opt-turn', 'aria-describedby': 'opt-turn-note'},
      TURN_CHOICES.map(([value, label]) => h('option', {value, selected: value === f.turn}, label)));
    const customSeconds = h('input', {
      type: 'number', id: 'opt-turn-seconds', min: 1, max: MAX_TURN_SECONDS, step: 1, inputmode: 'numeric',
      value: f.custom_seconds, 'data-testid': 'opt-turn-seconds', 'aria-describedby': 'opt-turn-words',
    });
    const customWords = h('span', {class: 'muted', id: 'opt-turn-words', 'data-testid': 'opt-turn-words'});
    const custom = h('div', {class: 'custom-seconds', 'data-testid': 'opt-turn-custom'},
      h('label', {for: 'opt-turn-seconds'}, 'Seconds per decision'), customSeconds, customWords);
    const botAnswers = h('input', {type: 'radio', name: 'opt-on-timeout', id: 'opt-timeout-bot', value: 'bot_answers', 'data-testid': 'opt-timeout-bot'});
    const replaceSeat = h('input', {type: 'radio', name: 'opt-on-timeout', id: 'opt-timeout-replace', value: 'replace_seat', 'data-testid': 'opt-timeout-replace'});
    const replaceAfter = h('select', {'data-testid': 'opt-replace-after', 'aria-label': 'Timeouts in a row before a bot takes the seat'},
      Array.from({length: 10}, (_, i) => h('option', {value: String(i + 1), selected: i + 1 === f.replace_after}, String(i + 1))));
    const policy = h('fieldset', {class: 'timeout-policy', 'data-testid': 'opt-policy'},
      h('legend', {}, 'When time runs out'),
      h('div', {class: 'radio-line'}, botAnswers,
        h('label', {for: 'opt-timeout-bot'}, 'A bot answers that decision; the player keeps the seat')),
      h('div', {class: 'radio-line'}, replaceSeat,
        h('span', {}, h('label', {for: 'opt-timeout-replace'}, 'A bot takes the seat for good after'), ' ', replaceAfter, ' timeouts in a row')));
    const sync = () => {
      custom.hidden = f.turn !== 'custom';
      const seconds = turnSeconds(f);
      customWords.textContent = f.turn === 'custom' && seconds > 0 ? `= ${durationText(seconds)}` : '';
      policy.hidden = !(seconds > 0 || f.turn === 'custom');
      botAnswers.checked = f.on_timeout !== 'replace_seat';
      replaceSeat.checked = f.on_timeout === 'replace_seat';
      replaceAfter.disabled = f.on_timeout !== 'replace_seat';
    };
    limit.addEventListener('change', () => {
      f.turn = limit.value;
      sync();
      if (f.turn === 'custom') customSeconds.focus();
    });
    customSeconds.addEventListener('input', () => {
      f.custom_seconds = customSeconds.value;
      sync();
    });
    for (const radio of [botAnswers, replaceSeat]) {
      radio.addEventListener('change', () => {
        if (radio.checked) f.on_timeout = radio.value;
        sync();
      });
    }
    replaceAfter.addEventListener('change', () => {
      f.replace_after = Number(replaceAfter.value);
    });
    const name = h('input', {
      type: 'text', id: 'opt-name', maxlength: 64, placeholder: 'e.g. Friday night', value: f.name,
      'data-testid': 'opt-name', onInput: (e) => { f.name = e.target.value; },
    });
    const form = h('form', {class: 'create-form', onSubmit: (event) => {
      event.preventDefault();
      this.create();
    }},
    h('label', {for: 'opt-name'}, 'Table name (optional)'), name,
    ...game.optionsForm(f, 'table'),
    h('label', {for: 'opt-turn'}, 'Time per decision'), limit,
    h('span', {class: 'note muted', id: 'opt-turn-note'}, 'Long limits suit play over days: come back whenever it is your turn.'),
    custom,
    policy,
    this.formError,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'create-table'}, 'Create table'));
    sync();
    return form;
  }

  async create() {
    const f = this.form;
    const seconds = turnSeconds(f);
    this.formError.hidden = true;
    if (!(Number.isInteger(seconds) && seconds >= 0 && seconds <= MAX_TURN_SECONDS) || (f.turn === 'custom' && seconds === 0)) {
      this.formError.textContent = `The time per decision must be a whole number of seconds from 1 to ${MAX_TURN_SECONDS} (14 days).`;
      this.formError.classList.remove('temporary');
      this.formError.hidden = false;
      return;
    }
    const payload = {
      options: gameModule().formOptions(f, 'table'),
      turn_seconds: seconds,
    };
    if (seconds > 0) {
      payload.on_timeout = f.on_timeout;
      if (f.on_timeout === 'replace_seat') payload.replace_after = f.replace_after;
    }
    if (f.name.trim()) payload.name = f.name.trim();
    try {
      const reply = await this.app.conn.request('table.create', payload);
      this.app.store.tables.set(reply.table.id, reply.table);
      this.app.navigate(`#/table/${reply.table.id}`);
    } catch (err) {
      this.formError.textContent = refusalText(err);
      this.formError.classList.toggle('temporary', isTemporary(err));
      this.formError.hidden = false;
    }
  }

  update() {
    this.playNow.update();
    this.renderMyGames();
    this.renderTables();
    this.renderHistory();
  }

  renderMyGames() {
    const app = this.app;
    if (app.store.myGames === null) {
      // The server does not list a player's games (an older server): hide the list.
      this.myGamesBox.hidden = true;
      return;
    }
    this.myGamesBox.hidden = false;
    const games = app.store.myGames || [];
    const myTurns = games.filter((g) => g.my_turn).length;
    const rows = games.map((g) => {
      const t = g.table;
      const names = seatNames(t, g.seat);
      const waiting = (g.waiting_for || []).filter((s) => s !== g.seat).map((s) => names[s]);
      const seatInfo = t.seats[g.seat];
      const note = seatNote(seatInfo, t);
      let state;
      let badge = t.status;
      if (g.former) {
        state = note && note.kind === 'resigned' ? 'Watching (you resigned)' : 'Watching (a bot took your seat)';
        if (t.status === 'finished') state = 'Finished';
      } else if (t.status === 'open') {
        state = 'Waiting for players';
      } else if (t.status === 'finished') {
        state = 'Finished';
      } else if (g.my_turn) {
        state = '▶ Your turn';
        badge = 'turn';
      } else {
        state = waiting.length ? `Waiting for ${waiting.join(', ')}` : 'In play';
      }
      const col = gameOf(t).seatColour(g.seat, t.options);
      const result = t.status === 'finished' && t.result ? resultLine(t, g.seat) : null;
      return h('li', {
        class: ['game-row', g.my_turn && 'my-turn'], 'data-testid': `my-game-${t.id}`, 'data-my-turn': String(Boolean(g.my_turn)),
      },
      h('div', {class: 'table-main'},
        h('div', {class: 'table-title'},
          h('a', {href: `#/table/${t.id}`, class: 'game-link'}, t.name),
          h('span', {class: `status-badge ${badge}`, 'data-testid': `my-game-state-${t.id}`}, state),
          g.my_turn && g.deadline ? countdown(g.deadline, 'brief', {'data-testid': `my-game-deadline-${t.id}`}) : null),
        h('div', {class: 'muted'},
          h('span', {class: 'seat-chip mine', style: {'--c': col.fill, '--ink': col.ink}},
            h('span', {class: 'seat-symbol', 'aria-hidden': 'true'}, col.symbol), `you play ${col.name}`),
          ' ', optionsSummary(t),
          note && note.kind === 'missed' ? h('span', {class: 'seat-note missed', 'data-testid': `my-game-missed-${t.id}`}, ' · ', icon('clock'), ` you ${note.text}`) : null),
        result),
      h('div', {class: 'table-actions'},
        h('a', {href: `#/table/${t.id}`, class: `button ${g.my_turn ? 'primary' : 'secondary'}`, 'data-testid': `my-game-open-${t.id}`,
          'aria-label': `${g.my_turn ? 'Play' : 'Open'} ${t.name}`}, g.my_turn ? 'Play' : 'Open')));
    });
    replaceKeepingFocus(this.myGamesBox,
      h('div', {class: 'panel-head'},
        h('h2', {id: 'my-games-title'}, 'My games'),
        myTurns ? h('span', {class: 'status-badge turn', 'data-testid': 'my-turn-count'}, `${myTurns} waiting for you`) : null),
      rows.length ? h('ul', {class: 'game-list'}, rows) : h('p', {class: 'muted'}, 'You sit at no table yet.'),
      // How to be told, where the games that wait are listed.
      rows.length ? alertControls(() => this.renderMyGames(), {testid: 'my-games-alerts'}) : null);
  }

  renderTables() {
    const app = this.app;
    const order = {open: 0, playing: 1, finished: 2};
    const tables = [...app.store.lobbyTables.values()].sort((a, b) => (order[a.status] - order[b.status]) || (b.id - a.id));
    const rows = tables.map((t) => {
      const seated = mySeatAt(t, app.store.me) !== null;
      const empty = t.seats.some((s) => s.kind === 'empty');
      const actions = [];
      if (seated) actions.push(h('a', {href: `#/table/${t.id}`, class: 'button primary', 'data-testid': `open-${t.id}`}, 'Open'));
      else if (t.status === 'open' && empty) actions.push(h('button', {type: 'button', class: 'primary', 'data-testid': `join-${t.id}`, onClick: () => app.join(t.id)}, 'Join'));
      if (!seated) actions.push(h('a', {href: `#/table/${t.id}`, class: 'button secondary', 'data-testid': `watch-${t.id}`}, 'Watch'));
      return h('li', {class: `table-row ${t.status}`, 'data-testid': `table-${t.id}`},
        h('div', {class: 'table-main'},
          h('div', {class: 'table-title'}, h('strong', {}, t.name), h('span', {class: `status-badge ${t.status}`}, STATUS_WORDS[t.status] || t.status),
            t.rated ? ratedBadge(t) : null),
          h('div', {class: 'muted'}, optionsSummary(t), t.spectators ? ` · ${t.spectators} watching` : ''),
          h('div', {class: 'seat-chips'}, t.seats.map((s) => seatChip(t, s, app.store.me)))),
        h('div', {class: 'table-actions'}, actions));
    });
    replaceKeepingFocus(this.tablesBox,
      rows.length ? h('ul', {class: 'table-list'}, rows) : h('p', {class: 'muted'}, 'No tables yet: create one!'),
      app.store.lobbyMore ? h('button', {
        type: 'button', class: 'secondary', 'data-testid': 'tables-older', 'aria-busy': String(Boolean(app.store.lobbyLoading)),
        onClick: () => app.store.loadOlderTables(),
      }, app.store.lobbyLoading ? 'Loading…' : 'Older tables') : null);
  }

  // Finished games (history.list): mine or everyone's, newest first, "Older games" pages back.
  renderHistory() {
    const app = this.app;
    const hist = app.store.history;
    if (hist.hidden) {
      this.historyBox.hidden = true;
      return;
    }
    this.historyBox.hidden = false;
    const rows = hist.games.map((g) => historyRow(g, app.store.me));
    let body;
    if (rows.length) body = h('ul', {class: 'history-list'}, rows);
    else if (hist.loading || !hist.loaded) body = h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), 'Loading…');
    else body = h('p', {class: 'muted', 'data-testid': 'history-empty'}, hist.everyone ? 'No game has finished on this server yet.' : 'You have not finished a game yet.');
    replaceKeepingFocus(this.historyBox,
      h('div', {class: 'panel-head'},
        h('h2', {id: 'history-title'}, 'Finished games'),
        segmented({
          label: 'Whose finished games', testid: 'history-whose', value: hist.everyone ? 'everyone' : 'mine',
          options: [['mine', 'Mine'], ['everyone', 'Everyone’s']],
          onChange: (v) => {
            app.store.setHistoryScope(v === 'everyone');
            this.historyBox.querySelector(`[data-testid="history-whose-${v}"]`)?.focus();
          },
        })),
      hist.error ? h('p', {class: ['error', hist.errorTemporary && 'temporary'], role: 'alert'}, hist.error) : null,
      body,
      hist.more ? h('button', {
        type: 'button', class: 'secondary', 'data-testid': 'history-older', 'aria-busy': String(Boolean(hist.loading)),
        onClick: () => { if (!hist.loading) app.store.loadHistory({older: true}); },
      }, hist.loading ? 'Loading…' : 'Older games') : null);
  }
}

function turnSeconds(f) {
  if (f.turn !== 'custom') return Number(f.turn);
  const text = String(f.custom_seconds ?? '').trim();
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

// "You scored 61 (1st of 3)": my result at a finished table.
function resultLine(table, seat) {
  const {scores, winners} = table.result;
  const place = 1 + scores.filter((s) => s > scores[seat]).length;
  return h('div', {class: 'result-line'},
    winners.includes(seat) ? '♛ You won' : `You came ${ordinal(place)} of ${scores.length}`, ` with ${scores[seat]} points`);
}

function historyRow(g, me) {
  const names = seatNames(g, null);
  const {scores, winners} = g.result;
  const ranking = scores.map((score, seat) => ({score, seat})).sort((a, b) => (b.score - a.score) || (a.seat - b.seat));
  const took = g.started_at && g.finished_at ? durationText((g.finished_at - g.started_at) / 1000) : null;
  return h('li', {class: 'history-row', 'data-testid': `history-${g.id}`, 'data-game': String(g.id)},
    h('div', {class: 'table-main'},
      h('div', {class: 'table-title'},
        h('strong', {}, g.name),
        h('span', {class: 'muted'}, h('time', {datetime: new Date(g.finished_at).toISOString()}, dateText(g.finished_at)),
          took ? ` · took ${took}` : '')),
      h('ol', {class: 'history-scores', 'aria-label': 'Final scores'}, ranking.map(({score, seat}) => {
        const col = gameOf(g).seatColour(seat, g.options);
        const s = g.seats[seat];
        const mine = me && s && s.player && s.player.id === me.id;
        const won = winners.includes(seat);
        const note = seatNote(s, g);
        return h('li', {
          class: ['score-chip', won && 'winner', mine && 'mine'], style: {'--c': col.fill, '--ink': col.ink},
          'data-testid': `history-${g.id}-score-${seat}`, 'data-score': String(score), 'data-winner': String(won),
        },
        h('span', {class: 'seat-symbol', 'aria-hidden': 'true'}, col.symbol),
        won ? h('span', {class: 'crown', title: 'Winner'}, '♛ ') : null,
        h('span', {class: 'score-name'}, names[seat], mine ? ' (you)' : ''),
        note ? h('span', {class: `seat-note ${note.kind}`}, ' ', icon(note.icon), ` ${note.text}`) : null,
        h('strong', {class: 'score-value'}, String(score)),
        won ? h('span', {class: 'sr-only'}, ' (winner)') : null);
      })),
      h('div', {class: 'muted'}, optionsSummary(g))),
    h('div', {class: 'table-actions'},
      h('a', {
        class: 'button secondary small', href: `/api/games/${g.id}/record`, download: `elgrande-${g.id}.json`,
        'data-testid': `record-${g.id}`, 'aria-label': `Download record of ${g.name} (JSON)`,
      }, icon('download'), ' Download record')));
}

// The ladder a table's game counts on, in words.
function ladderWords(table) {
  const game = gameOf(table);
  return game.ladderName(game.ladderOf(table.options));
}

// "Rated": the game moves its players' ratings on the table's ladder.
function ratedBadge(table) {
  return h('span', {class: 'status-badge rated', 'data-testid': `rated-${table.id}`, title: `Rated on the “${ladderWords(table)}” ladder`}, 'Rated');
}

// The level of the bots the host adds next.
function botLevelChoice(app) {
  const select = h('select', {id: 'bot-level', 'data-testid': 'bot-level', 'aria-describedby': 'bot-level-note'},
    BOT_LEVELS.map(([value, label]) => h('option', {value, selected: value === (app.store.botLevel || 'medium')}, label)));
  select.addEventListener('change', () => {
    app.store.botLevel = select.value;
  });
  return h('p', {class: 'bot-level'},
    h('label', {for: 'bot-level'}, 'Bots added play'), ' ', select, ' ',
    h('span', {class: 'note muted', id: 'bot-level-note'}, 'Easy, medium and strong bots think about their moves; a strong one takes a moment.'));
}

// An open table: seats, bots, start.
export function renderWaitingRoom(app, table, container) {
  const me = app.store.me;
  const mine = mySeatAt(table, me);
  const host = table.host === me.id;
  const full = table.seats.every((s) => s.kind !== 'empty');
  const seats = table.seats.map((seat) => {
    const col = gameOf(table).seatColour(seat.seat, table.options);
    const actions = [];
    if (seat.kind === 'empty') {
      if (host) actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `add-bot-${seat.seat}`, onClick: () => app.tableAction('table.add_bot', {table: table.id, seat: seat.seat, level: app.store.botLevel || 'medium'})}, 'Add a bot'));
      if (mine === null) actions.push(h('button', {type: 'button', class: 'primary', 'data-testid': `sit-${seat.seat}`, onClick: () => app.join(table.id, seat.seat)}, 'Sit here'));
      else actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `move-${seat.seat}`, onClick: () => app.tableAction('table.seat', {table: table.id, seat: seat.seat})}, 'Move here'));
    } else if (seat.kind === 'bot' && host) {
      actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `remove-bot-${seat.seat}`, onClick: () => app.tableAction('table.remove_bot', {table: table.id, seat: seat.seat})}, 'Remove bot'));
    }
    let who;
    if (seat.kind === 'empty') who = h('span', {class: 'muted'}, 'Empty');
    else if (seat.kind === 'bot') who = h('span', {'data-testid': `bot-level-${seat.seat}`, 'data-level': seat.level || 'random'}, `Bot, ${botLevelName(seat.level)} (played by the server)`);
    else {
      who = h('span', {}, profileLink(seat.player), playerButton(app, seat.player, table.id), ratingBadge(seat.rating, {'data-testid': `seat-rating-${seat.seat}`}),
        seat.player.id === me.id ? ' (you)' : '', table.host === seat.player.id ? ' · host' : '',
        seat.connected ? '' : h('span', {class: 'tag offline'}, 'offline'));
    }
    return h('li', {class: 'seat-row', 'data-testid': `seat-${seat.seat}`, 'data-kind': seat.kind},
      h('span', {class: 'colour-badge', style: {'--c': col.fill, '--ink': col.ink}, 'aria-hidden': 'true'}, col.symbol),
      h('span', {class: 'seat-label'}, `Seat ${seat.seat + 1} · ${col.name}`),
      h('span', {class: 'seat-who'}, who),
      h('span', {class: 'seat-actions'}, actions));
  });
  const policy = policyText(table);
  replaceKeepingFocus(container,
    h('div', {class: 'waiting-room panel', 'data-testid': 'waiting-room', 'data-table': String(table.id)},
      h('h1', {}, table.name),
      h('p', {class: 'muted'}, optionsSummary(table, {time: false})),
      h('p', {class: 'rated-rule', 'data-testid': 'rated-rule', 'data-rated': String(Boolean(table.rated))}, table.rated
        ? [ratedBadge(table), ` The result moves the ratings of its players with an account on the “${ladderWords(table)}” ladder.`]
        : unratedText(table)),
      h('p', {class: 'time-rule', 'data-testid': 'time-rule'}, icon('clock'), ` ${limitText(table)}`,
        policy ? `; when time runs out, ${policy}.` : ': take your time.'),
      host && !full ? botLevelChoice(app) : null,
      h('ol', {class: 'seat-list'}, seats),
      app.store.tableError ? h('p', {class: ['error', app.store.tableErrorTemporary && 'temporary'], role: 'alert', 'data-testid': 'error'}, app.store.tableError) : null,
      h('div', {class: 'actions'},
        host ? h('button', {type: 'button', class: 'primary big', 'data-testid': 'start-game', disabled: !full, onClick: () => app.tableAction('table.start', {table: table.id})},
          full ? 'Start the game' : 'Start (fill every seat first)') : h('p', {class: 'muted'}, mine !== null ? 'The host starts the game once every seat is filled.' : 'Pick an empty seat to play, or stay and watch.'),
        mine !== null ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'leave-table', onClick: () => app.leave(table.id)}, 'Leave the table') : null,
        h('a', {href: '#/', class: 'button secondary'}, 'Back to the lobby')),
      h('p', {class: 'muted invite'}, 'Friends can join from the lobby, or open this page’s address: ',
        h('code', {}, location.href))));
}
