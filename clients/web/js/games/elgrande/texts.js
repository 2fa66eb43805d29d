// El Grande's words: names of areas, action cards, the event log in sentences, phases,
// decisions and ladders. Ids are the protocol's (docs/protocol-codecs.md); texts follow
// shared/spec/el-grande-rules.md. Pure: Node's tests import it.

export const REGIONS = [
  'galicia', 'pais_vasco', 'aragon', 'cataluna', 'castilla_vieja', 'castilla_nueva',
  'valencia', 'sevilla', 'granada',
];

export const AREA_NAMES = {
  galicia: 'Galicia',
  pais_vasco: 'País Vasco',
  aragon: 'Aragón',
  cataluna: 'Cataluña',
  castilla_vieja: 'Castilla la Vieja',
  castilla_nueva: 'Castilla la Nueva',
  valencia: 'Valencia',
  sevilla: 'Sevilla',
  granada: 'Granada',
  castillo: 'the castillo',
};

// Printed values for 1st / 2nd / 3rd place.
export const PRINTED_VALUES = {
  galicia: [4, 2, 0],
  pais_vasco: [5, 3, 1],
  aragon: [5, 4, 1],
  cataluna: [4, 2, 1],
  castilla_vieja: [6, 4, 2],
  castilla_nueva: [7, 4, 2],
  valencia: [5, 3, 2],
  sevilla: [4, 3, 1],
  granada: [6, 3, 1],
  castillo: [5, 3, 1],
};

export const NEIGHBOURS = {
  galicia: ['castilla_vieja', 'pais_vasco'],
  pais_vasco: ['galicia', 'castilla_vieja', 'aragon'],
  aragon: ['pais_vasco', 'castilla_vieja', 'castilla_nueva', 'cataluna', 'valencia'],
  cataluna: ['aragon', 'valencia'],
  castilla_vieja: ['galicia', 'pais_vasco', 'aragon', 'castilla_nueva'],
  castilla_nueva: ['castilla_vieja', 'aragon', 'valencia', 'granada', 'sevilla'],
  valencia: ['aragon', 'cataluna', 'castilla_nueva', 'granada'],
  sevilla: ['castilla_nueva', 'granada'],
  granada: ['sevilla', 'castilla_nueva', 'valencia'],
};

export const SCOREBOARDS = {
  eight_four_zero: {name: 'the 8-4-0 scoreboard', short: '8·4·0', values: [8, 4, 0]},
  four_zero_zero: {name: 'the 4-0-0 scoreboard', short: '4·0·0', values: [4, 0, 0]},
};

export function areaName(area) {
  return AREA_NAMES[area] || area;
}

// Capitalised at the start of a sentence ("The castillo ...").
export function AreaName(area) {
  const n = areaName(area);
  return n.charAt(0).toUpperCase() + n.slice(1);
}

// The values an area scores with now: a mobile scoreboard replaces the printed ones.
export function currentValues(view, area) {
  for (const [board, at] of Object.entries(view.scoreboards || {})) {
    if (at === area) return SCOREBOARDS[board].values;
  }
  return PRINTED_VALUES[area];
}

// --- Action cards ---------------------------------------------------------------------

