// The lobby (play now, create a table, my games, open tables, finished games) and the
// waiting room of an open table.

import {h, icon, replaceKeepingFocus, segmented} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {gameModule, gameOf} from './games/index.js';
import {botLevelName, botLevels, playerName, mySeatAt, seatNames, seatNote} from './seats.js';
import {playerButton} from './blocks.js';
import {tableName} from './words.js';
import {PlayNowPanel} from './playnow.js';
import {alertControls} from './alerts.js';
import {profileLink, ratingBadge, unratedText} from './ratings.js';
import {MAX_TURN_SECONDS, countdown, turnChoices, dateText, durationText, limitText, policyText} from './time.js';
import {formatList, t, tParts} from './i18n.js';
import {createTablePayload, turnSeconds} from './store.js';

// Every 30 s while the lobby shows, "my games" is asked again (deadlines, others' moves).
const MY_GAMES_PERIOD_MS = 30_000;

export function optionsSummary(table, {time = true} = {}) {
  const text = gameOf(table).optionsText(table.options);
  if (!(time && table.turn_seconds)) return text;
  // The clock as an icon: a list of nodes, for h().
  return [text, ' · ', icon('clock'), ' ', table.on_timeout ? t('lobby.limit_with_policy', {limit: limitText(table), policy: policyText(table, true)}) : limitText(table)];
}

