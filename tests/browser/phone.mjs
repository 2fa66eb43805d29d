// What a person on a phone (390×844, touch) would notice, measured: the decision's answer in
// reach without a scroll when the turn comes, a placement tapped on the map with the button
// that sends it on screen at once, and labels that sit in their buttons on one line.
// Used by access.test.mjs and tournaments.test.mjs.

import assert from 'node:assert/strict';
import {inPanel, say} from './support.mjs';

// Where the element is on screen, and whether a finger put on its centre would land on it
// (nothing drawn over it), without scrolling.
function reach(selector) {
  const el = document.querySelector(selector);
  if (!el) return {missing: true};
  const box = el.getBoundingClientRect();
  const onScreen = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {onScreen, hit: Boolean(hit && (hit === el || el.contains(hit))), top: Math.round(box.top), bottom: Math.round(box.bottom), height: innerHeight};
}

// The turn as it comes, the game screen seen from its top: the first button that answers the
// decision is on screen and free to tap, and nothing was scrolled to reach it.
export async function answerInReach(page, decision) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const at = await page.evaluate(reach, inPanel('button.submit'));
  assert.ok(!at.missing, `${decision.kind}: the panel has a button that answers`);
  assert.ok(at.onScreen && at.hit, `${decision.kind}: the answer's button is in reach without scrolling (${at.top}..${at.bottom} of ${at.height} px, ${at.hit ? 'free' : 'covered'})`);
}

// During a placement: an area the placement offers is tapped where it shows, at the top of
// the screen, and its +1 appears, while the button that sends the placement is in reach too;
// the page never scrolled. Returns the area.
export async function placeByTapWithoutScrolling(page) {
  const tab = page.locator(inPanel('[data-testid=part-place]'));
  if ((await tab.getAttribute('aria-pressed')) !== 'true') await tab.tap();
  await page.evaluate(() => window.scrollTo(0, 0));
  // A point of each area offered that a finger would hit (its shape is not its box).
  const spot = await page.evaluate(() => {
    for (const area of document.querySelectorAll('[data-testid^="map-area-"][data-clickable="true"]')) {
      const box = area.getBoundingClientRect();
      for (let i = 1; i < 8; i++) {
        for (let j = 1; j < 8; j++) {
          const x = box.left + (box.width * i) / 8;
          const y = box.top + (box.height * j) / 8;
          if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
          const hit = document.elementFromPoint(x, y);
          if (hit && hit.closest('[data-testid^="map-area-"]') === area) return {area: area.dataset.area, x, y};
        }
      }
    }
    return null;
  });
  assert.ok(spot, 'an area the placement offers shows on screen, free to tap, with the decision open');
  await page.touchscreen.tap(spot.x, spot.y);
  await page.waitForSelector(`[data-testid=badge-${spot.area}]`, {timeout: 2000});
  const send = await page.evaluate(reach, inPanel('[data-testid=submit-place]'));
  assert.ok(send.onScreen && send.hit, `the placement's button is in reach beside the map (${send.top}..${send.bottom} of ${send.height} px)`);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'placing by tapping the map needed no scroll');
  say(`phone: ${spot.area} tapped on the map, and "${await page.textContent(inPanel('[data-testid=submit-place]'))}" in reach, no scroll`);
  return spot.area;
}

// A button's label on one line, centred in it both ways (within 3 px): a tall button for a
// finger must not leave its words in a corner.
export async function labelSitsInItsButton(page, selector) {
  const fit = await page.locator(selector).evaluate((button) => {
    const range = document.createRange();
    range.selectNodeContents(button);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    const text = range.getBoundingClientRect();
    const box = button.getBoundingClientRect();
    return {
      lines: lines.size,
      dx: Math.round(Math.abs(text.left + text.width / 2 - (box.left + box.width / 2))),
      dy: Math.round(Math.abs(text.top + text.height / 2 - (box.top + box.height / 2))),
      label: button.textContent,
    };
  });
  assert.equal(fit.lines, 1, `“${fit.label}” is on one line, not ${fit.lines}`);
  assert.ok(fit.dx <= 3 && fit.dy <= 3, `“${fit.label}” sits in the middle of its button (off by ${fit.dx}, ${fit.dy} px)`);
}

// Every option of every select on screen fits in it: a select cannot wrap, so a longer
// text would be cut off. Measured with the select's own font; the arrow takes about 20 px.
export async function selectsShowTheirText(page, screen) {
  const cut = await page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d');
    const found = [];
    for (const select of document.querySelectorAll('select')) {
      if (!select.getClientRects().length) continue;
      const style = getComputedStyle(select);
      context.font = style.font;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      for (const option of select.options) {
        const width = context.measureText(option.text).width;
        if (width > room) found.push(`${select.dataset.testid || select.name || select.id}: “${option.text}” needs ${Math.ceil(width)} px of ${Math.floor(room)}`);
      }
    }
    return found;
  });
  assert.deepEqual(cut, [], `${screen} at ${page.viewportSize().width} px: every select shows its options whole`);
}
