#!/usr/bin/env node
// The client in each language it offers (clients/web/js/i18n.js, docs/translating.md), in
// Chromium whose preferred language is that one: the first visit speaks it (<html lang>,
// the picker); a person plays a whole (short) game against a bot in it, the window switching between
// a 360 px phone and a 1366 px desktop at every decision; each screen (welcome, lobby,
// waiting room, every kind of decision, the final screen, tournaments, ratings, the account
// page) fits both widths with no key the catalogs lack, and is kept as a screenshot per
// language; axe-core finds nothing serious on each (on the game screen at its first
// decision: play.test.mjs audits every kind). Then a player signed in on one device picks another
// language there, and a second device that signs in speaks it too.
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/languages.test.mjs

import assert from 'node:assert/strict';
import {LANGUAGES} from '../../clients/web/js/i18n.js';
import {
  audit, checkProblems, choose, launchBrowser, nextDecision, runTest, say, settled, shot, startServer, watch,
} from './support.mjs';

const OVERALL_TIMEOUT_MS = 560_000;
const PHONE_NARROW = {width: 360, height: 780};
const DESKTOP = {width: 1366, height: 768};
const PASSWORD = 'a long enough password';

// The keys a screen asked for that its language's catalog and the English one both lack,
// or that only English has: the page's own i18n module counts them.
async function missingKeys(page) {
  return page.evaluate(() => import('./js/i18n.js').then((m) => [...m.missingKeys]));
}

// A screen as a person of this language sees it: at both widths, and in a screenshot.
async function look(page, code, screen, phone = true, axe = true) {
  await audit(page, `${code}: ${screen}`, {phone, axe});
  await shot(page, `lang-${code}-${screen.replace(/[^a-z0-9]+/gi, '-')}`);
  assert.deepEqual(await missingKeys(page), [], `${code}: ${screen} uses only keys its catalog has`);
  checkProblems();
}

async function playWholeGame(page, code) {
  const seen = new Set();
  for (let i = 0; ; i++) {
    await page.setViewportSize(i % 2 ? PHONE_NARROW : DESKTOP);
    const decision = await nextDecision(page);
    if (decision.kind === 'over') break;
    const {what, submit} = await choose(page, decision);
    const family = what.replace(/^skip /, '').split(' ').slice(0, 2).join(' ');
    if (!seen.has(family)) {
      // axe-core reads the game screen in this language once; each kind of decision after it
      // must fit both widths (play.test.mjs runs axe on every kind).
      await look(page, code, `decision ${family}`, 'fit', seen.size === 0);
      seen.add(family);
    }
    if (decision.kind === 'veto') {
      await submit.click({timeout: 5000}).catch(() => {});  // another holder may close the window first
      continue;
    }
    await submit.click();
    await settled(page, decision.key, what);
  }
  await page.setViewportSize(DESKTOP);
  await page.waitForSelector('[data-testid=final-scores]', {timeout: 15_000});
  await look(page, code, 'final screen');
}

async function oneLanguage(browser, url, code) {
  // The browser asks for this language first: nothing is chosen on the device yet.
  const context = await browser.newContext({viewport: DESKTOP, locale: code === 'en' ? 'en-GB' : code});
  const page = await context.newPage();
  watch(page, `player (${code})`);
  await page.goto(url);
  await page.waitForSelector('[data-testid=welcome]');
  assert.equal(await page.getAttribute('html', 'lang'), code, `${code}: the page says its language`);
  assert.equal(await page.inputValue('[data-testid=language]'), code, `${code}: the picker shows it`);
  await look(page, code, 'welcome');
  await page.fill('[data-testid=name-input]', 'Zoë');
  await page.click('[data-testid=name-submit]');
  await page.waitForSelector('[data-testid=lobby] [data-testid=history-empty]');
  await look(page, code, 'lobby');

  await page.click('[data-testid=opt-players-2]');
  await page.check('[data-testid=opt-short]');
  await page.click('[data-testid=create-table]');
  await page.waitForSelector('[data-testid=waiting-room]');
  await page.click('[data-testid=add-bot-1]');
  await page.waitForSelector('[data-testid=bot-level-1]');
  await look(page, code, 'waiting room');
  await page.locator('[data-testid=start-game]:enabled').click();
  await page.waitForSelector('[data-testid=game-screen]');
  await playWholeGame(page, code);

  for (const [hash, ready, screen] of [
    ['#/tournaments', '[data-testid=tournaments]', 'tournaments'],
    ['#/ratings', '[data-testid=leaderboard]', 'ratings'],
    ['#/account', '[data-testid=account-page]', 'account'],
  ]) {
    await page.goto(`${url}/${hash}`);
    await page.waitForSelector(ready);
    await look(page, code, screen);
  }
  say(`${code}: a whole game and every screen`);
  await context.close();
}

