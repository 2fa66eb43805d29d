// The words of moderation and accounts without DOM: a ban's and a notice's sentence from their
// facts (never the server's English), roles by code, devices as listed.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {bannedText, noticeText} from '../js/moderation.js';
import {deviceName, roleText} from '../js/account.js';
import {t} from '../js/i18n.js';

const UNTIL = Date.UTC(2026, 10, 24, 17, 0);

test('a ban says until when and why, from its facts', () => {
  assert.match(bannedText({until: UNTIL, why: 'insults'}),
    /^This player may not play here for now: banned until .*2026.*: insults\. You may still sign in to another account\.$/);
  assert.equal(bannedText({why: 'threats'}),
    'This player may not play here for now: banned until a moderator lifts it: threats. You may still sign in to another account.');
  assert.equal(bannedText(), 'This player may not play here for now: banned. You may still sign in to another account.');
});

test('a moderation notice is a sentence per action, the reason quoted as typed', () => {
  const mute = noticeText({action: 'mute', reason: 'shouting at the table', until: UNTIL}, null);
  assert.equal(mute.banner, true);
  assert.match(mute.text, /^A moderator muted you until .+\. Reason given: “shouting at the table”\. You can go on playing/);
  assert.match(noticeText({action: 'ban', reason: 'x'}, null).text, /banned you until a moderator lifts it\./);
  assert.equal(noticeText({action: 'kick', reason: 'r', table: 1234}, {name: 'T'}).text,
    'A moderator took your seat at “T” (table 1234). Reason given: “r”. You may join it again.');
  assert.match(noticeText({action: 'delete_chat', reason: 'r', table: 7}, null).text, /chat lines at table 7\./);
  assert.equal(noticeText({action: 'set_role', role: 'moderator', reason: 'r'}, null).text,
    'An administrator made you a moderator. Reason given: “r”.');
  assert.match(noticeText({action: 'zap', reason: 'r'}, null).text, /\(zap\)/);
});

test('durations and counts in the plural the number wants', () => {
  assert.equal(t('moderation.done.mute', {name: 'Ana', n: 10, unit: 'minute'}), 'Ana is muted for 10 minutes.');
  assert.equal(t('moderation.done.ban', {name: 'Ana', n: 1, unit: 'hour'}), 'Ana is banned for 1 hour.');
  assert.equal(t('moderation.action.ban', {n: 7, unit: 'day'}), 'Ban for 7 days');
  assert.equal(t('account.sessions.others_ended', {n: 1}), 'Signed out everywhere else (1 device).');
  assert.equal(t('account.sessions.others_ended', {n: 2}), 'Signed out everywhere else (2 devices).');
  assert.equal(t('alerts.title.waiting', {n: 2, page: 'El Grande'}), '● 2 games waiting for you — El Grande');
});

test('roles by code, devices from the user agent', () => {
  assert.equal(roleText('admin'), 'Administrator');
  assert.equal(roleText('unknown'), 'unknown');
  assert.equal(deviceName('Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0'), 'Firefox on Linux');
  assert.equal(deviceName(''), 'Web browser');
});