function seatChip(table, seat, me) {
  const col = gameOf(table).seatColour(seat.seat, table.options);
  let label;
  if (seat.kind === 'empty') label = t('lobby.chip.empty');
  else if (seat.kind === 'bot') label = seat.player ? t('lobby.chip.named_bot', {name: playerName(seat.player)}) : t('lobby.chip.bot', {level: botLevelName(seat.level)});
  else label = me && seat.player.id === me.id ? t('lobby.chip.you', {name: playerName(seat.player)}) : playerName(seat.player);
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
      h('h1', {class: 'sr-only'}, t('lobby.title')),
      this.myGamesBox,
      h('div', {class: 'lobby-side'},
        this.playNow.root,
        h('section', {class: 'panel create', 'aria-labelledby': 'create-title'},
          h('h2', {id: 'create-title'}, t('lobby.create.title')),
          this.buildForm())),
      h('div', {class: 'lobby-lists'},
        h('section', {class: 'panel tables', 'aria-labelledby': 'tables-title'},
          h('h2', {id: 'tables-title'}, t('lobby.tables.title')),
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
      turnChoices().map(([value, label]) => h('option', {value, selected: value === f.turn}, label)));
    const customSeconds = h('input', {
      type: 'number', id: 'opt-turn-seconds', min: 1, max: MAX_TURN_SECONDS, step: 1, inputmode: 'numeric',
      value: f.custom_seconds, 'data-testid': 'opt-turn-seconds', 'aria-describedby': 'opt-turn-words',
    });
    const customWords = h('span', {class: 'muted', id: 'opt-turn-words', 'data-testid': 'opt-turn-words'});
    const custom = h('div', {class: 'custom-seconds', 'data-testid': 'opt-turn-custom'},
      h('label', {for: 'opt-turn-seconds'}, t('lobby.create.seconds')), customSeconds, customWords);
    const botAnswers = h('input', {type: 'radio', name: 'opt-on-timeout', id: 'opt-timeout-bot', value: 'bot_answers', 'data-testid': 'opt-timeout-bot'});
    const replaceSeat = h('input', {type: 'radio', name: 'opt-on-timeout', id: 'opt-timeout-replace', value: 'replace_seat', 'data-testid': 'opt-timeout-replace'});
    const replaceAfter = h('select', {'data-testid': 'opt-replace-after', 'aria-label': t('lobby.create.replace_after_label')},
      Array.from({length: 10}, (_, i) => h('option', {value: String(i + 1), selected: i + 1 === f.replace_after}, String(i + 1))));
    const policy = h('fieldset', {class: 'timeout-policy', 'data-testid': 'opt-policy'},
      h('legend', {}, t('lobby.create.when_time_runs_out')),
      h('div', {class: 'radio-line'}, botAnswers,
        h('label', {for: 'opt-timeout-bot'}, t('lobby.create.bot_answers'))),
      h('div', {class: 'radio-line'}, replaceSeat,
        h('span', {}, ...tParts('lobby.create.replace_seat', {label: h('label', {for: 'opt-timeout-replace'}, t('lobby.create.replace_seat_label')), n: replaceAfter}))));
    const sync = () => {
      custom.hidden = f.turn !== 'custom';
      const seconds = turnSeconds(f);
      customWords.textContent = f.turn === 'custom' && seconds > 0 ? `= ${durationText(seconds)}` : '';  // i18n: a sign and a duration
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
    // After the end a replay shows every seat's secrets, unless the host keeps them closed.
    const keepSecrets = h('input', {type: 'checkbox', id: 'opt-keep-secrets', 'data-testid': 'opt-keep-secrets',
      checked: f.keep_secrets, 'aria-describedby': 'opt-keep-secrets-note', onChange: () => { f.keep_secrets = keepSecrets.checked; }});
    const name = h('input', {
      type: 'text', id: 'opt-name', maxlength: 64, placeholder: t('lobby.create.name_placeholder'), value: f.name,
      'data-testid': 'opt-name', onInput: (e) => { f.name = e.target.value; },
    });
    const form = h('form', {class: 'create-form', onSubmit: (event) => {
      event.preventDefault();
      this.create();
    }},
    h('label', {for: 'opt-name'}, t('lobby.create.name')), name,
    ...game.optionsForm(f, 'table'),
    h('label', {for: 'opt-turn'}, t('lobby.create.time')), limit,
    h('span', {class: 'note muted', id: 'opt-turn-note'}, t('lobby.create.time_note')),
    custom,
    policy,
    h('div', {class: 'checks'}, h('label', {}, keepSecrets, ` ${t('lobby.create.keep_secrets')}`)),
    h('span', {class: 'note muted', id: 'opt-keep-secrets-note'}, t('lobby.create.keep_secrets_note')),
    this.formError,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'create-table'}, t('lobby.create.submit')));
    sync();
    return form;
  }

  async create() {
    const f = this.form;
    const seconds = turnSeconds(f);
    this.formError.hidden = true;
    if (!(Number.isInteger(seconds) && seconds >= 0 && seconds <= MAX_TURN_SECONDS) || (f.turn === 'custom' && seconds === 0)) {
      this.formError.textContent = t('lobby.create.bad_time', {max: MAX_TURN_SECONDS});
      this.formError.classList.remove('temporary');
      this.formError.hidden = false;
      return;
    }
    try {
      const reply = await this.app.conn.request('table.create', createTablePayload(f));
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
      const table = g.table;
      const names = seatNames(table, g.seat);
      const waiting = (g.waiting_for || []).filter((s) => s !== g.seat).map((s) => names[s]);
      const seatInfo = table.seats[g.seat];
      const note = seatNote(seatInfo, table);
      let state;
      let badge = table.status;
      if (g.former) {
        state = t(note && note.kind === 'resigned' ? 'lobby.game.watching_resigned' : 'lobby.game.watching_replaced');
        if (table.status === 'finished') state = t('lobby.status.finished');
      } else if (table.status === 'open') {
        state = t('lobby.game.waiting_for_players');
      } else if (table.status === 'finished') {
        state = t('lobby.status.finished');
      } else if (g.my_turn) {
        state = t('lobby.game.your_turn');
        badge = 'turn';
      } else {
        state = waiting.length ? t('lobby.game.waiting_for', {names: formatList(waiting)}) : t('lobby.game.in_play');
      }
      const col = gameOf(table).seatColour(g.seat, table.options);
      const result = table.status === 'finished' && table.result ? resultLine(table, g.seat) : null;
      return h('li', {
        class: ['game-row', g.my_turn && 'my-turn'], 'data-testid': `my-game-${table.id}`, 'data-my-turn': String(Boolean(g.my_turn)),
      },
      h('div', {class: 'table-main'},
        h('div', {class: 'table-title'},
          h('a', {href: `#/table/${table.id}`, class: 'game-link'}, tableName(table)),
          h('span', {class: `status-badge ${badge}`, 'data-testid': `my-game-state-${table.id}`}, state),
          g.my_turn && g.deadline ? countdown(g.deadline, 'brief', {'data-testid': `my-game-deadline-${table.id}`}) : null),
        h('div', {class: 'muted'},
          h('span', {class: 'seat-chip mine', style: {'--c': col.fill, '--ink': col.ink}},
            h('span', {class: 'seat-symbol', 'aria-hidden': 'true'}, col.symbol), t('lobby.game.you_play', {colour: col.label})),
          ' ', optionsSummary(table),
          note && note.kind === 'missed' ? h('span', {class: 'seat-note missed', 'data-testid': `my-game-missed-${table.id}`}, ' · ', icon('clock'), ' ', t('lobby.game.you_missed', {what: note.text})) : null),
        result),
      h('div', {class: 'table-actions'},
        h('a', {href: `#/table/${table.id}`, class: `button ${g.my_turn ? 'primary' : 'secondary'}`, 'data-testid': `my-game-open-${table.id}`,
          'aria-label': t(g.my_turn ? 'lobby.game.play_label' : 'lobby.game.open_label', {name: tableName(table)})}, t(g.my_turn ? 'lobby.game.play' : 'lobby.open'))));
    });
    replaceKeepingFocus(this.myGamesBox,
      h('div', {class: 'panel-head'},
        h('h2', {id: 'my-games-title'}, t('lobby.my_games.title')),
        myTurns ? h('span', {class: 'status-badge turn', 'data-testid': 'my-turn-count'}, t('lobby.my_games.waiting', {n: myTurns})) : null),
      rows.length ? h('ul', {class: 'game-list'}, rows) : h('p', {class: 'muted'}, t('lobby.my_games.none')),
      // How to be told, where the games that wait are listed.
      rows.length ? alertControls(() => this.renderMyGames(), {testid: 'my-games-alerts'}) : null);
  }

  renderTables() {
    const app = this.app;
    const order = {open: 0, playing: 1, finished: 2};
    const tables = [...app.store.lobbyTables.values()].sort((a, b) => (order[a.status] - order[b.status]) || (b.id - a.id));
    const rows = tables.map((table) => {
      const seated = mySeatAt(table, app.store.me) !== null;
      const empty = table.seats.some((s) => s.kind === 'empty');
      const actions = [];
      if (seated) actions.push(h('a', {href: `#/table/${table.id}`, class: 'button primary', 'data-testid': `open-${table.id}`}, t('lobby.open')));
      else if (table.status === 'open' && empty) actions.push(h('button', {type: 'button', class: 'primary', 'data-testid': `join-${table.id}`, onClick: () => app.join(table.id)}, t('lobby.join')));
      if (!seated) actions.push(h('a', {href: `#/table/${table.id}`, class: 'button secondary', 'data-testid': `watch-${table.id}`}, t('lobby.watch')));
      return h('li', {class: `table-row ${table.status}`, 'data-testid': `table-${table.id}`},
        h('div', {class: 'table-main'},
          h('div', {class: 'table-title'}, h('strong', {}, tableName(table)), h('span', {class: `status-badge ${table.status}`}, t(`lobby.status.${table.status}`)),
            table.rated ? ratedBadge(table) : null),
          h('div', {class: 'muted'}, optionsSummary(table), table.spectators ? [' · ', t('lobby.tables.watching', {n: table.spectators})] : ''),
          h('div', {class: 'seat-chips'}, table.seats.map((s) => seatChip(table, s, app.store.me)))),
        h('div', {class: 'table-actions'}, actions));
    });
    replaceKeepingFocus(this.tablesBox,
      rows.length ? h('ul', {class: 'table-list'}, rows) : h('p', {class: 'muted'}, t('lobby.tables.none')),
      app.store.lobbyMore ? h('button', {
        type: 'button', class: 'secondary', 'data-testid': 'tables-older', 'aria-busy': String(Boolean(app.store.lobbyLoading)),
        onClick: () => app.store.loadOlderTables(),
      }, t(app.store.lobbyLoading ? 'lobby.loading' : 'lobby.tables.older')) : null);
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
    else if (hist.loading || !hist.loaded) body = h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), t('lobby.loading'));
    else body = h('p', {class: 'muted', 'data-testid': 'history-empty'}, t(hist.everyone ? 'lobby.history.none_anyone' : 'lobby.history.none_mine'));
    replaceKeepingFocus(this.historyBox,
      h('div', {class: 'panel-head'},
        h('h2', {id: 'history-title'}, t('lobby.history.title')),
        segmented({
          label: t('lobby.history.whose'), testid: 'history-whose', value: hist.everyone ? 'everyone' : 'mine',
          options: [['mine', t('lobby.history.mine')], ['everyone', t('lobby.history.everyone')]],
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
      }, t(hist.loading ? 'lobby.loading' : 'lobby.history.older')) : null);
  }
}