export const CARD_KINDS = {
  move_all_own_from_region: {title: 'Retreat', text: 'Move any or all of your caballeros out of one region, to other regions and/or the castillo.'},
  place_two_anywhere: {title: 'Reinforcements', text: 'Place up to 2 more caballeros from your court into any regions (not the king’s) and/or the castillo.'},
  place_two_or_move_all_own: {title: 'Reinforce or retreat', text: 'Either place up to 2 more caballeros anywhere, or move any or all of your caballeros out of one region.'},
  move_five_from_region: {title: 'Exodus', text: 'Move up to 5 caballeros of any colours out of one region.'},
  move_three_opposing: {title: 'Intrigue', text: 'Move up to 3 opposing caballeros.'},
  move_three_any: {title: 'Manoeuvre', text: 'Move up to 3 caballeros of any colours.'},
  move_two_own_two_opposing: {title: 'Plot', text: 'Move up to 2 of your caballeros and up to 2 opposing caballeros.'},
  move_four_own: {title: 'March', text: 'Move up to 4 of your caballeros.'},
  move_four_any: {title: 'Upheaval', text: 'Move up to 4 caballeros of any colours.'},
  veto: {title: 'Veto', text: 'Lay it before you: once, this round or the next, cancel another player’s special action when it is announced.'},
  decay_all_court: {title: 'Decay', text: 'Each opponent returns all caballeros in their court to their province.'},
  decay_three_court: {title: 'Minor decay', text: 'Each opponent returns 3 caballeros from their court to their province.'},
  angry_king: {title: 'The angry king', text: 'Each opponent in turn returns 3 caballeros of their choice from their court and/or regions to their province.'},
  remove_one_each: {title: 'Purge', text: 'Choose 1 caballero of each opponent in a region; each goes back to its province.'},
  disk_return_two: {title: 'Bad harvest', text: 'Each opponent secretly picks a region where they have caballeros and returns 2 from it to their province.'},
  disk_return_all: {title: 'Plague', text: 'Each opponent secretly picks a region where they have caballeros and returns all of them to their province.'},
  score_chosen_region: {title: 'Special scoring', text: 'Score one region of your choice now (the king’s region or the castillo too).'},
  score_fours: {title: 'Score the 4s', text: 'Score every region now worth 4 points for 1st place.'},
  score_fives: {title: 'Score the 5s', text: 'Score every region now worth 5 points for 1st place.'},
  score_six_seven: {title: 'Score the 6s and 7s', text: 'Score every region now worth 6 or 7 points for 1st place.'},
  score_castillo: {title: 'Castillo scoring', text: 'Score the castillo; its caballeros stay inside.'},
  score_most: {title: 'Score the crowded', text: 'Score the region(s) holding the most caballeros.'},
  score_fewest: {title: 'Score the sparse', text: 'Score the non-empty region(s) holding the fewest caballeros.'},
  score_first_only: {title: 'First places', text: 'Score every region, 1st place only; a tie for 1st scores nothing there.'},
  scoreboard: {title: 'Mobile scoreboard', text: 'Put a mobile scoreboard (8-4-0 or 4-0-0) on a region or the castillo, or move one already in play.'},
  royal_advisor: {title: 'Royal advisor', text: 'Move the king to a region next to it.'},
  eviction: {title: 'Eviction', text: 'Choose a region: each opponent there secretly picks another region, and all their caballeros move to it.'},
  grande: {title: 'Grande', text: 'Move your grande to another region (never out of or into the king’s region).'},
  power_cards: {title: 'Power cards', text: 'Take one of your played power cards back into your hand.'},
  court: {title: 'Court', text: 'Move up to 2 caballeros from your province to your court.'},
  secret_scoring: {title: 'Secret scoring', text: 'Everyone secretly picks a region; each region picked by exactly one player is scored.'},
  king: {title: 'The King', text: 'Move the king to any other region.'},
};

// The classic deck in id order (docs/protocol-codecs.md: deck_json()), built as the engine
// builds it: kinds in order, copies adjacent, one more score_chosen_region in stack 3.
const DECK_KINDS = [
  ['move_all_own_from_region', 1, 1], ['place_two_anywhere', 1, 1], ['place_two_or_move_all_own', 1, 1],
  ['move_five_from_region', 1, 2], ['move_three_opposing', 1, 1], ['move_three_any', 1, 1],
  ['move_two_own_two_opposing', 1, 2], ['move_four_own', 1, 1], ['move_four_any', 1, 1],
  ['veto', 2, 2], ['decay_all_court', 2, 1], ['decay_three_court', 2, 1], ['angry_king', 2, 1],
  ['remove_one_each', 2, 1], ['disk_return_two', 2, 1], ['disk_return_all', 2, 1],
  ['score_chosen_region', 2, 3], ['score_fours', 3, 2], ['score_fives', 3, 2], ['score_six_seven', 3, 1],
  ['score_castillo', 3, 2], ['score_most', 3, 1], ['score_fewest', 3, 1], ['score_first_only', 3, 1],
  ['scoreboard', 4, 3], ['royal_advisor', 4, 1], ['eviction', 4, 1], ['grande', 4, 2],
  ['power_cards', 4, 2], ['court', 4, 1], ['secret_scoring', 4, 1], ['king', 5, 1],
];
export const DECK = (() => {
  const deck = [];
  for (const [kind, stack, copies] of DECK_KINDS) {
    for (let i = 0; i < copies; i++) deck.push({id: deck.length, stack, kind});
    if (kind === 'score_chosen_region') deck.push({id: deck.length, stack: 3, kind});
  }
  return deck;
})();

