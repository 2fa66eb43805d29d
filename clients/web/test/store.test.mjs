// The store: each push changes the state as protocol.md says, and tells the page what to
// show again. Run with `node --test clients/web/test/`.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Store, STORE_PUSHES, createTablePayload} from '../js/store.js';
import {FakeConnection, bot, player, refusal, seated, table} from './fakes.mjs';
import {entryText} from '../js/log.js';
import {gameModule} from '../js/games/index.js';
import {useLanguage} from '../js/i18n.js';

const ANA = {id: 7, name: 'Ana'};
const BEA = {id: 8, name: 'Bea'};

// A store that speaks for Ana, with what it emits collected.
function given({answers = {}, me = ANA} = {}) {
  const conn = new FakeConnection(answers);
  const store = new Store(conn);
  store.me = me;
  const changes = [];
  store.subscribe((change) => changes.push(change));
  return {store, conn, changes};
}

const twoPlayers = (id = 3, status = 'playing') => table(id, {status, seats: seated(player(ANA.id, 'Ana'), player(BEA.id, 'Bea'))});

function gameUpdate(tableId, version, view, extra = {}) {
  return {table: tableId, version, view: {version, viewer: 0, phase: 'power_cards', players: [{}, {}], ...view}, ...extra};
}

test('every push the store holds has a handler, and other types are left to the page', () => {
  const {store} = given();
  assert.deepEqual(STORE_PUSHES.sort(), [
    'game.over', 'game.update', 'lobby.table', 'lobby.table_removed', 'play.matched', 'play.waiting',
    'player.renamed', 'table.chat', 'table.chat_history', 'table.chat_removed', 'table.rated', 'table.update',
  ]);
  assert.equal(store.receive('tournament.update', {}), false);
});

test('table.update: the table replaces the one known, in the lobby and in my games too', () => {
  const {store, changes} = given();
  const open = twoPlayers(3, 'open');
  store.lobbyTables.set(3, open);
  store.myGames = [{table: open, seat: 0, my_turn: false}];
  const playing = twoPlayers(3, 'playing');
  assert.equal(store.receive('table.update', {table: playing}), true);
  assert.equal(store.tables.get(3), playing);
  assert.equal(store.lobbyTables.get(3), playing);
  assert.equal(store.myGames[0].table, playing);
  assert.deepEqual(changes, [{type: 'table.update', table: 3, myGames: true}]);
});

test('table.update of a table the lobby does not list leaves the lobby alone', () => {
  const {store} = given();
  store.receive('table.update', {table: twoPlayers(4)});
  assert.equal(store.lobbyTables.has(4), false);
});

test('game.update with a whole view: kept, with its deadline and undo, and its events logged in words', () => {
  const {store, changes} = given();
  store.tables.set(3, twoPlayers());
  store.receive('game.update', gameUpdate(3, 1, {}, {deadline: 5000, can_undo: true, events: [{type: 'power_card_played', seat: 1, value: 13}]}));
  const game = store.games.get(3);
  assert.equal(game.version, 1);
  assert.equal(game.deadline, 5000);
  assert.equal(game.canUndo, true);
  const log = store.logFor(3);
  assert.equal(log.entries.length, 1);
  assert.equal(entryText(log.entries[0], gameModule()), 'Bea played power card 13.');
  assert.equal(log.entries[0].version, 1);
  assert.deepEqual(changes, [{type: 'game.update', table: 3, myGames: true, yourTurn: null}]);
});

test('game.update: a decision of mine where there was none says it is my turn, not on the first update', () => {
  const {store, changes} = given();
  store.tables.set(3, twoPlayers());
  store.receive('game.update', gameUpdate(3, 1, {decision: {kind: 'power_card'}}));
  assert.equal(changes[0].yourTurn, null);
  store.receive('game.update', gameUpdate(3, 2, {}));
  store.receive('game.update', gameUpdate(3, 3, {decision: {kind: 'disk'}}));
  assert.deepEqual(changes[2].yourTurn, {table: 3, name: 'Table 3', what: 'set a secret disk'});
});

