// What the browser tests share (play, accounts, moderation, tournaments, ratings and access
// .test.mjs): the real server binary on a free port with a temporary data directory (or the
// test's own), Debian's headless Chromium driven by playwright-core, pages that fail the test
// on any error, screenshots, a seeded random choice among the enabled controls of a decision,
// the audit of a screen (its width and axe-core), and a runner that always stops the server.
//
// Environment: ELGRANDE_SERVER (the elgrande-server binary, required), ELGRANDE_SOURCE_DIR
// (the checkout, default ../..), ELGRANDE_ARTIFACTS (default tests/artifacts/browser),
// CHROMIUM (default /usr/bin/chromium), ELGRANDE_SEED, ELGRANDE_AUDIT_REPORT (set: audits
// list every finding with its elements and fail on none, to see them all at once).

import {spawn} from 'node:child_process';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import assert from 'node:assert/strict';

// Loaded here rather than imported, to say what to do when `npm ci` was not run.
let chromium;
try {
  ({chromium} = await import('playwright-core'));
} catch {
  console.error('FAILED: playwright-core is missing: run `npm ci` in tests/browser first');
  console.log('browser: 0 passed, 1 failed');
  process.exit(1);
}


const here = path.dirname(fileURLToPath(import.meta.url));
export const sourceDir = path.resolve(process.env.ELGRANDE_SOURCE_DIR || path.join(here, '..', '..'));
const serverBinary = process.env.ELGRANDE_SERVER;
export const artifacts = path.resolve(process.env.ELGRANDE_ARTIFACTS || path.join(sourceDir, 'tests', 'artifacts', 'browser'));
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
export const seed = Number(process.env.ELGRANDE_SEED || 20240607);
const DECISION_TIMEOUT_MS = 60_000;

const started = Date.now();
export const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
export const say = (text) => console.log(`[${elapsed()}] ${text}`);

// --- a seeded random choice, so a failing run can be replayed ---------------------------

function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(seed);
export const below = (n) => Math.floor(random() * n);
export const chance = (p) => random() < p;

// --- the server ----------------------------------------------------------------------------

export const cleanups = [];
let server = null;

