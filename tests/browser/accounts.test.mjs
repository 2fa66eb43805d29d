#!/usr/bin/env node
// End-to-end test of accounts in the web client (clients/web/), in Debian's headless Chromium
// driven by playwright-core: a guest starts a game with two bots and signs up from the account
// page; in a second browser with storage of its own, the same person chooses "I have an
// account" (a wrong password first), signs in, finds the table in "My games" and decides
// there, and the first browser's page follows; the second browser signs out everywhere else,
// and the first is closed with 4001 and shows the welcome screen, without trying the dead
// token again; then the password is changed, a sign-out forgets the browser's identity, an
// unknown username tried too often is told in words when to try again, and the new password
// signs in, also from the account page of a guest. Screenshots go to $ELGRANDE_ARTIFACTS
// (account-*).
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/accounts.test.mjs
//
// Optional: as for play.test.mjs (support.mjs).

import assert from 'node:assert/strict';
import {
  audit, checkProblems, choose, launchBrowser, nextDecision, personInLobby, runTest, say, settled, shot, startServer, watch,
} from './support.mjs';

const OVERALL_TIMEOUT_MS = 120_000;
const USERNAME = 'Ana_P';
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'staple the battery too';
// Failed sign-ins to one username before the server makes it wait (its default).
const FAILURES_PER_USERNAME = 10;

async function storedIdentity(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('elgrande.identity') || 'null'));
}

const versionOf = (key) => Number(key.split(':')[0]);

// Every hello a page sends, with the time, to see what it does after its session ended.
function recordHellos(page) {
  const hellos = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', ({payload}) => {
      if (String(payload).includes('"type":"hello"')) hellos.push({at: Date.now(), payload: JSON.parse(String(payload)).payload});
    });
  });
  return hellos;
}

// Submits a form by Enter in `input` and waits for its answer (the form may be gone then).
async function submitWithEnter(page, form, input) {
  await page.press(`[data-testid=${form}] [data-testid=${input}]`, 'Enter');
  await page.waitForFunction((testid) => !document.querySelector(`[data-testid=${testid}][aria-busy]`), form, {timeout: 10_000});
}

// A guest at a 3-player table with two bots, the game started; the decision it owes.
async function guestWithAGame(page) {
  assert.equal(await page.textContent('[data-testid=my-guest]'), 'guest');
  await page.fill('[data-testid=opt-name]', 'Accounts test');
  await page.click('[data-testid=opt-players-3]');
  await page.click('[data-testid=create-table]');
  await page.waitForSelector('[data-testid=waiting-room]');
  const tableId = Number(await page.getAttribute('[data-testid=waiting-room]', 'data-table'));
  await page.click('[data-testid=add-bot-1]');
  await page.click('[data-testid=add-bot-2]');
  await page.locator('[data-testid=start-game]:enabled').click();
  await page.waitForSelector('[data-testid=game-screen]');
  const decision = await nextDecision(page);
  say(`guest Ana started table ${tableId}; it waits for her ${decision.kind} (${decision.key})`);
  return {tableId, decision};
}

