// The event log of each table, kept in the browser: the server does not replay missed
// events after a reconnection, so a reload would otherwise start with an empty log.

import {t} from './i18n.js';

const PREFIX = 'elgrande.log.';
const MAX_ENTRIES = 400;
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
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
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
      localStorage.setItem(this.key, JSON.stringify(this.entries));
      pruneOldLogs(this.key);
    } catch {
      // A full storage only costs the log after a reload.
    }
  }
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
