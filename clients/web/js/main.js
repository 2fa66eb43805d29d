// The client's entry point: the connection, who I am, what I know of tables and games,
// and which screen shows (#/ the lobby, #/table/ID a table, #/account the account,
// #/tournaments the tournaments, #/tournament/ID one of them, #/ratings/LADDER/PAGE the
// leaderboards, #/player/ID a player's ratings).

import {Connection, PROTOCOL_VERSION, isTemporary, refusalText, serverUrl} from './connection.js';
import {applyViewPatch} from './viewpatch.js';
import {h, replaceKeepingFocus} from './dom.js';
import {AccountScreen, deviceName, roleText, signInForm} from './account.js';
import {forgetIdentity, forgetToken, loadIdentity, saveIdentity} from './identity.js';
import {connectionNotice, nameForm} from './welcome.js';
import {EventLog, chatEntryText} from './log.js';
import {bannedText, noticeText} from './moderation.js';
import {BlockList} from './blocks.js';
import {LobbyScreen, mySeatAt, renderWaitingRoom} from './lobby.js';
import {GameScreen} from './game.js';
import {colourBadge} from './decisions.js';
import {TournamentListScreen, TournamentScreen, roundNoticeText} from './tournaments.js';
import {LeaderboardScreen, ProfileScreen, changeOf, ratingChangeCell, ratingStory} from './ratings.js';
import {DECISION_WORDS, describeEvent, eventTone, formerSeat, involves, queueName, seatNames} from './texts.js';
import {startClock} from './time.js';
import {TurnSignal} from './alerts.js';
import {applyTheme} from './settings.js';

// The welcome screen's message after the server closed this device's session (code 4001).
const SIGNED_OUT_ELSEWHERE = 'You were signed out on this device: its session was ended in another tab or on another device, or the password was changed. Sign in again to go on playing.';

class App {
  constructor() {
    this.identity = loadIdentity();
    this.me = null;
    this.account = null;  // {username, role, session} when signed in to an account
    this.conn = new Connection(serverUrl());
    this.blocks = new BlockList(this.conn, () => this.refreshScreen(this.currentTable));
    this.tables = new Map();
    this.games = new Map();
    this.lobbyTables = new Map();
    this.myGames = [];
    this.history = {everyone: false, games: [], more: false, loaded: false, loading: false, error: null, hidden: false};
    this.historySerial = 0;
    this.historyPage = 10;  // finished games per history.list
    this.spectating = new Set();
    this.logs = new Map();
    this.tableError = null;
    this.tableErrorTemporary = false;
    this.tournamentForm = null;  // what the create form holds (tournaments.js)
    // Play now (playnow.js): what the form asks for, and the queue waited in, if any.
    this.playNow = {
      form: {players: 3, short_game: true, automa: false, clock: 'live', bots_after: ''},
      waiting: null, busy: false, error: null, errorTemporary: false, announce: '',
    };
    this.matchedTable = null;  // the table play.matched named last
    this.rated = new Map();  // table → its table.rated push: the final screen's rating changes
    this.createForm = {
      players: 3, short_game: false, automa: false, four_stacks: false, edition: '2023', name: '',
      turn: '0', custom_seconds: '', on_timeout: 'bot_answers', replace_after: 3,
    };
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
    // The server's words when it banned the player this browser speaks for: no hello is said
    // with that identity again on this page, so reconnecting does not loop into refusals.
    this.banned = null;
    this.wire();
  }

  start() {
    applyTheme();
    this.renderHeader();
    if (!this.identity.token && !this.identity.name) this.showWelcome();
    else this.setMain(h('p', {class: 'loading'}, 'Connecting to the server…'));
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
    const waiting = new Set((this.myGames || []).filter((g) => g.my_turn).map((g) => g.table.id));
    for (const [table, game] of this.games) {
      if (game.view.viewer === undefined) continue;
      if (game.view.decision) waiting.add(table);
      else waiting.delete(table);
    }
    const here = this.currentTable !== null && waiting.has(this.currentTable) && this.screen instanceof GameScreen;
    this.signal.show(this.screenTitle, waiting, here);
    const n = waiting.size;
    this.navCount.hidden = !n;
    replaceKeepingFocus(this.navCount, n ? [String(n), h('span', {class: 'sr-only'}, ` game${n > 1 ? 's' : ''} waiting for you`)] : null);
  }