async function signUp(page) {
  const guest = await storedIdentity(page);
  await page.click('[data-testid=nav-account]');
  await page.waitForSelector('[data-testid=account-page][data-kind=guest]');
  assert.equal(await page.getAttribute('[data-testid=nav-account]', 'aria-current'), 'page');
  for (const [testid, autocomplete] of [['sign-up-username', 'username'], ['sign-up-password', 'new-password'],
    ['sign-up-repeat', 'new-password'], ['sign-in-username', 'username'], ['sign-in-password', 'current-password']]) {
    assert.equal(await page.getAttribute(`[data-testid=${testid}]`, 'autocomplete'), autocomplete, `${testid}'s autocomplete`);
    const id = await page.getAttribute(`[data-testid=${testid}]`, 'id');
    assert.equal(await page.locator(`label[for="${id}"]`).count(), 1, `${testid} has a label`);
  }
  // Checked before asking: a username outside the rules, then passwords that differ.
  await page.fill('[data-testid=sign-up-username]', 'Ana P');
  await page.fill('[data-testid=sign-up-password]', PASSWORD);
  await page.fill('[data-testid=sign-up-repeat]', `${PASSWORD}!`);
  await page.click('[data-testid=sign-up-submit]');
  const error = page.locator('[data-testid=sign-up-error]');
  assert.match(await error.textContent(), /only the letters/);
  assert.equal(await error.getAttribute('role'), 'alert');
  assert.equal(await page.getAttribute('[data-testid=sign-up-username]', 'aria-invalid'), 'true');
  await page.fill('[data-testid=sign-up-username]', USERNAME);
  await page.click('[data-testid=sign-up-submit]');
  assert.match(await error.textContent(), /differ/);
  await shot(page, 'account-0-guest');
  await audit(page, 'account page of a guest', {phone: true});
  await page.fill('[data-testid=sign-up-repeat]', PASSWORD);
  await page.click('[data-testid=sign-up-submit]');
  await page.waitForSelector('[data-testid=account-page][data-kind=account]', {timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=account-username]'), USERNAME);
  assert.equal(await page.getAttribute('[data-testid=account-role]', 'data-role'), 'player');
  assert.equal(await page.textContent('[data-testid=my-username]'), USERNAME, 'the header shows the username');
  assert.equal(await page.textContent('[data-testid=my-name]'), 'Ana', 'the name at tables stays');
  await page.waitForSelector('[data-testid=sessions] li[data-current=true]');
  assert.equal(await page.locator('[data-testid=sessions] li').count(), 1, 'one session: this device');
  const device = await page.textContent('[data-testid=sessions] li[data-current=true] strong');
  assert.match(device, / on Linux$/, `the device is described: ${device}`);
  const account = await storedIdentity(page);
  assert.equal(account.username, USERNAME, 'the identity kept says it is an account');
  assert.equal(account.id, guest.id, 'the same player');
  assert.match(account.token, /^[0-9a-f]{64}$/);
  assert.notEqual(account.token, guest.token, 'the session token replaced the guest token');
  await shot(page, 'account-1-signed-up');
  await audit(page, 'account page', {phone: true});
  say(`Ana signed up as ${USERNAME} on "${device}"`);
  return account;
}

// A second browser: "I have an account", a wrong password, then the right one.
async function signInElsewhere(browser, url, account) {
  const context = await browser.newContext({viewport: {width: 1366, height: 768}});
  const page = await context.newPage();
  watch(page, 'browser B');
  await page.goto(url);
  await page.waitForSelector('[data-testid=welcome][data-mode=name]');
  await page.click('[data-testid=have-account]');
  await page.waitForSelector('[data-testid=welcome][data-mode=sign-in]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'sign-in-username', 'the username has focus');
  await page.fill('[data-testid=sign-in-username]', USERNAME.toLowerCase());
  await page.fill('[data-testid=sign-in-password]', 'not the password');
  await submitWithEnter(page, 'sign-in', 'sign-in-password');
  const error = page.locator('[data-testid=sign-in-error]');
  assert.equal(await error.textContent(), 'Unknown username or wrong password.');
  assert.equal(await error.getAttribute('role'), 'alert');
  await shot(page, 'account-2-wrong-password');
  await audit(page, 'welcome, signing in');
  await page.fill('[data-testid=sign-in-password]', PASSWORD);
  await submitWithEnter(page, 'sign-in', 'sign-in-password');
  await page.waitForSelector('[data-testid=lobby]', {timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=my-username]'), USERNAME);
  assert.equal(await page.textContent('[data-testid=my-name]'), 'Ana');
  const stored = await storedIdentity(page);
  assert.equal(stored.id, account.id, 'no guest was made: the account\'s own player');
  assert.notEqual(stored.token, account.token, 'a session of its own');
  say('browser B signed in (username in other capitals, after a wrong password)');
  return {context, page};
}

// B opens the table from "My games" and decides; A's page follows.
async function playElsewhere(pageA, pageB, tableId, waiting) {
  await pageB.waitForSelector(`[data-testid=my-game-${tableId}][data-my-turn=true]`, {timeout: 10_000});
  await shot(pageB, 'account-3-my-games');
  await pageB.click(`[data-testid=my-game-open-${tableId}]`);
  const decision = await nextDecision(pageB);
  assert.equal(decision.key, waiting.key, 'B is asked what A is asked');
  const {what, submit} = await choose(pageB, decision);
  await submit.click();
  await settled(pageB, decision.key, what);
  const moved = await pageA.waitForFunction((key) => {
    const d = document.querySelector('[data-testid=decision]');
    return d && d.dataset.key !== key && d.dataset.key;
  }, waiting.key, {timeout: 10_000, polling: 50});
  const key = await moved.jsonValue();
  assert.ok(versionOf(key) > versionOf(waiting.key), `A's game moved on from ${waiting.key} to ${key}`);
  await shot(pageA, 'account-4-followed');
  say(`B answered the ${what}; A's page moved on to ${key}`);
}

// B signs the other device out: A's connection is closed with 4001, and A shows the welcome
// screen with the message, having forgotten the token and not trying it again.
async function signOutEverywhereElse(pageA, pageB, hellosOfA, account) {
  await pageB.click('[data-testid=nav-account]');
  const rows = pageB.locator('[data-testid=sessions] li');
  await pageB.waitForSelector('[data-testid=sessions] li >> nth=1');
  assert.equal(await rows.count(), 2, 'two sessions');
  assert.equal(await pageB.locator('[data-testid=session-current]').count(), 1, 'one is this device');
  const other = await pageB.getAttribute('[data-testid=sessions] li[data-current=false]', 'data-testid');
  assert.equal(await pageB.locator(`[data-testid=end-${other}]`).count(), 1, 'the other session has its own sign-out');
  await shot(pageB, 'account-5-sessions');
  const before = Date.now();
  await pageB.click('[data-testid=end-other-sessions]');
  await pageA.waitForSelector('[data-testid=welcome]', {timeout: 10_000});
  assert.match(await pageA.textContent('[data-testid=welcome-message]'), /You were signed out on this device/);
  assert.equal(await pageA.getAttribute('[data-testid=welcome]', 'data-mode'), 'sign-in', 'A is offered to sign in again');
  assert.equal(await pageA.inputValue('[data-testid=sign-in-username]'), USERNAME);
  assert.equal(await pageA.locator('[data-testid=my-name]').count(), 0, 'the header names nobody');
  assert.equal(await storedIdentity(pageA), null, 'A forgot token and name');
  await pageB.waitForFunction(() => document.querySelectorAll('[data-testid=sessions] li').length === 1, null, {timeout: 5000});
  assert.match(await pageB.textContent('[data-testid=sessions-status]'), /Signed out everywhere else \(1 device\)/);
  assert.ok(await pageB.locator('[data-testid=end-other-sessions]').isDisabled(), 'nothing else to sign out');
  // A reconnected, and says nothing until asked: no hello with the dead token.
  await pageA.waitForSelector('#connection[data-state=open]', {timeout: 5000});
  await pageA.waitForTimeout(1500);
  const late = hellosOfA.filter((hello) => hello.at >= before);
  assert.deepEqual(late, [], 'A sent no hello after its session ended');
  assert.ok(hellosOfA.some((hello) => hello.payload.token === account.token), 'A had resumed its session by hello before');
  await shot(pageA, 'account-6-signed-out-elsewhere');
  await audit(pageA, 'welcome, signed out elsewhere');
  say('B signed out everywhere else: A shows the welcome screen (close code 4001) and stays quiet');
}

async function changePassword(page) {
  await page.fill('[data-testid=password-current]', 'not the password');
  await page.fill('[data-testid=password-new-password]', NEW_PASSWORD);
  await page.fill('[data-testid=password-new-repeat]', NEW_PASSWORD);
  await page.click('[data-testid=password-submit]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=password][aria-busy]'), null, {timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=password-error]'), 'The current password is wrong.');
  await page.fill('[data-testid=password-current]', PASSWORD);
  await submitWithEnter(page, 'password', 'password-current');
  assert.ok(await page.locator('[data-testid=password-error]').isHidden(), 'no error');
  assert.match(await page.textContent('[data-testid=password-done]'), /password is changed/);
  say('B changed the password');
}

// Signing out forgets everything; the welcome screen asks for a name again.
async function signOut(page) {
  await page.click('[data-testid=sign-out]');
  await page.waitForSelector('[data-testid=welcome][data-mode=name]', {timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=welcome-message]'), 'You signed out.');
  assert.equal(await storedIdentity(page), null, 'nothing of the identity is kept');
  await page.reload();
  await page.waitForSelector('[data-testid=welcome][data-mode=name]');
  say('B signed out: the page forgot the identity, also after a reload');
}

// Too many failures for one username: the refusal says when to try again, in words.
async function tooManyFailures(page) {
  await page.click('[data-testid=have-account]');
  await page.fill('[data-testid=sign-in-username]', 'nobody_here');
  await page.fill('[data-testid=sign-in-password]', 'not the password');
  for (let i = 0; i < FAILURES_PER_USERNAME; i++) {
    await submitWithEnter(page, 'sign-in', 'sign-in-password');
    assert.equal(await page.textContent('[data-testid=sign-in-error]'), 'Unknown username or wrong password.');
  }
  await submitWithEnter(page, 'sign-in', 'sign-in-password');
  const text = await page.textContent('[data-testid=sign-in-error]');
  assert.match(text, /^Too many failed sign-ins for this username or from this network: try again in (9|10) minutes \(at [^)]+\)\.$/, text);
  await shot(page, 'account-7-rate-limited');
  say(`rate limited: "${text}"`);
}

async function signInWithNewPassword(page) {
  await page.fill('[data-testid=sign-in-username]', USERNAME);
  await page.fill('[data-testid=sign-in-password]', NEW_PASSWORD);
  await submitWithEnter(page, 'sign-in', 'sign-in-password');
  await page.waitForSelector('[data-testid=lobby]', {timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=my-username]'), USERNAME);
  say('B signed in again with the new password');
}

// The signed-out browser A: a new guest, whose sign-up with a username taken is refused, and
// who then signs in from the account page; the connection switches to the account, whose
// table is listed again.
async function guestSignsInFromTheAccountPage(page, tableId, account) {
  await page.click('[data-testid=new-player]');
  await page.fill('[data-testid=name-input]', 'Stranger');
  await page.click('[data-testid=name-submit]');
  // The page stays where it was: the table, watched now.
  await page.waitForSelector('[data-testid=my-guest]');
  assert.equal(await page.textContent('[data-testid=my-name]'), 'Stranger');
  const guest = await storedIdentity(page);
  assert.notEqual(guest.id, account.id, 'a new guest');
  await page.click('[data-testid=nav-account]');
  await page.waitForSelector('[data-testid=account-page][data-kind=guest]');
  // The username is someone's, in other capitals: the server's refusal is shown by the form.
  await page.fill('[data-testid=sign-up-username]', USERNAME.toUpperCase());
  await page.fill('[data-testid=sign-up-password]', PASSWORD);
  await page.fill('[data-testid=sign-up-repeat]', PASSWORD);
  await submitWithEnter(page, 'sign-up', 'sign-up-repeat');
  const taken = await page.textContent('[data-testid=sign-up-error]');
  assert.match(taken, /^The server refused: .*taken.*pick another\.$/, taken);
  await page.fill('[data-testid=sign-in-username]', USERNAME);
  await page.fill('[data-testid=sign-in-password]', NEW_PASSWORD);
  await page.click('[data-testid=sign-in-submit]');
  await page.waitForSelector('[data-testid=account-page][data-kind=account]', {timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=my-username]'), USERNAME);
  assert.equal(await page.textContent('[data-testid=my-name]'), 'Ana');
  assert.equal((await storedIdentity(page)).id, account.id, 'the account\'s player');
  await page.click('[data-testid=nav-lobby]');
  await page.waitForSelector(`[data-testid=my-game-${tableId}]`, {timeout: 10_000});
  say(`a guest in browser A was refused the username ("${taken}"), signed in from the account page and found the table again`);
}

// Offline, the welcome screen says so rather than offer a name that cannot be sent; back
// online, it reconnects by itself and the name makes a guest.
async function offlineWelcome(browser, url) {
  const context = await browser.newContext({viewport: {width: 390, height: 844}, colorScheme: 'light'});
  const page = await context.newPage();
  // Not watch(): the browser itself logs each connection that fails offline as an error.
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(url);
  await page.waitForSelector('#connection[data-state=open]');
  await context.setOffline(true);
  await page.evaluate(() => window.elgrande.conn.reconnect());
  const notice = page.locator('[data-testid=welcome-offline]');
  await notice.waitFor();
  assert.match(await notice.textContent(), /You are offline/);
  assert.ok(await page.isDisabled('[data-testid=name-submit]'), 'the name waits for the connection');
  await shot(page, 'account-8-offline');
  await audit(page, 'welcome, offline', {phone: true});
  await context.setOffline(false);
  await notice.waitFor({state: 'hidden', timeout: 5000});
  await page.fill('[data-testid=name-input]', 'Otto');
  await page.click('[data-testid=name-submit]');
  await page.waitForSelector('[data-testid=lobby]');
  assert.deepEqual(errors, [], 'no page error');
  say('offline, the welcome screen said so; back online, the name made a guest');
  await context.close();
}

async function main() {
  // Cheap password hashes: the test is about the browser, not Argon2id's cost.
  const url = await startServer(['--password-memory-kib', '64', '--password-passes', '1']);
  say(`server at ${url}`);
  const browser = await launchBrowser();
  await offlineWelcome(browser, url);
  // Browser A in dark colours: every screen is checked in one theme or the other.
  const {page: pageA} = await personInLobby(browser, url, 'Ana', 'browser A', {colorScheme: 'dark'});
  const hellosOfA = recordHellos(pageA);
  const {tableId, decision} = await guestWithAGame(pageA);
  const account = await signUp(pageA);
  // Back at the table, A waits for the same decision; a reload resumes the account's session.
  await pageA.reload();
  await pageA.waitForSelector('[data-testid=my-username]');
  await pageA.click('[data-testid=nav-lobby]');
  await pageA.click(`[data-testid=my-game-open-${tableId}]`);
  assert.equal((await nextDecision(pageA)).key, decision.key, 'A still owes the same decision');
  checkProblems();

  const {page: pageB} = await signInElsewhere(browser, url, account);
  await playElsewhere(pageA, pageB, tableId, decision);
  checkProblems();
  await signOutEverywhereElse(pageA, pageB, hellosOfA, account);
  await changePassword(pageB);
  await signOut(pageB);
  await tooManyFailures(pageB);
  await signInWithNewPassword(pageB);
  await guestSignsInFromTheAccountPage(pageA, tableId, account);
  checkProblems();
}

await runTest(main, OVERALL_TIMEOUT_MS);
