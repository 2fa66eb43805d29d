#!/usr/bin/env node
// End-to-end test of the replay viewer (clients/web/js/replay.js, docs/replays.md): a person
// lets a 1-second turn limit give their seat to a bot at a 5-player short table of random
// bots, so the game plays itself to its end; then "Finished games" links its replay, which
// is stepped through version by version by the keyboard (the address follows), jumps to a
// round and plays; a link to a version opens at that version, where the person asks the strong
// bot for its second opinion on their seat's move; at 390 px it fits and axe-core finds
// nothing serious; the same replay saved to a file opens in it.
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/replay.test.mjs

import assert from 'node:assert/strict';
import {audit, checkProblems, launchBrowser, personInLobby, runTest, say, shot, startServer} from './support.mjs';

const OVERALL_TIMEOUT_MS = 110_000;

async function main() {
  const url = await startServer();
  const browser = await launchBrowser();
  const {page} = await personInLobby(browser, url, 'Rita', 'replayer');

  // A 5-player short game that bots play: mine after one timeout.
  await page.fill('[data-testid=opt-name]', 'Replayed');
  await page.click('[data-testid=opt-players-5]');
  await page.check('[data-testid=opt-short]');
  await page.selectOption('[data-testid=opt-turn]', 'custom');
  await page.fill('[data-testid=opt-turn-seconds]', '1');
  await page.check('[data-testid=opt-timeout-replace]');
  await page.selectOption('[data-testid=opt-replace-after]', '1');
  await page.click('[data-testid=create-table]');
  await page.waitForSelector('[data-testid=waiting-room]');
  const tableId = Number(await page.getAttribute('[data-testid=waiting-room]', 'data-table'));
  await page.selectOption('[data-testid=bot-level]', 'random');
  for (let seat = 1; seat <= 4; seat++) {
    await page.click(`[data-testid=add-bot-${seat}]`);
    await page.waitForSelector(`[data-testid=bot-level-${seat}]`);
  }
  await page.locator('[data-testid=start-game]:enabled').click();
  await page.waitForSelector('[data-testid=final-scores]', {timeout: 60_000});
  say(`table ${tableId}: the bots finished the game`);

  // The replay from "Finished games".
  await page.click('[data-testid=back-to-lobby]');
  await page.click(`[data-testid=replay-${tableId}]`);
  const version = page.locator('[data-testid=replay-version]');
  await version.waitFor();
  assert.equal(await version.getAttribute('data-version'), '0');
  const last = Number(await page.getAttribute('[data-testid=replay-slider]', 'max'));
  assert.ok(last > 50, `a whole game has many versions (${last})`);
  assert.equal(await page.locator('[data-testid^=replay-seat-]').count(), 5);
  assert.ok(await page.locator('[data-testid=replay-secrets-0]').count(), 'the seats\' secrets are shown');
  assert.doesNotMatch(await page.textContent('[data-testid=replay-screen]'), /\bnull\b|\bundefined\b/, 'no placeholder words');
  await shot(page, 'replay-0');

  // Every version by the keyboard, forwards; the address and the board follow.
  // (Many steps only play a card: the seats change, not the map.)
  // One look at the page per step: its version, and whether the map and the seats changed.
  const look = () => page.evaluate(() => {
    const map = document.querySelector('[data-testid=map]').innerHTML;
    const seats = document.querySelector('[data-testid=replay-seats]').innerHTML;
    const was = window.replayTestLast || {map, seats};
    window.replayTestLast = {map, seats};
    return {version: Number(document.querySelector('[data-testid=replay-version]').dataset.version),
      board: map !== was.map, seats: seats !== was.seats};
  });
  await look();
  let changes = 0;
  let seen = 0;
  for (let v = 1; v <= last; v++) {
    await page.keyboard.press('ArrowRight');
    const now = await look();
    assert.equal(now.version, v, 'a step forwards');
    if (now.board) changes++;
    if (now.board || now.seats) seen++;
  }
  assert.ok(changes >= 6, `the board changes as the game goes (${changes} of ${last} steps)`);
  // How many steps show on the map or the seats depends on the bots' game (CI once saw
  // exactly half); a viewer that stops following the steps shows next to none.
  assert.ok(seen > last / 3, `the board or the seats change at many steps (${seen} of ${last})`);
  assert.ok(page.url().endsWith(`#/replay/${tableId}/${last}`), `the address names the version: ${page.url()}`);
  await page.keyboard.press('ArrowRight');
  assert.equal(await version.getAttribute('data-version'), String(last), 'no step past the end');
  await page.keyboard.press('Home');
  await page.waitForSelector('[data-testid=replay-version][data-version="0"]');
  await page.keyboard.press('End');
  await page.waitForSelector(`[data-testid=replay-version][data-version="${last}"]`);
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector(`[data-testid=replay-version][data-version="${last - 1}"]`);
  say(`stepped through ${last} versions; the board changed at ${changes}, the board or the seats at ${seen}`);

  // Jump to round 2, from the events; then play a few steps at the fastest speed.
  const round2 = await page.locator('[data-testid=replay-jump] option', {hasText: /Round 2$/}).getAttribute('value');
  await page.selectOption('[data-testid=replay-jump]', round2);
  await page.waitForSelector(`[data-testid=replay-version][data-version="${round2}"]`);
  assert.match(await page.textContent('[data-testid=replay-log]'), /Round 2/);
  await page.selectOption('[data-testid=replay-speed]', '500');
  await page.click('[data-testid=replay-play]');
  await page.waitForFunction((v) => Number(document.querySelector('[data-testid=replay-version]').dataset.version) >= v + 2, Number(round2), {timeout: 5000});
  await page.click('[data-testid=replay-play]');

  // A link names a version: one where Rita's seat answered next (her clock, then her bot,
  // for her), on a phone, where she asks the strong bot what it would have played.
  const saved = await (await fetch(`${url}api/games/${tableId}/replay`)).text();
  const mine = JSON.parse(saved).moves.findIndex((move, v) => move.seat === 0 && v > last / 3);
  assert.ok(mine > 0, 'Rita\'s seat answered after the first rounds');
  await page.goto(`${url}#/replay/${tableId}/${mine}`);
  await page.waitForSelector(`[data-testid=replay-version][data-version="${mine}"]`);
  await page.setViewportSize({width: 390, height: 844});
  await page.click('[data-testid=review-ask]');
  await page.waitForSelector('[data-testid=review-played], [data-testid=review-same]', {timeout: 20_000});
  const opinion = await page.textContent('[data-testid=replay-review]');
  assert.match(opinion, /(You played|Played for you, by your seat’s bot or clock): .+\(estimated win share \d+%\)|the same: .+\(estimated win share \d+%\)/, opinion);
  say(`the strong bot's second opinion: ${opinion}`);
  // Where the next move is another seat's, there is nothing to ask; back at hers, the answer stays.
  const others = JSON.parse(saved).moves.findIndex((move) => move.seat !== 0);
  await page.evaluate((v) => { location.hash = v; }, `#/replay/${tableId}/${others}`);
  await page.waitForSelector(`[data-testid=replay-version][data-version="${others}"]`);
  assert.equal(await page.locator('[data-testid=review-ask]').count(), 0);
  await page.evaluate((v) => { location.hash = v; }, `#/replay/${tableId}/${mine}`);
  await page.waitForSelector('[data-testid=review-played], [data-testid=review-same]');
  await shot(page, 'replay-phone');
  await audit(page, 'replay', {phone: true});
  // On the phone, by its buttons.
  for (const [button, v] of [['replay-next', mine + 1], ['replay-next', mine + 2], ['replay-previous', mine + 1]]) {
    await page.click(`[data-testid=${button}]`);
    await page.waitForSelector(`[data-testid=replay-version][data-version="${v}"]`);
  }

  // A saved replay opened from a file shows from its start.
  await page.setInputFiles('[data-testid=replay-file]', {name: 'replay.json', mimeType: 'application/json', buffer: Buffer.from(saved)});
  await page.waitForSelector('[data-testid=replay-version][data-version="0"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid=replay-version][data-version="1"]');

  checkProblems();

  // A game that does not exist has no replay (in a page not watched: the 404 is expected).
  const other = await page.context().newPage();
  await other.goto(`${url}#/replay/999999`);
  await other.waitForFunction(() => /no replay/.test(document.querySelector('[data-testid=replay-status]')?.textContent));
  say('the replay viewer steps, jumps, plays and opens at a linked version');
}

await runTest(main, OVERALL_TIMEOUT_MS);
