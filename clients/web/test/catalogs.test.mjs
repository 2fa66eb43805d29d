// The catalogs (lang/*.json, docs/translating.md): every language offered has every key of
// the English source, each message parses, names the same parameters, and has every plural
// form its language needs; files are sorted by key, so that merges and reviews stay easy.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {LANG_DIR} from './english.mjs';
import {LANGUAGES, SOURCE_LANGUAGE} from '../js/i18n.js';
import {argumentNames, parseMessage, pluralArguments} from '../js/messageformat.js';

const files = readdirSync(LANG_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length));
const text = (code) => readFileSync(new URL(`${code}.json`, LANG_DIR), 'utf8');
const catalog = (code) => JSON.parse(text(code));
const messages = (code) => Object.entries(catalog(code)).filter(([key]) => !key.startsWith('@'));

// What is wrong with one language's catalog against the source, one line each.
export function catalogFaults(code, source, own) {
  const faults = [];
  const sourceKeys = new Map(source);
  const cardinal = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  const ordinal = new Intl.PluralRules(code, {type: 'ordinal'}).resolvedOptions().pluralCategories;
  for (const key of sourceKeys.keys()) if (!own.some(([k]) => k === key)) faults.push(`${code}: missing ${key}`);
  for (const [key, value] of own) {
    if (!sourceKeys.has(key)) faults.push(`${code}: ${key} is not in the English catalog`);
    if (typeof value !== 'string') {
      faults.push(`${code}: ${key} is not a string`);
      continue;
    }
    let tree;
    try {
      tree = parseMessage(value);
    } catch (err) {
      faults.push(`${code}: ${key} does not parse: ${err.message}`);
      continue;
    }
    if (sourceKeys.has(key)) {
      const want = [...argumentNames(parseMessage(sourceKeys.get(key)))].sort().join(', ');
      const have = [...argumentNames(tree)].sort().join(', ');
      if (want !== have) faults.push(`${code}: ${key} names {${have}}, English {${want}}`);
    }
    for (const {arg, type, cases} of pluralArguments(tree)) {
      const needed = type === 'plural' ? cardinal : ordinal;
      const lacking = needed.filter((category) => !cases.includes(category));
      if (lacking.length) faults.push(`${code}: ${key}: {${arg}, ${type}} lacks ${lacking.join(', ')}`);
    }
  }
  return faults;
}

test('the source catalog parses and has every plural form English needs', () => {
  assert.deepEqual(catalogFaults(SOURCE_LANGUAGE, messages(SOURCE_LANGUAGE), messages(SOURCE_LANGUAGE)), []);
});

test('every language offered has every key, parameter and plural form', () => {
  const source = messages(SOURCE_LANGUAGE);
  for (const code of Object.keys(LANGUAGES)) {
    assert.ok(files.includes(code), `lang/${code}.json exists`);
    assert.deepEqual(catalogFaults(code, source, messages(code)), []);
  }
});

test('each catalog names its language by its own name, as the picker does', () => {
  for (const code of Object.keys(LANGUAGES)) assert.equal(catalog(code)['@language'], LANGUAGES[code]);
});

test('catalogs are sorted by key, one per line, two spaces in', () => {
  for (const code of files) {
    const entries = Object.entries(catalog(code));
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    assert.equal(text(code), `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`,
      `lang/${code}.json is not in order: node scripts/sort-catalogs.mjs`);
  }
});

test('the check sees a missing key, a wrong parameter and a missing plural form', () => {
  const source = [['a', 'Hi {name}'], ['b', '{n, plural, one {# day} other {# days}}']];
  assert.deepEqual(catalogFaults('pl', source, [['a', 'Cześć {imie}'], ['b', '{n, plural, one {# dzień} other {# dni}}']]), [
    'pl: a names {imie}, English {name}',
    'pl: b: {n, plural} lacks few, many',
  ]);
  assert.deepEqual(catalogFaults('pl', source, [['a', 'Cześć {name']]), [
    'pl: missing b', 'pl: a does not parse: expected \',\' at 11 of "Cześć {name"',
  ]);
});
