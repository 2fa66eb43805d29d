// The game screen's event log: the table's events and chat in words, newest last, and at its
// top the "Earlier moves" button that reads older pages of the table's public log
// (store.js, openEarlierLog) until the start of the game.

import {h, clear, replaceKeepingFocus} from '../../dom.js';
import {describeEvent} from './texts.js';
import {t, tParts} from '../../i18n.js';
import {playerButton} from '../../blocks.js';
import {entryText, removedText} from '../../log.js';

export class LogPanel {
  constructor(app, tableId) {
    this.app = app;
    this.tableId = tableId;
    this.lastLog = null;
    this.lastLogRevision = -1;
    this.lastReordered = -1;
    this.announcedLoads = 0;
    this.head = h('div', {class: 'log-head'});
    this.list = h('ol', {class: 'log-list', 'data-testid': 'log'});
    // The log follows the newest entry unless the reader scrolled up to read older ones. It
    // scrolls by itself, so it takes focus for the keyboard's arrows; new entries are told by
    // the announcer, not by the list (a live list would repeat itself on every redraw).
    this.box = h('div', {class: 'log', tabindex: 0, role: 'region', 'aria-labelledby': 'log-title'}, this.head, this.list);
    this.sticks = true;
    this.box.addEventListener('scroll', () => {
      this.sticks = this.box.scrollHeight - this.box.scrollTop - this.box.clientHeight < 30;
    });
  }

  // Draws the log; returns the texts to announce: entries added since the last call, or how
  // many moves an earlier page added. Entries only added are appended; anything else (an
  // earlier page, a rename, a removed line, a block, another table's log) redraws the list.
  render() {
    const store = this.app.store;
    store.openLog(this.tableId);
    const log = store.logFor(this.tableId);
    this.renderHead(log);
    // A block hides the player's lines already here; the server sends no new ones.
    const blocks = this.app.blocks;
    if (log === this.lastLog && log.revision === this.lastLogRevision && blocks.revision === this.lastBlocksRevision) return this.loadNews(log);
    const same = log === this.lastLog && blocks.revision === this.lastBlocksRevision && log.reordered === this.lastReordered;
    const at = same ? log.entries.lastIndexOf(this.lastLogEntry) : -1;
    // Each entry added counts one revision (log.js); any other change counts too.
    const added = at >= 0 && log.revision - this.lastLogRevision === log.entries.length - 1 - at ? log.entries.slice(at + 1) : null;
    const shown = (entry) => !(entry.from && blocks.has(entry.from.id));
    if (added) {
      for (const entry of added.filter(shown)) this.list.append(this.line(entry));
    } else {
      // An earlier page lands above what the reader was reading: it stays where it was.
      const below = this.box.scrollHeight - this.box.scrollTop;
      clear(this.list);
      if (!log.entries.length && !log.pages.loading) this.list.append(h('li', {class: 'log-entry muted'}, t('elgrande.log.empty')));
      for (const entry of log.entries.filter(shown)) this.list.append(this.line(entry));
      if (!this.sticks) this.box.scrollTop = this.box.scrollHeight - below;
    }
    this.lastLog = log;
    this.lastLogRevision = log.revision;
    this.lastReordered = log.reordered;
    this.lastLogEntry = log.entries.at(-1);
    this.lastBlocksRevision = blocks.revision;
    return [...(added ? added.filter(shown).map((entry) => entryText(entry, WORDS)) : []), ...this.loadNews(log)];
  }

  // How many moves the last earlier page added, said once.
  loadNews(log) {
    if (log.pages.loads === this.announcedLoads) return [];
    this.announcedLoads = log.pages.loads;
    return [t('elgrande.log.added', {n: log.pages.added})];
  }

  // Above the entries: the button for the page before them, that the page is on its way or
  // could not be read, or that the log starts with the game.
  renderHead(log) {
    const pages = log.pages;
    const read = pages.seam !== null && pages.fetched === pages.seam;
    // While its page loads the button stays, so that it keeps the focus, and does nothing.
    const button = (key, busy) => h('button', {
      type: 'button', class: 'secondary log-earlier', 'data-testid': 'log-earlier', 'aria-disabled': busy ? 'true' : 'false',
      onClick: () => this.app.store.openEarlierLog(this.tableId),
    }, t(key));
    const note = (key, testid, tone = 'muted') => h('p', {class: `log-note ${tone}`, 'data-testid': testid}, t(key));
    let parts = [];
    if (pages.loading) parts = [read ? button('elgrande.log.loading', true) : note('elgrande.log.loading', 'log-loading')];
    else if (pages.failed) parts = [note('elgrande.log.failed', 'log-failed', 'error'), button('elgrande.log.try_again', false)];
    else if (read && pages.more) parts = [button('elgrande.log.earlier', false)];
    else if (read && log.entries.length) parts = [note('elgrande.log.start', 'log-start')];
    const key = parts.map((part) => `${part.dataset.testid}:${part.textContent}`).join('|');
    if (key === this.headKey) return;
    this.headKey = key;
    const focused = this.head.contains(document.activeElement);
    replaceKeepingFocus(this.head, ...parts);
    // The last page read, the button gives way to the start line: the focus stays in the log.
    if (focused && !this.head.contains(document.activeElement)) this.box.focus({preventScroll: true});
  }

  line(entry) {
    // Lines stored by an older client may lack `said`: those keep their stored words.
    const chat = entry.chat && entry.from && (entry.said !== undefined || entry.removed);
    return chat ? this.chatLine(entry)
      : h('li', {class: `log-entry ${entry.tone || ''}`, 'data-version': String(entry.version ?? '')}, entryText(entry, WORDS));
  }

  // The name with its ⋯ menu (which can remove a line that still says something), then
  // what was said, or that a moderator removed it.
  chatLine(entry) {
    const line = entry.removed || entry.line === undefined ? null : {id: entry.line, said: entry.said};
    const menu = playerButton(this.app, entry.from, this.tableId, line);
    const name = h('span', {class: 'chat-name'}, entry.from.name);
    const said = entry.removed
      ? tParts('elgrande.chat.removed_line', {name, menu, removed: h('span', {class: 'chat-removed muted'}, removedText())})
      : tParts('elgrande.chat.line', {name, menu, said: entry.said});
    return h('li', {class: `log-entry chat${entry.removed ? ' removed' : ''}`, 'data-line': String(entry.line ?? '')}, ...said);
  }
}

// What log.js needs to say this game's events.
const WORDS = {eventText: describeEvent};
