#!/usr/bin/env node
// End-to-end test of the web client (clients/web/) on a phone, by keyboard alone, and of the
// turn signal, in Debian's headless Chromium driven by playwright-core. Two short games for
// two, each a person against a server bot:
//  1. on a phone (390×844, touch, dark colours): every screen on the way (welcome, lobby,
//     waiting room, each kind of decision, a veto and the angry king's return handed to the
//     page by the test, the enlarged map, the final scores, finished games, tournaments,
//     ratings, the account page) fits the screen, and 360 px too, and passes axe-core; the
//     map's areas are big enough to tap; the whole game is played by taps;
//  2. at 1366×768 by keyboard alone (Tab, Shift+Tab, Enter, Space and arrow keys, each focus
//     visible): the name, the create form, the waiting room, the account page's "notify me",
//     and every decision to the end; the map's areas and the announcements are what a screen
//     reader gets. Meanwhile the page goes to the background and the bot makes it the
//     player's turn: the title and the icon say so, a notification is shown and the chime
//     sounds, which in sight they do not. The service worker has cached the static shell,
//     and nothing of /ws or /api.
// Screenshots go to $ELGRANDE_ARTIFACTS (access-*).
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/access.test.mjs
//
// Optional: as for play.test.mjs (support.mjs).

import assert from 'node:assert/strict';
import {
  PHONE, audit, below, chance, checkProblems, choose, inPanel, launchBrowser, nextDecision, press, runTest, say,
  settled, shot, startServer, tapOn, watch,
} from './support.mjs';
import {answerInReach, labelSitsInItsButton, placeByTapWithoutScrolling} from './phone.mjs';
import {applyViewPatch} from '../../clients/web/js/viewpatch.js';

const OVERALL_TIMEOUT_MS = 180_000;

// --- a game on a phone --------------------------------------------------------------------

// A 2-player short game against a server bot, created from the lobby; returns its table id.
async function startAgainstABot(page, name, {tap}) {
  const act = (selector) => (tap ? page.locator(selector).tap() : page.click(selector));
  await page.fill('[data-testid=opt-name]', name);
  await act('[data-testid=opt-players-2]');
  if (!(await page.isChecked('[data-testid=opt-short]'))) await act('[data-testid=opt-short]');
  await act('[data-testid=create-table]');
  await page.waitForSelector('[data-testid=waiting-room]');
  return Number(await page.getAttribute('[data-testid=waiting-room]', 'data-table'));
}

// The areas a decision offers are at least 44 px each way on the phone's screen.
async function areasAreTappable(page) {
  const small = await page.evaluate(() => [...document.querySelectorAll('[data-testid^="map-area-"][data-clickable="true"]')]
    .map((area) => ({area: area.dataset.area, box: area.getBoundingClientRect()}))
    .filter(({box}) => box.width < 44 || box.height < 44)
    .map(({area, box}) => `${area} ${Math.round(box.width)}×${Math.round(box.height)}`));
  assert.deepEqual(small, [], 'every area offered is at least 44 px each way');
}

// The page's WebSocket runs through the test, which keeps each table's latest game.update
// (with the whole view: patches applied as the page applies them) and may hand the page one
// of its own (`relay.send`).
async function relayGameUpdates(page) {
  const relay = {latest: new Map(), send: null};
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      ws.send(message);
      const envelope = typeof message === 'string' ? JSON.parse(message) : null;
      if (!envelope || envelope.type !== 'game.update') return;
      const {patch, base, ...update} = envelope.payload;
      if (patch) update.view = applyViewPatch(structuredClone(relay.latest.get(update.table).view), patch);
      relay.latest.set(update.table, update);
    });
    relay.send = (envelope) => ws.send(JSON.stringify(envelope));
  });
  return relay;
}

