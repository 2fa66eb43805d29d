#!/usr/bin/env node
// End-to-end test of moderation in the web client (clients/web/), in Debian's headless
// Chromium driven by playwright-core: the first admin is made from the command line; a guest
// starts a game with two bots and says a line in the chat; the admin signs in in a second
// browser and watches the table from the lobby. The guest blocks the admin from the menu by
// his chat name: his line goes from her page at once and his next one never comes; she
// unblocks him from her account page. The admin removes one of her lines from the menu on
// it, with a reason: both pages show it removed in place, and she is told why. The admin mutes the guest for 10 minutes from the menu
// by her chat name, with a reason; the guest is told why and until when,
// and their next line is refused with the server's words; the guest renames themself, and
// the admin's page shows the new name on the old chat line. The admin bans the guest, whose page
// shows the welcome screen with the reason and says no hello again. Last, the admin's account
// page lists the ban, the mute and the removed line in the audit log. Screenshots go to $ELGRANDE_ARTIFACTS (moderation-*).
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/moderation.test.mjs
//
// Optional: as for play.test.mjs (support.mjs).

import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  audit, checkProblems, cleanups, launchBrowser, nextDecision, personInLobby, runTest, say, shot, startServer, watch,
} from './support.mjs';

const OVERALL_TIMEOUT_MS = 60_000;
const ADMIN = 'root';
const ADMIN_PASSWORD = 'a long admin password';
const REASON = 'shouting at the table';
const CHEAP_HASHES = ['--password-memory-kib', '64', '--password-passes', '1'];

// `elgrande-server --create-admin root` reads the password from stdin and exits 0.
async function createAdmin(dataDir) {
  const maker = spawn(process.env.ELGRANDE_SERVER, ['--data-dir', dataDir, ...CHEAP_HASHES, '--create-admin', ADMIN],
    {cwd: dataDir, stdio: ['pipe', 'ignore', 'pipe']});
  let stderr = '';
  maker.stderr.on('data', (chunk) => { stderr += chunk; });
  maker.stdin.end(`${ADMIN_PASSWORD}\n`);
  const code = await new Promise((resolve, reject) => {
    maker.on('error', reject);
    maker.on('exit', resolve);
  });
  assert.equal(code, 0, `--create-admin exited ${code}: ${stderr}`);
  say(`made the admin ${ADMIN}`);
}

async function storedIdentity(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('elgrande.identity') || 'null'));
}

// The guest starts a game with two bots (chat lives on the game screen) and says hello.
async function guestChats(page) {
  await page.fill('[data-testid=opt-name]', 'Moderation test');
  await page.click('[data-testid=opt-players-3]');
  await page.click('[data-testid=create-table]');
  await page.waitForSelector('[data-testid=waiting-room]');
  const tableId = Number(await page.getAttribute('[data-testid=waiting-room]', 'data-table'));
  await page.click('[data-testid=add-bot-1]');
  await page.click('[data-testid=add-bot-2]');
  await page.locator('[data-testid=start-game]:enabled').click();
  await nextDecision(page);
  await chat(page, 'Hola a todos');
  assert.equal(await page.locator('.player-button').count(), 0, 'no menu by her own name or the bots\'');
  say(`the guest Ana started table ${tableId} and said a line`);
  return tableId;
}

async function adminWatches(browser, url, tableId) {
  const context = await browser.newContext({viewport: {width: 1366, height: 768}});
  const page = await context.newPage();
  watch(page, 'admin');
  await page.goto(url);
  await page.click('[data-testid=have-account]');
  await page.fill('[data-testid=sign-in-username]', ADMIN);
  await page.fill('[data-testid=sign-in-password]', ADMIN_PASSWORD);
  await page.press('[data-testid=sign-in-password]', 'Enter');
  await page.waitForSelector('[data-testid=lobby]', {timeout: 10_000});
  assert.equal(await page.textContent('[data-testid=my-role]'), 'Administrator');
  await page.click(`[data-testid=watch-${tableId}]`);
  await page.waitForSelector('[data-testid=game-screen]');
  say('the admin signed in and watches the table');
  return page;
}

const focused = (page) => page.evaluate(() => document.activeElement.dataset.testid);

// The menu by a name, then its "Moderate…".
async function openModeration(page, button) {
  await button.click();
  await page.click('[data-testid=player-menu] [data-testid=moderate]');
  await page.waitForSelector('[data-testid=mod-dialog][open]');
}

async function chat(page, text) {
  await page.fill('[data-testid=chat-input]', text);
  await page.press('[data-testid=chat-input]', 'Enter');
  await page.waitForSelector(`[data-testid=log] .log-entry.chat >> text=${text}`, {timeout: 10_000});
}

const logShows = (page, text) => page.evaluate((t) => document.querySelector('[data-testid=log]').textContent.includes(t), text);

