// Notices without DOM: address checks, the VAPID key's bytes, the preferences sent.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {
  addressProblem, badTokenText, base64UrlToBytes, noticeRefusal, preferencesShown, preferencesToSave, subscribePayload,
} from '../js/noticewords.js';

test('an address as a person types it passes; what a header could be injected with does not', () => {
  for (const good of ['ana@example.org', 'ana.p+elgrande@mail.example.co.uk', "o'hara@x.ie", 'A_1@b-c.de']) {
    assert.equal(addressProblem(good), null, good);
  }
  for (const bad of ['', 'ana', 'ana@', '@example.org', 'a b@example.org', 'ana@exa mple.org', '"ana"@example.org',
    'ana@[127.0.0.1]', 'ana..p@example.org', '.ana@example.org', 'ana@example.org\r\nBcc: x@y.z', `${'a'.repeat(65)}@x.org`,
    `a@${'b'.repeat(250)}.org`]) {
    assert.notEqual(addressProblem(bad), null, JSON.stringify(bad));
  }
});

test('base64url becomes the bytes of the key, with or without padding', () => {
  assert.deepEqual([...base64UrlToBytes('')], []);
  assert.deepEqual([...base64UrlToBytes('AQID')], [1, 2, 3]);
  assert.deepEqual([...base64UrlToBytes('_-8')], [0xff, 0xef]);
  assert.deepEqual([...base64UrlToBytes('_-8=')], [0xff, 0xef]);
  assert.deepEqual([...base64UrlToBytes('AA')], [0]);
  // A P-256 public key, uncompressed: 65 bytes starting with 4.
  const key = base64UrlToBytes('BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM');
  assert.ok(key instanceof Uint8Array);
  assert.equal(key.length, 65);
  assert.equal(key[0], 4);
  for (const bad of ['a+b/', 'abc!', 'A']) assert.throws(() => base64UrlToBytes(bad), /base64url/, bad);
});

test('the form shows what the server left out as on, and saves every kind with the games kept', () => {
  const loaded = {turn: {mail: false, push: true}, digest: true, games: {17: {mail: false, push: true}}};
  const shown = preferencesShown(loaded);
  assert.deepEqual(shown, {
    digest: true, turn: {mail: false, push: true}, game_ended: {mail: true, push: true}, tournament: {mail: true, push: true},
  });
  assert.deepEqual(preferencesShown(undefined).digest, false);
  const saved = preferencesToSave(loaded, {...shown, tournament: {mail: true, push: false}, digest: false});
  assert.deepEqual(saved, {
    turn: {mail: false, push: true}, game_ended: {mail: true, push: true}, tournament: {mail: true, push: false},
    digest: false, games: {17: {mail: false, push: true}},
  });
  assert.notEqual(saved.games, loaded.games);
  assert.deepEqual(preferencesToSave(null, {}).games, {});
});

test('a subscription is sent as the server reads it', () => {
  const json = {endpoint: 'https://push.example/abc', expirationTime: null, keys: {p256dh: 'BAA', auth: 'xyz'}};
  assert.deepEqual(subscribePayload(json, 'Chrome on Android'),
    {endpoint: 'https://push.example/abc', keys: {p256dh: 'BAA', auth: 'xyz'}, device: 'Chrome on Android'});
});

test('a used, expired or unknown link says so in one sentence', () => {
  assert.equal(noticeRefusal({code: 'bad_token', message: 'this link was used already'}), badTokenText());
  assert.match(noticeRefusal({code: 'limit_reached', message: 'x'}), /20 devices/);
  assert.match(noticeRefusal({code: 'not_found', message: 'you have no such device'}), /no such device/);
});

test('a game of its own: the menu reads and writes its channels, and "as for all games" drops them', async () => {
  const {GAME_CHOICES, channelsOfChoice, choiceOfChannels} = await import('../js/noticewords.js');
  for (const [choice] of GAME_CHOICES) {
    const channels = channelsOfChoice(choice);
    assert.equal(choiceOfChannels(channels), choice, `${choice} reads back`);
  }
  assert.equal(choiceOfChannels(undefined), 'account');
  assert.deepEqual(channelsOfChoice('push'), {mail: false, push: true});
  const loaded = {games: {'7': {mail: false, push: false}, '9': {mail: true, push: false}}};
  const saved = preferencesToSave(loaded, {games: {'7': 'account', '12': 'push'}});
  assert.deepEqual(saved.games, {'9': {mail: true, push: false}, '12': {mail: false, push: true}},
    'a game set back is dropped, one not shown is kept, a new choice is added');
});
