// The client's entry point: the connection, who I am, what I know of tables and games,
// and which screen shows (#/ the lobby, #/table/ID a table).

import {Connection, PROTOCOL_VERSION, serverUrl} from './connection.js';
import {h, replaceKeepingFocus} from './dom.js';
import {forgetToken, loadIdentity, nameBytes, saveIdentity} from './identity.js';
import {EventLog} from './log.js';
import {LobbyScreen, mySeatAt, renderWaitingRoom} from './lobby.js';
import {GameScreen} from './game.js';
import {describeEvent, eventTone, involves, seatNames} from './texts.js';

class App {
  constructor() {
    this.identity = loadIdentity();
    this.me = null;
    this.conn = new Connection(serverUrl());
    this.tables = new Map();
    this.games = new Map();
    this.lobbyTables = new Map();
    this.myGames = [];
    this.spectating = new Set();
    this.logs = new Map();
    this.tableError = null;
    this.createForm = {players: 3, short_game: false, automa: false, four_stacks: false, turn_seconds: 0, name: ''};
    this.screen = null;
    this.currentTable = null;
    this.main = document.getElementById('app');
    this.header = document.getElementById('identity');
    this.connectionLabel = document.getElementById('connection');
    this.toasts = document.getElementById('toasts');
    this.wire();
  }

  start() {
    this.renderHeader();
    if (!this.identity.token && !this.identity.name) this.showWelcome();
    else this.setMain(h('p', {class: 'loading'}, 'Connecting to the server…'));
    this.conn.connect();
    window.addEventListener('hashchange', () => this.route());
  }

  wire() {
    const c = this.conn;
    c.on('state', (state) => {
      this.connectionLabel.textContent = {open: 'Connected', connecting: 'Connecting…', closed: 'Reconnecting…'}[state];
      this.connectionLabel.dataset.state = state;
    });
    c.on('open', () => this.onOpen());
    c.on('table.update', ({table}) => this.onTable(table));
    c.on('game.update', (update) => this.onGameUpdate(update));
    c.on('game.over', ({table, result}) => {
      const t = this.tables.get(table);
      if (t) this.tables.set(table, {...t, status: 'finished', result});
      this.refreshScreen(table);
    });
    c.on('lobby.table', ({table}) => {
      this.lobbyTables.set(table.id, table);
      if (this.tables.has(table.id)) this.tables.set(table.id, table);
      this.refreshLobby();
    });
    c.on('lobby.table_removed', ({table}) => {
      this.lobbyTables.delete(table);
      this.refreshLobby();
    });
    c.on('table.chat', (chat) => {
      const log = this.logFor(chat.table);
      log.add({text: `${chat.from.name}: “${chat.text}”`, tone: 'chat'});
      log.save();
      this.refreshScreen(chat.table);
    });
    c.on('error', (err) => this.toast(`The server says: ${err.message}`));
  }

  // --- identity -------------------------------------------------------------------------

  async onOpen() {
    for (const game of this.games.values()) game.stale = true;
    try {
      if (this.identity.token) {
        try {
          await this.hello({token: this.identity.token});
        } catch (err) {
          if (err.code !== 'unknown_token') throw err;
          // The server forgot us (or this is another server): a new identity, same name.
          this.identity = forgetToken(this.identity);
          if (!this.identity.name) {
            this.showWelcome();
            return;
          }
          await this.hello({name: this.identity.name});
        }
      } else if (this.identity.name) {
        await this.hello({name: this.identity.name});
      } else {
        return;  // the welcome screen asks for a name first
      }
      await this.afterHello();
    } catch (err) {
      if (err.code !== 'disconnected') this.toast(`Could not sign in: ${err.message}`);
    }
  }

  async hello(fields) {
    const reply = await this.conn.request('hello', {protocol: PROTOCOL_VERSION, ...fields});
    this.me = reply.player;
    this.identity = {token: reply.token, name: reply.player.name, id: reply.player.id};
    saveIdentity(this.identity);
    this.renderHeader();
    return reply;
  }

  async afterHello() {
    const {tables} = await this.conn.request('lobby.subscribe');
    this.lobbyTables = new Map(tables.map((t) => [t.id, t]));
    for (const t of tables) if (this.tables.has(t.id)) this.tables.set(t.id, t);
    this.spectating.clear();
    await this.route();
    this.refreshMyGames();
  }

