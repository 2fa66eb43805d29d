// Time in words: turn limits, timeout policies, live countdowns to a deadline, time waited
// and dates. One clock (startClock) keeps every countdown and wait on the page current,
// whichever screen drew it.

import {h, icon} from './dom.js';

// The turn limits the create form offers; "custom" asks for seconds.
export const TURN_CHOICES = [
  ['0', 'No time limit'], ['30', '30 seconds'], ['60', '1 minute'], ['300', '5 minutes'],
  ['3600', '1 hour'], ['86400', '1 day'], ['259200', '3 days'], ['custom', 'Custom (seconds)…'],
];
export const MAX_TURN_SECONDS = 1209600;  // 14 days: the server's bound (protocol.md, Table)

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// 90 → "1 min 30 s", 86400 → "1 day", 93600 → "1 day 2 h": the two largest units at most.
export function durationText(seconds) {
  const units = [[86400, (n) => plural(n, 'day')], [3600, (n) => `${n} h`], [60, (n) => `${n} min`], [1, (n) => `${n} s`]];
  const parts = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [size, word] of units) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0 && parts.length < 2) parts.push(word(n));
    else if (parts.length) break;  // "1 day 5 min" would read oddly; stop at the first gap
  }
  return parts.join(' ') || '0 s';
}

// The table's turn limit: "1 day per decision" or "No time limit".
export function limitText(table) {
  return table && table.turn_seconds ? `${durationText(table.turn_seconds)} per decision` : 'No time limit';
}

// What a timeout costs at this table, or null without a limit. Long: to follow "when time
// runs out, "; short: for one-line summaries.
export function policyText(table, short = false) {
  if (!table || !table.turn_seconds) return null;
  if (table.on_timeout === 'replace_seat') {
    const n = plural(table.replace_after || 3, 'timeout');
    return short ? `a bot takes the seat after ${n}` : `a bot answers, and after ${n} in a row takes the seat for good`;
  }
  return short ? 'a bot answers on timeout' : 'a bot answers that decision and the player keeps the seat';
}

// Seconds left to a deadline (ms since the epoch) in words: "1 d 4 h", "4 min 12 s".
export function timeLeft(deadline, now = Date.now()) {
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  if (left <= 0) return null;
  if (left >= 86400) return `${Math.floor(left / 86400)} d ${Math.floor((left % 86400) / 3600)} h`;
  if (left >= 3600) return `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`;
  if (left >= 60) return `${Math.floor(left / 60)} min ${left % 60} s`;
  return `${left} s`;
}

// "Time left: 4 min 12 s" (style "long") or "4 min 12 s left" (style "brief").
export function countdownText(deadline, style = 'long') {
  const left = timeLeft(deadline);
  if (left === null) return style === 'long' ? 'Time is up: a bot answers' : 'time is up';
  return style === 'long' ? `Time left: ${left}` : `${left} left`;
}

// A countdown element; the clock rewrites it every second.
export function countdown(deadline, style = 'long', attrs = {}) {
  const urgent = deadline - Date.now() < 60_000;
  return h('span', {
    class: ['countdown', style, urgent && 'urgent'], role: 'timer', 'data-deadline': String(deadline), 'data-style': style,
    title: `Decide before ${new Date(deadline).toLocaleString()}`, ...attrs,
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
  return new Date(ms).toLocaleString(undefined, {day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit'});
}

// How long to wait, for a person: "40 seconds", "10 minutes (at 18:52)".
export function waitText(ms, now = Date.now()) {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return plural(seconds, 'second');
  const at = new Date(now + seconds * 1000).toLocaleTimeString(undefined, {hour: '2-digit', minute: '2-digit'});
  return `${plural(Math.ceil(seconds / 60), 'minute')} (at ${at})`;
}