// The kinds of decision a short game for two may never draw (a veto needs a third holder of
// a veto card; the angry king's return is one card of many): while the game waits for the
// phone's power card, the page is handed each as its own game.update at the same version,
// and the panel it draws is audited; then the real update again. Nothing is sent to the
// server.
async function decisionsTheGameMayNotDraw(page, relay, tableId) {
  const real = relay.latest.get(tableId);
  const view = real.view;
  const me = view.viewer;
  const other = me === 0 ? 1 : 0;
  const mine = Object.fromEntries(Object.entries(view.regions).filter(([, counts]) => counts[me] > 0).map(([area, counts]) => [area, counts[me]]));
  const made = [
    {...view, phase: 'veto_window', waiting_for: [me], decision: {seat: me, kind: 'veto', actor: other, card: view.offered[0]}},
    {...view, waiting_for: [me], decision: {seat: me, kind: 'return_caballeros', count: 2, court: view.players[me].court, regions: mine}},
  ];
  for (const fake of made) {
    relay.send({type: 'game.update', payload: {...real, events: [], view: fake}});
    const kind = fake.decision.kind;
    await page.waitForSelector(`[data-testid=decision][data-kind=${kind}][data-busy=false]`);
    await shot(page, `access-phone-${kind.replace(/_/g, '-')}`);
    await audit(page, `phone: decision ${kind.replace(/_/g, ' ')} (made up by the test)`);
    if (kind === 'return_caballeros' && Object.keys(mine).length) await areasAreTappable(page);
  }
  relay.send({type: 'game.update', payload: real});
  await page.waitForSelector(`[data-testid=decision][data-kind=${real.view.decision.kind}][data-busy=false]`);
  say(`phone: the veto and the angry king's return, made up by the test, pass too`);
}

async function phoneGame(browser, url) {
  const context = await browser.newContext({viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: 'dark'});
  const page = await context.newPage();
  watch(page, 'phone');
  tapOn(page);
  const relay = await relayGameUpdates(page);
  await page.goto(url);
  await page.waitForSelector('[data-testid=name-input]');
  await audit(page, 'phone: welcome');
  await page.fill('[data-testid=name-input]', 'Pia');
  await page.locator('[data-testid=name-submit]').tap();
  await page.waitForSelector('[data-testid=lobby] [data-testid=history-empty]');
  await audit(page, 'phone: lobby');
  const tableId = await startAgainstABot(page, 'On the bus', {tap: true});
  await page.locator('[data-testid=add-bot-1]').tap();
  await page.waitForSelector('[data-testid=start-game]:enabled');
  await audit(page, 'phone: waiting room');
  await page.locator('[data-testid=start-game]').tap();
  await page.waitForSelector('[data-testid=game-screen]');

  const seen = new Set();
  let zoomed = false;
  let tapped = null;  // the area a placement tapped on the map without a scroll
  for (let decisions = 0; ; decisions++) {
    checkProblems();
    const decision = await nextDecision(page);
    if (decision.kind === 'over') break;
    if (decisions === 0) await decisionsTheGameMayNotDraw(page, relay, tableId);
    await answerInReach(page, decision);
    if (!tapped && decision.kind === 'use_action_card' && await page.locator(inPanel('[data-testid=part-place]:enabled')).count()) tapped = await placeByTapWithoutScrolling(page);
    const {what, submit} = await choose(page, decision);
    const kind = what.replace(/^skip /, '').replace(/^special action .*/, 'special action');
    if (!seen.has(kind)) {
      seen.add(kind);
      await shot(page, `access-phone-${kind.replace(/ /g, '-')}`);
      await audit(page, `phone: decision ${what}`);
      if (await page.locator('[data-testid^="map-area-"][data-clickable="true"]').count()) await areasAreTappable(page);
    }
    if (!zoomed && decision.kind === 'use_action_card') {
      // Enlarged, the map is drawn at full size in a region of its own that scrolls.
      zoomed = true;
      await page.locator('[data-testid=map-zoom]').tap();
      assert.equal(await page.getAttribute('[data-testid=map-zoom]', 'aria-pressed'), 'true');
      assert.ok((await page.locator('[data-testid=map]').boundingBox()).width >= 700, 'the enlarged map is drawn at full size');
      await shot(page, 'access-phone-map-enlarged');
      await audit(page, 'phone: the map enlarged');
      await page.locator('[data-testid=map-zoom]').tap();
    }
    if (decision.kind === 'veto') {
      // Another holder's answer may close the window first (play.test.mjs).
      await submit.tap({timeout: 5000}).catch(() => {});
    } else {
      await press(submit);
    }
    await settled(page, decision.key, what);
  }
  assert.ok(tapped, 'a placement was tapped on the map without a scroll');
  await page.waitForSelector('[data-testid=final-scores]');
  await shot(page, 'access-phone-final');
  await audit(page, 'phone: final scores');
  await labelSitsInItsButton(page, '[data-testid=back-to-lobby]');
  await page.locator('[data-testid=back-to-lobby]').tap();
  await page.waitForSelector(`[data-testid=history-${tableId}]`);
  await audit(page, 'phone: finished games');
  // The other screens, as a phone shows them.
  await page.locator('[data-testid=nav-tournaments]').tap();
  await page.waitForSelector('[data-testid=tournaments]');
  await audit(page, 'phone: tournaments');
  await page.locator('[data-testid=nav-ratings]').tap();
  await page.waitForSelector('[data-testid=leaderboard-title]');
  await audit(page, 'phone: ratings');
  await page.locator('[data-testid=my-profile]').tap();
  await page.waitForSelector('[data-testid=profile-unrated]');
  await audit(page, 'phone: profile');
  await page.locator('[data-testid=nav-account]').tap();
  await page.waitForSelector('[data-testid=device-settings]');
  await audit(page, 'phone: account');
  say(`phone: a game to the end by taps (${[...seen].join(', ')}), every screen fits and passes axe-core`);
  await context.close();
}

