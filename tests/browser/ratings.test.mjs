#!/usr/bin/env node
// End-to-end test of ratings and play now in the web client (clients/web/), in Debian's
// headless Chromium driven by playwright-core. Six accounts of elgrande-bot ask to play now
// for 3 players, short game, and play their two games to the end. Ana makes an account:
// the leaderboard of "3 players, short game" lists the six with the ratings the HTTP API
// gives, each marked provisional in words; a name opens the player's profile, with a chart of
// one line per ladder and the rated game. In the lobby Ana asks to play now (2 players,
// short game), sees the queue, and stops waiting: Bea, asking next, finds nobody waiting.
// Ana asks again: both are seated at the same table and land on the game screen, each name
// with its rating. Bea resigns (the lobby shows the table rated, with Ana's rating beside her
// name) and Ana plays on to the end: both final screens show each player's rating change once
// table.rated comes, and they agree with Ana's profile, which Bea opens from the menu by
// Ana's name. Screenshots go to $ELGRANDE_ARTIFACTS
// (ratings-*).
//
//   ELGRANDE_SERVER=/path/to/elgrande-server ELGRANDE_BOT=/path/to/elgrande-bot \
//     node tests/browser/ratings.test.mjs
//
// Optional: as for play.test.mjs (support.mjs).

import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import {
  audit, checkProblems, choose, launchBrowser, nextDecision, personInLobby, runTest, say, seed, settled, shot, startServer,
} from './support.mjs';

const OVERALL_TIMEOUT_MS = 240_000;
const PASSWORD = 'a rated password';
const CHEAP_HASHES = ['--password-memory-kib', '64', '--password-passes', '1'];
const SEEKERS = 6;
// Play now matches once a second; a table is made and pushed within a few seconds.
const MATCH_MS = 15_000;

// elgrande-bot's seekers: accounts seek<seed>_N that ask to play now and play to the end.
function botsPlay(url) {
  const bot = process.env.ELGRANDE_BOT;
  if (!bot || !fs.existsSync(bot)) throw new Error('ELGRANDE_BOT must name the elgrande-bot binary');
  const ws = url.replace(/^http/, 'ws') + 'ws';
  const args = ['--url', ws, '--tables', '0', '--seekers', String(SEEKERS), '--players', '3', '--short',
    '--seed', String(seed % 100000), '--time-limit', '60'];
  return new Promise((resolve, reject) => {
    const child = spawn(bot, args, {stdio: ['ignore', 'pipe', 'pipe']});
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`elgrande-bot exited with ${code}:\n${out}\n${err}`));
      else resolve(JSON.parse(out));
    });
  });
}

async function json(url, path) {
  const response = await fetch(`${url}${path}`);
  assert.equal(response.status, 200, `${path}: ${response.status}`);
  return response.json();
}

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

// The leaderboard of 3 players, short game, against the HTTP API; then a name's profile.
async function leaderboardAndProfile(page, url) {
  const api = await json(url, 'api/ratings/3p-short');
  assert.equal(api.players, SEEKERS, 'every seeker is rated on 3 players, short game');
  await page.click('[data-testid=nav-ratings]');
  await page.waitForSelector('[data-testid=leaderboard]');
  assert.equal(await page.getAttribute('[data-testid=nav-ratings]', 'aria-current'), 'page');
  await page.click('[data-testid=ladder-3p-short]');
  await page.waitForSelector('[data-testid=leaderboard][data-ladder="3p-short"] tbody tr');
  assert.equal(await page.textContent('[data-testid=leaderboard-title]'), '3 players, short game');
  assert.equal(await page.textContent('[data-testid=ladder-players]'), `${SEEKERS} players`);
  assert.equal(await page.getAttribute('[data-testid=ladder-3p-short]', 'aria-current'), 'page');
  assert.equal(await page.locator('[data-testid=leaderboard] tbody tr').count(), SEEKERS);
  for (const entry of api.entries) {
    const row = page.locator(`[data-testid=leader-${entry.player.id}]`);
    assert.equal(await row.getAttribute('data-rank'), String(entry.rank));
    assert.equal(await row.locator('th a').textContent(), entry.player.name);
    const rating = (await row.locator('.rating').textContent()).trim();
    // One game each: every rating is provisional, and says so in words.
    assert.ok(entry.provisional, 'a rating after one game is provisional');
    assert.equal(rating, `rating ${entry.rating} provisional`, `the rating of ${entry.player.name}`);
  }
  await shot(page, 'ratings-0-leaderboard');
  await audit(page, 'leaderboard', {phone: true});

  const top = api.entries[0];
  await page.click(`[data-testid=leader-link-${top.player.id}]`);
  await page.waitForSelector(`[data-testid=profile][data-player="${top.player.id}"] [data-testid=rating-chart] svg`);
  assert.match(page.url(), new RegExp(`#/player/${top.player.id}$`));
  assert.equal(await page.textContent('[data-testid=profile-name]'), top.player.name);
  const place = page.locator('[data-testid=profile-rating-3p-short]');
  assert.match(await place.textContent(), new RegExp(`3 players, short game.*${top.rating} provisional · 1st of ${SEEKERS} · 1 game`));
  const chart = page.locator('[data-testid=rating-chart] svg[role=img]');
  assert.equal(await chart.locator('path.rating-line').count(), 1, 'one line: one ladder played');
  assert.match(await chart.getAttribute('aria-label'), new RegExp(`3 players, short game: from 1000 to ${top.rating} over 1 game`));
  const games = page.locator('[data-testid=rated-games] li');
  assert.equal(await games.count(), 1);
  assert.match(await games.first().textContent(), new RegExp(`3 players, short game.*1000 → ${top.rating} \\(\\+${top.rating - 1000}\\)`));
  await shot(page, 'ratings-1-profile');
  await audit(page, 'profile', {phone: true});
  say(`leaderboard and profile of ${top.player.name} (${top.rating}) shown`);
}

