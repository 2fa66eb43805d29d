// The ICU MessageFormat subset of the catalogs, as ICU reads it.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {argumentNames, formatMessage, formatParts, MessageSyntaxError, parseMessage, pluralArguments} from '../js/messageformat.js';

const say = (source, params, locale = 'en') => formatMessage(parseMessage(source), params, locale);

test('arguments, numbers in the language\'s forms, and missing ones shown as written', () => {
  assert.equal(say('Hello {name}!', {name: 'Ana'}), 'Hello Ana!');
  assert.equal(say('{n} points', {n: 12345}), '12,345 points');
  assert.equal(say('{n} pont', {n: 12345}, 'hu'), '12\u00a0345 pont');
  assert.equal(say('{n, number, percent}', {n: 0.25}, 'de'), '25\u00a0%');
  assert.equal(say('Hello {name}', {}), 'Hello {name}');
});

test('plural: Polish has one, few and many; Hungarian one form after numerals', () => {
  const pl = '{n, plural, one {# caballero} few {# caballeros} many {# caballerów} other {# caballera}}';
  assert.deepEqual([1, 2, 5, 22, 25, 1.5].map((n) => say(pl, {n}, 'pl')),
    ['1 caballero', '2 caballeros', '5 caballerów', '22 caballeros', '25 caballerów', '1,5 caballera']);
  assert.equal(say('{n, plural, one {# kör} other {# kör}}', {n: 3}, 'hu'), '3 kör');
  assert.equal(say('{n, plural, =0 {none} one {one} other {#}}', {n: 0}), 'none');
  assert.equal(say('{n, plural, offset:1 =0 {nobody} one {{name} alone} other {{name} and # others}}', {n: 3, name: 'Ana'}), 'Ana and 2 others');
});

test('selectordinal and select', () => {
  const place = '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}';
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map((n) => say(place, {n})),
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']);
  assert.equal(say('{n, selectordinal, other {#.}}', {n: 3}, 'de'), '3.');
  assert.equal(say('{who, select, me {You} other {{who}}} won', {who: 'me'}), 'You won');
  assert.equal(say('{who, select, me {You} other {{who}}} won', {who: 'Bea'}), 'Bea won');
});

test('dates in the language\'s own form', () => {
  const when = Date.UTC(2026, 10, 28, 14, 0);
  assert.match(say('{t, date, long}', {t: when}, 'pl'), /28 listopada 2026/);
  assert.match(say('{t, date, long}', {t: when}, 'hu'), /2026\. november 28\./);
  // A pattern, as the server's letters use with ICU, parses; the client says it in its medium style.
  assert.match(say('at {t, date,yyyy-MM-dd HH:mm} UTC', {t: when}), /^at Nov 28, 2026 UTC$/);
});

test('apostrophes: doubled is one, before a brace it quotes', () => {
  assert.equal(say('Don\'t wait'), 'Don\'t wait');
  assert.equal(say('It\'\'s {x}', {x: 1}), 'It\'s 1');
  assert.equal(say('A brace: \'{\'x\'}\''), 'A brace: {x}');
  assert.equal(say('{n, plural, other {# in \'#\'}}', {n: 2}), '2 in #');
});

test('parameters that are elements stay elements among the parts', () => {
  const name = {textContent: 'Ana'};
  assert.deepEqual(formatParts(parseMessage('{who} plays'), {who: name}, 'en'), [name, ' plays']);
  assert.equal(formatMessage(parseMessage('{who} plays'), {who: name}, 'en'), 'Ana plays');
});

test('what the catalog check reads of a message', () => {
  const tree = parseMessage('{name}: {n, plural, one {# card of {suit}} other {# cards}}');
  assert.deepEqual([...argumentNames(tree)].sort(), ['n', 'name', 'suit']);
  assert.deepEqual(pluralArguments(tree), [{arg: 'n', type: 'plural', cases: ['one', 'other']}]);
});

test('malformed messages are refused with the place', () => {
  for (const bad of ['{', '{n, plural, one {x}}', '{n, frobnicate}', '{1x}', 'a } b', '{n, plural, one {x} one {y} other {z}}']) {
    assert.throws(() => parseMessage(bad), MessageSyntaxError, bad);
  }
});
