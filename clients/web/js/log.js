// The event log of each table, kept in the browser across reloads, and filled with the
// table's public log (protocol.md#tablelog) for what this page did not hear live.

import {t} from './i18n.js';

const PREFIX = 'elgrande.log.';
const MAX_ENTRIES = 400;  // kept across reloads; the server gives the rest again
const MAX_HELD = 4000;  // held while the page is open: a whole game, with its chat
const MAX_TABLES = 12;

// A chat line as the log shows it.
function chatText(name, said) {
  return t('log.chat', {name, said});
}

// What a chat line a moderator removed shows in place of its text.
export function removedText() {
  return t('log.removed');
}

// A chat entry's text, whether it still says something or a moderator removed it.
export function chatEntryText(entry) {
  return entry.removed ? t('log.chat.removed', {name: entry.from.name}) : chatText(entry.from.name, entry.said);
}

// An entry in words, said when it is drawn, so that the log follows a change of language: a
// game's event by its game module, a chat line, a note by its key; an entry stored by an
// older client keeps the words it was stored with.
export function entryText(entry, game) {
  if (entry.event && game) return game.eventText(entry.event, {names: entry.names, options: entry.options});
  if (entry.chat && entry.from && (entry.said !== undefined || entry.removed)) return chatEntryText(entry);
  if (entry.key) return t(entry.key);
  return entry.text ?? '';
}

export class EventLog {
  constructor(tableId) {
    this.key = PREFIX + tableId;
    this.entries = [];
    this.revision = 0;
    this.reordered = 0;  // changes other than entries added at the end: the screen redraws all
    // The pages of the table's public log: `seam` the version of this connection's first
    // update (store.js), `fetched` the seam whose newest page came, `from` the lowest version
    // of the pages read down from it, `more` whether older ones exist; `loads` counts the
    // earlier pages, `added` the moves the last one added.
    this.pages = {seam: null, fetched: null, from: null, more: false, loading: false, failed: false, loads: 0, added: 0};
    try {
      const stored = JSON.parse(localStorage.getItem(this.key) || '[]');
      if (Array.isArray(stored)) this.entries = stored;
    } catch {
      this.entries = [];
    }
  }

  get lastVersion() {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      if (Number.isInteger(this.entries[i].version)) return this.entries[i].version;
    }
    return -1;
  }

  add(entry) {
    this.entries.push(entry);
    this.revision++;
    if (this.entries.length > MAX_HELD) this.entries.splice(0, this.entries.length - MAX_HELD);
  }

  // Adds the entries of a page of table.log ({version, events}) this log lacks, each event
  // made an entry by `entryOf(version, event)`; returns how many versions (moves) it added.
  // A version the log holds already stays as it is: told live, or kept from before a reload,
  // it may say the viewer's own secrets. A new one goes after the last event of an older
  // version (at the start if none), so events stay in the order of their versions and chat
  // said meanwhile stays after them.
  merge(page, entryOf) {
    const held = new Set(this.entries.filter((e) => Number.isInteger(e.version)).map((e) => e.version));
    let added = 0;
    for (const {version, events} of [...page].sort((a, b) => a.version - b.version)) {
      if (held.has(version) || !events || !events.length) continue;
      let at = this.entries.length;
      while (at > 0 && !(Number.isInteger(this.entries[at - 1].version) && this.entries[at - 1].version < version)) at--;
      this.entries.splice(at, 0, ...events.map((event) => entryOf(version, event)));
      held.add(version);
      added++;
    }
    if (added) {
      this.revision++;
      this.reordered++;
    }
    return added;
  }

  // The player's chat lines take their new name; false when none is theirs.
  rename(player) {
    let changed = false;
    for (const entry of this.entries) {
      if (!entry.chat || !entry.from || entry.from.id !== player.id || entry.from.name === player.name) continue;
      entry.from = {...entry.from, name: player.name};
      changed = true;
    }
    if (changed) this.revision++;
    return changed;
  }

  // The chat line `id` (protocol.md, table.chat_removed) keeps its place but loses its
  // text; false when this log does not show it, or shows it removed already.
  removeLine(id) {
    const entry = this.entries.find((e) => e.chat && e.line === id);
    if (!entry || entry.removed) return false;
    entry.removed = true;
    delete entry.said;
    this.revision++;
    return true;
  }

  save() {
    try {
      localStorage.setItem(this.key, JSON.stringify(newest(this.entries)));
      pruneOldLogs(this.key);
    } catch {
      // A full storage only costs the log after a reload.
    }
  }
}

// The newest entries kept across reloads, cut between versions: a version kept in part
// would keep the page from asking the server for the rest of it (merge).
function newest(entries) {
  let at = Math.max(0, entries.length - MAX_ENTRIES);
  const cut = at > 0 ? entries[at - 1].version : undefined;
  while (cut !== undefined && at < entries.length && entries[at].version === cut) at++;
  return entries.slice(at);
}

function pruneOldLogs(keep) {
  const keys = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith(PREFIX) && key !== keep) keys.push(key);
  }
  keys.sort((a, b) => Number(a.slice(PREFIX.length)) - Number(b.slice(PREFIX.length)));
  while (keys.length >= MAX_TABLES) localStorage.removeItem(keys.shift());
}