async function playNow(page, {waitForQueue = true} = {}) {
  await page.click('[data-testid=nav-lobby]');
  await page.click('[data-testid=play-players-2]');
  if (!(await page.isChecked('[data-testid=play-short]'))) await page.check('[data-testid=play-short]');
  await page.check('[data-testid=play-clock-live]');
  await page.selectOption('[data-testid=play-bots]', '');
  await page.click('[data-testid=play-join]');
  if (!waitForQueue) return;
  await page.waitForSelector('[data-testid=play-waiting][data-queue="2p-short/live"]');
  assert.equal(await page.textContent('[data-testid=play-queue]'), '2 players, short game, live clock');
  assert.match(await page.textContent('[data-testid=play-status]'), /Looking for players: 2 players, short game, live clock/);
}

// Bea resigns from the game screen; the lobby shows the table rated with Ana's rating.
async function beaResigns(page, tableId) {
  await page.click('[data-testid=resign]');
  await page.click('[data-testid=resign-confirm]');
  await page.waitForSelector('[data-testid=watcher-banner][data-reason=resigned]');
  await page.click('[data-testid=nav-lobby]');
  const row = page.locator(`[data-testid=table-${tableId}]`);
  await row.waitFor();
  assert.equal(await row.locator(`[data-testid=rated-${tableId}]`).textContent(), 'Rated');
  // Bea's seat is a bot's now: a rating beside Ana's name only.
  assert.equal(await row.locator('.seat-chip .rating').count(), 1);
  assert.match(await row.locator('.seat-chip.human').textContent(), /Ana.*rating 1000 provisional/);
  await shot(page, 'ratings-4-lobby');
  await row.locator(`[data-testid=open-${tableId}]`).click();
  await page.waitForSelector('[data-testid=game-screen]');
}

// A seeded random choice among the enabled controls at each of the page's decisions, until
// the game is over or `limit` of them are answered; how many were.
async function playToTheEnd(page, limit = Infinity) {
  let decisions = 0;
  while (decisions < limit) {
    checkProblems();
    const decision = await nextDecision(page);
    if (decision.kind === 'over') return decisions;
    const {what, submit} = await choose(page, decision);
    try {
      await submit.click({timeout: 5000});
    } catch (err) {
      // A veto window another holder's answer closed first.
      if (decision.kind !== 'veto' || (await page.getAttribute('[data-testid=decision]', 'data-key')) === decision.key) throw err;
      continue;
    }
    await settled(page, decision.key, what);
    decisions++;
  }
  return decisions;
}

// The final screen's rating changes: {seat: {before, after}} once table.rated came.
async function ratingChanges(page) {
  await page.waitForSelector('[data-testid=final-scores] [data-testid=rating-change-0][data-after]', {timeout: 15_000});
  const changes = {};
  for (const seat of [0, 1]) {
    const cell = page.locator(`[data-testid=rating-change-${seat}]`);
    const before = Number(await cell.getAttribute('data-before'));
    const after = Number(await cell.getAttribute('data-after'));
    const delta = after - before;
    const sign = delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : '±0';
    assert.ok((await cell.textContent()).startsWith(`${before} → ${after} (${sign})`), 'before → after (±) in words');
    changes[seat] = {before, after};
  }
  return changes;
}