// A player signs up in English, picks `code` on this device; a second device signing in
// speaks it at once, and the choice is the account's, not only this browser's.
async function languageFollowsTheAccount(browser, url, code) {
  const username = `polyglot${Date.now() % 100000}`;
  const a = await browser.newContext({viewport: DESKTOP, locale: 'en-GB'});
  const pageA = await a.newPage();
  watch(pageA, 'device A');
  // The server's answer that the account keeps the choice.
  const accountSaved = new Promise((resolve) => pageA.on('websocket', (ws) => ws.on('framereceived', ({payload}) => {
    if (String(payload).includes('"type":"account.set_language.ok"')) resolve();
  })));
  await pageA.goto(`${url}/#/account`);
  await pageA.fill('[data-testid=name-input]', 'Poly');
  await pageA.click('[data-testid=name-submit]');
  await pageA.waitForSelector('[data-testid=account-page][data-kind=guest]');
  await pageA.fill('[data-testid=sign-up-username]', username);
  await pageA.fill('[data-testid=sign-up-password]', PASSWORD);
  await pageA.fill('[data-testid=sign-up-repeat]', PASSWORD);
  await pageA.click('[data-testid=sign-up-submit]');
  await pageA.waitForSelector('[data-testid=account-page][data-kind=account]');
  assert.equal(await pageA.getAttribute('html', 'lang'), 'en');
  await pageA.selectOption('[data-testid=language]', code);
  await pageA.waitForFunction((c) => document.documentElement.lang === c, code);
  await accountSaved;

  const b = await browser.newContext({viewport: DESKTOP, locale: 'en-GB'});
  const pageB = await b.newPage();
  watch(pageB, 'device B');
  await pageB.goto(url);
  await pageB.waitForSelector('[data-testid=welcome][data-mode=name]');
  assert.equal(await pageB.getAttribute('html', 'lang'), 'en', 'a new device speaks its browser\'s language');
  await pageB.click('[data-testid=have-account]');
  await pageB.fill('[data-testid=sign-in-username]', username);
  await pageB.fill('[data-testid=sign-in-password]', PASSWORD);
  await pageB.press('[data-testid=sign-in-password]', 'Enter');
  await pageB.waitForFunction((c) => document.documentElement.lang === c, code, {timeout: 10_000});
  assert.equal(await pageB.inputValue('[data-testid=language]'), code, 'the picker of device B shows the account\'s language');
  await shot(pageB, `lang-${code}-second-device`);
  say(`the account's language (${code}) followed it to a second device`);
  await a.close();
  await b.close();
}

async function main() {
  const url = await startServer();
  const browser = await launchBrowser();
  // English is every other browser test's language: here the others, or English alone.
  const codes = Object.keys(LANGUAGES).length > 1 ? Object.keys(LANGUAGES).filter((code) => code !== 'en') : ['en'];
  say(`languages offered: ${Object.keys(LANGUAGES).join(', ')}; played here: ${codes.join(', ')}`);
  // Side by side, each in a window of its own: a game waits on its bot more than on the machine.
  await Promise.all(codes.map((code) => oneLanguage(browser, url, code)));
  const other = codes.find((code) => code !== 'en');
  if (other) await languageFollowsTheAccount(browser, url, other);
  else say('one language only: nothing to follow to a second device');
}

await runTest(main, OVERALL_TIMEOUT_MS);
