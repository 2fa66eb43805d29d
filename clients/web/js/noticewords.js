// Notices (docs/notifications.md) without DOM: the words the pages say, the checks that spare
// a round trip, and the shapes sent to the server. The server stays the judge of addresses,
// passwords and tokens.

import {refusalText} from './connection.js';

// A mailed link's token that is used, expired or unknown: one answer for all three.
export const BAD_TOKEN_TEXT = 'This link was used already, has expired, or is not one of ours.';
// account.forgot_password answers the same whatever the address.
export const FORGOT_SENT_TEXT = 'If an account has this verified address, a link is on its way. It works for one hour.';

// The kinds of notice, in the order the page lists them.
export const NOTICE_KINDS = [['turn', 'Your turn'], ['game_ended', 'A game ended'], ['tournament', 'Tournaments']];

const bytes = (text) => new TextEncoder().encode(text).length;
// What a person types: a dot-atom before the @, letters, digits, hyphens and dots after it.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const ADDRESS = new RegExp(`^${ATEXT}(\\.${ATEXT})*@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$`);

export function addressProblem(address) {
  if (!address) return 'Enter an e-mail address.';
  if (bytes(address) > 254) return 'An e-mail address has at most 254 characters.';
  if (!ADDRESS.test(address) || bytes(address.slice(0, address.indexOf('@'))) > 64) {
    return 'That is not an e-mail address this server takes: like name@example.org, without spaces or quotes.';
  }
  return null;
}

export const setEmailDoneText = (address) => `We sent a link to ${address}; follow it within 24 hours.`;
export const verifiedText = (address) => `Your address ${address} is confirmed.`;

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

// A game's own channels, as its menu offers them: 'account' keeps the account's for each kind.
export const GAME_CHOICES = [
  ['account', 'As for all games'], ['both', 'E-mail and push'], ['push', 'Push only'], ['mail', 'E-mail only'],
  ['none', 'Nothing'],
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
    case 'bad_token': return BAD_TOKEN_TEXT;
    case 'rate_limited': return 'Too many of these requests for now: try again in an hour.';
    case 'limit_reached': return 'At most 20 devices get notices: remove one first.';
    case 'not_found': return 'You have no such device: it was removed meanwhile.';
    case 'wrong_state': return `${refusalText(err)}.`;
    default: return refusalText(err);
  }
}