// Each rated player's change explained under the final scores: Ana placed first of the two
// rated players; Bea resigned, which ranks last whatever the bot then scored.
async function changesExplained(page, anaSeat, beaSeat, changes) {
  assert.match(await page.textContent('[data-testid=rated-line]'), /^Rated on the “2 players, short game” ladder/);
  const ana = await page.textContent(`[data-testid=rating-note-${anaSeat}]`);
  const bea = await page.textContent(`[data-testid=rating-note-${beaSeat}]`);
  const {before, after} = changes[anaSeat];
  assert.match(ana, new RegExp(`^Ana.* placed 1st of 2 rated players; rating ${before} → ${after} \\(`), ana);
  assert.match(bea, /^Bea.* resigned, which ranks behind every player who finished, whatever the bot then scored: 2nd of 2 rated players; rating/, bea);
  // A provisional rating rises after a lost game too: said, since the table shows a loser gaining.
  const rose = changes[beaSeat].after > changes[beaSeat].before;
  assert.equal(await page.locator('[data-testid=rating-why-up]').count(), rose ? 1 : 0);
}

// Ana alone with a bot: the waiting room says the table is not rated and why, and so does the
// final screen once she resigns and the bots play it out.
async function aloneWithABot(page) {
  await page.click('[data-testid=nav-lobby]');
  await page.fill('[data-testid=opt-name]', 'Ana and a bot');
  await page.click('[data-testid=opt-players-2]');
  if (!(await page.isChecked('[data-testid=opt-short]'))) await page.check('[data-testid=opt-short]');
  await page.click('[data-testid=create-table]');
  await page.waitForSelector('[data-testid=waiting-room] [data-testid=rated-rule][data-rated=true]');
  await page.click('[data-testid=add-bot-1]');
  const rule = page.locator('[data-testid=waiting-room] [data-testid=rated-rule][data-rated=false]');
  await rule.waitFor();
  assert.match(await rule.textContent(), /^Not rated: fewer than two of its players have accounts/);
  await page.click('[data-testid=start-game]');
  await page.waitForSelector('[data-testid=game-screen] [data-testid=resign]');
  assert.equal(await page.locator('[data-testid=table-rated]').count(), 0, 'no "Rated" under the name');
  await page.click('[data-testid=resign]');
  await page.click('[data-testid=resign-confirm]');
  await page.waitForSelector('[data-testid=final-scores]', {timeout: 60_000});
  assert.match(await page.textContent('[data-testid=final-scores] [data-testid=rated-line]'),
    /^Not rated: fewer than two of its players have accounts, and a rating needs two\./);
  await shot(page, 'ratings-7-not-rated');
  say('Ana alone with a bot: not rated, and told why');
}

