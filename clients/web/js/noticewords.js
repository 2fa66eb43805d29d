// Notices (docs/notifications.md) without DOM: the words the pages say, the checks that spare
// a round trip, and the shapes sent to the server. The server stays the judge of addresses,
// passwords and tokens.

import {refusalText} from './connection.js';
import {t} from './i18n.js';

// A mailed link's token that is used, expired or unknown: one answer for all three.
export const badTokenText = () => t('noticewords.bad_token');
// account.forgot_password answers the same whatever the address.
export const forgotSentText = () => t('noticewords.forgot_sent');

// The kinds of notice, in the order the page lists them, with their labels' keys.
export const NOTICE_KINDS = [['turn', 'noticewords.kind.turn'], ['game_ended', 'noticewords.kind.game_ended'], ['tournament', 'noticewords.kind.tournament']];

const bytes = (text) => new TextEncoder().encode(text).length;
// What a person types: a dot-atom before the @, letters, digits, hyphens and dots after it.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const ADDRESS = new RegExp(`^${ATEXT}(\\.${ATEXT})*@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$`);

export function addressProblem(address) {
  if (!address) return t('noticewords.address.empty');
  if (bytes(address) > 254) return t('noticewords.address.too_long', {max: 254});
  if (!ADDRESS.test(address) || bytes(address.slice(0, address.indexOf('@'))) > 64) {
    return t('noticewords.address.invalid');
  }
  return null;
}

export const setEmailDoneText = (address) => t('noticewords.link_sent', {address});
export const verifiedText = (address) => t('noticewords.verified', {address});

// The bytes of base64url text (RFC 4648 §5, padding optional): a push subscription's
// applicationServerKey. Throws on characters outside the alphabet.
export function base64UrlToBytes(text) {
  const clean = String(text).replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(clean) || clean.length % 4 === 1) throw new Error('not base64url');
  const base64 = clean.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (clean.length % 4)) % 4);
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

// The preferences to send: the kinds and the digest as the form has them, and each game's
// own channels as the server gave them (a key left out would fall back to its default).
// `chosen`: {turn: {mail, push}, game_ended: …, tournament: …, digest}.
export function preferencesToSave(loaded, chosen) {
  const preferences = {};
  for (const [kind] of NOTICE_KINDS) {
    const channels = chosen[kind] || {};
    preferences[kind] = {mail: Boolean(channels.mail), push: Boolean(channels.push)};
  }
  preferences.digest = Boolean(chosen.digest);
  preferences.games = {...((loaded && loaded.games) || {})};
  for (const [table, choice] of Object.entries(chosen.games || {})) {
    const channels = channelsOfChoice(choice);
    if (channels) preferences.games[table] = channels;
    else delete preferences.games[table];
  }
  return preferences;
}

// A game's own channels, as its menu offers them (with their labels' keys): 'account' keeps
// the account's for each kind.
export const GAME_CHOICES = [
  ['account', 'noticewords.game.account'], ['both', 'noticewords.game.both'], ['push', 'noticewords.game.push'],
  ['mail', 'noticewords.game.mail'], ['none', 'noticewords.game.none'],
];

export function channelsOfChoice(choice) {
  switch (choice) {
    case 'both': return {mail: true, push: true};
    case 'push': return {mail: false, push: true};
    case 'mail': return {mail: true, push: false};
    case 'none': return {mail: false, push: false};
    default: return null;
  }
}

export function choiceOfChannels(channels) {
  if (!channels) return 'account';
  if (channels.mail !== false) return channels.push !== false ? 'both' : 'mail';
  return channels.push !== false ? 'push' : 'none';
}

// The preferences as the form shows them: a key the server left out is on (digest off).
export function preferencesShown(preferences) {
  const p = preferences || {};
  const shown = {digest: Boolean(p.digest)};
  for (const [kind] of NOTICE_KINDS) {
    const channels = p[kind] || {};
    shown[kind] = {mail: channels.mail !== false, push: channels.push !== false};
  }
  return shown;
}

// push.subscribe's payload from PushSubscription.toJSON() and the device's name.
export function subscribePayload(subscription, device) {
  const {endpoint, keys} = subscription;
  return {endpoint, keys: {p256dh: keys.p256dh, auth: keys.auth}, device};
}

// A refusal of a notice request, for people.
export function noticeRefusal(err) {
  switch (err && err.code) {
    case 'bad_token': return badTokenText();
    case 'rate_limited': return t('noticewords.refusal.rate_limited');
    case 'limit_reached': return t('noticewords.refusal.limit_reached', {max: 20});
    case 'not_found': return t('noticewords.refusal.not_found');
    // These requests are refused so only when the server sends no mail (docs/protocol.md, Notices).
    case 'wrong_state': return t('noticewords.refusal.no_mail');
    default: return refusalText(err);
  }
}
