// The lobby (create a table, my games, open tables) and the waiting room of an open table.

import {h, replaceKeepingFocus} from './dom.js';
import {colourOf, seatNames} from './texts.js';

const TURN_LIMITS = [
  [0, 'No time limit'], [60, '1 minute per decision'], [300, '5 minutes per decision'],
  [3600, '1 hour per decision'], [86400, '1 day per decision'], [259200, '3 days per decision'],
];

const STATUS_WORDS = {open: 'Open', playing: 'Playing', finished: 'Finished'};

export function optionsSummary(table) {
  const o = table.options;
  const parts = [`${o.players} players`];
  if (o.automa) parts.push('with the automa');
  if (o.short_game) parts.push('short game (6 rounds)');
  if (o.four_stacks) parts.push('four stacks');
  if (table.turn_seconds) parts.push(TURN_LIMITS.find(([s]) => s === table.turn_seconds)?.[1] || `${table.turn_seconds} s per decision`);
  return parts.join(' · ');
}

export function mySeatAt(table, me) {
  if (!table || !me) return null;
  const seat = table.seats.find((s) => s.player && s.player.id === me.id);
  return seat ? seat.seat : null;
}

function seatChip(table, seat, me) {
  const col = colourOf(seat.seat, table.options);
  let label;
  if (seat.kind === 'empty') label = 'empty seat';
  else if (seat.kind === 'bot') label = seat.player ? `${seat.player.name} (bot)` : 'Bot';
  else label = seat.player.name + (me && seat.player.id === me.id ? ' (you)' : '');
  return h('span', {class: `seat-chip ${seat.kind}`, style: {'--c': col.fill, '--ink': col.ink}},
    h('span', {class: 'seat-symbol', 'aria-hidden': 'true'}, col.symbol), label);
}

export class LobbyScreen {
  constructor(app) {
    this.app = app;
    this.form = app.createForm;
    this.tablesBox = h('div', {class: 'table-list-box'});
    this.myGamesBox = h('section', {class: 'panel my-games', 'aria-labelledby': 'my-games-title', 'data-testid': 'my-games'});
    this.formError = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': 'create-error'});
    this.root = h('div', {class: 'lobby', 'data-testid': 'lobby'},
      h('section', {class: 'panel create', 'aria-labelledby': 'create-title'},
        h('h2', {id: 'create-title'}, 'Create a table'),
        this.buildForm()),
      h('div', {class: 'lobby-lists'},
        this.myGamesBox,
        h('section', {class: 'panel tables', 'aria-labelledby': 'tables-title'},
          h('h2', {id: 'tables-title'}, 'Tables'),
          this.tablesBox)));
    this.update();
  }