// --- a game by keyboard alone ---------------------------------------------------------------

// What the page's Tab order is and where focus stands, computed in the page; the keys to get
// from there to `selector` (the first match, or a random one with `pick`) are then pressed.
async function focusOn(page, selector, {pick = false} = {}) {
  const route = await page.evaluate(({selector, pick}) => {
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
      && !el.closest('[hidden], [inert], fieldset:disabled');
    const radios = new Map();  // a group of native radios is one stop: the checked one
    const order = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')].filter((el) => {
      if (el.tabIndex < 0 || el.disabled || !shown(el)) return false;
      if (el.type === 'radio' && el.name) {
        const group = [...document.querySelectorAll(`input[type=radio][name="${el.name}"]`)];
        const stop = group.find((r) => r.checked) || group[0];
        if (radios.has(el.name)) return false;
        radios.set(el.name, true);
        return el === stop || (!group.some((r) => r.checked) && el === group[0]);
      }
      return true;
    });
    const targets = order.filter((el) => el.matches(selector));
    if (!targets.length) return null;
    const target = pick ? targets[Math.floor(Math.random() * targets.length)] : targets[0];
    for (const el of document.querySelectorAll('[data-focus-target]')) el.removeAttribute('data-focus-target');
    target.setAttribute('data-focus-target', '');
    const testid = target.dataset.testid || null;
    const active = document.activeElement;
    const at = order.indexOf(active);
    const to = order.indexOf(target);
    if (at >= 0) return to >= at ? {key: 'Tab', times: to - at, testid} : {key: 'Shift+Tab', times: at - to, testid};
    // Focus on something outside the order (a panel that holds it): Tab goes to the next stop.
    const before = order.filter((el) => active && active !== document.body
      && (active.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING)).length;
    return to >= before ? {key: 'Tab', times: to - before + 1, testid} : {key: 'Shift+Tab', times: before - to, testid};
  }, {selector, pick});
  if (!route) return false;
  for (let i = 0; i < route.times; i++) await page.keyboard.press(route.key);
  // Should the computed order differ from the browser's, Tab on until there; a redraw may
  // have replaced the element meanwhile by its like (the same data-testid).
  const there = () => page.evaluate((testid) => {
    const el = document.activeElement;
    if (el && (testid ? el.dataset.testid === testid : el.hasAttribute('data-focus-target'))) return 'yes';
    return (testid ? document.querySelector(`[data-testid="${testid}"]`) : document.querySelector('[data-focus-target]')) ? 'no' : 'gone';
  }, route.testid);
  for (let i = 0; i < 120; i++) {
    const where = await there();
    if (where === 'yes') break;
    if (where === 'gone') return false;
    await page.keyboard.press('Tab');
  }
  // Each kind of control once: its focus is seen.
  const kind = (route.testid || selector).split('-').slice(0, 2).join('-');
  if (!focusSeen.has(kind)) {
    focusSeen.add(kind);
    await focusIsVisible(page);
  }
  return true;
}
const focusSeen = new Set();