// Ana blocks the admin from his chat name, by keyboard after a confirmation: his line already
// there goes at once, and his next one never reaches her. Her account page unblocks him.
async function blockAndUnblock(player, admin, adminId, tableId) {
  await chat(admin, 'Buenas tardes');
  const button = player.locator(`[data-testid=log] [data-testid=player-menu-${adminId}]`);
  await button.waitFor({timeout: 10_000});
  await button.click();
  await player.waitForSelector('[data-testid=player-menu][open]');
  assert.equal(await player.locator('[data-testid=player-menu] [data-testid=moderate]').count(), 0, 'a player is offered no moderation');
  await player.keyboard.press('Enter');
  const means = await player.textContent('[data-testid=block-means]');
  assert.match(means, /their chat is hidden from you, and they cannot join tables you host/, means);
  assert.equal(await focused(player), 'block-confirm');
  await shot(player, 'moderation-0-block');
  await audit(player, 'block dialog');
  await player.keyboard.press('Enter');
  const toast = player.locator('.toast', {hasText: 'You blocked'});
  await toast.waitFor({timeout: 10_000});
  await player.waitForSelector('[data-testid=player-menu]', {state: 'detached'});
  assert.equal(await logShows(player, 'Buenas tardes'), false, 'the blocked line is hidden at once');
  await chat(admin, 'Sigo aquí');
  await chat(player, 'Vale');
  assert.equal(await logShows(player, 'Sigo aquí'), false, 'the blocked player\'s next line does not come');
  say(`Ana blocked the admin: "${await toast.textContent()}"; his lines do not show on her page`);
  await player.click('[data-testid=nav-account]');
  await player.click(`[data-testid=blocked-${adminId}] [data-testid=unblock-${adminId}]`);
  await player.waitForSelector('[data-testid=blocks-empty]', {timeout: 10_000});
  assert.match(await player.textContent('[data-testid=blocks-status]'), /is unblocked/);
  await player.evaluate((id) => { location.hash = `#/table/${id}`; }, tableId);
  await player.waitForSelector('[data-testid=chat-input]');
  say('Ana unblocked him from her account page');
}

// The admin removes Ana's new line from the menu by her name on it, giving a reason.
async function removeLine(admin, player, ana, tableId) {
  await chat(player, 'Qué aburrido');
  const entry = admin.locator('[data-testid=log] li.chat', {hasText: 'Qué aburrido'});
  await entry.waitFor({timeout: 10_000});
  const line = await entry.getAttribute('data-line');
  await entry.locator(`[data-testid=player-menu-${ana}]`).click();
  await admin.click('[data-testid=player-menu] [data-testid=remove-line]');
  await admin.waitForSelector('[data-testid=mod-dialog][open]');
  assert.equal(await admin.textContent('[data-testid=mod-line]'), '“Qué aburrido”');
  assert.equal(await focused(admin), 'mod-reason', 'the reason has focus');
  await admin.fill('[data-testid=mod-reason]', 'rude to the bots');
  await admin.press('[data-testid=mod-reason]', 'Enter');
  await admin.waitForSelector('.toast >> text=The line is removed for everyone at the table.', {timeout: 10_000});
  const notice = player.locator('.toast', {hasText: 'removed one of your chat lines'});
  await notice.waitFor({timeout: 10_000});
  const text = await notice.textContent();
  assert.match(text, new RegExp(`^A moderator removed one of your chat lines at “Moderation test” \\(table ${tableId}\\)\\. Reason given: “rude to the bots”\\.`), text);
  for (const page of [player, admin]) {
    const removed = page.locator(`[data-testid=log] li.chat.removed[data-line="${line}"]`);
    await removed.waitFor({timeout: 10_000});
    assert.match(await removed.textContent(), /^Ana⋯?: removed by a moderator$/, 'in place of the text; ⋯ is the menu by her name');
    assert.equal(await logShows(page, 'Qué aburrido'), false, 'the removed text is gone');
  }
  await shot(player, 'moderation-0-line-removed');
  say(`the admin removed Ana's line ${line}; both pages show it removed, and she is told "${text}"`);
}

// From the menu by the chat name: Escape closes the dialog; a reason is required.
async function mute(page, ana) {
  const button = page.locator(`[data-testid=log] [data-testid=player-menu-${ana}]`).first();
  await button.waitFor({timeout: 10_000});
  assert.equal(await button.getAttribute('aria-label'), 'Actions for Ana');
  await openModeration(page, button);
  assert.equal(await focused(page), 'mod-action', 'the action has focus');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=mod-dialog]', {state: 'detached'});
  assert.equal(await focused(page), `player-menu-${ana}`, 'focus is back on the menu button');
  await openModeration(page, button);
  await page.selectOption('[data-testid=mod-action]', 'mute-10');
  await page.click('[data-testid=mod-submit]');
  assert.match(await page.textContent('[data-testid=mod-error]'), /Give a reason/);
  await page.fill('[data-testid=mod-reason]', REASON);
  await shot(page, 'moderation-1-dialog');
  await audit(page, 'moderation dialog', {phone: true});
  await page.click('[data-testid=mod-submit]');
  await page.waitForSelector('[data-testid=mod-dialog]', {state: 'detached', timeout: 10_000});
  await page.waitForSelector('.toast >> text=Ana is muted for 10 minutes.');
  say('the admin muted Ana for 10 minutes from her chat name');
}

