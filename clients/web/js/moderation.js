// Moderation (protocol.md, Moderation): the dialog a moderator opens from a player's name,
// the notices the person concerned is shown, the ban's words, and the admins' audit log.

import {h, replaceKeepingFocus, scrollRegion} from './dom.js';
import {refusalText} from './connection.js';
import {dateText} from './time.js';

const REASON_BYTES = 200;
const bytes = (text) => new TextEncoder().encode(text).length;
const ROLE_WORDS = {player: 'a player', moderator: 'a moderator', admin: 'an administrator'};

export function canModerate(account) {
  return Boolean(account) && (account.role === 'moderator' || account.role === 'admin');
}

const untilText = (until) => (until ? `until ${dateText(until)}` : 'until a moderator lifts it');

// What a moderation.notice says to the person concerned, and whether it stays as a banner.
export function noticeText(notice, table) {
  const reason = `Reason given: “${notice.reason}”.`;
  switch (notice.action) {
    case 'mute':
      return {banner: true, text: `A moderator muted you ${untilText(notice.until)}. ${reason} You can go on playing; your chat messages are refused meanwhile.`};
    case 'unmute':
      return {text: `A moderator lifted your mute: you can chat again. ${reason}`};
    case 'ban':
      return {banner: true, text: `A moderator banned you ${untilText(notice.until)}. ${reason}`};
    case 'unban':
      return {text: `A moderator lifted your ban. ${reason}`};
    case 'kick': {
      const name = table ? `“${table.name}” (table ${notice.table})` : `table ${notice.table}`;
      return {text: `A moderator took your seat at ${name}. ${reason} You may join it again.`};
    }
    case 'delete_chat': {
      const name = table ? `“${table.name}” (table ${notice.table})` : `table ${notice.table}`;
      return {text: `A moderator removed one of your chat lines at ${name}. ${reason} Thank you for keeping the table friendly.`};
    }
    case 'set_role':
      return {text: `An administrator made you ${ROLE_WORDS[notice.role] || notice.role}. ${reason}`};
    default:
      return {text: `A moderator acted on your account (${notice.action}). ${reason}`};
  }
}

// The welcome screen's words for a banned player: the server's close reason or refusal,
// "banned until 2026-11-24 17:00 UTC: why" (the refusal starts with "you are ").
// A ban notice's words for the welcome screen: the close that follows it carries only the
// code "banned" (protocol.md, Moderation).
export function banDetail(notice) {
  return `banned ${untilText(notice.until)}: ${notice.reason}`;
}

export function bannedText(detail) {
  const what = String(detail || '').replace(/^you are /, '') || 'banned';
  return `This player may not play here for now: ${what}. You may still sign in to another account.`;
}

// The choices of the dialog, grouped: [group, [[value, label, request]]]. `request(reason)`
// gives [type, payload, what the answer means]. For a chat line, removing it is the one choice.
function choices(player, table, tableId, line) {
  if (line) {
    return [['Chat', [['delete-chat', 'Remove this line',
      (reason) => ['mod.delete_chat', {table: tableId, line: line.id, reason}, 'The line is removed for everyone at the table.']]]]];
  }
  const mute = (minutes, span) => [`mute-${minutes}`, minutes ? `Mute for ${span}` : 'Unmute',
    (reason) => ['mod.mute', {player: player.id, minutes, reason},
      minutes ? `${player.name} is muted for ${span}.` : `${player.name} may chat again.`]];
  const ban = (duration, span) => [`ban-${duration}`, {permanent: 'Ban until lifted', lift: 'Lift the ban'}[duration] || `Ban for ${span}`,
    (reason) => ['mod.ban', {player: player.id, duration, reason},
      {permanent: `${player.name} is banned until a moderator lifts it.`, lift: `${player.name}’s ban is lifted.`}[duration]
        || `${player.name} is banned for ${span}.`]];
  const groups = [
    ['Mute…', [mute(10, '10 minutes'), mute(60, '1 hour'), mute(1440, '24 hours'), mute(0)]],
    ['Ban…', [ban('1h', '1 hour'), ban('24h', '24 hours'), ban('7d', '7 days'), ban('permanent'), ban('lift')]],
  ];
  const seated = table && table.seats.some((s) => s.kind === 'human' && s.player && s.player.id === player.id);
  if (table && table.status === 'open' && seated) {
    groups.push(['Kick', [['kick', 'Kick from this table',
      (reason) => ['mod.kick', {table: table.id, player: player.id, reason}, `${player.name} was removed from ${table.name}.`]]]]);
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
  const submit = h('button', {type: 'submit', class: 'primary', 'data-testid': 'mod-submit'}, line ? 'Remove' : 'Apply');
  const dialog = h('dialog', {class: 'mod-dialog panel', 'aria-labelledby': 'mod-title', 'data-testid': 'mod-dialog'},
    h('form', {class: 'account-form', novalidate: true, onSubmit: async (event) => {
      event.preventDefault();
      const why = reason.value.trim();
      const problem = !why ? 'Give a reason: the player is shown it.'
        : bytes(why) > REASON_BYTES ? `A reason has at most ${REASON_BYTES} bytes.` : null;
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
    h('h2', {id: 'mod-title'}, line ? `Remove a line of ${player.name}` : `Moderate ${player.name}`),
    line ? h('blockquote', {class: 'mod-line', 'data-testid': 'mod-line'}, `“${line.said}”`) : [h('label', {for: 'mod-action'}, 'Action'), action],
    h('label', {for: 'mod-reason'}, 'Reason'), reason,
    h('span', {class: 'note muted', id: 'mod-reason-hint'}, `${player.name} is shown it. 1 to ${REASON_BYTES} bytes.`),
    error,
    h('div', {class: 'actions'}, submit,
      h('button', {type: 'button', class: 'secondary', 'data-testid': 'mod-cancel', onClick: () => dialog.close()}, 'Cancel'))));
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  (line ? reason : action).focus();
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
      h('h2', {id: 'audit-title'}, 'Audit log'),
      h('p', {class: 'muted'}, 'What moderators and administrators did, newest first.'),
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
      this.error = refusalText(err, 'Could not read the audit log');
    }
    this.loading = false;
    this.render();
  }

  render() {
    const rows = this.entries.map((e) => h('tr', {'data-testid': `audit-${e.id}`},
      h('td', {}, h('time', {datetime: new Date(e.time).toISOString()}, dateText(e.time))),
      h('td', {}, e.moderator.name), h('td', {}, e.action), h('td', {}, e.player.name), h('td', {}, e.detail), h('td', {}, e.reason)));
    replaceKeepingFocus(this.box,
      this.error ? h('p', {class: 'error', role: 'alert', 'data-testid': 'audit-error'}, this.error) : null,
      this.entries.length ? scrollRegion('Table of the audit log', h('table', {class: 'audit-table', 'data-testid': 'audit-table'},
        h('thead', {}, h('tr', {}, ['Time', 'Moderator', 'Action', 'Player', 'Detail', 'Reason'].map((t) => h('th', {scope: 'col'}, t)))),
        h('tbody', {}, rows)))
        : h('p', {class: 'muted'}, this.loading ? 'Loading…' : 'Nothing yet.'),
      h('div', {class: 'actions'},
        h('button', {type: 'button', class: 'secondary', 'data-testid': 'audit-refresh', disabled: this.loading, onClick: () => this.load()}, 'Refresh'),
        this.more ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'audit-older', disabled: this.loading, onClick: () => this.load(true)}, 'Older') : null));
  }
}
