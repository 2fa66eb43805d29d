// Moderation (protocol.md, Moderation): the dialog a moderator opens from a player's name,
// the notices the person concerned is shown, the ban's words, and the admins' audit log.

import {h, replaceKeepingFocus, scrollRegion} from './dom.js';
import {refusalText} from './connection.js';
import {dateText} from './time.js';
import {hasKey, t} from './i18n.js';
import {tableName} from './words.js';

const REASON_BYTES = 200;
const bytes = (text) => new TextEncoder().encode(text).length;

export function canModerate(account) {
  return Boolean(account) && (account.role === 'moderator' || account.role === 'admin');
}

// What a moderation.notice says to the person concerned, and whether it stays as a banner:
// from its facts ({action, reason, until, table, role}), the moderator's reason as typed.
export function noticeText(notice, table) {
  const params = {why: notice.reason || '', until: notice.until, table: String(notice.table), name: table ? tableName(table) : ''};
  const timed = notice.until ? 'until' : 'for_good';
  switch (notice.action) {
    case 'mute':
      return {banner: true, text: t(`moderation.notice.mute.${timed}`, params)};
    case 'unmute':
      return {text: t('moderation.notice.unmute', params)};
    case 'ban':
      return {banner: true, text: t(`moderation.notice.ban.${timed}`, params)};
    case 'unban':
      return {text: t('moderation.notice.unban', params)};
    case 'kick':
      return {text: t(table ? 'moderation.notice.kick.named' : 'moderation.notice.kick', params)};
    case 'delete_chat':
      return {text: t(table ? 'moderation.notice.delete_chat.named' : 'moderation.notice.delete_chat', params)};
    case 'set_role':
      return {text: t('moderation.notice.set_role', {...params, role: String(notice.role)})};
    default:
      return {text: t('moderation.notice.other', {...params, action: String(notice.action)})};
  }
}

// The welcome screen's words for a banned player, from the ban's facts: `until` (ms since the
// epoch; absent: until a moderator lifts it) and `why` (the moderator's reason, as typed). A
// refused hello has them as err.until and err.moderatorReason; a closed connection (4003)
// from the moderation.notice sent just before it. Without facts, only that it is a ban.
export function bannedText({until = null, why = ''} = {}) {
  if (!why) return t('moderation.banned');
  return t(until ? 'moderation.banned.until' : 'moderation.banned.for_good', {until, why});
}

// The choices of the dialog, grouped: [group, [[value, label, request]]]. `request(reason)`
// gives [type, payload, what the answer means]. For a chat line, removing it is the one choice.
// A span is {n, unit}: the messages say it in the language's own plural forms.
function choices(player, table, tableId, line) {
  if (line) {
    return [[t('moderation.group.chat'), [['delete-chat', t('moderation.action.delete_chat'),
      (reason) => ['mod.delete_chat', {table: tableId, line: line.id, reason}, t('moderation.done.delete_chat')]]]]];
  }
  const name = player.name;
  const mute = (minutes, span) => [`mute-${minutes}`, minutes ? t('moderation.action.mute', span) : t('moderation.action.unmute'),
    (reason) => ['mod.mute', {player: player.id, minutes, reason},
      minutes ? t('moderation.done.mute', {...span, name}) : t('moderation.done.unmute', {name})]];
  const ban = (duration, span) => [`ban-${duration}`, t(span ? 'moderation.action.ban' : `moderation.action.ban_${duration}`, span),
    (reason) => ['mod.ban', {player: player.id, duration, reason},
      t(span ? 'moderation.done.ban' : `moderation.done.ban_${duration}`, {...span, name})]];
  const groups = [
    [t('moderation.group.mute'), [
      mute(10, {n: 10, unit: 'minute'}), mute(60, {n: 1, unit: 'hour'}), mute(1440, {n: 24, unit: 'hour'}), mute(0)]],
    [t('moderation.group.ban'), [
      ban('1h', {n: 1, unit: 'hour'}), ban('24h', {n: 24, unit: 'hour'}), ban('7d', {n: 7, unit: 'day'}), ban('permanent'), ban('lift')]],
  ];
  const seated = table && table.seats.some((s) => s.kind === 'human' && s.player && s.player.id === player.id);
  if (table && table.status === 'open' && seated) {
    groups.push([t('moderation.group.kick'), [['kick', t('moderation.action.kick'),
      (reason) => ['mod.kick', {table: table.id, player: player.id, reason}, t('moderation.done.kick', {name, table: tableName(table)})]]]]);
  }
  return groups;
}

