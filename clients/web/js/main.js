// The client's entry point, the App: the connection, who this browser speaks for, which
// screen shows for the address (router.js), and what the store's changes show again. What
// the client knows, and the pushes that change it, are the store's (store.js).

import {Connection, PROTOCOL_VERSION, isTemporary, refusalText, serverUrl} from './connection.js';
import {h, replaceKeepingFocus} from './dom.js';
import {Store, STORE_PUSHES} from './store.js';
import {isMailedLink, parseRoute, sectionOf, tableHash, tableOf} from './router.js';
import {AccountScreen, deviceName} from './account.js';
import {forgetIdentity, forgetToken, loadIdentity, saveIdentity} from './identity.js';
import {welcomePanel} from './welcome.js';
import {renderIdentity} from './topbar.js';
import {dropRoundNotices, showModerationBanner, showRoundNotice} from './notices.js';
import {bannedText, noticeText} from './moderation.js';
import {BlockList} from './blocks.js';
import {LobbyScreen, renderWaitingRoom} from './lobby.js';
import {TournamentListScreen} from './tournaments.js';
import {TournamentScreen} from './tournament.js';
import {LeaderboardScreen, ProfileScreen} from './ratings.js';
import {gameOf} from './games/index.js';
import {mySeatAt} from './seats.js';
import {queueName, tableName} from './words.js';
import {startClock} from './time.js';
import {TurnSignal} from './alerts.js';
import {applyTheme} from './settings.js';
import {showMailedLink} from './mailedlinks.js';
import {NoticesScreen} from './noticeprefs.js';
import {t} from './i18n.js';
import {followAccount, installLanguage, startLanguage} from './language.js';

class App {
  constructor() {
    this.identity = loadIdentity();
    this.conn = new Connection(serverUrl());
    this.store = new Store(this.conn);
    this.store.subscribe((change) => this.onChange(change));
    this.blocks = new BlockList(this.conn, () => this.refreshScreen(this.currentTable));
    this.screen = null;
    this.currentTable = null;
    this.main = document.getElementById('app');
    this.navLinks = document.querySelectorAll('.top-nav a');
    this.header = document.getElementById('identity');
    this.connectionLabel = document.getElementById('connection');
    this.toasts = document.getElementById('toasts');
    this.notices = document.getElementById('notices');
    this.navCount = document.getElementById('nav-count');
    this.signal = new TurnSignal();
    this.screenTitle = 'El Grande';
    // The ban of the player this browser speaks for ({until, why}): no more hello on this page.
    this.banned = null;
    this.wire();
  }

  start() {
    applyTheme();
    installLanguage(this);
    this.renderHeader();
    // A mailed link works before (and without) a hello: it shows whoever this browser is.
    if (isMailedLink(parseRoute(location.hash))) showMailedLink(this, parseRoute(location.hash));
    else if (!this.identity.token && !this.identity.name) this.showWelcome();
    else this.setMain(h('p', {class: 'loading'}, t('shell.connecting_to_server')));
    this.conn.connect();
    startClock();
    window.addEventListener('hashchange', () => this.route());
    // The skip link's #app would be taken for an address of the client's own (the lobby).
    document.querySelector('.skip-link').addEventListener('click', (event) => {
      event.preventDefault();
      this.main.focus();
    });
    this.installable();
  }

  // The service worker (sw.js) keeps the static shell for an installed client and opens the
  // table of a turn notification that is clicked. Browsers allow one only over https or on
  // this machine; elsewhere the client works as before.
  installable() {
    if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register('sw.js').catch(() => {});
    navigator.serviceWorker.addEventListener('message', (event) => {
      const url = event.data && event.data.type === 'open' && new URL(event.data.url, location.href);
      if (url && url.origin === location.origin) this.navigate(url.hash || '#/');
    });
  }

  // The tab's own title (the screen's), with the turn signal's prefix (alerts.js).
  pageTitle(title) {
    this.screenTitle = title;
    this.refreshTurns();
  }

  // Where it is my turn: the games this page holds with a decision of mine, and those "My
  // games" lists as such. The title, the icon and the lobby link's count follow.
  refreshTurns() {
    const waiting = new Set((this.store.myGames || []).filter((g) => g.my_turn).map((g) => g.table.id));
    for (const [table, game] of this.store.games) {
      if (game.view.viewer === undefined) continue;
      if (game.view.decision) waiting.add(table);
      else waiting.delete(table);
    }
    const here = this.currentTable !== null && waiting.has(this.currentTable) && Boolean(this.screen && this.screen.kind === 'game');
    this.signal.show(this.screenTitle, waiting, here);
    const n = waiting.size;
    this.navCount.hidden = !n;
    replaceKeepingFocus(this.navCount, n ? [String(n), h('span', {class: 'sr-only'}, ` ${t('shell.nav_waiting', {n})}`)] : null);
  }