// "You scored 61 (1st of 3)": my result at a finished table.
function resultLine(table, seat) {
  const {scores, winners} = table.result;
  const place = 1 + scores.filter((s) => s > scores[seat]).length;
  return h('div', {class: 'result-line'}, winners.includes(seat)
    ? t('lobby.result.won', {points: scores[seat]})
    : t('lobby.result.placed', {place, of: scores.length, points: scores[seat]}));
}

function historyRow(g, me) {
  const names = seatNames(g, null);
  const {scores, winners} = g.result;
  const ranking = scores.map((score, seat) => ({score, seat})).sort((a, b) => (b.score - a.score) || (a.seat - b.seat));
  const took = g.started_at && g.finished_at ? durationText((g.finished_at - g.started_at) / 1000) : null;
  return h('li', {class: 'history-row', 'data-testid': `history-${g.id}`, 'data-game': String(g.id)},
    h('div', {class: 'table-main'},
      h('div', {class: 'table-title'},
        h('strong', {}, tableName(g)),
        h('span', {class: 'muted'}, h('time', {datetime: new Date(g.finished_at).toISOString()}, dateText(g.finished_at)),
          took ? [' · ', t('lobby.history.took', {duration: took})] : '')),
      h('ol', {class: 'history-scores', 'aria-label': t('lobby.history.final_scores')}, ranking.map(({score, seat}) => {
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
        won ? h('span', {class: 'crown', title: t('lobby.history.winner')}, '♛ ') : null,
        h('span', {class: 'score-name'}, mine ? t('lobby.chip.you', {name: names[seat]}) : names[seat]),
        note ? h('span', {class: `seat-note ${note.kind}`}, ' ', icon(note.icon), ` ${note.text}`) : null,
        h('strong', {class: 'score-value'}, String(score)),
        won ? h('span', {class: 'sr-only'}, ` ${t('lobby.history.winner_note')}`) : null);
      })),
      h('div', {class: 'muted'}, optionsSummary(g))),
    h('div', {class: 'table-actions'},
      h('a', {class: 'button secondary small', href: `#/replay/${g.id}`, 'data-testid': `replay-${g.id}`,
        'aria-label': t('lobby.history.replay_label', {name: tableName(g)})}, t('lobby.history.replay')),
      h('a', {
        class: 'button secondary small', href: `/api/games/${g.id}/record`, download: `elgrande-${g.id}.json`,
        'data-testid': `record-${g.id}`, 'aria-label': t('lobby.history.download_label', {name: tableName(g)}),
      }, icon('download'), ' ', t('lobby.history.download'))));
}