// `extraArgs` are added to the command line (after the test's own, so they may override them).
export function startServer(extraArgs = []) {
  if (!serverBinary) throw new Error('ELGRANDE_SERVER must name the elgrande-server binary');
  if (!fs.existsSync(serverBinary)) throw new Error(`ELGRANDE_SERVER: no such file ${serverBinary}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elgrande-browser-data-'));
  cleanups.push(() => fs.rmSync(dataDir, {recursive: true, force: true}));
  const args = [
    '--port', '0', '--data-dir', dataDir, '--web-root', path.join(sourceDir, 'clients', 'web'),
    '--bot-delay-ms', '20', '--messages-per-second', '200', '--message-burst', '400', '--log-level', 'warn',
    ...extraArgs,
  ];
  // The temporary directory as working directory: no config/server.json is picked up by accident.
  server = spawn(serverBinary, args, {cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe']});
  let stderr = '';
  server.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (stderr.length > 20000) stderr = stderr.slice(-20000);
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`the server did not say "listening on" within 20 s; stderr:\n${stderr}`)), 20_000);
    server.stdout.on('data', (chunk) => {
      stdout += chunk;
      const m = stdout.match(/listening on ([\d.]+):(\d+)/);
      if (m) {
        clearTimeout(timer);
        // Over TLS by the name the test certificate carries.
        resolve(args.includes('--tls-certificate') ? `https://localhost:${m[2]}/` : `http://${m[1]}:${m[2]}/`);
      }
    });
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited early (code ${code}, signal ${signal}); stderr:\n${stderr}`));
    });
  });
}

function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 5000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

// --- the browser ---------------------------------------------------------------------------

const problems = [];
const watched = [];  // [label, page]: screenshots of each when the test fails

export function watch(page, label) {
  watched.push([label, page]);
  page.on('pageerror', (err) => problems.push(`${label}: page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${label}: console error: ${msg.text()}`);
  });
  page.on('crash', () => problems.push(`${label}: the page crashed`));
}

export function checkProblems() {
  if (problems.length) throw new Error(`the page reported errors:\n  ${problems.join('\n  ')}`);
}

export async function shot(page, name) {
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({path: file});
  say(`screenshot ${file}`);
}

// The decision panel's state: {kind, key} once a decision of mine is ready, or {kind: 'over'}.
export async function nextDecision(page) {
  const handle = await page.waitForFunction(() => {
    const d = document.querySelector('[data-testid=decision]');
    if (!d) return false;
    if (d.dataset.kind === 'over') return {kind: 'over', key: d.dataset.key};
    if (d.dataset.kind === 'none' || d.dataset.busy !== 'false') return false;
    return {kind: d.dataset.kind, key: d.dataset.key};
  }, null, {timeout: DECISION_TIMEOUT_MS, polling: 50});
  return handle.jsonValue();
}

export async function round(page) {
  return Number(await page.getAttribute('[data-testid=round]', 'data-round'));
}

// Waits until the decision answered is gone; an error shown instead fails the test, since
// every control clicked was enabled, that is, legal by the server's own constraints.
export async function settled(page, oldKey, what) {
  const handle = await page.waitForFunction((key) => {
    const d = document.querySelector('[data-testid=decision]');
    if (d && d.dataset.key !== key) return {ok: true};
    const error = document.querySelector('[data-testid=error]');
    return error ? {error: error.textContent} : false;
  }, oldKey, {timeout: DECISION_TIMEOUT_MS, polling: 50});
  const result = await handle.jsonValue();
  if (result.error) throw new Error(`the server refused ${what} offered as legal: ${result.error}`);
}

// Pages of a phone (hasTouch): the random choices there are taps, not clicks.
const tapping = new WeakSet();
export function tapOn(page) {
  tapping.add(page);
}

// Clicks, or taps on a phone's page.
export function press(locator) {
  return tapping.has(locator.page()) ? locator.tap() : locator.click();
}

export async function clickRandom(page, selector) {
  const options = page.locator(`${selector}:enabled`);
  const n = await options.count();
  if (!n) return false;
  await press(options.nth(below(n)));
  return true;
}

export const inPanel = (selector) => `[data-testid=decision] ${selector}`;

async function clickMapAreas(page, times) {
  for (let i = 0; i < times; i++) {
    const areas = page.locator('[data-testid^="map-area-"][data-clickable="true"]');
    const n = await areas.count();
    if (!n) return;
    await press(areas.nth(below(n)));
  }
}

// A few random clicks on the − and + buttons the panel enables.
async function fiddleSteppers(page, times) {
  for (let i = 0; i < times; i++) {
    const steps = page.locator(inPanel('button.step:enabled'));
    const n = await steps.count();
    if (!n) return;
    await press(steps.nth(below(n)));
  }
}

async function selectRandom(page, selector) {
  const select = page.locator(selector);
  if (!(await select.count()) || !(await select.isEnabled())) return false;
  const values = await select.locator('option').evaluateAll((opts) => opts.map((o) => o.value).filter(Boolean));
  if (!values.length) return false;
  await select.selectOption(values[below(values.length)]);
  return true;
}

function submitOrSkip(page) {
  return page.locator(inPanel('[data-testid=submit-special]:enabled, [data-testid=skip-special]')).first();
}

// Special actions tried so far: the test prefers the others, to cover more controls per game.
export const triedSpecials = new Set();

async function specialAction(page) {
  const special = await page.getAttribute(inPanel('[data-part=special]'), 'data-special');
  if (triedSpecials.has(special) && chance(0.12)) {
    return {what: `skip ${special}`, submit: page.locator(inPanel('[data-testid=skip-special]'))};
  }
  triedSpecials.add(special);
  if (special === 'place_two_or_move_all_own' && chance(0.5)) await clickRandom(page, inPanel('[data-testid=choice-mode-move]'));
  if (await page.locator(inPanel('[data-testid=move-colour]')).count()) {
    // Build one or two moves with the selects, within the limits the panel shows.
    for (let m = 1 + below(2); m > 0; m--) {
      if (!(await selectRandom(page, inPanel('[data-testid=move-colour]')))) break;
      if (!(await selectRandom(page, inPanel('[data-testid=move-from]')))) break;
      if (chance(0.5)) await clickMapAreas(page, 1);  // the destination, on the map
      else if (!(await selectRandom(page, inPanel('[data-testid=move-to]')))) break;
      if (chance(0.4)) await fiddleSteppers(page, 1);
      const add = page.locator(inPanel('[data-testid=add-move]'));
      if (await add.isEnabled()) await press(add);
    }
  } else {
    for (const group of ['choice-board-', 'choice-target-', 'choice-takeback-']) {
      await clickRandom(page, inPanel(`[data-testid^="${group}"]`));
    }
    const removes = page.locator(inPanel('[data-testid^="select-remove-"]'));
    for (let i = 0, n = await removes.count(); i < n; i++) {
      await selectRandom(page, inPanel(`[data-testid="${await removes.nth(i).getAttribute('data-testid')}"]`));
    }
    if (special === 'place_two_anywhere' || special === 'place_two_or_move_all_own') await clickMapAreas(page, below(3));
    if (special === 'court') await fiddleSteppers(page, below(3));
  }
  return {what: special, submit: submitOrSkip(page)};
}

// Makes a random choice among the enabled controls of the decision on screen, and returns
// the button that sends it.
export async function choose(page, decision) {
  switch (decision.kind) {
    case 'power_card':
      assert.ok(await clickRandom(page, '[data-testid^="power-card-"]'), 'no playable power card is enabled');
      return {what: 'power card', submit: page.locator(inPanel('[data-testid=submit-play]'))};
    case 'take_caballeros':
      if (chance(0.4)) await fiddleSteppers(page, 1 + below(3));
      return {what: 'take caballeros', submit: page.locator(inPanel('[data-testid=submit-take]'))};
    case 'action_card': {
      const offered = page.locator('[data-testid^="offer-card-"]:enabled');
      const kinds = await offered.evaluateAll((cards) => cards.map((c) => c.dataset.kind));
      assert.ok(kinds.length, 'no offered action card is enabled');
      const fresh = kinds.map((k, i) => (triedSpecials.has(k) ? -1 : i)).filter((i) => i >= 0);
      await press(offered.nth(fresh.length && chance(0.8) ? fresh[below(fresh.length)] : below(kinds.length)));
      return {what: 'action card', submit: page.locator(inPanel('[data-testid=submit-card]'))};
    }
    case 'use_action_card': {
      const canPlace = await page.locator(inPanel('[data-testid=part-place]')).isEnabled();
      const canAct = await page.locator(inPanel('[data-testid=part-special]')).isEnabled();
      const special = await page.getAttribute('[data-testid=decision]', 'data-special');
      const place = canPlace && (!canAct || chance(triedSpecials.has(special) ? 0.5 : 0.2));
      if (place) {
        await press(page.locator(inPanel('[data-testid=part-place]')));
        await clickMapAreas(page, 1 + below(4));
        return {what: 'placement', submit: page.locator(inPanel('[data-testid=submit-place]'))};
      }
      await press(page.locator(inPanel('[data-testid=part-special]')));
      const done = await specialAction(page);
      return {what: `special action ${done.what}`, submit: done.submit};
    }
    case 'veto':
      return {what: 'veto', submit: page.locator(inPanel(chance(0.3) ? '[data-testid=submit-veto-yes]' : '[data-testid=submit-veto-no]'))};
    case 'return_caballeros': {
      const submit = page.locator(inPanel('[data-testid=submit-return]'));
      for (let i = 0; i < 40 && !(await submit.isEnabled()); i++) {
        assert.ok(await clickRandom(page, inPanel('[data-testid^="inc-return-"]')), 'cannot complete the return');
      }
      return {what: 'return caballeros', submit};
    }
    case 'disk':
      assert.ok(await clickRandom(page, inPanel('[data-testid^="choice-disk-"]')), 'no disk region is enabled');
      return {what: 'secret disk', submit: page.locator(inPanel('[data-testid=submit-disk]'))};
    default:
      throw new Error(`unknown decision kind ${decision.kind}`);
  }
}

// Screenshots of the first time each control is used, as artifacts to look at.

// `extraArgs`: more of Chromium's switches (the HTTPS test's trusted key).
export async function launchBrowser(extraArgs = []) {
  if (!fs.existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: apt-get install chromium (or set CHROMIUM)`);
  fs.mkdirSync(artifacts, {recursive: true});
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elgrande-browser-profile-'));
  cleanups.push(() => fs.rmSync(userDataDir, {recursive: true, force: true}));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...extraArgs,
    ],
  });
  cleanups.unshift(() => browser.close());
  return browser;
}

