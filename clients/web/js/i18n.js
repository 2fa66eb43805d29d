// The client's words in the player's language (docs/translating.md). Every text a person
// reads is a key of the catalogs in lang/ (one JSON file per language, English the source),
// formatted by messageformat.js: t('lobby.title'), t('seat.waits', {name, n}). A key a
// language lacks is said in English, and counted in missingKeys for the checks.
//
// The language: the one chosen on this device (settings), else the account's, else the
// first of the browser's preferred languages that the client speaks, else English.

import {formatMessage, formatParts, parseMessage} from './messageformat.js';

// The languages offered, by their own names. Adding one: its lang/<code>.json and a line here.
export const LANGUAGES = {
  en: 'English',
  pl: 'Polski',
  hu: 'Magyar',
  de: 'Deutsch',
};
export const SOURCE_LANGUAGE = 'en';

const catalogs = new Map();  // code → {key: source string}
const parsed = new Map();    // `${code}|${key}` → the message's tree
export const missingKeys = new Set();
let current = SOURCE_LANGUAGE;
const listeners = new Set();

// How catalogs are read: fetched beside the page; Node's tests read the files instead.
let readCatalog = async (code) => {
  const response = await fetch(new URL(`../lang/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`lang/${code}.json: ${response.status}`);
  return response.json();
};
export function setCatalogReader(reader) {
  readCatalog = reader;
}

export function language() {
  return current;
}

// The language to speak, from this device's choice, the account's and the browser's list.
export function chooseLanguage({chosen = null, account = null, preferred = []} = {}) {
  for (const code of [chosen, account]) if (code && code in LANGUAGES) return code;
  for (const tag of preferred) {
    const code = String(tag).toLowerCase().split('-')[0];
    if (code in LANGUAGES) return code;
  }
  return SOURCE_LANGUAGE;
}

async function load(code) {
  if (!catalogs.has(code)) catalogs.set(code, await readCatalog(code));
}

// Speaks `code` from now on (after its catalog is read): the page's lang, then each listener
// (the app draws its screen again).
export async function useLanguage(code) {
  if (!(code in LANGUAGES)) code = SOURCE_LANGUAGE;
  await Promise.all([load(SOURCE_LANGUAGE), load(code)]);
  current = code;
  if (globalThis.document) document.documentElement.lang = code;
  for (const listener of listeners) listener(code);
}

export function onLanguage(listener) {
  listeners.add(listener);
}

function message(key, code) {
  const id = `${code}|${key}`;
  if (parsed.has(id)) return parsed.get(id);
  const source = catalogs.get(code)?.[key];
  if (typeof source !== 'string') return null;
  let tree;
  try {
    tree = parseMessage(source);
  } catch {
    tree = null;  // the catalog check names it; the player reads English meanwhile
  }
  parsed.set(id, tree);
  return tree;
}

function lookup(key) {
  const own = message(key, current);
  if (own) return [own, current];
  if (current !== SOURCE_LANGUAGE) missingKeys.add(`${current}:${key}`);
  const source = message(key, SOURCE_LANGUAGE);
  if (source) return [source, SOURCE_LANGUAGE];
  missingKeys.add(`${SOURCE_LANGUAGE}:${key}`);
  return [[key], SOURCE_LANGUAGE];
}

// The text of `key` with its parameters.
export function t(key, params) {
  const [tree, code] = lookup(key);
  return formatMessage(tree, params, code);
}

// The same as parts, so that parameters may be elements: h('p', null, ...tParts(key, {name: h('b', null, name)})).
export function tParts(key, params) {
  const [tree, code] = lookup(key);
  return formatParts(tree, params, code);
}

// Whether the catalog has `key` (for texts chosen by a code from the server, with a fallback).
export function hasKey(key) {
  return message(key, current) !== null || message(key, SOURCE_LANGUAGE) !== null;
}

// Numbers, dates, lists and relative times in the language's own forms.
const cache = new Map();
function intl(kind, options = {}) {
  const key = `${kind}|${current}|${JSON.stringify(options)}`;
  if (!cache.has(key)) cache.set(key, new Intl[kind](current, options));
  return cache.get(key);
}

export function formatNumber(n, options) {
  return intl('NumberFormat', options).format(n);
}

export function formatDate(ms, options = {dateStyle: 'medium', timeStyle: 'short'}) {
  return intl('DateTimeFormat', options).format(new Date(ms));
}

export function formatList(items, type = 'conjunction') {
  return intl('ListFormat', {style: 'long', type}).format(items.map(String));
}

export function formatRelative(value, unit, options = {numeric: 'auto'}) {
  return intl('RelativeTimeFormat', options).format(value, unit);
}

// "3 days", "1 h" in the language's words: Intl's unit style has every plural form.
export function formatUnit(n, unit, unitDisplay = 'long') {
  return intl('NumberFormat', {style: 'unit', unit, unitDisplay}).format(n);
}