test('game.update: a patch applies to the view held when its base matches', () => {
  const {store, conn} = given();
  store.receive('game.update', gameUpdate(3, 1, {king: 'aragon', players: [{score: 0}, {score: 0}]}));
  store.receive('game.update', {table: 3, version: 2, base: 1, patch: {version: 2, king: 'granada', players: {1: {score: 5}}}});
  const view = store.games.get(3).view;
  assert.equal(view.king, 'granada');
  assert.deepEqual(view.players, [{score: 0}, {score: 5}]);
  assert.equal(conn.requests.length, 0);
});

test('game.update: a patch of another view asks for the whole view and changes nothing', () => {
  const {store, conn, changes} = given({answers: {'game.view': {}}});
  store.receive('game.update', gameUpdate(3, 1, {king: 'aragon'}));
  store.receive('game.update', {table: 3, version: 3, base: 2, patch: {king: 'granada'}});
  assert.equal(store.games.get(3).view.king, 'aragon');
  assert.deepEqual(conn.requests, [{type: 'game.view', payload: {table: 3}}]);
  assert.equal(changes.length, 1);
});

test('game.update: a patch naming an element the view lacks asks for the whole view', () => {
  const {store, conn} = given({answers: {'game.view': {}}});
  store.receive('game.update', gameUpdate(3, 1, {players: [{}, {}]}));
  store.receive('game.update', {table: 3, version: 2, base: 1, patch: {players: {4: {score: 1}}}});
  assert.equal(store.games.get(3).version, 1);
  assert.equal(conn.requests[0].type, 'game.view');
});

test('game.update: an older version is ignored, a gap reconnects and says so in the log', () => {
  const {store, conn} = given();
  store.receive('game.update', gameUpdate(3, 5, {}));
  store.receive('game.update', gameUpdate(3, 4, {}));
  assert.equal(store.games.get(3).version, 5);
  assert.equal(conn.reconnects, 0);
  store.receive('game.update', gameUpdate(3, 7, {}));
  assert.equal(store.games.get(3).version, 7);
  assert.equal(conn.reconnects, 1);
  assert.match(entryText(store.logFor(3).entries.at(-1)), /missed/);
});

test('game.update after a reconnection (stale game): any version is taken', () => {
  const {store, conn} = given();
  store.receive('game.update', gameUpdate(3, 5, {}));
  store.games.get(3).stale = true;
  store.receive('game.update', gameUpdate(3, 9, {}));
  assert.equal(store.games.get(3).version, 9);
  assert.equal(conn.reconnects, 0);
});

test('game.update: my entry in "my games" follows the decision and the deadline at once', () => {
  const {store} = given();
  const t3 = twoPlayers(3);
  const t4 = twoPlayers(4);
  store.myGames = [{table: t3, seat: 0, my_turn: false, waiting_for: [1]}, {table: t4, seat: 0, my_turn: false, waiting_for: [1]}];
  store.receive('game.update', gameUpdate(4, 1, {decision: {kind: 'power_card'}, waiting_for: [0]}, {deadline: 1000}));
  assert.deepEqual(store.myGames.map((g) => [g.table.id, g.my_turn, g.deadline]), [[4, true, 1000], [3, false, undefined]]);
  store.receive('game.update', gameUpdate(4, 2, {waiting_for: [1]}));
  assert.equal(store.myGames.find((g) => g.table.id === 4).my_turn, false);
  assert.equal('deadline' in store.myGames.find((g) => g.table.id === 4), false);
});

test('game.over: the table is finished with its result', () => {
  const {store, changes} = given();
  store.tables.set(3, twoPlayers());
  const result = {scores: [40, 38], winners: [0]};
  store.receive('game.over', {table: 3, result});
  assert.equal(store.tables.get(3).status, 'finished');
  assert.deepEqual(store.tables.get(3).result, result);
  assert.deepEqual(changes, [{type: 'game.over', table: 3, myGames: true, history: true}]);
});

