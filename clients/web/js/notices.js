// The banners under the top bar: a tournament's new round at a table of mine, a mute or a
// ban. Each stays until dismissed (or followed, or over).

import {h} from './dom.js';
import {roundNoticeText} from './tournamentwords.js';
import {t} from './i18n.js';

// A table of mine in a tournament's new round (or a bye), with a link to the table; replaces
// the event's earlier notice. `name`: the event's, when the page knows it.
export function showRoundNotice(notices, push, name) {
  const {text, href} = roundNoticeText(push, name);
  const el = h('div', {class: 'notice round-notice', role: 'status', 'data-testid': 'round-notice', 'data-tournament': String(push.tournament)},
    h('span', {}, text),
    href ? h('a', {href, class: 'button primary small', 'data-testid': 'round-notice-open', onClick: () => el.remove()}, t('notices.round.open_table')) : null,
    h('a', {href: `#/tournament/${push.tournament}`, class: 'button secondary small', onClick: () => el.remove()}, t('notices.round.tournament')),
    dismissButton(() => el.remove()));
  dropRoundNotices(notices, push.tournament);
  notices.append(el);
}

// `dismiss` is called on a press (the notice is made after its button).
function dismissButton(dismiss) {
  return h('button', {type: 'button', class: 'secondary small', 'aria-label': t('notices.dismiss_label'), onClick: dismiss},
    t('notices.dismiss'));
}

// An event's notices go when it is over; every event's when the player changes (no id).
export function dropRoundNotices(notices, tournament = null) {
  const selector = tournament === null ? '.round-notice' : `.round-notice[data-tournament="${tournament}"]`;
  for (const old of notices.querySelectorAll(selector)) old.remove();
}

// A mute's or a ban's banner, replacing one of the same kind; a mute's goes at `until`.
export function showModerationBanner(notices, text, kind, until) {
  const el = h('div', {class: 'notice alert mod-notice', role: 'alert', 'data-testid': 'mod-notice', 'data-kind': kind},
    h('span', {}, text),
    dismissButton(() => el.remove()));
  notices.append(el);
  const left = until ? until - Date.now() : null;
  if (left !== null && left < 2 ** 31 - 1) setTimeout(() => el.remove(), Math.max(0, left));
}