// The focused element shows it: an outline, or for an area of the map its border in the
// focus colour.
async function focusIsVisible(page) {
  const how = await page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'nothing has focus';
    if (el instanceof SVGElement) {
      const shape = el.querySelector('.region-shape');
      const focus = getComputedStyle(document.documentElement).getPropertyValue('--focus').trim();
      const probe = document.createElement('span');
      probe.style.color = focus;
      document.body.append(probe);
      const rgb = (text) => (text.match(/\d+/g) || []).slice(0, 3).map(Number);
      const wanted = rgb(getComputedStyle(probe).color);
      probe.remove();
      // Near the colour: a flash of the area may still be fading into it.
      const stroke = rgb(getComputedStyle(shape).stroke);
      const near = stroke.length === 3 && stroke.every((c, i) => Math.abs(c - wanted[i]) <= 12);
      return near ? null : `the area ${el.dataset.area} shows no focus (${getComputedStyle(shape).stroke})`;
    }
    const style = getComputedStyle(el);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 ? null
      : `${el.tagName.toLowerCase()}[data-testid=${el.dataset.testid}] shows no focus outline`;
  });
  assert.equal(how, null, how);
}

async function focused(page) {
  return page.evaluate(() => document.activeElement && document.activeElement.dataset.testid);
}

async function key(page, name) {
  await page.keyboard.press(name);
}

// Focus on the control, then Enter.
async function activate(page, selector, options) {
  if (!(await focusOn(page, selector, options))) return false;
  await key(page, 'Enter');
  return true;
}

// A select's value, moved by the arrow key until it is not the empty "— choose —".
async function arrowSelect(page, testid) {
  const selector = inPanel(`[data-testid=${testid}]`);
  if (!(await page.locator(selector).count()) || !(await page.locator(selector).isEnabled())) return false;
  await focusOn(page, selector);
  for (let i = 0; i < 1 + below(3); i++) await key(page, 'ArrowDown');
  return (await page.locator(selector).inputValue()) !== '';
}

const enabled = (testid) => inPanel(`[data-testid${testid}]:enabled`);

