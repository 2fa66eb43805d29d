#!/usr/bin/env node
// End-to-end test of notices in the web client (clients/web/, docs/notifications.md), in
// Debian's headless Chromium driven by playwright-core, against a server with no SMTP relay
// (the default): mailed links that are not the server's say so (#/verify-email/…,
// #/reset-password/…, in a browser that has never been there), "Forgot your password?" tells
// that the server sends no mail; a guest signs up and opens "E-mail and notices" from the
// account page: the address field is off, since the server sends no mail; the kinds'
// channels and the digest are changed, saved, and still so after a reload. Then the service
// worker shows a push delivered through the DevTools protocol as a notification with the
// pushed title, body, tag and address. Screenshots go to $ELGRANDE_ARTIFACTS (notices-*).
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/notices.test.mjs
//
// Optional: as for play.test.mjs (support.mjs).

import assert from 'node:assert/strict';
import {audit, checkProblems, launchBrowser, personInLobby, runTest, say, shot, startServer, watch} from './support.mjs';

const OVERALL_TIMEOUT_MS = 120_000;
const USERNAME = 'Nora_N';
const PASSWORD = 'correct horse battery';
const BAD_TOKEN = 'This link was used already, has expired, or is not one of ours.';
const PUSHED = {kind: 'turn', title: 'Your turn at T', body: 'Nora, the table waits for your decision.', url: '/#/table/1', tag: 'notice-1'};

