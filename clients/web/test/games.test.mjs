// The shell knows a game only through its client module (docs/modules.md#the-web-client): the registry
// hands out El Grande's with every member the shell calls, no shell file imports a game's own
// files, and the service worker caches every module, the games' too.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, readdirSync} from 'node:fs';
import {dirname, join, relative, resolve, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {runInNewContext} from 'node:vm';
import {DEFAULT_GAME, gameModule, gameModules, gameOf} from '../js/games/index.js';
import {LADDERS} from '../js/games/elgrande/texts.js';
import {table} from './fakes.mjs';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const JS = join(WEB, 'js');

// Each member the shell uses, and what it is.
const MEMBERS = {
  id: 'string', name: 'string', defaultLadder: 'string',
  defaultOptions: 'function', optionsForm: 'function', formOptions: 'function', optionsText: 'function',
  seatColour: 'function', ladderGroups: 'function', ladderName: 'function', ladderOf: 'function',
  eventText: 'function', eventTone: 'function', eventInvolves: 'function', decisionText: 'function',
  createScreen: 'function', finalScreen: 'function', replayBoard: 'function', replaySeats: 'function', describeCommand: 'function',
};

test('the registry: El Grande by default, by its id and for a table that names no game', () => {
  const game = gameModule();
  assert.equal(DEFAULT_GAME, 'el-grande');
  assert.equal(game.id, 'el-grande');
  assert.equal(game.name, 'El Grande');
  assert.equal(gameModule('el-grande'), game);
  assert.equal(gameOf(table(1)), game);
  assert.equal(gameOf(null), game);
  assert.deepEqual(gameModules(), [game]);
  assert.throws(() => gameModule('chess'), /no client module for the game “chess”/);
});

test('every game module has the members the shell uses, and no others', () => {
  for (const game of gameModules()) {
    for (const [member, type] of Object.entries(MEMBERS)) {
      assert.equal(typeof game[member], type, `${game.id}.${member} is a ${type}`);
    }
    assert.deepEqual(Object.keys(game).sort(), Object.keys(MEMBERS).sort(), `${game.id} has no member the shell does not know`);
  }
});

test('El Grande\'s options for each form, and in words', () => {
  const game = gameModule();
  assert.deepEqual(game.defaultOptions('table'), {players: 3, short_game: false, automa: false, four_stacks: false, edition: '2023'});
  assert.notEqual(game.defaultOptions('play'), game.defaultOptions('play'), 'a new object each call');
  const form = {players: 3, short_game: true, automa: true, four_stacks: false, edition: '2023', name: 'x', turn: '0'};
  assert.deepEqual(game.formOptions(form, 'table'), {players: 3, short_game: true, automa: true, four_stacks: false, edition: '2023'});
  assert.deepEqual(game.formOptions(form, 'play'), {players: 3, short_game: true, automa: false});
  assert.deepEqual(game.formOptions(form, 'tournament'), {short_game: true});
  assert.equal(game.optionsText({players: 2, automa: true, short_game: true, edition: '1995'}),
    '2 players · with the automa · short game (6 rounds) · 1995 rules');
  assert.equal(game.optionsText({short_game: false}, 'tournament'), 'Full game');
  assert.equal(game.seatColour(0, {players: 3}).name, 'blue');
  assert.equal(game.seatColour(2, {players: 2, automa: true}).name, 'grey');
});

test('El Grande\'s ladders, events and decisions in words', () => {
  const game = gameModule();
  const groups = game.ladderGroups();
  assert.deepEqual(groups.map((g) => g.title), ['Full game', 'Short game (6 rounds)']);
  assert.deepEqual(groups.flatMap((g) => g.ladders.map(([ladder]) => ladder)), LADDERS);
  assert.deepEqual(groups[1].ladders[0], ['2p-short', '2 players']);
  assert.ok(LADDERS.includes(game.defaultLadder));
  assert.equal(game.ladderName(game.ladderOf({players: 4, short_game: true})), '4 players, short game');
  assert.equal(game.eventText({type: 'king_moved', from: 'aragon', to: 'granada'}, {names: []}),
    'The king moved from Aragón to Granada.');
  assert.equal(game.eventTone({type: 'king_moved'}), 'alert');
  assert.equal(game.eventInvolves({type: 'veto_laid', seat: 1}, 1), true);
  assert.equal(game.decisionText('power_card'), 'play a power card');
  assert.equal(game.decisionText('no_such_kind'), null);
});

// --- The layout: which file may import which ------------------------------------------------

function jsFiles(dir = JS) {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? jsFiles(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : []);
}

// The files a module imports (static or dynamic), resolved to paths.
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s));
}

// The imports that cross into a game's own files from outside it: only js/games/index.js, the
// registry, may import a game, and only its index.js. `imports`: file → the paths it imports.
function breaches(imports) {
  const games = join(JS, 'games') + sep;
  const registry = join(JS, 'games', 'index.js');
  const gameOfPath = (path) => (path.startsWith(games) ? relative(games, path).split(sep)[0] : null);
  const out = [];
  for (const [file, targets] of imports) {
    for (const target of targets) {
      const game = gameOfPath(target);
      if (!game || target === registry) continue;
      if (file !== registry && gameOfPath(file) === game) continue;  // within the game
      if (file === registry && target === join(games, game, 'index.js')) continue;
      out.push(`${relative(WEB, file)} imports ${relative(WEB, target)}`);
    }
  }
  return out;
}

test('no shell file imports a game\'s files but through js/games/index.js', () => {
  assert.deepEqual(breaches(new Map(jsFiles().map((f) => [f, importsOf(f)]))), []);
  // The check sees each kind of breach.
  const lobby = join(JS, 'lobby.js');
  const board = join(JS, 'games', 'elgrande', 'board.js');
  const registry = join(JS, 'games', 'index.js');
  assert.deepEqual(breaches(new Map([[lobby, [board]], [registry, [board]], [board, [join(JS, 'games', 'other', 'x.js')]]])), [
    'js/lobby.js imports js/games/elgrande/board.js',
    'js/games/index.js imports js/games/elgrande/board.js',
    'js/games/elgrande/board.js imports js/games/other/x.js',
  ]);
  assert.ok(importsOf(lobby).includes(registry), 'the lobby reaches the game through the registry');
});

test('the service worker caches every module of js/, the games\' too', () => {
  const sw = readFileSync(join(WEB, 'sw.js'), 'utf8');
  const listed = new Set([...sw.matchAll(/'(js\/[^']+)'/g)].map((m) => m[1]));
  const files = jsFiles().map((f) => relative(WEB, f).split(sep).join('/'));
  assert.deepEqual(files.filter((f) => !listed.has(f)), [], 'every module is cached');
  assert.deepEqual([...listed].filter((f) => !files.includes(f)), [], 'every cached module exists');
});

test('the service worker\'s script runs to its end and listens for what it serves', () => {
  const listened = [];
  const self = {registration: {scope: 'https://play.example.net/'}, addEventListener: (type) => listened.push(type)};
  // As a browser runs it: its own global scope, where `self` is the worker.
  runInNewContext(readFileSync(join(WEB, 'sw.js'), 'utf8'), {self, URL, caches: {}, fetch: () => {}});
  assert.deepEqual(listened.sort(), ['activate', 'fetch', 'install', 'notificationclick', 'push']);
});
