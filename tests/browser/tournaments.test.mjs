#!/usr/bin/env node
// End-to-end test of tournaments in the web client (clients/web/), in Debian's headless
// Chromium driven by playwright-core. Dora makes an account and creates an elimination event
// from the form: tables of 3, the winner of each advancing, rounds of at most a week,
// starting in 20 minutes with a check-in open now. Ana makes an account, finds the event in
// the list, registers and checks in; nine more players register and check in over the
// protocol from a third page. Dora sees the ten, removes one with a reason, and starts the
// event: three tables are made, and the round says when time is called.
// Ana is told her table is ready and follows the link to her game; Dora watches another
// table from its board. Dora pauses, sets the three results (Ana first at hers): the round
// ends but the final waits until she resumes. The final table's result, set by Dora, ends
// the event with Ana the winner. Both pages follow without a reload: the elimination tree
// marks who advanced and the winner, and the standings on screen are those of the CSV
// export. Last, Dora creates a second event and cancels it. Screenshots go to
// $ELGRANDE_ARTIFACTS (tournament-*).
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/tournaments.test.mjs
//
// Optional: as for play.test.mjs (support.mjs).

import assert from 'node:assert/strict';
import {PHONE, audit, checkProblems, launchBrowser, personInLobby, runTest, say, shot, startServer, watch} from './support.mjs';
import {labelSitsInItsButton, selectsShowTheirText} from './phone.mjs';

const OVERALL_TIMEOUT_MS = 150_000;
const PASSWORD = 'a tournament password';
const CHEAP_HASHES = ['--password-memory-kib', '64', '--password-passes', '1'];
const HELPERS = 9;
// The page asks for the event again every 10 s; pushes come sooner to entrants and director.
const LIVE_MS = 15_000;

// From the lobby to the account page and a new account, keeping the guest's name.
async function signUp(page, username) {
  await page.click('[data-testid=nav-account]');
  await page.fill('[data-testid=sign-up-username]', username);
  await page.fill('[data-testid=sign-up-password]', PASSWORD);
  await page.fill('[data-testid=sign-up-repeat]', PASSWORD);
  await page.click('[data-testid=sign-up-submit]');
  await page.waitForSelector('[data-testid=account-page][data-kind=account]', {timeout: 10_000});
  return page.evaluate(() => JSON.parse(localStorage.getItem('elgrande.identity')).id);
}

// `check` with the window at each width in turn, then at its own size again.
async function atWidths(page, widths, check) {
  const size = page.viewportSize();
  try {
    for (const width of widths) {
      await page.setViewportSize({width, height: PHONE.height});
      await check();
    }
  } finally {
    await page.setViewportSize(size);
  }
}

// "2026-11-24T18:40" for a datetime-local input, in the browser's time zone, `minutes` ahead.
function localTime(page, minutes) {
  return page.evaluate((m) => {
    const at = new Date(Date.now() + m * 60_000);
    const pad = (n) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }, minutes);
}

async function createCup(page) {
  await page.click('[data-testid=nav-tournaments]');
  await page.waitForSelector('[data-testid=tournaments]');
  assert.equal(await page.getAttribute('[data-testid=nav-tournaments]', 'aria-current'), 'page');
  // The form checks what it can before asking: a name first.
  await page.click('[data-testid=create-tournament]');
  assert.match(await page.textContent('[data-testid=tournament-create-error]'), /name/);
  await page.fill('[data-testid=tournament-name]', 'Autumn Cup');
  await page.selectOption('[data-testid=stage-0-format]', 'elimination');
  await page.selectOption('[data-testid=stage-0-preferred]', '3');
  await page.selectOption('[data-testid=stage-0-minimum]', '3');
  await page.fill('[data-testid=stage-0-advance_per_table]', '1');
  await page.selectOption('[data-testid=tournament-turn]', '0');
  await page.selectOption('[data-testid=tournament-round-time]', '604800');
  await page.fill('[data-testid=tournament-max-players]', '12');
  await page.fill('[data-testid=tournament-starts-at]', await localTime(page, 20));
  await page.fill('[data-testid=tournament-check-in]', '30');
  await shot(page, 'tournament-0-create');
  await audit(page, 'tournaments and the create form', {phone: true});
  await atWidths(page, [PHONE.width, 360, 1366], () => selectsShowTheirText(page, 'the create form'));
  await page.click('[data-testid=create-tournament]');
  await page.waitForSelector('[data-testid=tournament][data-status=registering] [data-testid=director-panel]', {timeout: 10_000});
  const id = Number(await page.getAttribute('[data-testid=tournament]', 'data-tournament'));
  assert.equal(await page.textContent('[data-testid=tournament-title]'), 'Autumn Cup');
  assert.match(await page.textContent('.tournament-head'), /Elimination, the top 1 of each table advancing at tables of 3\. Full game, no time limit, rounds of at most 7 days\./);
  say(`Dora created tournament ${id}`);
  return id;
}