// The ladder a table's game counts on, in words.
function ladderWords(table) {
  const game = gameOf(table);
  return game.ladderName(game.ladderOf(table.options));
}

// "Rated": the game moves its players' ratings on the table's ladder.
function ratedBadge(table) {
  return h('span', {class: 'status-badge rated', 'data-testid': `rated-${table.id}`, title: t('lobby.rated.title', {ladder: ladderWords(table)})}, t('lobby.rated.badge'));
}

// The level of the bots the host adds next.
function botLevelChoice(app) {
  const select = h('select', {id: 'bot-level', 'data-testid': 'bot-level', 'aria-describedby': 'bot-level-note'},
    botLevels().map(([value, label]) => h('option', {value, selected: value === (app.store.botLevel || 'medium')}, label)));
  select.addEventListener('change', () => {
    app.store.botLevel = select.value;
  });
  return h('p', {class: 'bot-level'},
    ...tParts('lobby.bots.level', {label: h('label', {for: 'bot-level'}, t('lobby.bots.level_label')), level: select}), ' ',
    h('span', {class: 'note muted', id: 'bot-level-note'}, t('lobby.bots.level_note')));
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
      if (host) actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `add-bot-${seat.seat}`, onClick: () => app.tableAction('table.add_bot', {table: table.id, seat: seat.seat, level: app.store.botLevel || 'medium'})}, t('lobby.seat.add_bot')));
      if (mine === null) actions.push(h('button', {type: 'button', class: 'primary', 'data-testid': `sit-${seat.seat}`, onClick: () => app.join(table.id, seat.seat)}, t('lobby.seat.sit')));
      else actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `move-${seat.seat}`, onClick: () => app.tableAction('table.seat', {table: table.id, seat: seat.seat})}, t('lobby.seat.move')));
    } else if (seat.kind === 'bot' && host) {
      actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `remove-bot-${seat.seat}`, onClick: () => app.tableAction('table.remove_bot', {table: table.id, seat: seat.seat})}, t('lobby.seat.remove_bot')));
    }
    let who;
    if (seat.kind === 'empty') who = h('span', {class: 'muted'}, t('lobby.seat.empty'));
    else if (seat.kind === 'bot') who = h('span', {'data-testid': `bot-level-${seat.seat}`, 'data-level': seat.level || 'random'}, t('lobby.seat.bot', {level: botLevelName(seat.level)}));
    else {
      who = h('span', {}, profileLink(seat.player), playerButton(app, seat.player, table.id), ratingBadge(seat.rating, {'data-testid': `seat-rating-${seat.seat}`}),
        seat.player.id === me.id ? ` ${t('lobby.seat.you')}` : '', table.host === seat.player.id ? ` · ${t('lobby.seat.host')}` : '',
        seat.connected ? '' : h('span', {class: 'tag offline'}, t('lobby.seat.offline')));
    }
    return h('li', {class: 'seat-row', 'data-testid': `seat-${seat.seat}`, 'data-kind': seat.kind},
      h('span', {class: 'colour-badge', style: {'--c': col.fill, '--ink': col.ink}, 'aria-hidden': 'true'}, col.symbol),
      h('span', {class: 'seat-label'}, t('lobby.seat.label', {seat: String(seat.seat + 1), colour: col.label})),
      h('span', {class: 'seat-who'}, who),
      h('span', {class: 'seat-actions'}, actions));
  });
  const policy = policyText(table);
  replaceKeepingFocus(container,
    h('div', {class: 'waiting-room panel', 'data-testid': 'waiting-room', 'data-table': String(table.id)},
      h('h1', {}, tableName(table)),
      h('p', {class: 'muted'}, optionsSummary(table, {time: false})),
      h('p', {class: 'rated-rule', 'data-testid': 'rated-rule', 'data-rated': String(Boolean(table.rated))}, table.rated
        ? [ratedBadge(table), ' ', t('lobby.rated.rule', {ladder: ladderWords(table)})]
        : unratedText(table)),
      table.secrets_after_end === 'closed' ? h('p', {class: 'muted', 'data-testid': 'secrets-rule'}, t('lobby.secrets_closed_rule')) : null,
      h('p', {class: 'time-rule', 'data-testid': 'time-rule'}, icon('clock'), ' ',
        policy ? t('lobby.time_rule.policy', {limit: limitText(table), policy}) : t('lobby.time_rule.none', {limit: limitText(table)})),
      host && !full ? botLevelChoice(app) : null,
      h('ol', {class: 'seat-list'}, seats),
      app.store.tableError ? h('p', {class: ['error', app.store.tableErrorTemporary && 'temporary'], role: 'alert', 'data-testid': 'error'}, app.store.tableError) : null,
      h('div', {class: 'actions'},
        host ? h('button', {type: 'button', class: 'primary big', 'data-testid': 'start-game', disabled: !full, onClick: () => app.tableAction('table.start', {table: table.id})},
          t(full ? 'lobby.start' : 'lobby.start_not_full')) : h('p', {class: 'muted'}, t(mine !== null ? 'lobby.host_starts' : 'lobby.pick_seat')),
        mine !== null ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'leave-table', onClick: () => app.leave(table.id)}, t('lobby.leave')) : null,
        h('a', {href: '#/', class: 'button secondary'}, t('lobby.back'))),
      h('p', {class: 'muted invite'}, ...tParts('lobby.invite', {address: h('code', {}, location.href)}))));
}