test('lobby.table adds or replaces a table in the lobby; a finished one asks for the history again', () => {
  const {store, changes} = given();
  store.tables.set(3, twoPlayers(3, 'open'));
  store.receive('lobby.table', {table: twoPlayers(3, 'playing')});
  store.receive('lobby.table', {table: twoPlayers(5, 'finished')});
  assert.equal(store.lobbyTables.get(3).status, 'playing');
  assert.equal(store.tables.get(3).status, 'playing');
  assert.equal(store.tables.has(5), false);
  assert.deepEqual(changes.map((c) => c.history), [false, true]);
  store.receive('lobby.table_removed', {table: 3});
  assert.deepEqual([...store.lobbyTables.keys()], [5]);
  assert.deepEqual(changes.at(-1), {type: 'lobby.table_removed', lobby: true});
});

test('table.chat and table.chat_history: lines already shown are not repeated, removed ones show removed', () => {
  const {store, changes} = given();
  const from = {id: BEA.id, name: 'Bea'};
  store.receive('table.chat', {table: 3, id: 1, time: 100, from, text: 'hola'});
  store.receive('table.chat_history', {table: 3, lines: [
    {id: 1, time: 100, from, text: 'hola', removed: true},
    {id: 0, time: 50, from, text: 'older than the log'},
    {id: 2, time: 200, from, text: 'qué tal'},
  ]});
  const chat = store.logFor(3).entries.filter((e) => e.chat);
  assert.deepEqual(chat.map((e) => [e.line, entryText(e)]), [[1, 'Bea: removed by a moderator'], [2, 'Bea: “qué tal”']]);
  assert.deepEqual(changes.map((c) => c.type), ['table.chat', 'table.chat_history']);
});

test('table.chat_removed: the line shows removed; an unknown line changes nothing', () => {
  const {store, changes} = given();
  store.receive('table.chat', {table: 3, id: 1, time: 100, from: {id: 8, name: 'Bea'}, text: 'hola'});
  store.receive('table.chat_removed', {table: 3, line: 99});
  assert.equal(changes.length, 1);
  store.receive('table.chat_removed', {table: 3, line: 1});
  assert.equal(store.logFor(3).entries[0].removed, true);
  assert.equal(store.logFor(3).entries[0].said, undefined);
  assert.deepEqual(changes.at(-1), {type: 'table.chat_removed', table: 3});
});

test('player.renamed: the seat and the chat lines take the new name; my own rename changes the header', () => {
  const {store, changes} = given();
  store.tables.set(3, twoPlayers());
  store.receive('table.chat', {table: 3, id: 1, time: 1, from: {id: BEA.id, name: 'Bea'}, text: 'hola'});
  store.receive('player.renamed', {table: 3, player: {id: BEA.id, name: 'Beatriz'}});
  assert.equal(store.tables.get(3).seats[1].player.name, 'Beatriz');
  assert.equal(entryText(store.logFor(3).entries[0]), 'Beatriz: “hola”');
  assert.equal(changes.at(-1).header, false);
  store.receive('player.renamed', {table: 3, player: {id: ANA.id, name: 'Anita'}});
  assert.equal(store.me.name, 'Anita');
  assert.deepEqual(changes.at(-1), {type: 'player.renamed', table: 3, header: true});
});

test('play.waiting counts the players of the queue I wait in, and only that one', () => {
  const {store, changes} = given();
  store.receive('play.waiting', {queue: '3p-short/live', waiting: 2});
  assert.equal(changes.length, 0);
  store.playNow.waiting = {queue: '3p-short/live', count: 1};
  store.receive('play.waiting', {queue: '4p/live', waiting: 3});
  store.receive('play.waiting', {queue: '3p-short/live', waiting: 2});
  assert.equal(store.playNow.waiting.count, 2);
  assert.deepEqual(changes, [{type: 'play.waiting', lobby: true}]);
});

test('play.matched: no more waiting, the table is remembered and the page is told to go there', () => {
  const {store, changes} = given();
  store.playNow.waiting = {queue: '3p-short/live', count: 2};
  store.receive('play.matched', {table: 12, queue: '3p-short/live'});
  assert.equal(store.playNow.waiting, null);
  assert.equal(store.matchedTable, 12);
  assert.equal(store.playNow.announce, 'A table is ready: 3 players, short game, live clock.');
  assert.deepEqual(changes, [{type: 'play.matched', matched: {table: 12, queue: '3p-short/live'}}]);
});