  wire() {
    const c = this.conn;
    c.on('state', (state) => {
      this.connectionLabel.textContent = t(`shell.connection.${state}`);
      this.connectionLabel.dataset.state = state;
    });
    c.on('open', () => this.onOpen());
    c.on('session_ended', () => {
      if (!this.deleting) this.signedOut({message: t('shell.signed_out_elsewhere'), alert: true});
      this.deleting = false;  // the account page deleted the account and said so
      this.conn.connect();
    });
    c.on('banned', () => {
      this.showBanned(this.lastBan || {});
      this.conn.connect();
    });
    // The store holds what these pushes change (store.js); onChange shows it.
    for (const type of STORE_PUSHES) c.on(type, (payload) => this.store.receive(type, payload));
    c.on('moderation.notice', (notice) => this.onModerationNotice(notice));
    c.on('tournament.update', ({tournament}) => {
      if (tournament.status === 'finished' || tournament.status === 'cancelled') {
        dropRoundNotices(this.notices, tournament.id);
      }
      if (this.screen instanceof TournamentListScreen) this.screen.onSummary(tournament);
      if (this.screen instanceof TournamentScreen && this.screen.id === tournament.id) this.screen.onPush();
    });
    c.on('tournament.round', (push) => this.onTournamentRound(push));
    c.on('error', (err) => this.toast(refusalText(err, t('error.context.server_says'))));
  }

  // What a push or an answer changed (store.js), shown.
  onChange(change) {
    if (change.header) this.renderHeader();
    if (change.yourTurn) this.signal.yourTurn(change.yourTurn);
    if (change.table !== undefined) this.refreshScreen(change.table);
    else if (change.lobby) this.refreshLobby();
    if (change.myGames) this.scheduleMyGames();
    if (change.history) this.scheduleHistory();
    if (change.matched) {
      // Seated by play now: the game starts at once, so go to it.
      const {table, queue} = change.matched;
      this.toast(t('shell.play_now_found', {queue: queueName(queue)}));
      this.navigate(tableHash(table));
    }
  }

  // --- identity -------------------------------------------------------------------------

