// The pure side of the decision panel (decisions.js): counts, the special actions' kinds, the
// badges on the map, what others are waiting for, and the planning of a special action's
// moves within the card's limits. No DOM here.

import {PURPOSES, REGIONS, card} from './texts.js';

export const sum = (obj) => Object.values(obj || {}).reduce((a, b) => a + b, 0);
export const nonZero = (obj) => Object.fromEntries(Object.entries(obj).filter(([, n]) => n > 0));
// A decision's per-colour counts ([{colour, regions}], absent: none) as {colour: {region: n}}.
export const byColour = (list) => Object.fromEntries((list || []).map(({colour, regions}) => [colour, regions]));

export const MOVE_KINDS = new Set([
  'move_all_own_from_region', 'move_five_from_region', 'move_three_opposing', 'move_three_any',
  'move_two_own_two_opposing', 'move_four_own', 'move_four_any',
]);
export const TARGET_KINDS = {
  score_chosen_region: {verb: 'Score', command: (area) => ({type: 'score_area', area})},
  royal_advisor: {verb: 'Move the king to', command: (to) => ({type: 'move_king', to})},
  king: {verb: 'Move the king to', command: (to) => ({type: 'move_king', to})},
  eviction: {verb: 'Evict from', command: (region) => ({type: 'evict', region})},
  grande: {verb: 'Move your grande to', command: (to) => ({type: 'move_grande', to})},
};

// A draft's counts per area as the map's badges: {castile: 2} → {castile: "+2"}.
export function badgesOf(counts, sign) {
  const out = {};
  for (const [area, n] of Object.entries(counts || {})) if (n > 0) out[area] = `${sign}${n}`;
  return out;
}

// What the players the game waits for are to do, for "Waiting for Ana to …".
export function waitWords(view) {
  switch (view.phase) {
    case 'power_cards': return 'play a power card';
    case 'take_caballeros': return 'take caballeros';
    case 'choose_action_card': return 'choose an action card';
    case 'use_action_card': return view.card !== undefined ? `use “${card(view.card).title}”` : 'use an action card';
    case 'veto_window': return 'decide whether to veto';
    case 'returning': return 'return caballeros to the angry king';
    case 'disk_setting': return `set a secret disk (${PURPOSES[view.disk_purpose] || 'disks'})`;
    default: return 'decide';
  }
}

// --- a special action's moves ---------------------------------------------------------------

// The card's limits in words.
export function moveLimitText(limits) {
  return limits.all_own
    ? 'Any or all of your own caballeros, all out of one region.'
    : [`Up to ${limits.total} in all`,
      limits.own ? `${limits.own} of yours` : 'none of yours',
      limits.opposing ? `${limits.opposing} opposing` : 'no opposing ones',
      limits.single_source ? 'all out of one region' : null].filter(Boolean).join(', ') + '.';
}

// What the next move may be, given the moves `planned` so far (d: the decision's constraints,
// d.moves its limits): the colours that may still move, the regions the chosen colour may
// leave, where to, and how many. `form` (the move being built: colour, from, to, count) drops
// what is no longer possible and takes a default colour and count.
export function planMove(d, planned, form, mySeat) {
  const limits = d.moves;
  const moveTo = d.move_to || [];
  const movable = byColour(d.move_from);  // per colour, who may leave which region
  const leaving = (area, colour) => planned.filter((m) => m.from === area && m.colour === colour).reduce((a, m) => a + m.count, 0);
  const available = (area, colour) => ((movable[colour] || {})[area] || 0) - leaving(area, colour);
  const own = planned.filter((m) => m.colour === mySeat).reduce((a, m) => a + m.count, 0);
  const opposing = planned.filter((m) => m.colour !== mySeat).reduce((a, m) => a + m.count, 0);
  const totalLeft = limits.total - own - opposing;
  const colourLeft = (c) => Math.min(totalLeft, c === mySeat ? limits.own - own : limits.opposing - opposing);
  const fromAllowed = limits.single_source && planned.length ? [planned[0].from] : REGIONS;

  const colours = [];
  for (const {colour} of d.move_from || []) {
    if (colourLeft(colour) <= 0) continue;
    if (!fromAllowed.some((a) => available(a, colour) > 0)) continue;
    colours.push(colour);
  }
  if (form.colour === undefined || !colours.includes(form.colour)) {
    form.colour = colours.includes(mySeat) ? mySeat : colours[0];
    form.from = undefined;
    form.to = undefined;
  }
  const froms = form.colour === undefined ? [] : fromAllowed.filter((a) => available(a, form.colour) > 0);
  if (form.from !== undefined && !froms.includes(form.from)) form.from = undefined;
  const tos = form.from ? moveTo.filter((a) => a !== form.from) : [];
  if (form.to !== undefined && !tos.includes(form.to)) form.to = undefined;
  const maxCount = form.from ? Math.min(available(form.from, form.colour), colourLeft(form.colour)) : 0;
  // "Any or all" cards start at all of them; the others at one, the usual move.
  if (!form.count || form.count > maxCount) form.count = limits.all_own ? maxCount : Math.min(1, maxCount);
  return {colours, froms, tos, maxCount, available, moved: own + opposing};
}

// The move built in `form` joins the planned ones (one of the same colour, from and to grows).
export function addMove(planned, form) {
  const same = planned.find((m) => m.colour === form.colour && m.from === form.from && m.to === form.to);
  if (same) same.count += form.count;
  else planned.push({colour: form.colour, from: form.from, to: form.to, count: form.count});
}

// The planned moves' net effect on each area, as the map's badges: {castile: "−2", galicia: "+2"}.
export function netBadges(planned) {
  const net = {};
  for (const m of planned) {
    net[m.from] = (net[m.from] || 0) - m.count;
    net[m.to] = (net[m.to] || 0) + m.count;
  }
  const badges = {};
  for (const [area, n] of Object.entries(net)) if (n) badges[area] = n > 0 ? `+${n}` : `−${-n}`;
  return badges;
}