// A choice among the enabled controls, made with keys only; resolves once it is sent.
async function keyboardChoice(page, decision) {
  switch (decision.kind) {
    case 'power_card':
      assert.ok(await activate(page, '[data-testid^="power-card-"]:enabled', {pick: true}), 'a power card by keyboard');
      // A choice made by keyboard takes focus to the button that sends it.
      assert.equal(await focused(page), 'submit-play', 'Enter on a card goes on to "Play"');
      await key(page, 'Enter');
      return 'power card';
    case 'take_caballeros':
      if (chance(0.5)) await activate(page, enabled('^="inc-take-"'), {pick: true});
      assert.ok(await activate(page, enabled('=submit-take')));
      return 'take caballeros';
    case 'action_card':
      assert.ok(await activate(page, '[data-testid^="offer-card-"]:enabled', {pick: true}), 'an action card by keyboard');
      assert.equal(await focused(page), 'submit-card', 'Enter on a card goes on to "Take"');
      await key(page, 'Enter');
      return 'action card';
    case 'use_action_card': {
      const canPlace = await page.locator(enabled('=part-place')).count();
      const canAct = await page.locator(enabled('=part-special')).count();
      if (canPlace && (!canAct || chance(0.5))) {
        await activate(page, enabled('=part-place'));
        // Areas of the map by keyboard: Enter or Space adds a caballero, which the area's
        // badge shows. The first area offered must be reachable by Tab.
        const offered = await page.locator('[data-testid^="map-area-"][data-clickable="true"]').count();
        for (let i = 0, times = 1 + below(3); i < times; i++) {
          const reached = await focusOn(page, '[data-testid^="map-area-"][data-clickable="true"]', {pick: true});
          if (offered && i === 0) assert.ok(reached, 'an area the placement offers is reached by Tab');
          if (!reached) break;
          const area = await page.evaluate(() => document.activeElement.dataset.area);
          await key(page, chance(0.5) ? 'Enter' : 'Space');
          await page.waitForSelector(`[data-testid=badge-${area}]`, {timeout: 2000});
        }
        assert.ok(await activate(page, enabled('=submit-place')));
        return 'placement';
      }
      await activate(page, enabled('=part-special'));
      return `special action ${await specialByKeyboard(page)}`;
    }
    case 'veto':
      await activate(page, enabled(chance(0.3) ? '=submit-veto-yes' : '=submit-veto-no'));
      return 'veto';
    case 'return_caballeros':
      for (let i = 0; i < 40 && !(await page.locator(enabled('=submit-return')).count()); i++) {
        assert.ok(await activate(page, enabled('^="inc-return-"'), {pick: true}), 'cannot complete the return');
      }
      await activate(page, enabled('=submit-return'));
      return 'return caballeros';
    case 'disk':
      // The region from the panel's buttons, or from the map.
      if (chance(0.5)) await activate(page, enabled('^="choice-disk-"'), {pick: true});
      else await activate(page, '[data-testid^="map-area-"][data-clickable="true"]', {pick: true});
      assert.ok(await activate(page, enabled('=submit-disk')));
      return 'secret disk';
    default:
      throw new Error(`unknown decision kind ${decision.kind}`);
  }
}

async function specialByKeyboard(page) {
  const special = await page.getAttribute(inPanel('[data-part=special]'), 'data-special');
  if (await page.locator(inPanel('[data-testid=move-colour]')).count()) {
    // A move: whose, from, to by the arrow keys, then "Add this move".
    if (await arrowSelect(page, 'move-colour') && await arrowSelect(page, 'move-from') && await arrowSelect(page, 'move-to')) {
      await activate(page, enabled('=add-move'));
    }
  } else {
    for (const group of ['^="choice-board-"', '^="choice-target-"', '^="choice-takeback-"', '=choice-mode-place']) {
      await activate(page, enabled(group), {pick: true});
    }
    for (const select of await page.locator(inPanel('[data-testid^="select-remove-"]')).all()) {
      await arrowSelect(page, await select.getAttribute('data-testid'));
    }
    if (special === 'court') await activate(page, enabled('^="inc-court-"'), {pick: true});
    if (special === 'place_two_anywhere') await activate(page, enabled('^="inc-extra-"'), {pick: true});
  }
  if (!(await activate(page, enabled('=submit-special')))) await activate(page, enabled('=skip-special'));
  return special;
}

// What a screen reader is given: the map's ten areas named by what lies there, and news
// said politely by one status region, ending with the decision that is mine.
async function readerHears(page) {
  const map = page.getByRole('group', {name: 'Map of Spain'});
  const areas = map.getByRole('img').or(map.getByRole('button'));
  assert.equal(await areas.count(), 10, 'the map reads as ten areas');
  const names = await areas.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
  assert.ok(names.every((name) => /\. Values \d+\/\d+(\/\d+)?\./.test(name)), `each area says its values: ${names[0]}`);
  assert.ok(names.some((name) => /Caballeros: [^.()]+ \(\w+\) \d+/.test(name)), `the areas with caballeros say whose and how many: ${names.join(' | ')}`);
  const announcer = page.locator('[data-testid=announcer]');
  assert.equal(await announcer.getAttribute('aria-live'), 'polite');
  assert.equal(await announcer.getAttribute('role'), 'status');
  assert.match(await announcer.textContent(), /Your turn: [a-z ]+\.$/, 'the decision is announced');
  say(`keyboard: a reader hears "${names[0]}" and "${await announcer.textContent()}"`);
}