test('table.rated is kept for the final screen', () => {
  const {store, changes} = given();
  const push = {table: 3, ladder: '2p', changes: []};
  store.receive('table.rated', push);
  assert.equal(store.rated.get(3), push);
  assert.deepEqual(changes, [{type: 'table.rated', table: 3}]);
});

test('my games: my turn first, nearest deadline first, then playing, open, finished; a seat a bot took stays', async () => {
  const mine = (id, status, extra = {}) => ({table: twoPlayers(id, status), seat: 0, my_turn: false, waiting_for: [], ...extra});
  const {store} = given({answers: {'player.games': {games: [
    mine(1, 'finished'), mine(2, 'open'), mine(3, 'playing'),
    mine(4, 'playing', {my_turn: true, deadline: 9000}), mine(5, 'playing', {my_turn: true, deadline: 3000}),
  ]}}});
  store.tables.set(9, table(9, {status: 'playing', seats: seated({kind: 'bot', player: {id: ANA.id, name: 'Ana'}}, player(BEA.id, 'Bea'))}));
  await store.refreshMyGames();
  assert.deepEqual(store.myGames.map((g) => g.table.id), [5, 4, 3, 9, 2, 1]);
  assert.equal(store.myGames.find((g) => g.table.id === 9).former, true);
});

test('my games: a server without player.games hides the list for good', async () => {
  const {store, conn} = given({answers: {'player.games': refusal('unknown_type')}});
  await store.refreshMyGames();
  assert.equal(store.myGames, null);
  await store.refreshMyGames();
  assert.equal(conn.requests.length, 1);
});

test('finished games: the first page, then older pages appended; a new first page keeps the older ones', async () => {
  const page = (ids) => ({games: ids.map((id) => ({id}))});
  const pages = [page([30, 29]), page([28, 27]), page([31, 30])];
  const {store, conn} = given({answers: {'history.list': () => pages.shift()}});
  store.historyPage = 2;
  await store.loadHistory();
  await store.loadHistory({older: true});
  assert.deepEqual(conn.requests.map((r) => r.payload), [{limit: 2}, {limit: 2, before: 29}]);
  assert.deepEqual(store.history.games.map((g) => g.id), [30, 29, 28, 27]);
  assert.equal(store.history.more, true);
  await store.loadHistory();
  assert.deepEqual(store.history.games.map((g) => g.id), [31, 30, 29, 28, 27]);
  assert.equal(store.history.loading, false);
});

test('finished games: a refusal is shown in words; a server without history.list hides them', async () => {
  const {store} = given({answers: {'history.list': refusal('unavailable', 'busy')}});
  await store.loadHistory();
  assert.match(store.history.error, /try again in a moment/);
  assert.equal(store.history.errorTemporary, true);
  const other = given({answers: {'history.list': refusal('unknown_type')}}).store;
  await other.loadHistory();
  assert.equal(other.history.hidden, true);
});

test('play now: play.join waits in the queue named; a refusal says why', async () => {
  const {store, conn} = given({answers: {'play.join': {queue: '2p-automa/daily', waiting: 0}}});
  Object.assign(store.playNow.form, {players: 2, automa: true, clock: 'daily', bots_after: '60'});
  await store.playNowJoin();
  assert.deepEqual(conn.requests[0], {type: 'play.join', payload: {players: 2, short_game: true, automa: true, clock: 'daily', bots_after_seconds: 60}});
  assert.equal(store.playNow.waiting.queue, '2p-automa/daily');
  assert.equal(store.playNow.busy, false);
  const refused = given({answers: {'play.join': refusal('forbidden', 'guests may not')}}).store;
  await refused.playNowJoin();
  assert.equal(refused.playNow.waiting, null);
  assert.equal(refused.playNow.error, 'Could not ask to play now: guests may not join this rated queue. Make an account to play in it.');
  // Any other refusal in the general words of its code.
  const limited = given({answers: {'play.join': refusal('rate_limited', 'slow down')}}).store;
  await limited.playNowJoin();
  assert.equal(limited.playNow.error, 'Could not ask to play now: Too fast: wait a moment and try again.');
});