  wire() {
    const c = this.conn;
    c.on('state', (state) => {
      this.connectionLabel.textContent = {open: 'Connected', connecting: 'Connecting…', closed: 'Reconnecting…'}[state];
      this.connectionLabel.dataset.state = state;
    });
    c.on('open', () => this.onOpen());
    c.on('session_ended', () => {
      this.signedOut({message: SIGNED_OUT_ELSEWHERE, alert: true});
      this.conn.connect();
    });
    c.on('banned', (reason) => {
      this.showBanned(reason);
      this.conn.connect();
    });
    c.on('player.renamed', ({table, player}) => this.onRenamed(table, player));
    c.on('moderation.notice', (notice) => this.onModerationNotice(notice));
    c.on('table.update', ({table}) => this.onTable(table));
    c.on('game.update', (update) => this.onGameUpdate(update));
    c.on('game.over', ({table, result}) => {
      const t = this.tables.get(table);
      if (t) this.tables.set(table, {...t, status: 'finished', result});
      this.refreshScreen(table);
      this.scheduleMyGames();
      this.scheduleHistory();
    });
    c.on('lobby.table', ({table}) => {
      this.lobbyTables.set(table.id, table);
      if (this.tables.has(table.id)) this.tables.set(table.id, table);
      this.refreshLobby();
      if (table.status === 'finished') this.scheduleHistory();
    });
    c.on('lobby.table_removed', ({table}) => {
      this.lobbyTables.delete(table);
      this.refreshLobby();
    });
    c.on('table.chat', (chat) => this.addChat(chat.table, [chat]));
    c.on('table.chat_history', ({table, lines}) => this.addChat(table, lines));
    c.on('table.chat_removed', ({table, line}) => {
      const log = this.logFor(table);
      if (!log.removeLine(line)) return;
      log.save();
      this.refreshScreen(table);
    });
    c.on('tournament.update', ({tournament}) => {
      if (tournament.status === 'finished' || tournament.status === 'cancelled') {
        for (const old of this.notices.querySelectorAll(`.round-notice[data-tournament="${tournament.id}"]`)) old.remove();
      }
      if (this.screen instanceof TournamentListScreen) this.screen.onSummary(tournament);
      if (this.screen instanceof TournamentScreen && this.screen.id === tournament.id) this.screen.onPush();
    });
    c.on('tournament.round', (push) => this.onTournamentRound(push));
    c.on('play.matched', (push) => this.onPlayMatched(push));
    c.on('play.waiting', ({queue, waiting}) => {
      const p = this.playNow;
      if (!p.waiting || p.waiting.queue !== queue) return;
      p.waiting.count = waiting;
      this.refreshLobby();
    });
    c.on('table.rated', (push) => {
      this.rated.set(push.table, push);
      this.refreshScreen(push.table);
    });
    c.on('error', (err) => this.toast(refusalText(err, 'The server says')));
  }

  // --- identity -------------------------------------------------------------------------