export function card(id) {
  const c = DECK[id];
  return {...c, ...CARD_KINDS[c.kind]};
}

// Caballeros a power card lets its player take into the court.
export const GRANTED = [0, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0];

// A colour in sentences: its seat's name, or the automa's (the colour after the players').
export function colourName(colour, names, options) {
  if (options && options.automa && colour === options.players) return 'the automa';
  return names[colour] ?? `Colour ${colour + 1}`;
}

// --- Sentences ----------------------------------------------------------------------------

function list(items) {
  if (items.length === 0) return 'nothing';
  if (items.length === 1) return items[0];
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function counts(areaCounts) {
  return Object.entries(areaCounts || {}).map(([area, n]) => `${n} in ${areaName(area)}`);
}

function caballeros(n) {
  return n === 1 ? '1 caballero' : `${n} caballeros`;
}

export const PURPOSES = {
  general_scoring: 'the general scoring (where castillo caballeros go)',
  disk_return_two: 'Bad harvest (lose 2 caballeros)',
  disk_return_all: 'Plague (lose all caballeros in one region)',
  eviction: 'the eviction',
  secret_scoring: 'the secret scoring',
};

// A special action as announced (also shown to veto holders).
export function describeAction(command, ctx) {
  const {names, options, seat} = ctx;
  switch (command.type) {
    case 'perform_special_action': return 'carry out the card';
    case 'move_caballeros':
      if (!command.moves.length) return 'move no caballeros';
      return 'move ' + list(command.moves.map((m) =>
        `${caballeros(m.count)} of ${colourName(m.colour, names, options)} from ${areaName(m.from)} to ${areaName(m.to)}`));
    case 'place_extra_caballeros': {
      const placed = counts(command.to);
      return placed.length ? `place ${list(placed)}` : 'place no caballeros';
    }
    case 'score_area': return `score ${areaName(command.area)}`;
    case 'remove_caballeros':
      return command.picks.length
        ? 'remove ' + list(command.picks.map((p) => `one of ${colourName(p.colour, names, options)} from ${areaName(p.region)}`))
        : 'remove no caballeros';
    case 'place_scoreboard': return `put ${SCOREBOARDS[command.board].name} on ${areaName(command.to)}`;
    case 'move_king': return `move the king to ${areaName(command.to)}`;
    case 'evict': return `evict everyone from ${areaName(command.region)}`;
    case 'move_grande': return `move ${seat !== undefined ? 'their' : 'the'} grande to ${areaName(command.to)}`;
    case 'take_back_power_card':
      return command.value ? `take power card ${command.value} back` : 'take a played power card back';
    case 'take_caballeros': {
      const n = command.from_province + Object.values(command.from_regions || {}).reduce((a, b) => a + b, 0);
      return `take ${caballeros(n)} into the court`;
    }
    default: return command.type.replaceAll('_', ' ');
  }
}

// One event of the log (docs/protocol-codecs.md, Events) as a sentence, or null to leave it out.
export function describeEvent(e, ctx) {
  const {names, options} = ctx;
  const who = (seat) => names[seat] ?? `Seat ${seat + 1}`;
  const col = (c) => colourName(c, names, options);
  switch (e.type) {
    case 'game_started':
      return `The game begins. The king is in ${areaName(e.king)}. Home regions: ` +
        list(e.homes.map((area, seat) => `${who(seat)} ${areaName(area)}`)) +
        `. ${who(e.first_player)} plays first.`;
    case 'round_started':
      return `Round ${e.round} begins. On offer: ${list(e.offered.map((id) => card(id).title))}.`;
    case 'automa_placed_caballeros':
      return `The automa placed ${caballeros(e.count)} in ${areaName(e.region)}.`;
    case 'automa_power_card_flipped':
      return `The automa flipped power card ${e.value}.`;
    case 'power_card_played':
      return `${who(e.seat)} played power card ${e.value}.`;
    case 'caballeros_taken': {
      const n = e.from_province + Object.values(e.from_regions || {}).reduce((a, b) => a + b, 0);
      if (n === 0) return `${who(e.seat)} took no caballeros into the court.`;
      const sources = [];
      if (e.from_province) sources.push(`${e.from_province} from the province`);
      sources.push(...Object.entries(e.from_regions || {}).map(([a, k]) => `${k} from ${areaName(a)}`));
      return `${who(e.seat)} took ${caballeros(n)} into the court (${list(sources)}).`;
    }
    case 'action_card_taken':
      return `${col(e.colour)} took the action card “${card(e.card).title}”.`;
    case 'caballeros_placed': {
      const placed = counts(e.to);
      return placed.length ? `${who(e.seat)} placed ${list(placed)}.` : `${who(e.seat)} placed no caballeros.`;
    }
    case 'special_action_announced':
      return `${who(e.seat)} announces “${card(e.card).title}”: ${describeAction(e.action, {...ctx, seat: e.seat})}.`;
    case 'special_action_vetoed':
      return `${who(e.by)} vetoed ${who(e.seat)}’s special action!`;
    case 'special_action_skipped':
      return `${who(e.seat)} skipped the special action.`;
    case 'caballeros_moved':
      return e.moves.length
        ? `${who(e.by)} moved ${list(e.moves.map((m) => `${caballeros(m.count)} of ${col(m.colour)} from ${areaName(m.from)} to ${areaName(m.to)}`))}.`
        : `${who(e.by)} moved no caballeros.`;
    case 'caballeros_returned': {
      const sources = [];
      if (e.from_court) sources.push(`${e.from_court} from the court`);
      sources.push(...Object.entries(e.from_regions || {}).map(([a, k]) => `${k} from ${areaName(a)}`));
      return `${col(e.colour)} returned ${list(sources)} to the province.`;
    }
    case 'caballeros_evicted':
      return `${caballeros(e.count)} of ${who(e.seat)} left ${areaName(e.from)} for ${e.to ? areaName(e.to) : 'the court'}.`;
    case 'scoreboard_placed':
      return e.from
        ? `${SCOREBOARDS[e.board].name[0].toUpperCase()}${SCOREBOARDS[e.board].name.slice(1)} moved from ${areaName(e.from)} to ${areaName(e.to)}.`
        : `${SCOREBOARDS[e.board].name[0].toUpperCase()}${SCOREBOARDS[e.board].name.slice(1)} now lies on ${areaName(e.to)}.`;
    case 'king_moved':
      return `The king moved from ${areaName(e.from)} to ${areaName(e.to)}.`;
    case 'grande_moved':
      return `${who(e.seat)}’s grande moved from ${areaName(e.from)} to ${areaName(e.to)}.`;
    case 'power_card_taken_back':
      return e.value ? `${who(e.seat)} took power card ${e.value} back into the hand.` : `${who(e.seat)} took a played power card back.`;
    case 'command_undone':
      return `${who(e.seat)} took back a step.`;
    case 'veto_laid':
      return `${who(e.seat)} laid a veto card.`;
    case 'veto_expired':
      return `${who(e.seat)}’s veto card expired.`;
    case 'disk_set':
      return e.region ? `${who(e.seat)} set the secret disk to ${areaName(e.region)}.` : `${who(e.seat)} set the secret disk.`;
    case 'disks_revealed': {
      const shown = (e.disks || []).map((area, seat) => (area ? `${who(seat)} ${areaName(area)}` : null)).filter(Boolean);
      return `Disks revealed for ${PURPOSES[e.purpose] || e.purpose}: ${list(shown)}.`;
    }
    case 'general_scoring_started':
      return `General scoring ${e.number} of 3 begins.`;
    case 'area_scored': {
      const got = (e.points || []).map((p, seat) => (p ? `${who(seat)} ${p}` : null)).filter(Boolean);
      const bonus = [];
      if (e.king_bonus !== undefined) bonus.push(`king bonus to ${who(e.king_bonus)}`);
      if (e.grande_bonus !== undefined) bonus.push(`grande bonus to ${who(e.grande_bonus)}`);
      if (!(e.caballeros || []).some((n) => n > 0)) return `${AreaName(e.area)} scored: nobody there.`;
      return `${AreaName(e.area)} scored: ${got.length ? list(got) : 'no points'}` +
        (bonus.length ? ` (${list(bonus)})` : '') + '.';
    }
    case 'castillo_emptied':
      return `${caballeros(e.count)} of ${col(e.colour)} left the castillo for ${e.to ? areaName(e.to) : 'the court'}.`;
    case 'round_ended':
      return `Round ${e.round} ends. ${who(e.first_player)} will play first.`;
    case 'game_ended': {
      const ranking = e.scores.map((score, seat) => ({score, seat})).sort((a, b) => b.score - a.score);
      return `The game is over! ${list(e.winners.map(who))} ${e.winners.length > 1 ? 'share the win' : 'wins'}. ` +
        `Scores: ${list(ranking.map((r) => `${who(r.seat)} ${r.score}`))}.`;
    }
    default:
      return e.type.replaceAll('_', ' ');
  }
}

// The areas an event changed, to point them out on the map.
export function touchedAreas(e) {
  const out = [];
  const keys = (counts) => Object.keys(counts || {});
  switch (e.type) {
    case 'caballeros_placed': out.push(...keys(e.to)); break;
    case 'caballeros_taken': out.push(...keys(e.from_regions)); break;
    case 'caballeros_returned': out.push(...keys(e.from_regions)); break;
    case 'caballeros_moved': for (const m of e.moves) out.push(m.from, m.to); break;
    case 'caballeros_evicted': out.push(e.from, e.to); break;
    case 'king_moved':
    case 'grande_moved':
    case 'scoreboard_placed': out.push(e.from, e.to); break;
    case 'area_scored': out.push(e.area); break;
    case 'castillo_emptied': out.push('castillo', e.to); break;
    case 'automa_placed_caballeros': out.push(e.region); break;
    default: break;
  }
  return out.filter(Boolean);
}

// Whether an event is about the viewer's own seat, to mark it in the log.
export function involves(e, seat) {
  if (seat === undefined || seat === null) return false;
  if (e.seat === seat || e.by === seat || e.colour === seat) return true;
  if (e.type === 'area_scored') return (e.points || [])[seat] > 0;
  return false;
}

// Events worth drawing the eye to in the log.
export function eventTone(e) {
  switch (e.type) {
    case 'area_scored':
    case 'general_scoring_started':
    case 'game_ended':
      return 'score';
    case 'round_started':
    case 'round_ended':
      return 'round';
    case 'special_action_vetoed':
    case 'king_moved':
      return 'alert';
    default:
      return '';
  }
}

export const PHASES = {
  power_cards: 'Power cards',
  take_caballeros: 'Taking caballeros',
  choose_action_card: 'Choosing action cards',
  use_action_card: 'Action cards',
  veto_window: 'Veto?',
  returning: 'The angry king',
  disk_setting: 'Secret disks',
  game_over: 'Game over',
};

export const DECISION_WORDS = {
  power_card: 'play a power card',
  take_caballeros: 'take caballeros',
  action_card: 'choose an action card',
  use_action_card: 'use an action card',
  veto: 'decide on a veto',
  return_caballeros: 'return caballeros',
  disk: 'set a secret disk',
};

// --- Ladders (docs/ratings.md) --------------------------------------------------------------

// Every kind of game has its own ladder: full games first, then the short game's.
export const LADDERS = ['2p', '3p', '4p', '5p', '2p-automa', '2p-short', '3p-short', '4p-short', '5p-short', '2p-automa-short'];

// "4p-short" → "4 players, short game"; "2p-automa" → "2 players with the automa".
export function ladderName(ladder) {
  const m = /^([2-5])p(-automa)?(-short)?$/.exec(ladder || '');
  if (!m) return ladder;
  return `${m[1]} players${m[2] ? ' with the automa' : ''}${m[3] ? ', short game' : ''}`;
}

// The ladder a game of these options counts on (four stacks share the 3-player ladder).
export function ladderOf(options) {
  return `${options.players}p${options.automa ? '-automa' : ''}${options.short_game ? '-short' : ''}`;
}