  async onOpen() {
    clearTimeout(this.helloRetry);
    if (this.screen && this.screen.onOpen) this.screen.onOpen();  // a mailed link's request
    if (this.banned !== null) return;  // the welcome screen says why; signing in to another account is up to the person
    for (const game of this.store.games.values()) game.stale = true;
    // Another tab of this browser may have signed up, in or out meanwhile: speak for what it stored.
    const stored = loadIdentity();
    if (stored.token || stored.name) this.identity = stored;
    try {
      if (this.identity.token) {
        try {
          await this.hello({token: this.identity.token});
        } catch (err) {
          if (err.code !== 'unknown_token') throw err;
          if (this.identity.username) {
            // An account's session that ended or lay idle too long: only the password opens
            // the account again, and a new guest would not be that player.
            this.signedOut({message: t('shell.session_ended'), alert: true});
            return;
          }
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
      if (err.code === 'disconnected') return;
      if (err.code === 'banned') {
        this.showBanned({until: err.until, why: err.moderatorReason});
        return;
      }
      this.toast(refusalText(err, t('shell.could_not_sign_in')));
      // A new identity the server could not save yet: ask again in a moment.
      if (isTemporary(err)) {
        clearTimeout(this.helloRetry);
        this.helloRetry = setTimeout(() => {
          if (this.conn.state === 'open') this.onOpen();
        }, 5000);
      }
    }
  }

  async hello(fields) {
    const reply = await this.conn.request('hello', {protocol: PROTOCOL_VERSION, language: document.documentElement.lang, ...fields});
    this.speakFor(reply);
    return reply;
  }

  // The answer of hello, account.sign_in or account.sign_up: who this browser is now. An
  // account's session token is kept where a guest's is, and resumed by hello alike.
  speakFor({player, token, account}) {
    this.banned = null;
    this.store.me = player;
    this.store.account = account || null;
    this.identity = {token, name: player.name, id: player.id, username: this.store.account ? this.store.account.username : null};
    saveIdentity(this.identity);
    this.renderHeader();
    followAccount(this.store.account);
  }

  // Needs no hello: from the welcome screen no guest is made; on a guest's connection the
  // server switches it to the account, ending all it did for the guest (protocol.md, Accounts).
  async signIn(username, password) {
    const reply = await this.conn.request('account.sign_in', {protocol: PROTOCOL_VERSION, username, password, device: deviceName(), language: document.documentElement.lang});
    // The account's tables and games follow this answer as after hello.
    this.forgetPlayerState();
    this.speakFor(reply);
    this.toast(t('shell.signed_in_as', {username: reply.account.username}));
    await this.afterHello();
  }

  // The guest becomes an account, keeping its id and games; its guest token stops working.
  async signUp(username, password) {
    const reply = await this.conn.request('account.sign_up', {username, password, device: deviceName(), language: document.documentElement.lang});
    this.speakFor(reply);
    this.toast(t('shell.account_made', {username: reply.account.username}));
    if (this.screen instanceof AccountScreen) this.showAccount();
  }

  // Ends this device's session: the browser forgets token and name, and a fresh connection
  // waits for the welcome screen's answer.
  async signOut(session) {
    await this.conn.request('account.end_sessions', {session});
    this.signedOut({message: t('shell.you_signed_out'), offerSignIn: false});
    if (location.hash !== '#/') history.replaceState(null, '', '#/');
    this.conn.reconnect();
  }

  // The session is over (signed out here or elsewhere, or ended on the server): nothing of
  // the identity stays, and the welcome screen offers to sign in again.
  signedOut({message, alert = false, offerSignIn = true}) {
    clearTimeout(this.helloRetry);
    const username = offerSignIn ? this.identity.username || (this.store.account && this.store.account.username) || '' : '';
    this.identity = forgetIdentity(this.identity.token);
    this.store.me = null;
    this.store.account = null;
    this.forgetPlayerState();
    this.renderHeader();
    this.showWelcome({message, alert, signIn: Boolean(username), username});
  }

  // A ban (close code 4003, or hello refused with `banned`): the page forgets what it knew of
  // the player but keeps the stored token, so a reload once the ban is over plays on. The
  // welcome screen offers to sign in to another account.
  showBanned(facts) {
    clearTimeout(this.helloRetry);
    this.banned = facts;
    this.store.me = null;
    this.store.account = null;
    this.forgetPlayerState();
    this.renderHeader();
    replaceKeepingFocus(this.notices);
    this.showWelcome({message: bannedText(facts), alert: true, signIn: true});
  }

  // What this page knew as the former player: another identity has other tables and games.
  forgetPlayerState() {
    dropRoundNotices(this.notices);
    this.store.forgetPlayer();
    this.blocks.forget();
    this.currentTable = null;
  }

  async afterHello() {
    const {tables, more} = await this.conn.request('lobby.subscribe');
    this.store.setLobby({tables, more});
    this.store.spectating.clear();
    this.loadBlocks();
    // The server forgets who waits to play now when their connection closes: ask again.
    if (this.store.playNow.waiting) this.store.askToPlay(this.store.playNow.waiting.wish);
    await this.route();
    this.store.refreshMyGames();
  }

  // Whom this player blocks, so that the menu by a name offers Block or Unblock. Without
  // it the menu offers Block to everyone, which the server still judges.
  loadBlocks() {
    this.blocks.load().catch((err) => {
      if (err.code !== 'disconnected') this.toast(refusalText(err, t('shell.could_not_read_blocks')));
    });
  }

  // The first screen of a browser that has neither token nor name, or whose session ended.
  showWelcome(options = {}) {
    this.welcomeOptions = options;  // to draw it again in another language
    const panel = welcomePanel(this, options);
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = null;
    this.pageTitle('El Grande');
    this.setMain(panel);
    const first = panel.querySelector('input:not([hidden])');
    const empty = [...panel.querySelectorAll('input:not([hidden])')].find((input) => !input.value);
    (empty || first).focus();
  }

  renderHeader() {
    renderIdentity(this);
  }

  // --- routing ---------------------------------------------------------------------------

  navigate(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  async route() {
    const route = parseRoute(location.hash);
    if (isMailedLink(route)) return showMailedLink(this, route);
    if (!this.store.me) return;
    const id = tableOf(route);
    const section = sectionOf(route);
    for (const link of this.navLinks) {
      if (link.hash === section) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (this.currentTable !== null && this.currentTable !== id && this.store.spectating.has(this.currentTable)) {
      const leaving = this.currentTable;
      this.store.spectating.delete(leaving);
      this.store.games.delete(leaving);
      this.conn.request('table.leave', {table: leaving}).catch(() => {});
    }
    if (route.screen !== 'table') this.currentTable = null;
    switch (route.screen) {
      case 'account': this.showAccount(); break;
      case 'notices': this.showScreen(new NoticesScreen(this), t('shell.title.notices')); break;
      case 'tournament': this.showTournament(route.id); break;
      case 'tournaments': this.showScreen(new TournamentListScreen(this), t('shell.title.tournaments')); break;
      case 'ratings': this.showRatings(route.ladder, route.page); break;
      case 'player': this.showScreen(new ProfileScreen(this, route.id), t('shell.title.ratings')); break;
      case 'table': await this.openTable(id); break;
      case 'replay': import('./replay.js').then((m) => m.showReplay(this, route)); break;
      default: this.showLobby();
    }
  }

  // The account page for who this is now: kept as it is (typed text included) while that
  // does not change, as on a reconnection.
  showAccount() {
    const kind = this.store.account ? 'account' : 'guest';
    this.pageTitle(t('shell.title.account'));
    if (this.screen instanceof AccountScreen && this.screen.kind === kind && this.main.contains(this.screen.root)) {
      this.screen.update();
      if (kind === 'account') this.screen.loadSessions();
      return;
    }
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = new AccountScreen(this);
    this.setMain(this.screen.root);
  }

  // An event's page: kept as it is (typed text, rounds opened) while it shows the same event,
  // as on a reconnection, and asked for again.
  showTournament(id) {
    if (this.screen instanceof TournamentScreen && this.screen.id === id && this.main.contains(this.screen.root)) {
      this.screen.load();
      return;
    }
    this.showScreen(new TournamentScreen(this, id), t('shell.title.tournament'));
  }

  // A leaderboard: another ladder or page keeps the screen (and its ladders' counts).
  showRatings(ladder, page) {
    if (!(this.screen instanceof LeaderboardScreen && this.main.contains(this.screen.root))) {
      this.showScreen(new LeaderboardScreen(this), t('shell.title.ratings'));
    }
    this.screen.show(ladder, page);
  }

  showScreen(screen, title) {
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = screen;
    this.pageTitle(title);
    this.setMain(screen.root);
  }

  showLobby() {
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = new LobbyScreen(this);
    this.pageTitle(t('shell.title.lobby'));
    this.setMain(this.screen.root);
    this.store.refreshMyGames();
    this.store.loadHistory();
  }

  async openTable(id) {
    const switching = this.currentTable !== id;
    this.currentTable = id;
    this.store.tableError = null;
    if (switching) {
      if (this.screen && this.screen.destroy) this.screen.destroy();
      this.screen = null;
      this.setMain(h('p', {class: 'loading'}, t('shell.opening_table')));
    }
    // Play now seats me before the table's push may have come: that push opens it.
    if (mySeatAt(this.store.tables.get(id), this.store.me) === null && !this.store.spectating.has(id) && id !== this.store.matchedTable) {
      try {
        const {table} = await this.conn.request('table.spectate', {table: id});
        this.store.tables.set(id, table);
        this.store.spectating.add(id);
      } catch (err) {
        if (err.code === 'wrong_state' && this.store.tables.has(id)) {
          // We sit there: the table and game pushes after hello already came.
        } else if (err.code === 'wrong_state' && this.store.lobbyTables.has(id)) {
          this.store.tables.set(id, this.store.lobbyTables.get(id));
        } else {
          if (err.code !== 'disconnected') this.toast(refusalText(err, t('shell.cannot_open_table', {table: String(id)})));
          if (this.currentTable === id) this.navigate('#/');
          return;
        }
      }
    }
    if (this.currentTable === id) this.renderTable();
  }

  renderTable() {
    const id = this.currentTable;
    const table = this.store.tables.get(id);
    if (!table) {
      this.setMain(h('p', {class: 'loading'}, t('shell.opening_table')));
      return;
    }
    if (table.status === 'open') {
      if (!(this.screen && this.screen.kind === 'waiting')) {
        if (this.screen && this.screen.destroy) this.screen.destroy();
        const container = h('div', {class: 'waiting-wrap'});
        this.screen = {kind: 'waiting', container};
        this.setMain(container);
      }
      this.pageTitle(tableName(table));
      renderWaitingRoom(this, table, this.screen.container);
      return;
    }
    if (!this.store.games.has(id)) {
      if (this.screen && this.screen.destroy) this.screen.destroy();
      this.screen = null;
      if (table.status === 'finished' && table.result) {
        // A finished game whose board the server no longer sends: its result is enough.
        this.setMain(gameOf(table).finalScreen(table, this.store.rated.get(id)));
      } else {
        this.setMain(h('p', {class: 'loading'}, t('shell.game_starting')));
      }
      return;
    }
    if (!(this.screen && this.screen.kind === 'game' && this.screen.tableId === id)) {
      if (this.screen && this.screen.destroy) this.screen.destroy();
      const screen = gameOf(table).createScreen(this, id);
      this.screen = {kind: 'game', tableId: id, root: screen.root, update: () => screen.update(), destroy: () => screen.destroy()};
      this.setMain(this.screen.root);
    }
    this.screen.update();
  }

  setMain(...children) {
    replaceKeepingFocus(this.main, ...children);
  }

  refreshScreen(tableId) {
    if (tableId !== null && tableId === this.currentTable) this.renderTable();
    else if (this.screen instanceof AccountScreen) this.screen.update();
    else this.refreshLobby();
    this.refreshTurns();
  }

  refreshLobby() {
    if (this.screen instanceof LobbyScreen) this.screen.update();
    this.refreshTurns();
  }

  // --- play now --------------------------------------------------------------------------

  scheduleHistory() {
    this.whileInLobby('historyTimer', 500, () => this.store.loadHistory());
  }

  // Runs `refresh` once after `delay` ms if the lobby still shows then; calls meanwhile
  // join the one waiting (its timer is this[timer]).
  whileInLobby(timer, delay, refresh) {
    if (!(this.screen instanceof LobbyScreen) || this[timer]) return;
    this[timer] = setTimeout(() => {
      this[timer] = null;
      if (this.screen instanceof LobbyScreen) refresh();
    }, delay);
  }

  // --- pushes ----------------------------------------------------------------------------

  // "My games" changes with every move at my tables. The pushes update it at once
  // (patchMyGame); the server is asked again at most every 3 s while they come, and every
  // 30 s while the lobby shows (LobbyScreen).
  scheduleMyGames() {
    this.whileInLobby('myGamesTimer', 3000, () => this.store.refreshMyGames());
  }

  // A table of mine in a tournament's new round (or a bye): a banner with a link to the
  // table, until dismissed or followed; "my games" lists the table too.
  onTournamentRound(push) {
    const name = this.screen instanceof TournamentScreen && this.screen.detail && this.screen.id === push.tournament
      ? this.screen.detail.name : null;
    showRoundNotice(this.notices, push, name);
    this.store.refreshMyGames();
    if (this.screen instanceof TournamentScreen && this.screen.id === push.tournament) this.screen.onPush();
  }

  // Mutes and bans stay as a banner until lifted, over or dismissed; the rest is a toast.
  onModerationNotice(notice) {
    if (notice.action === 'ban') this.lastBan = {until: notice.until, why: notice.reason};  // the close that follows says no more
    const {text, banner} = noticeText(notice, notice.table ? this.store.tables.get(notice.table) : null);
    if (notice.action === 'set_role' && this.store.account) {
      this.store.account = {...this.store.account, role: notice.role};
      this.renderHeader();
      this.refreshScreen(this.currentTable);
    }
    const kind = notice.action.replace(/^un/, '');
    for (const old of this.notices.querySelectorAll(`[data-kind="${kind}"]`)) old.remove();
    if (banner) showModerationBanner(this.notices, text, kind, notice.until);
    else this.toast(text);
  }

  // --- table actions ---------------------------------------------------------------------

  async join(tableId, seat) {
    try {
      const payload = seat === undefined ? {table: tableId} : {table: tableId, seat};
      const {table} = await this.conn.request('table.join', payload);
      this.store.tables.set(table.id, table);
      this.store.spectating.delete(table.id);
      this.navigate(`#/table/${table.id}`);
      this.renderTable();
    } catch (err) {
      this.toast(refusalText(err, t('shell.could_not_join')));
      this.store.setTableError(err);
      this.refreshScreen(tableId);
    }
  }

  async tableAction(type, payload) {
    this.store.setTableError(null);
    try {
      const reply = await this.conn.request(type, payload);
      if (reply.table) this.store.tables.set(reply.table.id, reply.table);
    } catch (err) {
      this.store.setTableError(err);
    }
    this.refreshScreen(payload.table);
  }

  async leave(tableId) {
    try {
      await this.conn.request('table.leave', {table: tableId});
      this.store.tables.delete(tableId);
      this.navigate('#/');
    } catch (err) {
      this.store.setTableError(err);
      this.refreshScreen(tableId);
    }
  }

  async resign(tableId) {
    try {
      await this.conn.request('game.resign', {table: tableId});
    } catch (err) {
      this.toast(refusalText(err));
    }
  }

  toast(text) {
    const el = h('div', {class: 'toast', role: 'status'}, text);
    this.toasts.append(el);
    setTimeout(() => el.remove(), 6000);
  }
}

await startLanguage();
const app = new App();
window.elgrande = app;
app.start();