test('play now: leaving while disconnected counts as left', async () => {
  const {store} = given();
  store.playNow.waiting = {queue: '3p/live', count: 1};
  await store.playNowLeave();
  assert.equal(store.playNow.waiting, null);
  assert.equal(store.playNow.announce, 'You stopped waiting.');
});

test('lobby.subscribe\'s answer replaces the lobby and refreshes the tables known', () => {
  const {store} = given();
  store.tables.set(3, twoPlayers(3, 'open'));
  store.lobbyTables.set(1, twoPlayers(1));
  store.setLobby({tables: [twoPlayers(3, 'playing')], more: true});
  assert.deepEqual([...store.lobbyTables.keys()], [3]);
  assert.equal(store.tables.get(3).status, 'playing');
  assert.equal(store.lobbyMore, true);
});

test('"Older tables" adds the page before the oldest, keeping what pushes brought', async () => {
  const {store, conn} = given({answers: {'lobby.list': {tables: [twoPlayers(2), twoPlayers(5)], more: false}}});
  store.lobbyTables.set(5, twoPlayers(5, 'finished'));
  await store.loadOlderTables();
  assert.deepEqual(conn.requests[0].payload, {before: 5});
  assert.equal(store.lobbyTables.get(5).status, 'finished');
  assert.equal(store.lobbyTables.has(2), true);
  assert.equal(store.lobbyLoading, false);
});

test('another player: what the former one knew is forgotten', () => {
  const {store} = given();
  store.tables.set(3, twoPlayers());
  store.games.set(3, {});
  store.lobbyTables.set(3, twoPlayers());
  store.spectating.add(3);
  store.rated.set(3, {});
  store.playNow.waiting = {queue: 'x'};
  store.myGames = [{}];
  store.history.games = [{id: 1}];
  store.forgetPlayer();
  assert.equal(store.tables.size + store.games.size + store.lobbyTables.size + store.spectating.size + store.rated.size, 0);
  assert.equal(store.playNow.waiting, null);
  assert.deepEqual(store.myGames, []);
  assert.deepEqual(store.history.games, []);
});

test('a subscriber that unsubscribes hears no more', () => {
  const {store} = given();
  const heard = [];
  const stop = store.subscribe((c) => heard.push(c));
  store.receive('table.rated', {table: 1});
  stop();
  store.receive('table.rated', {table: 2});
  assert.equal(heard.length, 1);
});

test('the log is said in the language of the moment: an event logged in English reads in Polish after a change', async () => {
  const {store} = given();
  store.tables.set(3, twoPlayers());
  store.receive('game.update', gameUpdate(3, 1, {}, {events: [{type: 'power_card_played', seat: 1, value: 13}]}));
  const entry = store.logFor(3).entries.at(-1);
  assert.equal(entryText(entry, gameModule()), 'Bea played power card 13.');
  try {
    await useLanguage('pl');
    assert.notEqual(entryText(entry, gameModule()), 'Bea played power card 13.');
    assert.match(entryText(entry, gameModule()), /Bea.*13/);
  } finally {
    await useLanguage('en');
  }
});

test('the create form as table.create: defaults left out, the host\'s choices sent', () => {
  const {store} = given();
  const form = store.createForm;
  const plain = createTablePayload(form);
  assert.equal(plain.turn_seconds, 0);
  assert.deepEqual(Object.keys(plain).sort(), ['options', 'turn_seconds'], 'no name, no policy without a limit, secrets open');
  assert.equal(plain.options.players, form.players);
  const chosen = createTablePayload({...form, name: '  Friday ', turn: 'custom', custom_seconds: '90', on_timeout: 'replace_seat',
    replace_after: 2, keep_secrets: true});
  assert.deepEqual({...chosen, options: undefined}, {options: undefined, name: 'Friday', turn_seconds: 90, on_timeout: 'replace_seat',
    replace_after: 2, secrets_after_end: 'closed'});
  assert.equal(createTablePayload({...form, keep_secrets: false}).secrets_after_end, undefined, 'open is the default: not sent');
});
