// The table's public log (protocol.md#tablelog) merged with the events told live: the page
// asked for at the seam, earlier pages, a log kept from before a reload; no version twice,
// none missing, in the order of versions. Run with `node --test clients/web/test/`.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Store} from '../js/store.js';
import {EventLog, entryText} from '../js/log.js';
import {gameModule} from '../js/games/index.js';
import {FakeConnection, player, seated, table} from './fakes.mjs';

const played = (seat, value) => ({type: 'power_card_played', seat, value});
// A page of table.log: one power card played per version.
const page = (from, to) => Array.from({length: to - from + 1}, (_, i) => ({version: from + i, events: [played((from + i) % 2, 1 + ((from + i) % 13))]}));
const versions = (log) => log.entries.filter((e) => e.event).map((e) => e.version);
const range = (from, to) => Array.from({length: to - from + 1}, (_, i) => from + i);

// The server's table.log over a game at version `last`: pages of `limit` below `before`.
function server(last, answered = []) {
  return (payload) => {
    answered.push(payload);
    const top = Math.min(payload.before ?? last + 1, last + 1) - 1;
    const from = Math.max(0, top - payload.limit + 1);
    return {table: payload.table, entries: page(from, top), more: from > 0};
  };
}

function spectator(answer) {
  const conn = new FakeConnection({'table.log': answer});
  const store = new Store(conn);
  store.me = {id: 9, name: 'Cy'};
  store.tables.set(3, table(3, {seats: seated(player(7, 'Ana'), player(8, 'Bea'))}));
  return {store, conn};
}

const whole = (version, events = []) => ({table: 3, version, events, view: {version, phase: 'power_cards', options: {players: 2}, players: [{}, {}]}});
const patch = (version, events) => ({table: 3, version, base: version - 1, events, patch: {version}});
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('merge: versions the log lacks go in order before the live ones, chat after the events before it, none twice', () => {
  const log = new EventLog(99);
  log.add({version: 5, event: played(0, 3)});
  log.add({chat: true, line: 1, time: 10, from: {id: 7, name: 'Ana'}, said: 'hola'});
  log.add({version: 6, event: played(1, 4)});
  const revision = log.revision;
  const added = log.merge([{version: 5, events: [played(0, 9)]}, {version: 3, events: [played(0, 1)]}, {version: 0, events: []},
    {version: 4, events: [played(1, 2), played(0, 2)]}], (version, event) => ({version, event}));
  assert.equal(added, 2, 'versions 3 and 4; 5 is held, 0 says nothing');
  assert.deepEqual(log.entries.map((e) => e.version ?? 'chat'), [3, 4, 4, 5, 'chat', 6]);
  assert.equal(log.entries[3].event.value, 3, 'the version told live keeps its words');
  assert.ok(log.revision > revision && log.reordered === 1, 'the screen redraws the whole log');
  // Versions between held ones land between them.
  log.merge([{version: 1, events: [played(1, 7)]}, {version: 7, events: [played(0, 8)]}], (version, event) => ({version, event}));
  assert.deepEqual(versions(log), [1, 3, 4, 4, 5, 6, 7]);
});

test('a late spectator: the newest page up to the seam, then live updates after it, whatever comes first', async () => {
  let release;
  const answered = [];
  const {store, conn} = spectator((payload) => new Promise((resolve) => { release = () => resolve(server(40, answered)(payload)); }));
  store.receive('game.update', whole(40));
  store.openLog(3);
  store.openLog(3);  // the screen draws again while the page is on its way: asked once
  assert.deepEqual(conn.requests.map((r) => r.payload), [{table: 3, before: 41, limit: 100}]);
  assert.equal(store.logFor(3).pages.loading, true);
  // A live update comes before the page.
  store.receive('game.update', patch(41, [played(1, 5)]));
  release();
  await settle();
  const log = store.logFor(3);
  assert.deepEqual(versions(log), range(0, 41), 'every version once, in order');
  assert.equal(entryText(log.entries[0], gameModule()), 'Ana played power card 1.', 'worded as live events are');
  assert.deepEqual({...log.pages}, {seam: 40, fetched: 40, from: 0, more: false, loading: false, failed: false, loads: 0, added: 0});
  store.openLog(3);
  assert.equal(conn.requests.length, 1, 'read once for this seam');
});

test('earlier pages down to the start, each from the oldest version read', async () => {
  const answered = [];
  const {store} = spectator(server(250, answered));
  const changes = [];
  store.subscribe((change) => changes.push(change.type));
  store.receive('game.update', whole(250));
  store.openLog(3);
  await settle();
  const log = store.logFor(3);
  assert.deepEqual(versions(log), range(151, 250));
  assert.equal(log.pages.more, true);
  store.openEarlierLog(3);
  await settle();
  assert.deepEqual(versions(log), range(51, 250));
  assert.deepEqual({more: log.pages.more, loads: log.pages.loads, added: log.pages.added}, {more: true, loads: 1, added: 100});
  store.openEarlierLog(3);
  await settle();
  assert.deepEqual(versions(log), range(0, 250));
  assert.deepEqual({more: log.pages.more, loads: log.pages.loads, added: log.pages.added}, {more: false, loads: 2, added: 51});
  store.openEarlierLog(3);
  assert.deepEqual(answered.map((p) => p.before), [251, 151, 51], 'nothing asked after the start');
  assert.ok(changes.includes('table.log'));
});

test('after a reload the log kept fills only what it lacks, and a whole view with events starts below them', async () => {
  const {store, conn} = spectator(server(12));
  const log = store.logFor(3);
  for (const entry of page(2, 6)) log.add({version: entry.version, event: entry.events[0], tone: 'kept'});
  store.receive('game.update', whole(12, [played(0, 13)]));
  assert.equal(log.pages.seam, 11, 'version 12 was told with the view');
  store.openLog(3);
  await settle();
  assert.equal(conn.requests[0].payload.before, 12);
  assert.deepEqual(versions(log), range(0, 12));
  assert.equal(log.entries.filter((e) => e.tone === 'kept').length, 5, 'what the log held stays as it was');
});

test('a page that could not be read is not asked again by itself; the button tries again', async () => {
  let fail = true;
  const {store, conn} = spectator((payload) => (fail ? Promise.reject(Object.assign(new Error('x'), {code: 'internal'})) : server(5)(payload)));
  store.receive('game.update', whole(5));
  store.openLog(3);
  await settle();
  const log = store.logFor(3);
  assert.equal(log.pages.failed, true);
  store.openLog(3);
  assert.equal(conn.requests.length, 1);
  fail = false;
  store.openEarlierLog(3);
  await settle();
  assert.deepEqual(versions(log), range(0, 5));
  assert.equal(log.pages.failed, false);
  // A reconnection's new seam asks for what came since.
  store.receive('game.update', whole(9));
  store.openLog(3);
  await settle();
  assert.deepEqual(conn.requests.at(-1).payload, {table: 3, before: 10, limit: 100});
});