// Links from mails, opened by a browser that has never been here: they need no name first.
async function mailedLinks(browser, url) {
  const context = await browser.newContext({viewport: {width: 1366, height: 768}});
  const page = await context.newPage();
  watch(page, 'mailed links');
  await page.goto(`${url}#/verify-email/${'A'.repeat(43)}`);
  await page.locator('[data-testid=verify-error]').waitFor({timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=verify-error]'), BAD_TOKEN);
  assert.equal(await page.getAttribute('[data-testid=verify-status]', 'role'), 'status');
  await shot(page, 'notices-1-verify-bad-token');
  await audit(page, 'a mailed link that is not ours');
  // Onwards: a browser that is nobody yet gets the welcome screen.
  await page.click('[data-testid=link-onwards]');
  await page.waitForSelector('[data-testid=welcome]');

  await page.goto(`${url}#/reset-password/${'B'.repeat(43)}`);
  await page.waitForSelector('[data-testid=reset-screen]');
  await page.fill('[data-testid=reset-password]', 'short');
  await page.fill('[data-testid=reset-repeat]', 'short');
  await page.click('[data-testid=reset-submit]');
  assert.equal(await page.textContent('[data-testid=reset-error]'), 'A password has at least 8 characters.');
  await page.fill('[data-testid=reset-password]', PASSWORD);
  await page.fill('[data-testid=reset-repeat]', `${PASSWORD}!`);
  await page.click('[data-testid=reset-submit]');
  assert.match(await page.textContent('[data-testid=reset-error]'), /differ/);
  await page.fill('[data-testid=reset-repeat]', PASSWORD);
  await page.click('[data-testid=reset-submit]');
  await page.locator('[data-testid=reset-bad-token]').waitFor({timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=reset-bad-token]'), BAD_TOKEN);
  await audit(page, 'a reset link that is not ours', {phone: true});

  // "Forgot your password?" on the welcome screen's sign-in: this server sends no mail.
  await page.click('[data-testid=link-onwards]');
  await page.waitForSelector('[data-testid=welcome]');
  await page.click('[data-testid=have-account]');
  await page.click('[data-testid=forgot-open]');
  const id = await page.getAttribute('[data-testid=forgot-address]', 'id');
  assert.equal(await page.locator(`label[for="${id}"]`).count(), 1, 'the address has a label');
  await page.fill('[data-testid=forgot-address]', 'not an address');
  await page.click('[data-testid=forgot-submit]');
  assert.match(await page.textContent('[data-testid=forgot-error]'), /not an e-mail address/);
  await page.fill('[data-testid=forgot-address]', 'nora@example.org');
  await page.click('[data-testid=forgot-submit]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=forgot][aria-busy]'));
  assert.match(await page.textContent('[data-testid=forgot-error]'), /no e-mail/i, 'no SMTP relay: the server says it sends no mail');
  await shot(page, 'notices-2-forgot');
  await context.close();
  say('mailed links that are not ours say so; "forgot your password?" says the server sends no mail');
}

async function signUp(page) {
  await page.click('[data-testid=nav-account]');
  await page.waitForSelector('[data-testid=account-page][data-kind=guest]');
  await page.fill('[data-testid=sign-up-username]', USERNAME);
  await page.fill('[data-testid=sign-up-password]', PASSWORD);
  await page.fill('[data-testid=sign-up-repeat]', PASSWORD);
  await page.click('[data-testid=sign-up-submit]');
  await page.waitForSelector('[data-testid=account-page][data-kind=account]', {timeout: 10_000});
}

const CHECKS = ['turn-mail', 'turn-push', 'game_ended-mail', 'game_ended-push', 'tournament-mail', 'tournament-push', 'digest'];

async function checked(page) {
  const state = {};
  for (const name of CHECKS) state[name] = await page.isChecked(`[data-testid=pref-${name}]`);
  return state;
}

async function preferences(page) {
  await page.click('[data-testid=notices-link]');
  await page.waitForSelector('[data-testid=kinds-panel]', {timeout: 10_000});
  assert.equal(await page.getAttribute('[data-testid=nav-account]', 'aria-current'), 'page');
  await page.locator('[data-testid=no-mail]').waitFor();
  assert.ok(await page.isDisabled('[data-testid=notices-address]'), 'no mail: no address to set');
  assert.ok(await page.isDisabled('[data-testid=set-email-submit]'));
  for (const name of CHECKS) {
    const id = await page.getAttribute(`[data-testid=pref-${name}]`, 'id');
    assert.equal(await page.locator(`label[for="${id}"]`).count(), 1, `${name} has a label`);
  }
  assert.deepEqual(await checked(page), {
    'turn-mail': true, 'turn-push': true, 'game_ended-mail': true, 'game_ended-push': true,
    'tournament-mail': true, 'tournament-push': true, digest: false,
  }, 'everything on, no digest, by default');
  // Chromium on 127.0.0.1 can subscribe (a secure context); the test does not: that needs a push service.
  await page.locator('[data-testid=push-on]').waitFor();
  await page.locator('[data-testid=push-devices-none]').waitFor();
  await shot(page, 'notices-3-defaults');
  await audit(page, 'notices', {phone: true});

  await page.uncheck('[data-testid=pref-turn-mail]');
  await page.uncheck('[data-testid=pref-tournament-push]');
  await page.check('[data-testid=pref-digest]');
  await page.click('[data-testid=preferences-submit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=notices-status]').textContent === 'Saved.', null, {timeout: 10_000});
  assert.equal(await page.getAttribute('[data-testid=notices-status]', 'role'), 'status');
  const wanted = {
    'turn-mail': false, 'turn-push': true, 'game_ended-mail': true, 'game_ended-push': true,
    'tournament-mail': true, 'tournament-push': false, digest: true,
  };
  await page.reload();
  await page.waitForSelector('[data-testid=kinds-panel]', {timeout: 10_000});
  assert.deepEqual(await checked(page), wanted, 'the preferences are kept');
  await shot(page, 'notices-4-saved');
  say('the notices page: no address without mail; preferences saved and kept over a reload');

  // A game of hers gets channels of its own, kept too; the account's stay as they were.
  const {table} = await page.evaluate(() => window.elgrande.conn.request('table.create', {options: {players: 3, short_game: true, automa: false, four_stacks: false}}));
  await page.reload();
  const menu = `[data-testid=pref-game-${table.id}]`;
  await page.waitForSelector(menu, {timeout: 10_000});
  assert.equal(await page.inputValue(menu), 'account', 'a game follows the account until told otherwise');
  assert.equal(await page.locator(`label[for="pref-game-${table.id}"]`).count(), 1, 'the game\'s menu has a label');
  await page.selectOption(menu, 'push');
  await page.click('[data-testid=preferences-submit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=notices-status]').textContent === 'Saved.', null, {timeout: 10_000});
  await page.reload();
  await page.waitForSelector(menu, {timeout: 10_000});
  assert.equal(await page.inputValue(menu), 'push', 'the game\'s own channels are kept');
  assert.deepEqual(await checked(page), wanted, 'and the account\'s are untouched');
  say('a game with channels of its own: push only, kept over a reload');
}

