// The pure side of the decision panel (decisions.js): counts, the special actions' kinds, the
// badges on the map, what others are waiting for, and the planning of a special action's
// moves within the card's limits. No DOM here; words come from the catalogs (elgrande.*).

import {REGIONS, card, purposeText} from './texts.js';
import {formatList, hasKey, t} from '../../i18n.js';

export const sum = (obj) => Object.values(obj || {}).reduce((a, b) => a + b, 0);
export const nonZero = (obj) => Object.fromEntries(Object.entries(obj).filter(([, n]) => n > 0));
// A decision's per-colour counts ([{colour, regions}], absent: none) as {colour: {region: n}}.
export const byColour = (list) => Object.fromEntries((list || []).map(({colour, regions}) => [colour, regions]));

export const MOVE_KINDS = new Set([
  'move_all_own_from_region', 'move_five_from_region', 'move_three_opposing', 'move_three_any',
  'move_two_own_two_opposing', 'move_four_own', 'move_four_any',
]);
// `words`: the keys elgrande.target.<words>.submit ("Score {area}") and .hint.
export const TARGET_KINDS = {
  score_chosen_region: {words: 'score', command: (area) => ({type: 'score_area', area})},
  royal_advisor: {words: 'king', command: (to) => ({type: 'move_king', to})},
  king: {words: 'king', command: (to) => ({type: 'move_king', to})},
  eviction: {words: 'evict', command: (region) => ({type: 'evict', region})},
  grande: {words: 'grande', command: (to) => ({type: 'move_grande', to})},
};

// A draft's counts per area as the map's badges: {castile: 2} → {castile: "+2"}.
export function badgesOf(counts, sign) {
  const out = {};
  for (const [area, n] of Object.entries(counts || {})) if (n > 0) out[area] = `${sign}${n}`;
  return out;
}

// "Waiting for Ana, Bea to play a power card.": whom the game waits for, and to do what.
export function waitText(view, names) {
  const who = formatList(names, 'unit');
  switch (view.phase) {
    case 'power_cards':
    case 'take_caballeros':
    case 'choose_action_card':
    case 'veto_window':
    case 'returning':
      return t(`elgrande.wait.${view.phase}`, {who});
    case 'use_action_card':
      return view.card !== undefined ? t('elgrande.wait.use_card', {who, card: card(view.card).title}) : t('elgrande.wait.use_action_card', {who});
    case 'disk_setting':
      return hasKey(`elgrande.purpose.${view.disk_purpose}`)
        ? t('elgrande.wait.disk_setting', {who, purpose: purposeText(view.disk_purpose)}) : t('elgrande.wait.disk_setting_any', {who});
    default: return t('elgrande.wait.decide', {who});
  }
}

// --- a special action's moves ---------------------------------------------------------------

// The card's limits in words.
export function moveLimitText(limits) {
  return limits.all_own
    ? t('elgrande.limits.all_own')
    : t('elgrande.limits', {total: limits.total, own: limits.own || 0, opposing: limits.opposing || 0, single: limits.single_source ? 'yes' : 'no'});
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
