// What the client knows: who it speaks for, the tables and games it heard of, the lobby's
// lists, play now's queue, and the server's pushes that change them. No DOM here: a push
// changes the state and tells the subscribers what changed, and the page (main.js) decides
// what to show again. The connection is given, so tests hand in a fake one.

import {applyViewPatch} from './viewpatch.js';
import {EventLog} from './log.js';
import {isTemporary, refusalText} from './connection.js';
import {gameModule, gameOf} from './games/index.js';
import {formerSeat, seatNames} from './seats.js';
import {queueName, tableName} from './words.js';
import {t} from './i18n.js';

// The seconds of a turn limit the create form holds (NaN: not a number of seconds).
export function turnSeconds(f) {
  if (f.turn !== 'custom') return Number(f.turn);
  const text = String(f.custom_seconds ?? '').trim();
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

// The create form as table.create's payload (protocol.md#tablecreate): what the host left at
// its default is left out, so the server's default holds.
export function createTablePayload(f) {
  const seconds = turnSeconds(f);
  const payload = {options: gameModule().formOptions(f, 'table'), turn_seconds: seconds};
  if (seconds > 0) {
    payload.on_timeout = f.on_timeout;
    if (f.on_timeout === 'replace_seat') payload.replace_after = f.replace_after;
  }
  if (f.name.trim()) payload.name = f.name.trim();
  if (f.keep_secrets) payload.secrets_after_end = 'closed';
  return payload;
}

// Versions of the table's public log asked for at a time (protocol.md#tablelog allows 200).
const LOG_PAGE = 100;

// What changes the page, as a push or an answer leaves it. `table`: the table whose screen
// shows something else now (null: none in particular); `lobby`: the lobby's lists;
// `myGames` / `history`: "my games" or the finished games are to be asked for again soon;
// `header`: who I am; `yourTurn`: a game came to me; `matched`: play now seated me.
export class Store {
  constructor(conn) {
    this.conn = conn;
    this.listeners = new Set();
    this.me = null;
    this.account = null;  // {username, role, session} when signed in to an account
    this.tables = new Map();
    this.games = new Map();
    this.lobbyTables = new Map();
    this.lobbyMore = false;
    this.lobbyLoading = false;
    this.myGames = [];  // null: the server has no player.games
    this.history = {everyone: false, games: [], more: false, loaded: false, loading: false, error: null, hidden: false};
    this.historySerial = 0;
    this.historyPage = 10;  // finished games per history.list
    this.spectating = new Set();
    this.logs = new Map();
    this.tableError = null;
    this.tableErrorTemporary = false;
    // Play now (playnow.js): what the form asks for, and the queue waited in, if any.
    this.playNow = {
      form: {...gameModule().defaultOptions('play'), clock: 'live', bots_after: ''},
      waiting: null, busy: false, error: null, errorTemporary: false, announce: '',
    };
    this.matchedTable = null;  // the table play.matched named last
    this.rated = new Map();  // table → its table.rated push: the final screen's rating changes
    // What the forms hold while their screens come and go.
    this.createForm = {
      ...gameModule().defaultOptions('table'), name: '',
      turn: '0', custom_seconds: '', on_timeout: 'bot_answers', replace_after: 3, keep_secrets: false,
    };
    this.tournamentForm = null;  // tournaments.js
    this.botLevel = null;  // the level the host last chose for a bot (lobby.js)
  }

  // `listener(change)` after every change; returns the unsubscription.
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change) {
    for (const listener of this.listeners) listener(change);
  }

  // A push from the server: false for a type the store does not hold.
  receive(type, payload) {
    const handler = PUSHES[type];
    if (!handler) return false;
    this[handler](payload);
    return true;
  }

  logFor(tableId) {
    if (!this.logs.has(tableId)) this.logs.set(tableId, new EventLog(tableId));
    return this.logs.get(tableId);
  }

  // What this page knew as the former player: another identity has other tables and games.
  forgetPlayer() {
    this.tables.clear();
    this.games.clear();
    this.lobbyTables.clear();
    this.spectating.clear();
    this.playNow.waiting = null;
    this.rated.clear();
    if (this.myGames !== null) this.myGames = [];
    Object.assign(this.history, {games: [], more: false, loaded: false, loading: false, error: null});
  }

  setTableError(err) {
    this.tableError = err ? refusalText(err) : null;
    this.tableErrorTemporary = isTemporary(err);
  }

  // --- pushes ----------------------------------------------------------------------------

  onTable({table}) {
    this.tables.set(table.id, table);
    if (this.lobbyTables.has(table.id)) this.lobbyTables.set(table.id, table);
    this.patchMyGame(table.id, (entry) => { entry.table = table; });
    this.emit({type: 'table.update', table: table.id, myGames: true});
  }

  onGameUpdate(update) {
    const previous = this.games.get(update.table);
    const full = Boolean(update.view);
    if (!update.view) {
      // A patch of the view this page holds; for another (a lost update), the whole again.
      let view = null;
      if (previous && !previous.stale && previous.view.version === update.base) {
        try {
          view = applyViewPatch(structuredClone(previous.view), update.patch);
        } catch (error) {
          view = null;
        }
      }
      if (!view) {
        this.conn.request('game.view', {table: update.table}).catch(() => {});
        return;
      }
      update = {...update, view};
    }
    if (previous && !previous.stale && update.version < previous.version) return;
    const missed = previous && !previous.stale && update.version > previous.version + 1;
    // A decision of mine where there was none: the game came to me (not on the first update
    // of a table, which the page is opening or comes back to).
    const mine = (view) => view.viewer !== undefined && Boolean(view.decision);
    let yourTurn = null;
    if (previous && !mine(previous.view) && mine(update.view)) {
      const table = this.tables.get(update.table);
      yourTurn = {table: update.table, name: table ? tableName(table) : t('store.table_n', {n: String(update.table)}),
        what: gameOf(table).decisionText(update.view.decision.kind) || t('store.decide')};
    }
    this.games.set(update.table, {
      version: update.version, view: update.view, deadline: update.deadline, events: update.events || [],
      canUndo: Boolean(update.can_undo),
    });
    this.patchMyGame(update.table, (entry) => {
      if (entry.former || update.view.viewer !== entry.seat) return;
      entry.my_turn = Boolean(update.view.decision);
      entry.waiting_for = update.view.waiting_for || [];
      if (update.deadline) entry.deadline = update.deadline;
      else delete entry.deadline;
    });
    if (update.events && update.events.length) {
      const log = this.logFor(update.table);
      for (const event of update.events) log.add(this.eventEntry(update.table, update.version, event));
      log.save();
    }
    if (full) {
      // The seam (openLog): the versions a whole view says nothing of.
      const pages = this.logFor(update.table).pages;
      const seam = update.events && update.events.length ? update.version - 1 : update.version;
      if (seam !== pages.seam) Object.assign(pages, {seam, failed: false});
    }
    this.emit({type: 'game.update', table: update.table, myGames: true, yourTurn});
    if (missed) {
      // A gap in versions means a lost update: a new connection brings the full state again.
      const log = this.logFor(update.table);
      log.add({key: 'store.resynchronising', tone: 'alert'});
      this.conn.reconnect();
    }
  }

  // An event as the log keeps it, worded when drawn (log.js): plain names in sentences, the
  // viewer's own entries marked instead.
  eventEntry(tableId, version, event) {
    const table = this.tables.get(tableId);
    const game = gameOf(table);
    const view = this.games.get(tableId)?.view || {};
    const tone = [game.eventTone(event), game.eventInvolves(event, view.viewer) ? 'mine' : ''].filter(Boolean).join(' ');
    return {version, event, names: seatNames(table, null), options: view.options, tone};
  }

  // The table's public log (protocol.md#tablelog) for what this connection did not hear, asked
  // when a game screen shows the table. The rule at the seam: an update with the whole view
  // (the connection held none: opening, spectating, reconnecting, game.view) carries no
  // events, so the versions up to its own, the seam, are asked for (`before: seam + 1`), and
  // every later update tells its own version's events live. Each version comes from one side
  // only, and the page read down from the seam leaves none out; a version the log holds
  // already (kept from before a reload) is not added again (EventLog.merge).
  openLog(tableId) {
    const log = this.logFor(tableId);
    const pages = log.pages;
    if (pages.seam === null || pages.fetched === pages.seam || pages.loading || pages.failed) return;
    this.readLog(tableId, pages.seam + 1, pages.seam);
  }

  // The page before the oldest version read so far (the "Earlier moves" button), or the
  // newest again after a failure.
  openEarlierLog(tableId) {
    const pages = this.logFor(tableId).pages;
    if (pages.loading || pages.seam === null) return;
    if (pages.fetched !== pages.seam) this.readLog(tableId, pages.seam + 1, pages.seam);
    else if (pages.more && pages.from !== null) this.readLog(tableId, pages.from, null);
    else return;
    this.emit({type: 'table.log', table: tableId});
  }

  // `seam`: the seam whose newest page this is; null for an earlier page. Says nothing when
  // it starts: openLog is called while the screen draws, which shows the page on its way.
  async readLog(tableId, before, seam) {
    const log = this.logFor(tableId);
    const pages = log.pages;
    Object.assign(pages, {loading: true, failed: false});
    try {
      const {entries, more} = await this.conn.request('table.log', {table: tableId, before, limit: LOG_PAGE});
      const added = log.merge(entries, (version, event) => this.eventEntry(tableId, version, event));
      const from = entries.length ? Math.min(...entries.map((entry) => entry.version)) : before;
      if (seam !== null) Object.assign(pages, {fetched: seam, from, more});
      else if (pages.from === before) Object.assign(pages, {from, more, loads: pages.loads + 1, added});
      log.save();
    } catch {
      pages.failed = true;
    }
    pages.loading = false;
    this.emit({type: 'table.log', table: tableId});
  }

  onGameOver({table, result}) {
    const t = this.tables.get(table);
    if (t) this.tables.set(table, {...t, status: 'finished', result});
    this.emit({type: 'game.over', table, myGames: true, history: true});
  }

  onLobbyTable({table}) {
    this.lobbyTables.set(table.id, table);
    if (this.tables.has(table.id)) this.tables.set(table.id, table);
    this.emit({type: 'lobby.table', lobby: true, history: table.status === 'finished'});
  }

  onLobbyTableRemoved({table}) {
    this.lobbyTables.delete(table);
    this.emit({type: 'lobby.table_removed', lobby: true});
  }

  // A line said at the table, or those said before this page came (after a reconnection).
  onChat(line) {
    this.addChat(line.table, [line], 'table.chat');
  }

  onChatHistory({table, lines}) {
    this.addChat(table, lines, 'table.chat_history');
  }

  // Chat lines the table's log does not show yet: a history after a reconnection repeats
  // what this page (or its stored log) already has, told apart by the line's id, and only
  // what came after is new. A line removed meanwhile is shown removed.
  addChat(tableId, lines, type) {
    const log = this.logFor(tableId);
    const shown = log.entries.filter((entry) => entry.chat);
    const known = new Set(shown.map((entry) => entry.line));
    const last = Math.max(-1, ...shown.map((entry) => entry.time));
    for (const line of lines) {
      if (known.has(line.id)) {
        if (line.removed) log.removeLine(line.id);
        continue;
      }
      if (line.time < last) continue;
      log.add(chatEntry(line));
    }
    log.save();
    this.emit({type, table: tableId});
  }

  onChatRemoved({table, line}) {
    const log = this.logFor(table);
    if (!log.removeLine(line)) return;
    log.save();
    this.emit({type: 'table.chat_removed', table});
  }

  // A player's new name shows on their seat and on every chat line of theirs, old ones too.
  onRenamed({table: tableId, player}) {
    const table = this.tables.get(tableId);
    if (table) {
      const seats = table.seats.map((seat) => (seat.player && seat.player.id === player.id ? {...seat, player} : seat));
      this.tables.set(tableId, {...table, seats});
    }
    const log = this.logFor(tableId);
    if (log.rename(player)) log.save();
    // Renamed in another tab of this player.
    const header = Boolean(this.me && this.me.id === player.id && this.me.name !== player.name);
    if (header) this.me = {...this.me, name: player.name};
    this.emit({type: 'player.renamed', table: tableId, header});
  }

  onPlayWaiting({queue, waiting}) {
    const p = this.playNow;
    if (!p.waiting || p.waiting.queue !== queue) return;
    p.waiting.count = waiting;
    this.emit({type: 'play.waiting', lobby: true});
  }

  // Seated by play now: the page goes to the table.
  onPlayMatched({table, queue}) {
    this.playNow.waiting = null;
    this.playNow.announce = t('store.play_now.matched', {queue: queueName(queue)});
    this.matchedTable = table;
    this.emit({type: 'play.matched', matched: {table, queue}});
  }

  onRated(push) {
    this.rated.set(push.table, push);
    this.emit({type: 'table.rated', table: push.table});
  }

  // --- play now --------------------------------------------------------------------------

  playNowJoin() {
    const f = this.playNow.form;
    const wish = {...gameModule().formOptions(f, 'play'), clock: f.clock};
    if (f.bots_after) wish.bots_after_seconds = Number(f.bots_after);
    return this.askToPlay(wish);
  }

  // play.join: a new wish replaces the one waited on, so asking again is harmless.
  async askToPlay(wish) {
    const p = this.playNow;
    if (p.busy) return;
    Object.assign(p, {busy: true, error: null, errorTemporary: false});
    try {
      const {queue, waiting} = await this.conn.request('play.join', wish);
      p.waiting = {queue, count: waiting, since: Date.now(), wish};
      p.announce = t('store.play_now.looking', {queue: queueName(queue)});
    } catch (err) {
      p.waiting = null;
      // A guest asking for a rated queue: what to do about it, rather than "not allowed".
      p.error = err && err.code === 'forbidden' ? t('store.play_now.join_forbidden') : refusalText(err, t('store.play_now.join_refused'));
      p.errorTemporary = isTemporary(err);
    }
    p.busy = false;
    this.emit({type: 'play.join', lobby: true});
  }

  async playNowLeave() {
    const p = this.playNow;
    if (p.busy) return;
    Object.assign(p, {busy: true, error: null, errorTemporary: false});
    try {
      await this.conn.request('play.leave');
      p.waiting = null;
    } catch (err) {
      // A closed connection left the queue by itself.
      if (err.code === 'disconnected') p.waiting = null;
      else {
        p.error = refusalText(err, t('store.play_now.leave_refused'));
        p.errorTemporary = isTemporary(err);
      }
    }
    if (!p.waiting) p.announce = t('store.play_now.stopped');
    p.busy = false;
    this.emit({type: 'play.leave', lobby: true});
  }

  // --- my games --------------------------------------------------------------------------

  async refreshMyGames() {
    if (this.myGames === null || !this.me) return;
    try {
      const {games} = await this.conn.request('player.games');
      this.myGames = this.withFormerSeats(games);
      this.sortMyGames();
    } catch (err) {
      if (err.code === 'unknown_type') this.myGames = null;
    }
    this.emit({type: 'player.games', lobby: true});
  }

  // player.games lists the seats I play myself; a table where a bot took my seat (I resigned
  // or ran out of time) stays mine to watch, so the tables this connection heard of are added.
  withFormerSeats(games) {
    const listed = new Set(games.map((g) => g.table.id));
    const former = [];
    for (const table of this.tables.values()) {
      if (listed.has(table.id) || table.status === 'open') continue;
      const seat = formerSeat(table, this.me);
      if (seat) former.push({table, seat: seat.seat, my_turn: false, waiting_for: [], former: true});
    }
    return [...games, ...former];
  }

  sortMyGames() {
    const order = {playing: 0, open: 1, finished: 2};
    // My turn first, the nearest deadline first among them; then games in play, open, finished.
    this.myGames.sort((a, b) => (Number(b.my_turn) - Number(a.my_turn))
      || ((a.deadline || Infinity) - (b.deadline || Infinity))
      || ((order[a.table.status] ?? 3) - (order[b.table.status] ?? 3)));
  }

  // A push about one of my tables: the entry in "my games" follows at once, before the
  // server is asked again (main.js, scheduleMyGames).
  patchMyGame(tableId, change) {
    if (!this.myGames) return;
    const entry = this.myGames.find((g) => g.table.id === tableId);
    if (!entry) return;
    change(entry);
    this.sortMyGames();
  }

  // --- the lobby's lists -----------------------------------------------------------------

  // The answer of lobby.subscribe: the newest tables, which the pushes then keep up to date.
  setLobby({tables, more}) {
    this.lobbyTables = new Map(tables.map((t) => [t.id, t]));
    this.lobbyMore = more;
    for (const t of tables) if (this.tables.has(t.id)) this.tables.set(t.id, t);
  }

  // "Older tables" asks for the page before the oldest shown.
  async loadOlderTables() {
    if (this.lobbyLoading || !this.lobbyTables.size) return;
    this.lobbyLoading = true;
    this.emit({type: 'lobby.list', lobby: true});
    try {
      const {tables, more} = await this.conn.request('lobby.list', {before: Math.min(...this.lobbyTables.keys())});
      for (const t of tables) if (!this.lobbyTables.has(t.id)) this.lobbyTables.set(t.id, t);
      this.lobbyMore = more;
    } finally {
      this.lobbyLoading = false;
      this.emit({type: 'lobby.list', lobby: true});
    }
  }

  // Finished games: the first page again (keeping older pages already shown), or the next
  // older page.
  async loadHistory({older = false} = {}) {
    const hist = this.history;
    if (hist.hidden || !this.me) return;
    const serial = ++this.historySerial;
    const page = this.historyPage;
    const payload = {limit: page};
    if (hist.everyone) payload.everyone = true;
    if (older && hist.games.length) payload.before = Math.min(...hist.games.map((g) => g.id));
    hist.loading = true;
    this.emit({type: 'history.list', lobby: true});
    try {
      const {games} = await this.conn.request('history.list', payload);
      if (serial !== this.historySerial) return;
      if (older) {
        hist.games = hist.games.concat(games);
        hist.more = games.length === page;
      } else {
        const lowest = games.length ? Math.min(...games.map((g) => g.id)) : null;
        const overlaps = hist.games.some((g) => g.id === lowest);
        if (hist.games.length > page && overlaps) {
          hist.games = games.concat(hist.games.filter((g) => g.id < lowest));
        } else {
          hist.games = games;
          hist.more = games.length === page;
        }
      }
      hist.error = null;
      hist.loaded = true;
    } catch (err) {
      if (serial !== this.historySerial) return;
      if (err.code === 'unknown_type') hist.hidden = true;
      else if (err.code !== 'disconnected') {
        hist.error = refusalText(err, t('store.history_refused'));
        hist.errorTemporary = isTemporary(err);
      }
    }
    hist.loading = false;
    this.emit({type: 'history.list', lobby: true});
  }

  setHistoryScope(everyone) {
    if (this.history.everyone === everyone) return;
    Object.assign(this.history, {everyone, games: [], more: false, loaded: false, error: null});
    this.loadHistory();
  }
}

// The pushes the store holds: type → the method that takes its payload.
const PUSHES = {
  'table.update': 'onTable',
  'game.update': 'onGameUpdate',
  'game.over': 'onGameOver',
  'lobby.table': 'onLobbyTable',
  'lobby.table_removed': 'onLobbyTableRemoved',
  'table.chat': 'onChat',
  'table.chat_history': 'onChatHistory',
  'table.chat_removed': 'onChatRemoved',
  'player.renamed': 'onRenamed',
  'play.waiting': 'onPlayWaiting',
  'play.matched': 'onPlayMatched',
  'table.rated': 'onRated',
};
export const STORE_PUSHES = Object.keys(PUSHES);

function chatEntry(line) {
  const entry = {tone: 'chat', chat: true, line: line.id, time: line.time, from: line.from};
  if (line.removed) entry.removed = true;
  else entry.said = line.text;
  return entry;
}