async function anaRegisters(page, id) {
  await page.click('[data-testid=nav-tournaments]');
  await page.click(`[data-testid=open-tournament-${id}]`);
  await page.waitForSelector('[data-testid=register]');
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=my-entry][data-status=registered]');
  await page.click('[data-testid=check-in]');
  await page.waitForSelector('[data-testid=checked-in]');
  say('Ana registered and checked in');
}

// Nine players over the protocol, each on a socket of its own from a page of the server.
async function helpersRegister(browser, url, id) {
  const context = await browser.newContext();
  const page = await context.newPage();
  watch(page, 'helpers');
  // Any page of the server will do; Chromium asks a JSON page for /favicon.ico, which the
  // server does not have (the web client names its icon).
  await context.route('**/favicon.ico', (route) => route.fulfill({status: 204}));
  await page.goto(`${url}api/tournaments`);
  const ids = await page.evaluate(async ({id, count, password}) => {
    const ask = (ws, type, payload) => new Promise((resolve, reject) => {
      const rid = `${type}-${Math.random()}`;
      const listen = (event) => {
        const msg = JSON.parse(event.data);
        if (msg.id !== rid) return;
        ws.removeEventListener('message', listen);
        if (msg.type === 'error') reject(new Error(`${type}: ${msg.payload.message}`));
        else resolve(msg.payload);
      };
      ws.addEventListener('message', listen);
      ws.send(JSON.stringify({type, id: rid, payload}));
    });
    window.sockets = [];
    const players = [];
    for (let i = 1; i <= count; i++) {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      await new Promise((resolve) => ws.addEventListener('open', resolve));
      window.sockets.push(ws);
      const {player} = await ask(ws, 'hello', {protocol: 1, name: `Player ${i}`});
      await ask(ws, 'account.sign_up', {username: `player${i}`, password});
      await ask(ws, 'tournament.register', {tournament: id});
      await ask(ws, 'tournament.check_in', {tournament: id});
      players.push(player.id);
    }
    return players;
  }, {id, count: HELPERS, password: PASSWORD});
  say(`${ids.length} more players registered and checked in`);
  return ids;
}

async function json(url, path) {
  const response = await fetch(`${url}${path}`);
  assert.equal(response.status, 200, `${path}: ${response.status}`);
  return response.json();
}

async function waitForBoards(page, round, count) {
  await page.waitForFunction(({round, count}) =>
    document.querySelectorAll(`[data-testid^="board-table-${round}-"]`).length === count, {round, count}, {timeout: LIVE_MS});
}

// Dora sets a board's result from its round: `scores` by seat, with a reason.
async function override(page, round, board, scores) {
  const prefix = `override-${round}-${board}`;
  await page.click(`[data-testid=${prefix}-open]`);
  for (const [seat, score] of scores.entries()) await page.fill(`[data-testid=${prefix}-score-${seat}]`, String(score));
  await page.fill(`[data-testid=${prefix}-reason]`, 'played over the board at the club');
  await page.click(`[data-testid=${prefix}-submit]`);
  await page.waitForSelector(`[data-testid=board-override-${round}-${board}]`);
}

