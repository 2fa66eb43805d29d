// Time in words: turn limits, timeout policies, live countdowns to a deadline, time waited
// and dates. One clock (startClock) keeps every countdown and wait on the page current,
// whichever screen drew it.

import {h, icon} from './dom.js';
import {formatDate, formatUnit, t} from './i18n.js';

// A span of time in Intl's long words: (3, 'day') → "3 days", (1, 'hour') → "1 hour".
export const unitText = (n, unit) => formatUnit(n, unit, 'long');

// Seconds in the largest whole unit of the long words: 300 → "5 minutes", 604800 → "1 week".
export function spanText(seconds) {
  for (const [size, unit] of [[604800, 'week'], [86400, 'day'], [3600, 'hour'], [60, 'minute']]) {
    if (seconds >= size && seconds % size === 0) return unitText(seconds / size, unit);
  }
  return unitText(seconds, 'second');
}

// The turn limits the create form offers; "custom" asks for seconds.
export function turnChoices() {
  return [
    ['0', t('time.no_limit')], ...['30', '60', '300', '3600', '86400', '259200'].map((s) => [s, spanText(Number(s))]),
    ['custom', t('time.custom_seconds')],
  ];
}
export const MAX_TURN_SECONDS = 1209600;  // 14 days: the server's bound (protocol.md, Table)

// The short words of a countdown, by the unit's size in seconds: "4 d", "4 h", "4 min", "4 s".
const SHORT = {86400: 'time.short.days', 3600: 'time.short.hours', 60: 'time.short.minutes', 1: 'time.short.seconds'};
const short = (n, size) => t(SHORT[size], {n});
const pair = (larger, smaller) => t('time.pair', {larger, smaller});

// 90 → "1 min 30 s", 86400 → "1 day", 93600 → "1 day 2 h": the two largest units at most.
export function durationText(seconds) {
  const units = [[86400, (n) => unitText(n, 'day')], [3600, (n) => short(n, 3600)], [60, (n) => short(n, 60)], [1, (n) => short(n, 1)]];
  const parts = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [size, word] of units) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0 && parts.length < 2) parts.push(word(n));
    else if (parts.length) break;  // "1 day 5 min" would read oddly; stop at the first gap
  }
  if (!parts.length) return short(0, 1);
  return parts.length === 1 ? parts[0] : pair(parts[0], parts[1]);
}

// The table's turn limit: "1 day per decision" or "No time limit".
export function limitText(table) {
  return table && table.turn_seconds ? t('time.per_decision', {duration: durationText(table.turn_seconds)}) : t('time.no_limit');
}

// What a timeout costs at this table, or null without a limit. Long: to follow "when time
// runs out, "; short: for one-line summaries.
export function policyText(table, brief = false) {
  if (!table || !table.turn_seconds) return null;
  if (table.on_timeout === 'replace_seat') {
    const n = table.replace_after || 3;
    return t(brief ? 'time.policy.replace.short' : 'time.policy.replace', {n});
  }
  return t(brief ? 'time.policy.answer.short' : 'time.policy.answer');
}

// Seconds left to a deadline (ms since the epoch) in words: "1 d 4 h", "4 min 12 s".
export function timeLeft(deadline, now = Date.now()) {
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  if (left <= 0) return null;
  for (const [size, next] of [[86400, 3600], [3600, 60], [60, 1]]) {
    if (left >= size) return pair(short(Math.floor(left / size), size), short(Math.floor((left % size) / next), next));
  }
  return short(left, 1);
}

// "Time left: 4 min 12 s" (style "long") or "4 min 12 s left" (style "brief").
export function countdownText(deadline, style = 'long') {
  const left = timeLeft(deadline);
  if (left === null) return t(style === 'long' ? 'time.countdown.up' : 'time.countdown.up.brief');
  return t(style === 'long' ? 'time.countdown.left' : 'time.countdown.left.brief', {left});
}

// A countdown element; the clock rewrites it every second.
export function countdown(deadline, style = 'long', attrs = {}) {
  const urgent = deadline - Date.now() < 60_000;
  return h('span', {
    class: ['countdown', style, urgent && 'urgent'], role: 'timer', 'data-deadline': String(deadline), 'data-style': style,
    title: t('time.countdown.title', {deadline: formatDate(deadline)}), ...attrs,
  }, style === 'brief' ? [icon('clock'), ' '] : null,
  h('span', {class: 'countdown-text'}, countdownText(deadline, style)));
}

export function startClock() {
  return setInterval(() => {
    const now = Date.now();
    for (const el of document.querySelectorAll('[data-deadline]')) {
      const deadline = Number(el.dataset.deadline);
      const text = el.querySelector('.countdown-text') || el;
      text.textContent = countdownText(deadline, el.dataset.style || 'long');
      el.classList.toggle('urgent', deadline - now < 60_000);
    }
    for (const el of document.querySelectorAll('[data-since]')) el.textContent = sinceText(Number(el.dataset.since), now);
  }, 1000);
}

function sinceText(since, now = Date.now()) {
  return durationText(Math.floor((now - since) / 1000));
}

// Time waited since `since` (ms since the epoch), counting up: "1 min 5 s".
export function waited(since, attrs = {}) {
  return h('span', {class: 'waited', role: 'timer', 'data-since': String(since), ...attrs}, sinceText(since));
}

// "12 Mar 2026, 18:40" in the reader's own locale and time zone.
export function dateText(ms) {
  return formatDate(ms, {day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit'});
}

// How long to wait, for a person: "40 seconds", "10 minutes (at 18:52)".
export function waitText(ms, now = Date.now()) {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return unitText(seconds, 'second');
  const at = formatDate(now + seconds * 1000, {hour: '2-digit', minute: '2-digit'});
  return t('time.wait.until', {duration: unitText(Math.ceil(seconds / 60), 'minute'), at});
}