  buildForm() {
    const f = this.form;
    const players = h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': 'Players'});
    const automa = h('input', {type: 'checkbox', id: 'opt-automa', 'data-testid': 'opt-automa'});
    const four = h('input', {type: 'checkbox', id: 'opt-four-stacks', 'data-testid': 'opt-four-stacks'});
    const short = h('input', {type: 'checkbox', id: 'opt-short', 'data-testid': 'opt-short', checked: f.short_game});
    const sync = () => {
      // The options the protocol allows: the automa only with 2 players, four stacks with 3 or the automa.
      automa.disabled = f.players !== 2;
      if (automa.disabled) f.automa = false;
      automa.checked = f.automa;
      four.disabled = !(f.players === 3 || f.automa);
      if (four.disabled) f.four_stacks = false;
      four.checked = f.four_stacks;
      for (const button of players.querySelectorAll('button')) {
        const n = Number(button.dataset.players);
        button.setAttribute('aria-checked', String(n === f.players));
        button.tabIndex = n === f.players ? 0 : -1;
      }
    };
    for (let n = 2; n <= 5; n++) {
      players.append(h('button', {
        type: 'button', role: 'radio', 'data-players': String(n), 'data-testid': `opt-players-${n}`,
        onClick: () => {
          f.players = n;
          sync();
        },
        onKeydown: (event) => {
          const step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
          if (!step) return;
          event.preventDefault();
          f.players = Math.min(5, Math.max(2, f.players + step));
          sync();
          players.querySelector(`[data-players="${f.players}"]`).focus();
        },
      }, String(n)));
    }
    automa.addEventListener('change', () => {
      f.automa = automa.checked;
      sync();
    });
    four.addEventListener('change', () => {
      f.four_stacks = four.checked;
      sync();
    });
    short.addEventListener('change', () => {
      f.short_game = short.checked;
    });
    const name = h('input', {
      type: 'text', id: 'opt-name', maxlength: 64, placeholder: 'e.g. Friday night', value: f.name,
      'data-testid': 'opt-name', onInput: (e) => { f.name = e.target.value; },
    });
    const limit = h('select', {id: 'opt-turn', 'data-testid': 'opt-turn', onChange: (e) => { f.turn_seconds = Number(e.target.value); }},
      TURN_LIMITS.map(([s, label]) => h('option', {value: String(s), selected: s === f.turn_seconds}, label)));
    const form = h('form', {class: 'create-form', onSubmit: (event) => {
      event.preventDefault();
      this.create();
    }},
    h('label', {for: 'opt-name'}, 'Table name (optional)'), name,
    h('span', {class: 'label'}, 'Players'), players,
    h('div', {class: 'checks'},
      h('label', {}, short, ' Short game (6 rounds)'),
      h('label', {}, automa, ' Automa (2 players)'),
      h('label', {}, four, ' Four stacks (3 players or automa)')),
    h('label', {for: 'opt-turn'}, 'Time per decision'), limit,
    this.formError,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'create-table'}, 'Create table'));
    sync();
    return form;
  }

  async create() {
    const f = this.form;
    const payload = {
      options: {players: f.players, short_game: f.short_game, automa: f.automa, four_stacks: f.four_stacks},
      turn_seconds: f.turn_seconds,
    };
    if (f.name.trim()) payload.name = f.name.trim();
    this.formError.hidden = true;
    try {
      const reply = await this.app.conn.request('table.create', payload);
      this.app.tables.set(reply.table.id, reply.table);
      this.app.navigate(`#/table/${reply.table.id}`);
    } catch (err) {
      this.formError.textContent = `The server refused: ${err.message}`;
      this.formError.hidden = false;
    }
  }

  update() {
    this.renderMyGames();
    this.renderTables();
  }

  renderMyGames() {
    const app = this.app;
    if (app.myGames === null) {
      // The server does not list a player's games (an older server): hide the list.
      this.myGamesBox.hidden = true;
      return;
    }
    this.myGamesBox.hidden = false;
    const games = app.myGames || [];
    const rows = games.map((g) => {
      const t = g.table;
      const names = seatNames(t, g.seat);
      const waiting = (g.waiting_for || []).filter((s) => s !== g.seat).map((s) => names[s]);
      let state;
      if (t.status === 'open') state = 'Waiting for players';
      else if (t.status === 'finished') state = 'Finished';
      else if (g.my_turn) state = 'Your turn!';
      else state = waiting.length ? `Waiting for ${waiting.join(', ')}` : 'In play';
      return h('li', {class: `game-row${g.my_turn ? ' my-turn' : ''}`, 'data-testid': `my-game-${t.id}`},
        h('a', {href: `#/table/${t.id}`, class: 'game-link'},
          h('strong', {}, t.name),
          h('span', {class: `status-badge ${g.my_turn ? 'turn' : t.status}`}, state)),
        h('span', {class: 'muted'}, optionsSummary(t)));
    });
    replaceKeepingFocus(this.myGamesBox,
      h('h2', {id: 'my-games-title'}, 'My games'),
      rows.length ? h('ul', {class: 'game-list'}, rows) : h('p', {class: 'muted'}, 'You sit at no table yet.'));
  }

  renderTables() {
    const app = this.app;
    const order = {open: 0, playing: 1, finished: 2};
    const tables = [...app.lobbyTables.values()].sort((a, b) => (order[a.status] - order[b.status]) || (b.id - a.id));
    const rows = tables.map((t) => {
      const seated = mySeatAt(t, app.me) !== null;
      const empty = t.seats.some((s) => s.kind === 'empty');
      const actions = [];
      if (seated) actions.push(h('a', {href: `#/table/${t.id}`, class: 'button primary', 'data-testid': `open-${t.id}`}, 'Open'));
      else if (t.status === 'open' && empty) actions.push(h('button', {type: 'button', class: 'primary', 'data-testid': `join-${t.id}`, onClick: () => app.join(t.id)}, 'Join'));
      if (!seated) actions.push(h('a', {href: `#/table/${t.id}`, class: 'button secondary', 'data-testid': `watch-${t.id}`}, 'Watch'));
      return h('li', {class: `table-row ${t.status}`, 'data-testid': `table-${t.id}`},
        h('div', {class: 'table-main'},
          h('div', {class: 'table-title'}, h('strong', {}, t.name), h('span', {class: `status-badge ${t.status}`}, STATUS_WORDS[t.status] || t.status)),
          h('div', {class: 'muted'}, optionsSummary(t), t.spectators ? ` · ${t.spectators} watching` : ''),
          h('div', {class: 'seat-chips'}, t.seats.map((s) => seatChip(t, s, app.me)))),
        h('div', {class: 'table-actions'}, actions));
    });
    replaceKeepingFocus(this.tablesBox,
      rows.length ? h('ul', {class: 'table-list'}, rows) : h('p', {class: 'muted'}, 'No tables yet: create one!'));
  }
}