// Scores for every board of a round from the export: Ana wins hers, seat 1 wins the others.
function scoresFor(board, ana) {
  const seats = board.seats.map((p) => p.id);
  const winner = seats.includes(ana) ? seats.indexOf(ana) : 0;
  return seats.map((_, seat) => (seat === winner ? 70 : 40 + seat));
}

async function main() {
  const url = await startServer(CHEAP_HASHES);
  const browser = await launchBrowser();
  const dora = (await personInLobby(browser, url, 'Dora', 'Dora')).page;
  await signUp(dora, 'dora');
  // Ana's pages in dark colours: every screen is checked in one theme or the other.
  const ana = (await personInLobby(browser, url, 'Ana', 'Ana', {colorScheme: 'dark'})).page;
  const anaId = await signUp(ana, 'ana');

  const id = await createCup(dora);
  await anaRegisters(ana, id);
  const helpers = await helpersRegister(browser, url, id);
  await shot(ana, 'tournament-1-registered');
  await audit(ana, 'an event, registered', {phone: true});

  // Dora's page follows the registrations by itself; she removes the last helper.
  await dora.waitForFunction(() => document.querySelectorAll('[data-testid=entrants] li[data-status=registered]').length === 10, null, {timeout: LIVE_MS});
  const removed = helpers.at(-1);
  await dora.selectOption('[data-testid=director-player]', String(removed));
  await dora.selectOption('[data-testid=director-action]', 'tournament.remove');
  await dora.fill('[data-testid=director-reason]', 'registered twice');
  await dora.click('[data-testid=director-apply]');
  // Those who left before the start are folded away under the list.
  await dora.waitForSelector(`[data-testid=entrant-${removed}][data-status=removed]`, {state: 'attached'});
  assert.match(await dora.textContent(`[data-testid=entrant-${removed}]`), /removed by the director: registered twice/);

  await dora.click('[data-testid=director-start]');
  await dora.waitForSelector('[data-testid=tournament][data-status=running]');
  await waitForBoards(dora, 1, 3);
  assert.match(await dora.textContent('[data-testid=round-1] summary'), /0 of 3 tables finished · time is called at /);
  say('Dora started the event: three tables');
  await shot(dora, 'tournament-2-round-1');
  await audit(dora, 'an event, its director', {phone: true});

  // Ana is told, and follows the link to her game.
  await ana.waitForSelector('[data-testid=round-notice]', {timeout: LIVE_MS});
  await atWidths(ana, [PHONE.width, 360, 1366], () => labelSitsInItsButton(ana, '[data-testid=round-notice-open]'));
  await ana.click('[data-testid=round-notice-open]');
  await ana.waitForSelector('[data-testid=decision]', {timeout: 20_000});
  assert.match(ana.url(), /#\/table\/\d+$/);
  say(`Ana opened her table ${ana.url().split('/').at(-1)}`);

  let detail = await json(url, `api/tournaments/${id}`);
  assert.deepEqual(detail.rounds[0].boards.map((b) => b.seats.length), [3, 3, 3]);
  assert.ok(!detail.rounds[0].boards.flatMap((b) => b.seats).some((p) => p.id === removed), 'the removed player is not seated');
  const other = detail.rounds[0].boards.find((b) => !b.seats.some((p) => p.id === anaId));
  await dora.click(`[data-testid=board-table-1-${other.board}]`);
  await dora.waitForSelector('text=You are watching this game', {timeout: 20_000});
  say(`Dora watches board ${other.board} (table ${other.table})`);
  await dora.goBack();
  await dora.waitForSelector('[data-testid=director-pause]');

  // Paused, the round's results end it but the final waits.
  await dora.click('[data-testid=director-pause]');
  await dora.waitForSelector('[data-testid=tournament][data-status=paused]');
  for (const board of detail.rounds[0].boards) await override(dora, 1, board.board, scoresFor(board, anaId));
  await dora.waitForSelector('[data-testid=round-1] summary >> text=finished');
  assert.equal(await dora.locator('[data-testid=round-2]').count(), 0, 'no final while paused');
  await dora.click('[data-testid=director-resume]');
  await waitForBoards(dora, 2, 1);
  await ana.goBack();
  await ana.waitForSelector('[data-testid=tree-round-2]', {timeout: LIVE_MS});
  say('Dora resumed: the final table is made');

  detail = await json(url, `api/tournaments/${id}`);
  const winners = detail.rounds[0].boards.map((b) => b.seats[b.result.places.indexOf(1)].id);
  assert.deepEqual(new Set(detail.rounds[1].boards[0].seats.map((p) => p.id)), new Set(winners), 'the three winners reach the final');
  for (const board of detail.rounds[0].boards) {
    for (const p of board.seats) {
      assert.equal(await ana.getAttribute(`[data-testid=tree-player-1-${p.id}]`, 'data-advanced'), String(winners.includes(p.id)),
        `the tree says whether ${p.name} advanced`);
    }
  }
  await shot(ana, 'tournament-3-final-table');

  await override(dora, 2, 1, scoresFor(detail.rounds[1].boards[0], anaId));
  await dora.waitForSelector('[data-testid=tournament][data-status=finished]', {timeout: LIVE_MS});
  await ana.waitForSelector('[data-testid=tournament][data-status=finished]', {timeout: LIVE_MS});
  await ana.waitForSelector(`[data-testid=tree-player-2-${anaId}].champion`);
  assert.equal(await ana.textContent('[data-testid=tree-round-2] h3'), 'Final table');
  const finalTable = detail.rounds[1].boards[0].table;
  assert.equal(await ana.getAttribute('[data-testid=tree-board-2-1] .tree-board-head a', 'href'), `#/replay/${finalTable}`,
    'a finished board opens in the replay viewer');
  assert.equal(await ana.textContent('[data-testid=my-entry]'), 'You finished 1st of 9: you won the event.');
  await ana.waitForSelector('[data-testid=round-notice]', {state: 'detached'});
  say('the final ended the event: Ana won');

  // The standings on screen are the export's.
  const csv = await (await fetch(`${url}api/tournaments/${id}/standings.csv`)).text();
  const rows = csv.trim().split('\r\n').slice(1).map((line) => line.split(','));
  assert.equal(rows.length, 9);
  for (const [rank, player, , points] of rows) {
    const row = ana.locator(`[data-testid=standing-${player}]`);
    assert.equal(await row.getAttribute('data-rank'), rank, `player ${player}'s rank`);
    assert.equal(Number(await row.getAttribute('data-points')), Number(points), `player ${player}'s points`);
  }
  assert.equal(rows[0][1], String(anaId), 'Ana ranks first');
  assert.equal(Number(rows[0][3]), 12, 'two wins at tables of 3: 6 + 6 points');
  await shot(ana, 'tournament-4-finished');
  await audit(ana, 'an event, finished', {phone: true});

  // A second event, cancelled from its page.
  await dora.click('[data-testid=nav-tournaments]');
  await dora.fill('[data-testid=tournament-name]', 'Spring Cup');
  await dora.click('[data-testid=create-tournament]');
  await dora.waitForSelector('[data-testid=tournament][data-status=registering]');
  await dora.click('[data-testid=director-cancel]');
  await dora.click('[data-testid=director-cancel-confirm]');
  await dora.waitForSelector('[data-testid=tournament][data-status=cancelled]');
  await dora.click('[data-testid=nav-tournaments]');
  await dora.selectOption('[data-testid=tournaments-filter]', 'cancelled');
  await dora.waitForFunction(() => document.querySelectorAll('.tournament-row').length === 1
    && document.querySelector('.tournament-row [data-status]').dataset.status === 'cancelled');
  say('Dora cancelled a second event');
  checkProblems();
}

runTest(main, OVERALL_TIMEOUT_MS);