// A modal dialog: what to do, why, then the request; Escape or Cancel closes it. Opened from
// the menu by a player's name (blocks.js); focus goes back to `opener`. With a chat `line`
// ({id, said}) it only removes that line, and quotes it instead of offering a choice.
export function openModeration(app, player, tableId, opener, line = null) {
  const table = tableId === null || tableId === undefined ? null : app.store.tables.get(tableId);
  const groups = choices(player, table, tableId, line);
  const requests = new Map(groups.flatMap(([, items]) => items.map(([value, , request]) => [value, request])));
  const action = h('select', {id: 'mod-action', 'data-testid': 'mod-action'},
    groups.map(([label, items]) => h('optgroup', {label}, items.map(([value, text]) => h('option', {value}, text)))));
  const reason = h('input', {
    id: 'mod-reason', type: 'text', required: true, 'aria-describedby': 'mod-reason-hint', 'data-testid': 'mod-reason',
    maxlength: REASON_BYTES,
  });
  const error = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': 'mod-error'});
  const submit = h('button', {type: 'submit', class: 'primary', 'data-testid': 'mod-submit'}, t(line ? 'moderation.dialog.remove' : 'moderation.dialog.apply'));
  const dialog = h('dialog', {class: 'mod-dialog panel', 'aria-labelledby': 'mod-title', 'data-testid': 'mod-dialog'},
    h('form', {class: 'account-form', novalidate: true, onSubmit: async (event) => {
      event.preventDefault();
      const why = reason.value.trim();
      const problem = !why ? t('moderation.dialog.no_reason')
        : bytes(why) > REASON_BYTES ? t('moderation.dialog.reason_too_long', {max: REASON_BYTES}) : null;
      if (problem) {
        error.textContent = problem;
        error.hidden = false;
        reason.setAttribute('aria-invalid', 'true');
        reason.focus();
        return;
      }
      const [type, payload, done] = requests.get(action.value)(why);
      submit.disabled = true;
      try {
        await app.conn.request(type, payload);
        dialog.close();
        app.toast(done);
      } catch (err) {
        error.textContent = refusalText(err);
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    }},
    h('h2', {id: 'mod-title'}, t(line ? 'moderation.dialog.title_line' : 'moderation.dialog.title', {name: player.name})),
    line ? h('blockquote', {class: 'mod-line', 'data-testid': 'mod-line'}, t('moderation.dialog.quote', {said: line.said}))
      : [h('label', {for: 'mod-action'}, t('moderation.dialog.action')), action],
    h('label', {for: 'mod-reason'}, t('moderation.dialog.reason')), reason,
    h('span', {class: 'note muted', id: 'mod-reason-hint'}, t('moderation.dialog.reason_hint', {name: player.name, max: REASON_BYTES})),
    error,
    h('div', {class: 'actions'}, submit,
      h('button', {type: 'button', class: 'secondary', 'data-testid': 'mod-cancel', onClick: () => dialog.close()}, t('moderation.dialog.cancel')))));
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  (line ? reason : action).focus();
}

const AUDIT_COLUMNS = ['time', 'moderator', 'action', 'player', 'detail', 'reason'];

// An audit entry's action in words, from its code; an unknown code as it is.
function actionText(action) {
  const key = `moderation.audit.action.${action}`;
  return hasKey(key) ? t(key) : String(action);
}

// The account page's section for admins: admin.audit, newest first, "Older" pages back.
export class AuditLog {
  constructor(app) {
    this.app = app;
    this.entries = [];
    this.more = false;
    this.error = null;
    this.loading = false;
    this.box = h('div', {class: 'audit-box', 'data-testid': 'audit-box', tabindex: -1});
    this.root = h('section', {class: 'panel audit', 'aria-labelledby': 'audit-title', 'data-testid': 'audit'},
      h('h2', {id: 'audit-title'}, t('moderation.audit.title')),
      h('p', {class: 'muted'}, t('moderation.audit.explain')),
      this.box);
    this.load();
  }

  async load(older = false) {
    if (this.loading) return;
    this.loading = true;
    this.render();
    const payload = older && this.entries.length ? {before: Math.min(...this.entries.map((e) => e.id))} : {};
    try {
      const {entries, more} = await this.app.conn.request('admin.audit', payload);
      this.entries = older ? this.entries.concat(entries) : entries;
      this.more = more;
      this.error = null;
    } catch (err) {
      this.error = refusalText(err, t('moderation.audit.could_not_read'));
    }
    this.loading = false;
    this.render();
  }

  render() {
    const rows = this.entries.map((e) => h('tr', {'data-testid': `audit-${e.id}`},
      h('td', {}, h('time', {datetime: new Date(e.time).toISOString()}, dateText(e.time))),
      h('td', {}, e.moderator.name), h('td', {}, actionText(e.action)), h('td', {}, e.player.name), h('td', {}, e.detail), h('td', {}, e.reason)));
    replaceKeepingFocus(this.box,
      this.error ? h('p', {class: 'error', role: 'alert', 'data-testid': 'audit-error'}, this.error) : null,
      this.entries.length ? scrollRegion(t('moderation.audit.table_label'), h('table', {class: 'audit-table', 'data-testid': 'audit-table'},
        h('thead', {}, h('tr', {}, AUDIT_COLUMNS.map((column) => h('th', {scope: 'col'}, t(`moderation.audit.column.${column}`))))),
        h('tbody', {}, rows)))
        : h('p', {class: 'muted'}, t(this.loading ? 'moderation.audit.loading' : 'moderation.audit.empty')),
      h('div', {class: 'actions'},
        h('button', {type: 'button', class: 'secondary', 'data-testid': 'audit-refresh', disabled: this.loading, onClick: () => this.load()},
          t('moderation.audit.refresh')),
        this.more ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'audit-older', disabled: this.loading, onClick: () => this.load(true)},
          t('moderation.audit.older')) : null));
  }
}