async function main() {
  const url = await startServer(CHEAP_HASHES);
  say(`server at ${url}`);
  const report = await botsPlay(url);
  assert.ok(report.play_now.all_played_to_the_end, 'the seekers played their games to the end');
  say(`${report.play_now.seekers} seekers played ${report.play_now.join_to_first_decision_ms.tables} tables to the end`);

  const browser = await launchBrowser();
  const ana = await personInLobby(browser, url, 'Ana', 'ana');
  const anaId = await signUp(ana.page, `ana${seed % 100000}`);
  await leaderboardAndProfile(ana.page, url);

  // Ana waits, then stops: the queue forgets her.
  await playNow(ana.page);
  assert.equal(await ana.page.textContent('[data-testid=play-count]'), 'Nobody else is waiting here yet.');
  assert.match(await ana.page.textContent('[data-testid=play-waited]'), /^\d+ s$/);
  await shot(ana.page, 'ratings-2-waiting');
  await audit(ana.page, 'play now, waiting', {phone: true});
  await ana.page.click('[data-testid=play-leave]');
  await ana.page.waitForSelector('[data-testid=play-now][data-state=idle] [data-testid=play-join]');
  assert.equal(await ana.page.textContent('[data-testid=play-status]'), 'You stopped waiting.');

  const bea = await personInLobby(browser, url, 'Bea', 'bea');
  const beaId = await signUp(bea.page, `bea${seed % 100000}`);
  await playNow(bea.page);
  assert.equal(await bea.page.textContent('[data-testid=play-count]'), 'Nobody else is waiting here yet.', 'Ana stopped waiting');
  // Ana's wish completes a table: the server seats both at once (she may see the queue only
  // for a moment).
  await playNow(ana.page, {waitForQueue: false});
  say('Ana stopped waiting, Bea waits, Ana asks again');

  // Both are seated at one table and land on its game screen, ratings beside the names.
  const screens = await Promise.all([ana.page, bea.page].map(async (page) => {
    await page.waitForSelector('[data-testid=game-screen] [data-testid=player-1]', {timeout: MATCH_MS});
    return Number(await page.getAttribute('[data-testid=game-screen]', 'data-table'));
  }));
  const tableId = screens[0];
  assert.equal(screens[1], tableId, 'Ana and Bea sit at the same table');
  const anaSeat = Number(await ana.page.getAttribute('.player-card.me', 'data-seat'));
  const beaSeat = 1 - anaSeat;
  for (const page of [ana.page, bea.page]) {
    assert.match(page.url(), new RegExp(`#/table/${tableId}$`));
    assert.match(await page.textContent('[data-testid=table-info]'), /Rated: 2 players, short game/);
    const names = await page.locator('.player-card .player-name').allTextContents();
    assert.deepEqual(names.map((n) => n.replace(' (you)', '')).sort(), ['Ana', 'Bea']);
    for (const seat of [0, 1]) {
      assert.equal(await page.textContent(`[data-testid=player-rating-${seat}]`), 'Rating 1000 provisional', 'newcomers show 1000, provisional');
    }
  }
  await shot(ana.page, 'ratings-3-matched');
  await audit(ana.page, 'a rated game');
  say(`Ana and Bea were seated at table ${tableId}`);

  // Bea answers her first decisions, then resigns: resigned at once, the game would be
  // aborted and rate nobody (docs/ratings.md, What is rated).
  const [decisions] = await Promise.all([playToTheEnd(ana.page), playToTheEnd(bea.page, 3).then(() => beaResigns(bea.page, tableId))]);
  say(`Ana played ${decisions} decisions to the end`);

  const seen = {};
  for (const [who, page] of [['Ana', ana.page], ['Bea', bea.page]]) seen[who] = await ratingChanges(page);
  assert.deepEqual(seen.Bea, seen.Ana, 'both screens show the same changes');
  assert.ok(seen.Ana[anaSeat].after > seen.Ana[beaSeat].after, 'Ana, who played on, gains more than Bea, who resigned');
  for (const {page} of [ana, bea]) await changesExplained(page, anaSeat, beaSeat, seen.Ana);
  await shot(ana.page, 'ratings-5-final');
  await audit(ana.page, 'a rated game, final', {phone: true});

  // Ana's name on the final screen leads to her profile, which has the game.
  await ana.page.click(`[data-testid=final-score-${anaSeat}] a.player-link`);
  await ana.page.waitForSelector(`[data-testid=profile][data-player="${anaId}"] [data-testid=rated-game-${tableId}]`);
  const game = await ana.page.textContent(`[data-testid=rated-game-${tableId}]`);
  assert.match(game, new RegExp(`2 players, short game.*placed 1st.*${seen.Ana[anaSeat].before} → ${seen.Ana[anaSeat].after}`));
  assert.equal(await ana.page.locator('[data-testid=rating-chart] path.rating-line').count(), 1);
  assert.equal(await ana.page.getAttribute(`[data-testid=rated-game-replay-${tableId}]`, 'href'), `#/replay/${tableId}`,
    'a rated game of the profile opens in the replay viewer');
  const profile = await json(url, `api/players/${beaId}/ratings`);
  assert.equal(profile.games[0].after, seen.Ana[beaSeat].after, 'Bea\'s change as the API has it');
  await shot(ana.page, 'ratings-6-own-profile');

  // The menu by a name on the game screen leads to that player's ratings too.
  await bea.page.click(`[data-testid=player-${anaSeat}] [data-testid=player-menu-${anaId}]`);
  await bea.page.click('[data-testid=player-menu] [data-testid=player-profile]');
  await bea.page.waitForSelector(`[data-testid=profile][data-player="${anaId}"] [data-testid=profile-rating-2p-short]`);
  assert.match(await bea.page.textContent('[data-testid=profile-rating-2p-short]'),
    new RegExp(`${seen.Ana[anaSeat].after} provisional · 1st of 2 · 1 game`));
  await aloneWithABot(ana.page);
  checkProblems();
}

await runTest(main, OVERALL_TIMEOUT_MS);