// A new window with its own storage, whose person gives `name` and reaches the lobby.
// `screens`: audit the welcome screen and the lobby (see audit).
// `prepare(context)`: before the page opens (a route of its WebSocket, say).
export async function personInLobby(browser, url, name, label, {screens = false, prepare = null, ...options} = {}) {
  const context = await browser.newContext({viewport: {width: 1366, height: 768}, ...options});
  if (prepare) await prepare(context);
  const page = await context.newPage();
  watch(page, label);
  await page.goto(url);
  if (screens) {
    await page.waitForSelector('[data-testid=name-input]');
    await audit(page, 'welcome', {phone: true});
  }
  await page.fill('[data-testid=name-input]', name);
  await page.click('[data-testid=name-submit]');
  await page.waitForSelector('[data-testid=lobby]');
  if (screens) {
    await page.locator('[data-testid=history-empty]').waitFor();
    await audit(page, 'lobby', {phone: true});
  }
  return {context, page};
}

// --- every screen: nothing wider than the viewport, no serious accessibility finding ------

// axe-core's source, evaluated in the page over the DevTools protocol: the page's own
// Content-Security-Policy allows no inline script, and this way none is added.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// Findings of these impacts fail the test; moderate and minor ones are listed only.
const FAILING_IMPACTS = new Set(['serious', 'critical']);
export const audits = [];  // {screen, width, violations: [{id, impact, nodes}]}