// The registration id of the page's service worker, from the DevTools protocol's list.
function registrationOf(cdp, scope) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no service worker registration for ${scope}`)), 10_000);
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({registrations}) => {
      const found = registrations.find((r) => r.scopeURL === scope && !r.isDeleted);
      if (!found) return;
      clearTimeout(timer);
      resolve(found.registrationId);
    });
    cdp.send('ServiceWorker.enable').catch(reject);
  });
}

async function pushedNotice(page, url) {
  await page.context().grantPermissions(['notifications'], {origin: new URL(url).origin});
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  const cdp = await page.context().newCDPSession(page);
  const registrationId = await registrationOf(cdp, scope);
  // DevTools hands the message to the worker as a push service would, once: on a busy
  // machine a worker still starting has dropped it, so it is delivered again (a push
  // service also retries), each time under the same tag, which one notification keeps.
  let shown = [];
  for (let tries = 0; tries < 50 && shown.length === 0; tries++) {
    if (tries % 10 === 0) {
      await cdp.send('ServiceWorker.deliverPushMessage', {origin: new URL(url).origin, registrationId, data: JSON.stringify(PUSHED)});
    }
    shown = await page.evaluate(async (tag) => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications({tag})).map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon}));
    }, PUSHED.tag);
    if (shown.length === 0) await page.waitForTimeout(200);
  }
  assert.equal(shown.length, 1, 'the pushed notice is shown');
  assert.equal(shown[0].title, PUSHED.title);
  assert.equal(shown[0].body, PUSHED.body);
  assert.equal(shown[0].tag, PUSHED.tag);
  assert.equal(shown[0].data.url, PUSHED.url);
  assert.match(shown[0].icon, /img\/favicon\.svg$/);
  await cdp.detach();
  say('a push through the DevTools protocol became a notification with its title, body, tag and address');
}

// The account deleted from its page: a wrong password is refused there; the right one signs
// this device out, and the username no longer signs in.
async function deleteAccount(page) {
  await page.click('[data-testid=nav-account]');
  await page.waitForSelector('[data-testid=account-page][data-kind=account]');
  await page.fill('[data-testid=delete-password]', 'not the password');
  await page.click('[data-testid=delete-account-submit]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=delete-account][aria-busy]'));
  assert.match(await page.textContent('[data-testid=delete-account-error]'), /password is wrong/);
  await page.fill('[data-testid=delete-password]', PASSWORD);
  await page.click('[data-testid=delete-account-submit]');
  await page.waitForSelector('[data-testid=welcome]', {timeout: 10_000});
  await page.waitForTimeout(500);  // the server's close of the session, which must not change the message
  assert.match(await page.textContent('[data-testid=welcome]'), /Your account is deleted/);
  await shot(page, 'notices-5-deleted');
  say('the account deleted from its page, with its password: this device is signed out');
}

async function main() {
  const url = await startServer(['--password-memory-kib', '64', '--password-passes', '1']);
  say(`server at ${url}`);
  const browser = await launchBrowser();
  await mailedLinks(browser, url);
  const {page} = await personInLobby(browser, url, 'Nora', 'browser');
  await signUp(page);
  await preferences(page);
  checkProblems();
  await pushedNotice(page, url);
  checkProblems();
  await deleteAccount(page);
  checkProblems();
}

await runTest(main, OVERALL_TIMEOUT_MS);