  showWelcome(message) {
    const input = h('input', {
      type: 'text', id: 'welcome-name', required: true, maxlength: 32, autocomplete: 'nickname',
      value: this.identity.name || '', 'data-testid': 'name-input',
    });
    const error = h('p', {class: 'error', role: 'alert', hidden: !message, 'data-testid': 'name-error'}, message || '');
    const form = h('form', {class: 'welcome panel', 'data-testid': 'welcome', onSubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      if (nameBytes(name) > 32) {
        error.textContent = 'That name is too long (at most 32 bytes).';
        error.hidden = false;
        return;
      }
      this.identity = {...this.identity, name};
      saveIdentity(this.identity);
      try {
        await this.hello(this.identity.token ? {token: this.identity.token, name} : {name});
        await this.afterHello();
      } catch (err) {
        error.textContent = `The server refused: ${err.message}`;
        error.hidden = false;
      }
    }},
    h('h1', {class: 'welcome-title'}, 'El Grande'),
    h('p', {class: 'welcome-sub'}, 'Power, intrigue and caballeros in 15th-century Spain. Play with friends or bots, right here in the browser.'),
    h('label', {for: 'welcome-name'}, 'Your name'),
    input,
    error,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'name-submit'}, 'Enter'));
    this.screen = null;
    this.setMain(form);
    input.focus();
  }

  renderHeader() {
    if (!this.me) {
      replaceKeepingFocus(this.header);
      return;
    }
    const show = h('span', {class: 'who'},
      'Playing as ', h('strong', {'data-testid': 'my-name'}, this.me.name), ' ',
      h('button', {type: 'button', class: 'link-button', 'data-testid': 'rename', onClick: () => this.renderRename()}, 'rename'));
    replaceKeepingFocus(this.header, show);
  }

  renderRename() {
    const input = h('input', {type: 'text', maxlength: 32, value: this.me.name, 'aria-label': 'New name', 'data-testid': 'rename-input'});
    const form = h('form', {class: 'rename', onSubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        await this.hello({token: this.identity.token, name});
        this.refreshScreen(this.currentTable);
      } catch (err) {
        this.toast(`The server refused the name: ${err.message}`);
        this.renderHeader();
      }
    }},
    input,
    h('button', {type: 'submit', class: 'primary small', 'data-testid': 'rename-save'}, 'Save'),
    h('button', {type: 'button', class: 'secondary small', onClick: () => this.renderHeader()}, 'Cancel'));
    replaceKeepingFocus(this.header, form);
    input.focus();
    input.select();
  }

  // --- routing ---------------------------------------------------------------------------

  navigate(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  async route() {
    if (!this.me) return;
    const m = location.hash.match(/^#\/table\/(\d+)/);
    const id = m ? Number(m[1]) : null;
    if (this.currentTable !== null && this.currentTable !== id && this.spectating.has(this.currentTable)) {
      const leaving = this.currentTable;
      this.spectating.delete(leaving);
      this.games.delete(leaving);
      this.conn.request('table.leave', {table: leaving}).catch(() => {});
    }
    if (id === null) {
      this.currentTable = null;
      this.showLobby();
    } else {
      await this.openTable(id);
    }
  }

  showLobby() {
    if (this.screen && this.screen.destroy) this.screen.destroy();
    document.title = 'El Grande';
    this.screen = new LobbyScreen(this);
    this.setMain(this.screen.root);
    this.refreshMyGames();
  }

  async openTable(id) {
    const switching = this.currentTable !== id;
    this.currentTable = id;
    this.tableError = null;
    if (switching) {
      if (this.screen && this.screen.destroy) this.screen.destroy();
      this.screen = null;
      this.setMain(h('p', {class: 'loading'}, 'Opening the table…'));
    }
    if (mySeatAt(this.tables.get(id), this.me) === null && !this.spectating.has(id)) {
      try {
        const {table} = await this.conn.request('table.spectate', {table: id});
        this.tables.set(id, table);
        this.spectating.add(id);
      } catch (err) {
        if (err.code === 'wrong_state' && this.tables.has(id)) {
          // We sit there: the table and game pushes after hello already came.
        } else if (err.code === 'wrong_state' && this.lobbyTables.has(id)) {
          this.tables.set(id, this.lobbyTables.get(id));
        } else {
          if (err.code !== 'disconnected') this.toast(`Cannot open table ${id}: ${err.message}`);
          if (this.currentTable === id) this.navigate('#/');
          return;
        }
      }
    }
    if (this.currentTable === id) this.renderTable();
  }

  renderTable() {
    const id = this.currentTable;
    const table = this.tables.get(id);
    if (!table) {
      this.setMain(h('p', {class: 'loading'}, 'Opening the table…'));
      return;
    }
    if (table.status === 'open') {
      if (!(this.screen && this.screen.kind === 'waiting')) {
        if (this.screen && this.screen.destroy) this.screen.destroy();
        const container = h('div', {class: 'waiting-wrap'});
        this.screen = {kind: 'waiting', container};
        this.setMain(container);
      }
      document.title = `${table.name} — El Grande`;
      renderWaitingRoom(this, table, this.screen.container);
      return;
    }
    if (!this.games.has(id)) {
      if (this.screen && this.screen.destroy) this.screen.destroy();
      this.screen = null;
      if (table.status === 'finished' && table.result) {
        // A finished game whose board the server no longer sends: its result is enough.
        this.setMain(finishedTable(table));
      } else {
        this.setMain(h('p', {class: 'loading'}, 'The game is starting…'));
      }
      return;
    }
    if (!(this.screen instanceof GameScreen) || this.screen.tableId !== id) {
      if (this.screen && this.screen.destroy) this.screen.destroy();
      this.screen = new GameScreen(this, id);
      this.setMain(this.screen.root);
    }
    this.screen.update();
  }

  setMain(...children) {
    replaceKeepingFocus(this.main, ...children);
  }

  refreshScreen(tableId) {
    if (tableId !== null && tableId === this.currentTable) this.renderTable();
    else this.refreshLobby();
  }

  refreshLobby() {
    if (this.screen instanceof LobbyScreen) this.screen.update();
  }

  async refreshMyGames() {
    if (this.myGames === null || !this.me) return;
    try {
      const {games} = await this.conn.request('player.games');
      this.myGames = [...games].sort((a, b) => Number(b.my_turn) - Number(a.my_turn));
    } catch (err) {
      if (err.code === 'unknown_type') this.myGames = null;
    }
    this.refreshLobby();
  }

  // --- pushes ----------------------------------------------------------------------------

  onTable(table) {
    this.tables.set(table.id, table);
    if (this.lobbyTables.has(table.id)) this.lobbyTables.set(table.id, table);
    this.refreshScreen(table.id);
    this.scheduleMyGames();
  }

  // "My games" changes with every move at my tables; asking once a second is enough.
  scheduleMyGames() {
    if (!(this.screen instanceof LobbyScreen) || this.myGamesTimer) return;
    this.myGamesTimer = setTimeout(() => {
      this.myGamesTimer = null;
      if (this.screen instanceof LobbyScreen) this.refreshMyGames();
    }, 1000);
  }

  onGameUpdate(update) {
    const previous = this.games.get(update.table);
    if (previous && !previous.stale && update.version < previous.version) return;
    const missed = previous && !previous.stale && update.version > previous.version + 1;
    this.games.set(update.table, {version: update.version, view: update.view, deadline: update.deadline, events: update.events || []});
    if (update.events && update.events.length) {
      const log = this.logFor(update.table);
      // Plain names in sentences; the viewer's own entries are marked instead.
      const names = seatNames(this.tables.get(update.table), null);
      for (const event of update.events) {
        const tone = [eventTone(event), involves(event, update.view.viewer) ? 'mine' : ''].filter(Boolean).join(' ');
        log.add({version: update.version, text: describeEvent(event, {names, options: update.view.options}), tone});
      }
      log.save();
    }
    this.refreshScreen(update.table);
    this.scheduleMyGames();
    if (missed) {
      // A gap in versions means a lost update: a new connection brings the full state again.
      const log = this.logFor(update.table);
      log.add({text: 'Some updates were missed; resynchronising with the server.', tone: 'alert'});
      this.conn.reconnect();
    }
  }

  logFor(tableId) {
    if (!this.logs.has(tableId)) this.logs.set(tableId, new EventLog(tableId));
    return this.logs.get(tableId);
  }

  // --- table actions ---------------------------------------------------------------------

  async join(tableId, seat) {
    try {
      const payload = seat === undefined ? {table: tableId} : {table: tableId, seat};
      const {table} = await this.conn.request('table.join', payload);
      this.tables.set(table.id, table);
      this.spectating.delete(table.id);
      this.navigate(`#/table/${table.id}`);
      this.renderTable();
    } catch (err) {
      this.toast(`Could not join: ${err.message}`);
      this.tableError = `The server refused: ${err.message}`;
      this.refreshScreen(tableId);
    }
  }

  async tableAction(type, payload) {
    this.tableError = null;
    try {
      const reply = await this.conn.request(type, payload);
      if (reply.table) this.tables.set(reply.table.id, reply.table);
    } catch (err) {
      this.tableError = `The server refused: ${err.message}`;
    }
    this.refreshScreen(payload.table);
  }

  async leave(tableId) {
    try {
      await this.conn.request('table.leave', {table: tableId});
      this.tables.delete(tableId);
      this.navigate('#/');
    } catch (err) {
      this.tableError = `The server refused: ${err.message}`;
      this.refreshScreen(tableId);
    }
  }

  async resign(tableId) {
    try {
      await this.conn.request('game.resign', {table: tableId});
    } catch (err) {
      this.toast(`The server refused: ${err.message}`);
    }
  }

  toast(text) {
    const el = h('div', {class: 'toast', role: 'status'}, text);
    this.toasts.append(el);
    setTimeout(() => el.remove(), 6000);
  }
}

function finishedTable(table) {
  const names = seatNames(table, null);
  const {scores, winners} = table.result;
  const ranking = scores.map((score, seat) => ({score, seat})).sort((a, b) => b.score - a.score);
  return h('div', {class: 'waiting-room panel', 'data-testid': 'final-scores'},
    h('h2', {}, `${table.name}: the game is over`),
    h('p', {class: 'winner-line'}, `♛ ${winners.map((s) => names[s]).join(' and ')} ${winners.length > 1 ? 'share the win' : 'wins'}!`),
    h('table', {class: 'final-table'},
      h('tbody', {}, ranking.map((r, i) => h('tr', {class: winners.includes(r.seat) ? 'winner' : '', 'data-testid': `final-score-${r.seat}`},
        h('td', {}, String(i + 1)), h('td', {}, names[r.seat]), h('td', {class: 'num'}, String(r.score)))))),
    h('p', {}, h('a', {href: '#/', class: 'button secondary'}, 'Back to the lobby')));
}

const app = new App();
window.elgrande = app;
app.start();