// Elements sticking out of the viewport, left or right, or clipped by an ancestor that hides
// overflow: on a phone that is cut off. Inside a region that scrolls by itself (overflow
// auto or scroll, the standings tables) only that region has to fit. Then the panels: none
// over another, none squeezed narrow.
function overflowing() {
  const width = document.documentElement.clientWidth;
  const found = [];
  if (document.documentElement.scrollWidth > width) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  const name = (el) => `${el.tagName.toLowerCase()}${el.dataset && el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;  // nothing to see (sr-only text is 1 px)
    let limit = {left: 0, right: width};
    let clipped = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.display === 'contents') continue;  // no box of its own, so nothing to clip
      const overflow = style.overflowX;
      if (overflow === 'auto' || overflow === 'scroll') {
        limit = null;  // the region scrolls: checked as an element of its own
        break;
      }
      if (overflow === 'hidden' || overflow === 'clip') {
        const b = up.getBoundingClientRect();
        if (box.left < b.left - 1 || box.right > b.right + 1) clipped = up;
        break;
      }
    }
    if (clipped) found.push(`${name(el)} is cut off by ${name(clipped)}`);
    else if (limit && (box.left < limit.left - 1 || box.right > limit.right + 1)) {
      found.push(`${name(el)} spans ${Math.round(box.left)}..${Math.round(box.right)} of ${width} px`);
    }
    if (found.length >= 12) break;
  }
  // Panels side by side or one under the other, never drawn over each other, and none
  // squeezed into a strip (one word a line) beside the others.
  const panels = [...document.querySelectorAll('.panel')]
    .filter((el) => !el.parentElement.closest('.panel') && el.getClientRects().length > 0)
    .map((el) => ({el, box: el.getBoundingClientRect()}));
  const narrowest = Math.min(200, width - 40);
  for (const [i, a] of panels.entries()) {
    if (a.box.width < narrowest) found.push(`${name(a.el)} is squeezed to ${Math.round(a.box.width)} px`);
    for (const b of panels.slice(i + 1)) {
      const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (across > 1 && down > 1) found.push(`${name(a.el)} and ${name(b.el)} overlap by ${Math.round(across)}×${Math.round(down)} px`);
    }
  }
  return found;
}

// Checks the screen as it shows now: no element wider than the viewport, and axe-core's
// rules (WCAG 2.x A and AA, best practices, whether a control's name says what it shows, and
// on a touch screen the size of targets) without a serious or critical finding. `screen`
// names it in the messages.
// `phone`: the same screen again at a phone's 390 px, fully (true) or whether it fits only
// ('fit', cheaper: for controls whose look a phone changes little). A screen seen on a phone
// (a page at 390 px, or `phone`) must also fit the narrowest phone, 360 px, and a tablet's
// 800 px, between the phone's layout (up to 600 px) and the desktop's (from 1101 px): 360
// and 390 stand for every phone up to 430. `axe: false` checks only that it fits (a screen
// another test runs axe-core on already, seen here in another language or state).
export async function audit(page, screen, {phone = false, axe = true} = {}) {
  const viewport = page.viewportSize();
  await (axe ? auditAt(page, screen) : fits(page, screen));
  const onPhone = viewport.width === PHONE.width;
  if (!phone && !onPhone) return;
  try {
    if (!onPhone) {
      await resize(page, PHONE);
      if (phone === 'fit') await fits(page, screen);
      else await auditAt(page, screen);
    }
    await resize(page, {width: TABLET_WIDTH, height: PHONE.height});
    await fits(page, screen);
    await resize(page, {width: NARROW_PHONE_WIDTH, height: PHONE.height});
    await fits(page, screen);
  } finally {
    await resize(page, viewport);
  }
}

export const PHONE = {width: 390, height: 844};
const NARROW_PHONE_WIDTH = 360;
const TABLET_WIDTH = 800;

// The window at another size, once the page has laid itself out for it: what a resize sets
// off (a ResizeObserver redrawing the rating chart at its new width) runs before the next
// frame's paint, so two frames later it is drawn.
async function resize(page, size) {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

// Whether nothing sticks out of the viewport and no panel is drawn over another or squeezed.
async function fits(page, screen) {
  const width = page.viewportSize().width;
  const wide = await page.evaluate(overflowing);
  say(`audit ${screen} at ${width} px: ${wide.length ? `too wide: ${wide.slice(0, 3).join('; ')}` : 'fits'}`);
  if (!process.env.ELGRANDE_AUDIT_REPORT) assert.deepEqual(wide, [], `${screen} at ${width} px: nothing may stick out of the viewport`);
}

async function auditAt(page, screen) {
  const width = page.viewportSize().width;
  const t0 = Date.now();
  const wide = await page.evaluate(overflowing);
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      resultTypes: ['violations'],
      // Where the pointer is a finger, also whether every target is big enough to hit (WCAG
      // 2.2's 24 px; the client gives fingers 44, main.css).
      rules: {'label-content-name-mismatch': {enabled: true}, 'target-size': {enabled: matchMedia('(pointer: coarse)').matches}},
    });
    return result.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')), help: v.help}));
  });
  audits.push({screen, width, wide, violations});
  const failing = violations.filter((v) => FAILING_IMPACTS.has(v.impact));
  const summary = violations.map((v) => `${v.id} (${v.impact}) ×${v.nodes}`).join(', ') || 'none';
  say(`audit ${screen} at ${width} px (${Date.now() - t0} ms): ${wide.length ? `too wide: ${wide.slice(0, 3).join('; ')}` : 'fits'}; axe: ${summary}`);
  if (process.env.ELGRANDE_AUDIT_REPORT) {
    for (const v of violations) say(`  ${v.id} (${v.impact}): ${v.targets.join(' ; ')}`);
    return;
  }
  assert.deepEqual(wide, [], `${screen} at ${width} px: nothing may stick out of the viewport`);
  assert.deepEqual(failing.map((v) => `${v.id}: ${v.help} (${v.targets.join('; ')})`), [],
    `${screen} at ${width} px: axe-core finds serious or critical problems`);
}

// --- the run ----------------------------------------------------------------------------

async function cleanup() {
  for (const fn of cleanups.splice(0)) {
    try {
      await fn();
    } catch {
      // Cleaning up after a failure must not hide the failure.
    }
  }
  await stopServer();
}

// What each page still open showed when the test failed.
async function failureShots() {
  for (const [label, page] of watched) {
    if (page.isClosed()) continue;
    try {
      await shot(page, `failed-${label.replace(/[^A-Za-z0-9]+/g, '-')}`);
    } catch {
      // A page that cannot be drawn any more has nothing to show.
    }
  }
}

// Runs `main`, stopping it after `timeoutMs` whatever happens, and always the server; prints
// "browser: 1 passed, 0 failed" or the failure.
export async function runTest(main, timeoutMs) {
  const deadline = setTimeout(async () => {
    console.error(`FAILED: the test took longer than ${timeoutMs / 1000} s`);
    await cleanup();
    process.exit(1);
  }, timeoutMs);

  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      console.error(`FAILED: stopped by ${signal}`);
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      process.exit(1);
    });
  }

  process.on('exit', () => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  });

  try {
    await main();
    await cleanup();
    clearTimeout(deadline);
    console.log(`browser: 1 passed, 0 failed (${elapsed()})`);
  } catch (err) {
    console.error(`FAILED: ${err.stack || err}`);
    await failureShots();
    await cleanup();
    clearTimeout(deadline);
    console.log('browser: 0 passed, 1 failed');
    process.exitCode = 1;
  }
}