// An open table: seats, bots, start.
export function renderWaitingRoom(app, table, container) {
  const me = app.me;
  const mine = mySeatAt(table, me);
  const host = table.host === me.id;
  const full = table.seats.every((s) => s.kind !== 'empty');
  const seats = table.seats.map((seat) => {
    const col = colourOf(seat.seat, table.options);
    const actions = [];
    if (seat.kind === 'empty') {
      if (host) actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `add-bot-${seat.seat}`, onClick: () => app.tableAction('table.add_bot', {table: table.id, seat: seat.seat})}, 'Add a bot'));
      if (mine === null) actions.push(h('button', {type: 'button', class: 'primary', 'data-testid': `sit-${seat.seat}`, onClick: () => app.join(table.id, seat.seat)}, 'Sit here'));
      else actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `move-${seat.seat}`, onClick: () => app.tableAction('table.seat', {table: table.id, seat: seat.seat})}, 'Move here'));
    } else if (seat.kind === 'bot' && host) {
      actions.push(h('button', {type: 'button', class: 'secondary', 'data-testid': `remove-bot-${seat.seat}`, onClick: () => app.tableAction('table.remove_bot', {table: table.id, seat: seat.seat})}, 'Remove bot'));
    }
    let who;
    if (seat.kind === 'empty') who = h('span', {class: 'muted'}, 'Empty');
    else if (seat.kind === 'bot') who = h('span', {}, 'Bot (played by the server)');
    else {
      who = h('span', {}, seat.player.name, seat.player.id === me.id ? ' (you)' : '', table.host === seat.player.id ? ' · host' : '',
        seat.connected ? '' : h('span', {class: 'tag offline'}, 'offline'));
    }
    return h('li', {class: 'seat-row', 'data-testid': `seat-${seat.seat}`, 'data-kind': seat.kind},
      h('span', {class: 'colour-badge', style: {'--c': col.fill, '--ink': col.ink}, 'aria-hidden': 'true'}, col.symbol),
      h('span', {class: 'seat-label'}, `Seat ${seat.seat + 1} · ${col.name}`),
      h('span', {class: 'seat-who'}, who),
      h('span', {class: 'seat-actions'}, actions));
  });
  replaceKeepingFocus(container,
    h('div', {class: 'waiting-room panel', 'data-testid': 'waiting-room', 'data-table': String(table.id)},
      h('h2', {}, table.name),
      h('p', {class: 'muted'}, optionsSummary(table)),
      h('ol', {class: 'seat-list'}, seats),
      app.tableError ? h('p', {class: 'error', role: 'alert', 'data-testid': 'error'}, app.tableError) : null,
      h('div', {class: 'actions'},
        host ? h('button', {type: 'button', class: 'primary big', 'data-testid': 'start-game', disabled: !full, onClick: () => app.tableAction('table.start', {table: table.id})},
          full ? 'Start the game' : 'Start (fill every seat first)') : h('p', {class: 'muted'}, mine !== null ? 'The host starts the game once every seat is filled.' : 'Pick an empty seat to play, or stay and watch.'),
        mine !== null ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'leave-table', onClick: () => app.leave(table.id)}, 'Leave the table') : null,
        h('a', {href: '#/', class: 'button secondary'}, 'Back to the lobby')),
      h('p', {class: 'muted invite'}, 'Friends can join from the lobby, or open this page’s address: ',
        h('code', {}, location.href))));
}
