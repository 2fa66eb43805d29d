// The router: which screen an address names, and which top-bar link is its section.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {isMailedLink, parseRoute, sectionOf, tableHash, tableOf} from '../js/router.js';

test('every address of the client names its screen', () => {
  assert.deepEqual(parseRoute(''), {screen: 'lobby'});
  assert.deepEqual(parseRoute('#/'), {screen: 'lobby'});
  assert.deepEqual(parseRoute('#/table/12'), {screen: 'table', id: 12});
  assert.deepEqual(parseRoute('#/account'), {screen: 'account'});
  assert.deepEqual(parseRoute('#/tournaments'), {screen: 'tournaments'});
  assert.deepEqual(parseRoute('#/tournament/4'), {screen: 'tournament', id: 4});
  assert.deepEqual(parseRoute('#/ratings'), {screen: 'ratings', ladder: null, page: 1});
  assert.deepEqual(parseRoute('#/ratings/4p-short'), {screen: 'ratings', ladder: '4p-short', page: 1});
  assert.deepEqual(parseRoute('#/ratings/2p-automa/3'), {screen: 'ratings', ladder: '2p-automa', page: 3});
  assert.deepEqual(parseRoute('#/player/9'), {screen: 'player', id: 9});
  assert.deepEqual(parseRoute('#/notices'), {screen: 'notices'});
  assert.deepEqual(parseRoute('#/replay/7'), {screen: 'replay', id: 7});
  assert.deepEqual(parseRoute('#/replay/7/31'), {screen: 'replay', id: 7, version: 31});
  assert.equal(sectionOf(parseRoute('#/replay/7/31')), null);
  assert.deepEqual(parseRoute('#/verify-email/Qm9s_ZC-1'), {screen: 'verify-email', token: 'Qm9s_ZC-1'});
  assert.deepEqual(parseRoute('#/reset-password/n3Xw-_9'), {screen: 'reset-password', token: 'n3Xw-_9'});
});

test('a mailed link needs its token, and only a token\'s characters', () => {
  for (const hash of ['#/verify-email', '#/verify-email/', '#/reset-password/', '#/reset-password/a b', '#/verify-email/x/y', '#/notices/x']) {
    assert.deepEqual(parseRoute(hash), {screen: 'lobby'}, hash);
  }
  assert.equal(parseRoute(`#/verify-email/${'a'.repeat(257)}`).screen, 'lobby');
  assert.ok(isMailedLink(parseRoute('#/verify-email/abc')));
  assert.ok(isMailedLink(parseRoute('#/reset-password/abc')));
  assert.ok(!isMailedLink(parseRoute('#/notices')));
  assert.ok(!isMailedLink(parseRoute('#/account')));
});

test('an address the client does not know shows the lobby', () => {
  for (const hash of ['#/nowhere', '#/table/', '#/table/abc', '#/ratings/2p/x', '#/player/', '#app', '#/tournament/']) {
    assert.deepEqual(parseRoute(hash), {screen: 'lobby'}, hash);
  }
});

test('a tournament\'s address is not the list, nor the list\'s a tournament', () => {
  assert.equal(parseRoute('#/tournaments/').screen, 'tournaments');
  assert.equal(parseRoute('#/tournament/7/rounds').screen, 'tournament');
});

test('the section of each screen: a table is under none', () => {
  const section = (hash) => sectionOf(parseRoute(hash));
  assert.equal(section('#/'), '#/');
  assert.equal(section('#/account'), '#/account');
  assert.equal(section('#/notices'), '#/account');
  assert.equal(section('#/verify-email/abc'), null);
  assert.equal(section('#/reset-password/abc'), null);
  assert.equal(section('#/tournaments'), '#/tournaments');
  assert.equal(section('#/tournament/3'), '#/tournaments');
  assert.equal(section('#/ratings/3p'), '#/ratings');
  assert.equal(section('#/player/3'), '#/ratings');
  assert.equal(section('#/table/3'), null);
});

test('the table of a route, and a table\'s address', () => {
  assert.equal(tableOf(parseRoute('#/table/8')), 8);
  assert.equal(tableOf(parseRoute('#/account')), null);
  assert.equal(tableHash(8), '#/table/8');
  assert.deepEqual(parseRoute(tableHash(8)), {screen: 'table', id: 8});
});