  async onOpen() {
    clearTimeout(this.helloRetry);
    if (this.banned !== null) return;  // the welcome screen says why; signing in to another account is up to the person
    for (const game of this.games.values()) game.stale = true;
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
            this.signedOut({message: 'Your session on this device has ended: sign in again.', alert: true});
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
        this.showBanned(err.message);
        return;
      }
      this.toast(refusalText(err, 'Could not sign in'));
      // A new identity the server could not save yet: ask again in a moment.
      if (isTemporary(err)) {
        clearTimeout(this.helloRetry);
        this.helloRetry = setTimeout(() => {
          if (this.conn.state === 'open') this.onOpen();
        }, 5000);
      }
    }
  }

  refusal(err, prefix) {
    return refusalText(err, prefix);
  }

  async hello(fields) {
    const reply = await this.conn.request('hello', {protocol: PROTOCOL_VERSION, ...fields});
    this.speakFor(reply);
    return reply;
  }

  // The answer of hello, account.sign_in or account.sign_up: who this browser is now. An
  // account's session token is kept where a guest's is, and resumed by hello alike.
  speakFor({player, token, account}) {
    this.banned = null;
    this.me = player;
    this.account = account || null;
    this.identity = {token, name: player.name, id: player.id, username: this.account ? this.account.username : null};
    saveIdentity(this.identity);
    this.renderHeader();
  }

  // Needs no hello: from the welcome screen no guest is made; on a guest's connection the
  // server switches it to the account, ending all it did for the guest (protocol.md, Accounts).
  async signIn(username, password) {
    const reply = await this.conn.request('account.sign_in', {protocol: PROTOCOL_VERSION, username, password, device: deviceName()});
    // The account's tables and games follow this answer as after hello.
    this.forgetPlayerState();
    this.speakFor(reply);
    this.toast(`Signed in as ${reply.account.username}.`);
    await this.afterHello();
  }

  // The guest becomes an account, keeping its id and games; its guest token stops working.
  async signUp(username, password) {
    const reply = await this.conn.request('account.sign_up', {username, password, device: deviceName()});
    this.speakFor(reply);
    this.toast(`Your account ${reply.account.username} is made: sign in with it on any device.`);
    if (this.screen instanceof AccountScreen) this.showAccount();
  }

  // Ends this device's session: the browser forgets token and name, and a fresh connection
  // waits for the welcome screen's answer.
  async signOut(session) {
    await this.conn.request('account.end_sessions', {session});
    this.signedOut({message: 'You signed out.', offerSignIn: false});
    if (location.hash !== '#/') history.replaceState(null, '', '#/');
    this.conn.reconnect();
  }

  // The session is over (signed out here or elsewhere, or ended on the server): nothing of
  // the identity stays, and the welcome screen offers to sign in again.
  signedOut({message, alert = false, offerSignIn = true}) {
    clearTimeout(this.helloRetry);
    const username = offerSignIn ? this.identity.username || (this.account && this.account.username) || '' : '';
    this.identity = forgetIdentity(this.identity.token);
    this.me = null;
    this.account = null;
    this.forgetPlayerState();
    this.renderHeader();
    this.showWelcome({message, alert, signIn: Boolean(username), username});
  }

  // A ban (close code 4003, or hello refused with `banned`): the page forgets what it knew of
  // the player but keeps the stored token, so a reload once the ban is over plays on. The
  // welcome screen offers to sign in to another account.
  showBanned(detail) {
    clearTimeout(this.helloRetry);
    this.banned = detail || '';
    this.me = null;
    this.account = null;
    this.forgetPlayerState();
    this.renderHeader();
    replaceKeepingFocus(this.notices);
    this.showWelcome({message: bannedText(detail), alert: true, signIn: true});
  }

  // What this page knew as the former player: another identity has other tables and games.
  forgetPlayerState() {
    for (const notice of this.notices.querySelectorAll('.round-notice')) notice.remove();
    this.tables.clear();
    this.games.clear();
    this.lobbyTables.clear();
    this.spectating.clear();
    this.blocks.forget();
    this.playNow.waiting = null;
    this.rated.clear();
    if (this.myGames !== null) this.myGames = [];
    Object.assign(this.history, {games: [], more: false, loaded: false, loading: false, error: null});
    this.currentTable = null;
  }

  async afterHello() {
    const {tables, more} = await this.conn.request('lobby.subscribe');
    this.lobbyTables = new Map(tables.map((t) => [t.id, t]));
    this.lobbyMore = more;
    for (const t of tables) if (this.tables.has(t.id)) this.tables.set(t.id, t);
    this.spectating.clear();
    this.loadBlocks();
    // The server forgets who waits to play now when their connection closes: ask again.
    if (this.playNow.waiting) this.askToPlay(this.playNow.waiting.wish);
    await this.route();
    this.refreshMyGames();
  }

  // Whom this player blocks, so that the menu by a name offers Block or Unblock. Without
  // it the menu offers Block to everyone, which the server still judges.
  loadBlocks() {
    this.blocks.load().catch((err) => {
      if (err.code !== 'disconnected') this.toast(refusalText(err, 'Could not read your block list'));
    });
  }

  // The first screen of a browser that has neither token nor name: a name makes a guest;
  // "I have an account" signs in instead, so that no throwaway guest is made.
  showWelcome({message = null, alert = false, signIn = false, username = ''} = {}) {
    const notice = message ? h('p', {class: ['notice', alert && 'alert'], role: alert ? 'alert' : 'status', 'data-testid': 'welcome-message'}, message) : null;
    const again = (mode) => this.showWelcome({message, alert, signIn: mode, username});
    let body;
    if (signIn) {
      body = [
        h('h2', {class: 'welcome-heading'}, 'Sign in to your account'),
        signInForm(this, {prefix: 'welcome-sign-in', username}),
        h('p', {class: 'welcome-switch'}, 'New here? ',
          h('button', {type: 'button', class: 'link-button', 'data-testid': 'new-player', onClick: () => again(false)}, 'Pick a name and play as a guest')),
      ];
    } else {
      body = [nameForm(this), h('p', {class: 'welcome-switch'}, 'Played here before? ',
        h('button', {type: 'button', class: 'link-button', 'data-testid': 'have-account', onClick: () => again(true)}, 'I have an account'))];
    }
    const panel = h('div', {class: 'welcome panel', 'data-testid': 'welcome', 'data-mode': signIn ? 'sign-in' : 'name'},
      h('h1', {class: 'welcome-title'}, 'El Grande'),
      h('p', {class: 'welcome-sub'}, 'Power, intrigue and caballeros in 15th-century Spain. Play with friends or bots, right here in the browser.'),
      notice,
      body);
    panel.insertBefore(connectionNotice(this.conn, panel), panel.querySelector('.welcome-sub').nextSibling);
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = null;
    this.pageTitle('El Grande');
    this.setMain(panel);
    const first = panel.querySelector('input:not([hidden])');
    const empty = [...panel.querySelectorAll('input:not([hidden])')].find((input) => !input.value);
    (empty || first).focus();
  }

  renderHeader() {
    if (!this.me) {
      replaceKeepingFocus(this.header);
      return;
    }
    const account = this.account;
    const show = h('span', {class: 'who'},
      'Playing as ', h('strong', {'data-testid': 'my-name'}, this.me.name), ' ',
      h('button', {type: 'button', class: 'link-button', 'data-testid': 'rename', onClick: () => this.renderRename()}, 'rename'),
      account ? [' · ', h('a', {
        href: '#/account', class: 'account-link', 'data-testid': 'my-username', 'aria-label': `Your account: ${account.username}`,
      }, account.username), account.role !== 'player' ? h('span', {class: 'role-tag', 'data-testid': 'my-role'}, roleText(account.role)) : null]
        : [' · ', h('span', {class: 'guest-tag', 'data-testid': 'my-guest'}, 'guest')]);
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
        this.toast(refusalText(err, 'The server refused the name'));
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
    const account = /^#\/account\b/.test(location.hash);
    const event = location.hash.match(/^#\/tournament\/(\d+)/);
    const events = /^#\/tournaments\b/.test(location.hash);
    const ladder = location.hash.match(/^#\/ratings(?:\/([\w-]+)(?:\/(\d+))?)?\/?$/);
    const player = location.hash.match(/^#\/player\/(\d+)/);
    // The nav link of the page's section: a tournament's page is under Tournaments, a
    // player's ratings under Ratings.
    let section = id === null ? '#/' : null;
    if (account) section = '#/account';
    else if (event || events) section = '#/tournaments';
    else if (ladder || player) section = '#/ratings';
    for (const link of this.navLinks) {
      if (link.hash === section) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (this.currentTable !== null && this.currentTable !== id && this.spectating.has(this.currentTable)) {
      const leaving = this.currentTable;
      this.spectating.delete(leaving);
      this.games.delete(leaving);
      this.conn.request('table.leave', {table: leaving}).catch(() => {});
    }
    if (account) {
      this.currentTable = null;
      this.showAccount();
    } else if (event) {
      this.currentTable = null;
      this.showTournament(Number(event[1]));
    } else if (events) {
      this.currentTable = null;
      this.showScreen(new TournamentListScreen(this), 'Tournaments');
    } else if (ladder) {
      this.currentTable = null;
      this.showRatings(ladder[1] || null, Number(ladder[2] || 1));
    } else if (player) {
      this.currentTable = null;
      this.showScreen(new ProfileScreen(this, Number(player[1])), 'Ratings');
    } else if (id === null) {
      this.currentTable = null;
      this.showLobby();
    } else {
      await this.openTable(id);
    }
  }

  // The account page for who this is now: kept as it is (typed text included) while that
  // does not change, as on a reconnection.
  showAccount() {
    const kind = this.account ? 'account' : 'guest';
    this.pageTitle('Your account');
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
    this.showScreen(new TournamentScreen(this, id), 'Tournament');
  }

  // A leaderboard: another ladder or page keeps the screen (and its ladders' counts).
  showRatings(ladder, page) {
    if (!(this.screen instanceof LeaderboardScreen && this.main.contains(this.screen.root))) {
      this.showScreen(new LeaderboardScreen(this), 'Ratings');
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
    this.pageTitle('Lobby');
    this.setMain(this.screen.root);
    this.refreshMyGames();
    this.loadHistory();
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
    // Play now seats me before the table's push may have come: that push opens it.
    if (mySeatAt(this.tables.get(id), this.me) === null && !this.spectating.has(id) && id !== this.matchedTable) {
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
          if (err.code !== 'disconnected') this.toast(refusalText(err, `Cannot open table ${id}`));
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
      this.pageTitle(table.name);
      renderWaitingRoom(this, table, this.screen.container);
      return;
    }
    if (!this.games.has(id)) {
      if (this.screen && this.screen.destroy) this.screen.destroy();
      this.screen = null;
      if (table.status === 'finished' && table.result) {
        // A finished game whose board the server no longer sends: its result is enough.
        this.setMain(finishedTable(table, this.rated.get(id)));
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
    else if (this.screen instanceof AccountScreen) this.screen.update();
    else this.refreshLobby();
    this.refreshTurns();
  }

  refreshLobby() {
    if (this.screen instanceof LobbyScreen) this.screen.update();
    this.refreshTurns();
  }

  // --- play now --------------------------------------------------------------------------

  playNowJoin() {
    const f = this.playNow.form;
    const wish = {players: f.players, short_game: f.short_game, automa: f.players === 2 && f.automa, clock: f.clock};
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
      p.announce = `Looking for players: ${queueName(queue)}.`;
    } catch (err) {
      p.waiting = null;
      p.error = refusalText(err, 'Could not ask to play now');
      p.errorTemporary = isTemporary(err);
    }
    p.busy = false;
    this.refreshLobby();
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
        p.error = refusalText(err, 'Could not stop waiting');
        p.errorTemporary = isTemporary(err);
      }
    }
    if (!p.waiting) p.announce = 'You stopped waiting.';
    p.busy = false;
    this.refreshLobby();
  }

  // Seated by play now: the game starts at once, so go to it.
  onPlayMatched({table, queue}) {
    this.playNow.waiting = null;
    this.playNow.announce = `A table is ready: ${queueName(queue)}.`;
    this.matchedTable = table;
    this.toast(`Play now found your table (${queueName(queue)}): the game starts.`);
    this.navigate(`#/table/${table}`);
  }

  async refreshMyGames() {
    if (this.myGames === null || !this.me) return;
    try {
      const {games} = await this.conn.request('player.games');
      this.myGames = this.withFormerSeats(games);
      this.sortMyGames();
    } catch (err) {
      if (err.code === 'unknown_type') this.myGames = null;
    }
    this.refreshLobby();
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
  // server is asked again (see scheduleMyGames). The caller refreshes the screen.
  patchMyGame(tableId, change) {
    if (!this.myGames) return;
    const entry = this.myGames.find((g) => g.table.id === tableId);
    if (!entry) return;
    change(entry);
    this.sortMyGames();
  }

  // The lobby lists the newest tables; "Older tables" asks for the page before the oldest
  // shown. Pushes keep every table shown up to date.
  async loadOlderTables() {
    if (this.lobbyLoading || !this.lobbyTables.size) return;
    this.lobbyLoading = true;
    this.refreshLobby();
    try {
      const {tables, more} = await this.conn.request('lobby.list', {before: Math.min(...this.lobbyTables.keys())});
      for (const t of tables) if (!this.lobbyTables.has(t.id)) this.lobbyTables.set(t.id, t);
      this.lobbyMore = more;
    } finally {
      this.lobbyLoading = false;
      this.refreshLobby();
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
    this.refreshLobby();
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
        hist.error = refusalText(err, 'Could not list the finished games');
        hist.errorTemporary = isTemporary(err);
      }
    }
    hist.loading = false;
    this.refreshLobby();
  }

  setHistoryScope(everyone) {
    if (this.history.everyone === everyone) return;
    Object.assign(this.history, {everyone, games: [], more: false, loaded: false, error: null});
    this.loadHistory();
  }

  scheduleHistory() {
    this.whileInLobby('historyTimer', 500, () => this.loadHistory());
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

  onTable(table) {
    this.tables.set(table.id, table);
    if (this.lobbyTables.has(table.id)) this.lobbyTables.set(table.id, table);
    this.patchMyGame(table.id, (entry) => { entry.table = table; });
    this.refreshScreen(table.id);
    this.scheduleMyGames();
  }

  // "My games" changes with every move at my tables. The pushes update it at once
  // (patchMyGame); the server is asked again at most every 3 s while they come, and every
  // 30 s while the lobby shows (LobbyScreen).
  scheduleMyGames() {
    this.whileInLobby('myGamesTimer', 3000, () => this.refreshMyGames());
  }

  onGameUpdate(update) {
    const previous = this.games.get(update.table);
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
    if (previous && !mine(previous.view) && mine(update.view)) {
      const table = this.tables.get(update.table);
      this.signal.yourTurn({table: update.table, name: table ? table.name : `Table ${update.table}`, what: DECISION_WORDS[update.view.decision.kind] || 'decide'});
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

  // Chat lines the table's log does not show yet: a history after a reconnection repeats
  // what this page (or its stored log) already has, told apart by the line's id, and only
  // what came after is new. A line removed meanwhile is shown removed.
  addChat(tableId, lines) {
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
    this.refreshScreen(tableId);
  }

  // A player's new name shows on their seat and on every chat line of theirs, old ones too.
  onRenamed(tableId, player) {
    const table = this.tables.get(tableId);
    if (table) {
      const seats = table.seats.map((seat) => (seat.player && seat.player.id === player.id ? {...seat, player} : seat));
      this.tables.set(tableId, {...table, seats});
    }
    const log = this.logFor(tableId);
    if (log.rename(player)) log.save();
    if (this.me && this.me.id === player.id && this.me.name !== player.name) {
      // Renamed in another tab of this player.
      this.me = {...this.me, name: player.name};
      this.renderHeader();
    }
    this.refreshScreen(tableId);
  }

  // A table of mine in a tournament's new round (or a bye): a banner with a link to the
  // table, until dismissed or followed; "my games" lists the table too.
  onTournamentRound(push) {
    const name = this.screen instanceof TournamentScreen && this.screen.detail && this.screen.id === push.tournament
      ? this.screen.detail.name : null;
    const {text, href} = roundNoticeText(push, name);
    const el = h('div', {class: 'notice round-notice', role: 'status', 'data-testid': 'round-notice', 'data-tournament': String(push.tournament)},
      h('span', {}, text),
      href ? h('a', {href, class: 'button primary small', 'data-testid': 'round-notice-open', onClick: () => el.remove()}, 'Go to the table') : null,
      h('a', {href: `#/tournament/${push.tournament}`, class: 'button secondary small', onClick: () => el.remove()}, 'The tournament'),
      h('button', {type: 'button', class: 'secondary small', 'aria-label': 'Dismiss this notice', onClick: () => el.remove()}, 'Dismiss'));
    for (const old of this.notices.querySelectorAll(`.round-notice[data-tournament="${push.tournament}"]`)) old.remove();
    this.notices.append(el);
    this.refreshMyGames();
    if (this.screen instanceof TournamentScreen && this.screen.id === push.tournament) this.screen.onPush();
  }

  // Mutes and bans stay as a banner until lifted, over or dismissed; the rest is a toast.
  onModerationNotice(notice) {
    const {text, banner} = noticeText(notice, notice.table ? this.tables.get(notice.table) : null);
    if (notice.action === 'set_role' && this.account) {
      this.account = {...this.account, role: notice.role};
      this.renderHeader();
      this.refreshScreen(this.currentTable);
    }
    const kind = notice.action.replace(/^un/, '');
    for (const old of this.notices.querySelectorAll(`[data-kind="${kind}"]`)) old.remove();
    if (!banner) {
      this.toast(text);
      return;
    }
    const el = h('div', {class: 'notice alert mod-notice', role: 'alert', 'data-testid': 'mod-notice', 'data-kind': kind},
      h('span', {}, text),
      h('button', {type: 'button', class: 'secondary small', 'aria-label': 'Dismiss this notice', onClick: () => el.remove()}, 'Dismiss'));
    this.notices.append(el);
    const left = notice.until ? notice.until - Date.now() : null;
    if (left !== null && left < 2 ** 31 - 1) setTimeout(() => el.remove(), Math.max(0, left));
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
      this.toast(refusalText(err, 'Could not join'));
      this.setTableError(err);
      this.refreshScreen(tableId);
    }
  }

  setTableError(err) {
    this.tableError = err ? refusalText(err) : null;
    this.tableErrorTemporary = isTemporary(err);
  }

  async tableAction(type, payload) {
    this.setTableError(null);
    try {
      const reply = await this.conn.request(type, payload);
      if (reply.table) this.tables.set(reply.table.id, reply.table);
    } catch (err) {
      this.setTableError(err);
    }
    this.refreshScreen(payload.table);
  }

  async leave(tableId) {
    try {
      await this.conn.request('table.leave', {table: tableId});
      this.tables.delete(tableId);
      this.navigate('#/');
    } catch (err) {
      this.setTableError(err);
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

function chatEntry(line) {
  const entry = {tone: 'chat', chat: true, line: line.id, time: line.time, from: line.from};
  if (line.removed) entry.removed = true;
  else entry.said = line.text;
  return {...entry, text: chatEntryText(entry)};
}

function finishedTable(table, rated) {
  const names = seatNames(table, null);
  const {scores, winners} = table.result;
  const ranking = scores.map((score, seat) => ({score, seat})).sort((a, b) => b.score - a.score);
  return h('div', {class: 'waiting-room panel', 'data-testid': 'final-scores'},
    h('h1', {}, `${table.name}: the game is over`),
    h('p', {class: 'winner-line'}, `♛ ${winners.map((s) => names[s]).join(' and ')} ${winners.length > 1 ? 'share the win' : 'wins'}!`),
    h('table', {class: 'final-table'},
      h('tbody', {}, ranking.map((r, i) => h('tr', {class: winners.includes(r.seat) ? 'winner' : '', 'data-testid': `final-score-${r.seat}`},
        h('td', {}, String(i + 1)), h('td', {}, colourBadge(r.seat, table), ' ', names[r.seat]), h('td', {class: 'num'}, String(r.score)),
        rated ? ratingChangeCell(changeOf(rated, table, r.seat), `rating-change-${r.seat}`) : null)))),
    ratingStory(rated, table, names),
    h('p', {}, h('a', {href: '#/', class: 'button secondary'}, 'Back to the lobby')));
}

const app = new App();
window.elgrande = app;
app.start();