async function mutedPlayer(page) {
  const notice = page.locator('[data-testid=mod-notice][data-kind=mute]');
  await notice.waitFor({timeout: 10_000});
  const text = await notice.textContent();
  assert.match(text, /A moderator muted you until .+\. Reason given: “shouting at the table”/, text);
  await page.fill('[data-testid=chat-input]', 'Why?');
  await page.press('[data-testid=chat-input]', 'Enter');
  const error = page.locator('[data-testid=chat-error]');
  await error.waitFor({timeout: 10_000});
  const refusal = await error.textContent();
  assert.match(refusal, /A moderator muted you until .*: shouting at the table$/, refusal);
  await shot(page, 'moderation-2-muted');
  await audit(page, 'muted at the table');
  say(`Ana is told "${text}" and her next line is refused: "${refusal}"`);
}

async function renamed(player, admin) {
  await player.click('[data-testid=rename]');
  await player.fill('[data-testid=rename-input]', 'Ana María');
  await player.click('[data-testid=rename-save]');
  await admin.waitForFunction(() => [...document.querySelectorAll('[data-testid=log] .chat-name')]
    .some((el) => el.textContent === 'Ana María'), null, {timeout: 10_000});
  const line = await admin.locator('[data-testid=log] .log-entry.chat').first().textContent();
  assert.match(line, /^Ana María.*: “Hola a todos”$/, line);
  assert.equal(await admin.getAttribute('[data-testid=log] .player-button', 'aria-label'), 'Actions for Ana María');
  await shot(admin, 'moderation-3-renamed');
  say('Ana renamed herself: the admin\'s page shows the new name on her old line');
}

// Every hello a page sends, with the time.
function recordHellos(page) {
  const hellos = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', ({payload}) => {
      if (String(payload).includes('"type":"hello"')) hellos.push(Date.now());
    });
  });
  return hellos;
}

// A ban from the player's card: the server closes Ana's connection with 4003; her page shows
// the welcome screen with the reason and does not say hello again.
async function ban(admin, player, ana, hellos) {
  await openModeration(admin, admin.locator(`[data-testid=players] [data-testid=player-menu-${ana}]`));
  await admin.selectOption('[data-testid=mod-action]', 'ban-1h');
  await admin.fill('[data-testid=mod-reason]', 'insults');
  await admin.press('[data-testid=mod-reason]', 'Enter');
  await admin.waitForSelector('.toast >> text=Ana María is banned for 1 hour.', {timeout: 10_000});
  const before = Date.now();
  await player.waitForSelector('[data-testid=welcome][data-mode=sign-in]', {timeout: 10_000});
  const text = await player.textContent('[data-testid=welcome-message]');
  assert.match(text, /banned until .*: insults\. You may still sign in to another account\.$/, text);
  await player.waitForSelector('#connection[data-state=open]', {timeout: 5000});
  await player.waitForTimeout(1500);
  assert.deepEqual(hellos.filter((at) => at >= before), [], 'no hello after the ban');
  await shot(player, 'moderation-4-banned');
  await audit(player, 'welcome, banned');
  say(`the admin banned Ana for an hour: "${text}"`);
}

async function auditLog(page) {
  await page.click('[data-testid=nav-account]');
  const rows = page.locator('[data-testid=audit-table] tbody tr');
  await rows.first().waitFor({timeout: 10_000});
  const texts = await rows.allTextContents();
  assert.equal(texts.length, 3, texts.join(' / '));
  assert.match(texts[0], /root.*ban.*Ana María.*insults/, texts[0]);
  assert.match(texts[1], /root.*mute.*Ana.*shouting at the table/, texts[1]);
  assert.match(texts[2], /root.*delete_chat.*Ana.*Qué aburrido.*rude to the bots/, texts[2]);
  await audit(page, 'account page with the audit log', {phone: true});
  say('the account page lists the ban, the mute and the removed line in the audit log');
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elgrande-browser-data-'));
  cleanups.push(() => fs.rmSync(dataDir, {recursive: true, force: true}));
  await createAdmin(dataDir);
  const url = await startServer([...CHEAP_HASHES, '--data-dir', dataDir]);
  say(`server at ${url}`);
  const browser = await launchBrowser();
  const {page: player} = await personInLobby(browser, url, 'Ana', 'player');
  const hellos = recordHellos(player);
  const tableId = await guestChats(player);
  const ana = (await storedIdentity(player)).id;
  const admin = await adminWatches(browser, url, tableId);
  await blockAndUnblock(player, admin, (await storedIdentity(admin)).id, tableId);
  await removeLine(admin, player, ana, tableId);
  await mute(admin, ana);
  await mutedPlayer(player);
  checkProblems();
  await renamed(player, admin);
  await ban(admin, player, ana, hellos);
  await auditLog(admin);
  checkProblems();
}

await runTest(main, OVERALL_TIMEOUT_MS);