// Headless Chromium keeps every page visible and focused; this stands in for a tab left in
// the background: document.visibilityState, document.hidden and hasFocus() follow
// window.inBackground(yes), which also fires visibilitychange. Notifications and chimes are
// counted on their way out.
function emulateBackgroundAndCountSignals() {
  let away = false;
  const hasFocus = Document.prototype.hasFocus;
  Object.defineProperty(Document.prototype, 'visibilityState', {configurable: true, get: () => (away ? 'hidden' : 'visible')});
  Object.defineProperty(Document.prototype, 'hidden', {configurable: true, get: () => away});
  Document.prototype.hasFocus = function hasFocusUnlessAway() {
    return !away && hasFocus.call(this);
  };
  window.inBackground = (yes) => {
    away = yes;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  window.signals = {notifications: [], chimes: 0, tones: 0};
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function countedNotification(title, options) {
    window.signals.notifications.push({title, tag: options && options.tag, url: options && options.data && options.data.url});
    return show.call(this, title, options);
  };
  const Shown = window.Notification;
  window.Notification = class CountedNotification extends Shown {
    constructor(title, options) {
      super(title, options);
      window.signals.notifications.push({title, tag: options && options.tag, url: options && options.data && options.data.url});
    }
  };
  const resume = AudioContext.prototype.resume;
  AudioContext.prototype.resume = function countedChime() {
    window.signals.chimes++;  // the chime's first step, taken at once when the turn comes
    return resume.call(this);
  };
  const oscillator = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function countedOscillator() {
    window.signals.tones++;
    return oscillator.call(this);
  };
}

async function keyboardGame(browser, url) {
  const context = await browser.newContext({viewport: {width: 1366, height: 768}, colorScheme: 'light'});
  await context.grantPermissions(['notifications'], {origin: new URL(url).origin});
  await context.addInitScript(emulateBackgroundAndCountSignals);
  const page = await context.newPage();
  watch(page, 'keyboard');
  await page.goto(url);
  // The welcome screen puts focus on the name.
  await page.waitForSelector('[data-testid=name-input]');
  assert.equal(await focused(page), 'name-input');
  await page.keyboard.type('Kim');
  await key(page, 'Enter');
  await page.waitForSelector('[data-testid=lobby] [data-testid=history-empty]');

  // Notifications, asked for by a button on the account page ("On this device").
  await activate(page, '[data-testid=nav-account]');
  await page.waitForSelector('[data-testid=device-settings]');
  await activate(page, '[data-testid=device-alerts-notify-on]');
  await page.waitForSelector('[data-testid=device-alerts-notify-off]');
  await activate(page, '[data-testid=nav-lobby]');
  await page.waitForSelector('[data-testid=lobby]');

  // The create form: 2 players by the arrow key in the radio group, a short game by Space.
  await focusOn(page, '[data-testid^="opt-players-"][aria-checked=true]');
  await key(page, 'ArrowLeft');
  assert.equal(await focused(page), 'opt-players-2', 'the arrow key moves the choice and the focus');
  assert.equal(await page.getAttribute('[data-testid=opt-players-2]', 'aria-checked'), 'true');
  await focusOn(page, '[data-testid=opt-short]');
  if (!(await page.isChecked('[data-testid=opt-short]'))) await key(page, 'Space');
  assert.ok(await page.isChecked('[data-testid=opt-short]'), 'a short game');
  await activate(page, '[data-testid=create-table]');
  await page.waitForSelector('[data-testid=waiting-room]');
  await activate(page, '[data-testid=add-bot-1]');
  await page.waitForSelector('[data-testid=start-game]:enabled');
  await activate(page, '[data-testid=start-game]');
  await page.waitForSelector('[data-testid=game-screen]');
  const tableName = await page.textContent('[data-testid=table-name]');
  say(`keyboard: table "${tableName}" started by keys alone`);

  let decisions = 0;
  let signalled = false;
  let away = false;
  const kinds = new Set();
  for (;;) {
    checkProblems();
    const decision = await nextDecision(page);
    if (decision.kind === 'over') break;
    // A chime begun says that the bot made it my turn while the page was in the background
    // (a decision that follows my own comes with no signal); the notification and the tones
    // come moments after the decision is drawn.
    if (away && (await page.evaluate(() => window.signals.chimes)) > 0) {
      await page.waitForFunction(() => window.signals.notifications.length > 0 && window.signals.tones >= 2, null, {timeout: 10_000})
        .catch(() => {});
      const signals = await page.evaluate(() => window.signals);
      assert.match(await page.title(), /^● Your turn — /, 'the title says it is my turn');
      assert.equal(await page.getAttribute('link[rel=icon]', 'href'), 'img/favicon-turn.svg', 'the icon says so');
      assert.equal(signals.notifications.length, 1, 'one notification');
      const note = signals.notifications[0];
      assert.equal(note.title, `Your turn: ${tableName}`);
      assert.match(note.url, /^#\/table\/\d+$/);
      assert.ok(signals.tones >= 2, 'the chime sounded');
      say(`keyboard: in the background, the turn came with "${note.title}" and a chime`);
      signalled = true;
      away = false;
      await page.evaluate(() => window.inBackground(false));
    }
    if (decisions === 1) await readerHears(page);
    if (!signalled && !away && decisions >= 3 && decision.kind !== 'veto') {
      // Turns that came while the page was in sight signalled nothing but the title.
      assert.deepEqual(await page.evaluate(() => window.signals), {notifications: [], chimes: 0, tones: 0}, 'no signal while in sight');
      away = true;
      await page.evaluate(() => window.inBackground(true));
    }
    const what = await keyboardChoice(page, decision);
    kinds.add(what.replace(/^special action .*/, 'special action'));
    await settled(page, decision.key, what).catch((err) => {
      if (decision.kind !== 'veto') throw err;  // another holder may close the window first
    });
    decisions++;
  }
  assert.ok(signalled, 'the turn signal came while the page was in the background');
  const signals = await page.evaluate(() => window.signals);
  assert.deepEqual([signals.notifications.length, signals.chimes], [1, 1], 'back in sight, the turns that came signalled nothing more');
  await page.waitForSelector('[data-testid=final-scores]');
  await shot(page, 'access-keyboard-final');
  assert.ok(kinds.has('power card') && kinds.has('action card'), `decisions by keyboard: ${[...kinds].join(', ')}`);
  // Back in the foreground, the title follows the screen again.
  assert.doesNotMatch(await page.title(), /Your turn/);
  await serviceWorkerKeepsTheShell(page);
  say(`keyboard: ${decisions} decisions to the end by keys alone (${[...kinds].join(', ')})`);
  await context.close();
}

// The installable client: the manifest, and a service worker whose cache holds the static
// shell and nothing of the game's live traffic.
async function serviceWorkerKeepsTheShell(page) {
  const state = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const keys = await caches.keys();
    const cached = [];
    for (const name of keys) for (const request of await (await caches.open(name)).keys()) cached.push(new URL(request.url).pathname);
    const manifest = await (await fetch(document.querySelector('link[rel=manifest]').href)).json();
    return {active: Boolean(registration.active), scope: registration.scope, keys, cached, manifest: manifest.name, icons: manifest.icons.length};
  });
  assert.ok(state.active, 'the service worker is active');
  assert.deepEqual(state.keys.filter((k) => k.startsWith('elgrande-shell-')).length, 1, 'one versioned cache');
  for (const path of ['/index.html', '/css/main.css', '/js/main.js', '/js/games/elgrande/game.js', '/manifest.json', '/img/favicon.svg']) {
    assert.ok(state.cached.includes(path), `the shell's ${path} is cached`);
  }
  assert.deepEqual(state.cached.filter((p) => p.startsWith('/api') || p.startsWith('/ws')), [], 'nothing live is cached');
  assert.equal(state.manifest, 'El Grande');
  say(`service worker at ${state.scope}: ${state.cached.length} files of the shell cached`);
}

async function main() {
  const url = await startServer();
  say(`server at ${url}`);
  const browser = await launchBrowser();
  await phoneGame(browser, url);
  checkProblems();
  await keyboardGame(browser, url);
  checkProblems();
}

await runTest(main, OVERALL_TIMEOUT_MS);
