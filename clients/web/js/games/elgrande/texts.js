// El Grande's words: names of areas, action cards, the event log in sentences, phases,
// decisions and ladders. Ids are the protocol's (docs/protocol-codecs.md); texts follow
// shared/spec/el-grande-rules.md. Every word is a key of the catalogs (elgrande.*), said when
// asked for, never at the top level. Pure: Node's tests import it.

import {formatList, hasKey, t} from '../../i18n.js';

export const REGIONS = [
  'galicia', 'pais_vasco', 'aragon', 'cataluna', 'castilla_vieja', 'castilla_nueva',
  'valencia', 'sevilla', 'granada',
];

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
  eight_four_zero: {short: '8·4·0', values: [8, 4, 0]},
  four_zero_zero: {short: '4·0·0', values: [4, 0, 0]},
};

// An area's name ("Aragón", "the castillo"); an unknown id as it is.
export function areaName(area) {
  return hasKey(`elgrande.area.${area}`) ? t(`elgrande.area.${area}`) : area;
}

// The name at the start of a sentence ("The castillo ...").
export function AreaName(area) {
  return hasKey(`elgrande.area_start.${area}`) ? t(`elgrande.area_start.${area}`) : areaName(area);
}

// The values an area scores with now: a mobile scoreboard replaces the printed ones.
export function currentValues(view, area) {
  for (const [board, at] of Object.entries(view.scoreboards || {})) {
    if (at === area) return SCOREBOARDS[board].values;
  }
  return PRINTED_VALUES[area];
}

// --- Action cards ---------------------------------------------------------------------

// An action card's title and text are the keys elgrande.card.<kind>.title and .text.

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
  return {...c, title: t(`elgrande.card.${c.kind}.title`), text: t(`elgrande.card.${c.kind}.text`)};
}

// Caballeros a power card lets its player take into the court.
export const GRANTED = [0, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0];

// A colour in sentences: its seat's name, or the automa's (the colour after the players').
export function colourName(colour, names, options) {
  if (options && options.automa && colour === options.players) return t('elgrande.the_automa');
  return names[colour] ?? t('elgrande.colour_n', {n: String(colour + 1)});
}

// --- Sentences ----------------------------------------------------------------------------

// Items in the language's list form ("a, b and c").
function list(items) {
  return items.length ? formatList(items) : t('elgrande.nothing');
}

function counts(areaCounts) {
  return Object.entries(areaCounts || {}).map(([area, n]) => t('elgrande.count_in', {n, area: areaName(area)}));
}

// "3 from the court", "2 from Aragón": where caballeros came from.
function sources(fromCourt, fromProvince, fromRegions) {
  const out = [];
  if (fromCourt) out.push(t('elgrande.from_court', {n: fromCourt}));
  if (fromProvince) out.push(t('elgrande.from_province', {n: fromProvince}));
  out.push(...Object.entries(fromRegions || {}).map(([a, n]) => t('elgrande.from_area', {n, area: areaName(a)})));
  return out;
}

function moveList(moves, col) {
  return list(moves.map((m) => t('elgrande.move_item', {n: m.count, colour: col(m.colour), from: areaName(m.from), to: areaName(m.to)})));
}

// What a set of secret disks is for, in words.
export function purposeText(purpose) {
  return hasKey(`elgrande.purpose.${purpose}`) ? t(`elgrande.purpose.${purpose}`) : purpose;
}

// A special action as announced (also shown to veto holders).
export function describeAction(command, ctx) {
  const {names, options, seat} = ctx;
  const col = (c) => colourName(c, names, options);
  switch (command.type) {
    case 'perform_special_action': return t('elgrande.action.perform');
    case 'move_caballeros':
      if (!command.moves.length) return t('elgrande.action.move_none');
      return t('elgrande.action.move', {moves: moveList(command.moves, col)});
    case 'place_extra_caballeros': {
      const placed = counts(command.to);
      return placed.length ? t('elgrande.action.place', {placed: list(placed)}) : t('elgrande.action.place_none');
    }
    case 'score_area': return t('elgrande.action.score', {area: areaName(command.area)});
    case 'remove_caballeros':
      return command.picks.length
        ? t('elgrande.action.remove', {picks: list(command.picks.map((p) => t('elgrande.remove_item', {colour: col(p.colour), area: areaName(p.region)})))})
        : t('elgrande.action.remove_none');
    case 'place_scoreboard': return t('elgrande.action.scoreboard', {board: command.board, area: areaName(command.to)});
    case 'move_king': return t('elgrande.action.king', {area: areaName(command.to)});
    case 'evict': return t('elgrande.action.evict', {area: areaName(command.region)});
    case 'move_grande': return t('elgrande.action.grande', {own: seat !== undefined ? 'yes' : 'no', area: areaName(command.to)});
    case 'take_back_power_card':
      return command.value ? t('elgrande.action.take_back', {value: String(command.value)}) : t('elgrande.action.take_back_any');
    case 'take_caballeros': {
      const n = command.from_province + Object.values(command.from_regions || {}).reduce((a, b) => a + b, 0);
      return t('elgrande.action.take', {n});
    }
    default: return command.type.replaceAll('_', ' ');
  }
}

// Any answer to a decision, as the bot's second opinion names it (docs/replays.md): a special
// action as announced, the rest in the words of the decision they answer.
export function describeCommand(command, ctx) {
  const caballeros = (court, regions) => court + Object.values(regions || {}).reduce((a, b) => a + b, 0);
  switch (command.type) {
    case 'play_power_card': return t('elgrande.command.power_card', {value: String(command.value)});
    case 'take_action_card': return t('elgrande.command.action_card', {card: card(command.card).title});
    case 'place_caballeros': {
      const placed = counts(command.to);
      return placed.length ? t('elgrande.action.place', {placed: list(placed)}) : t('elgrande.action.place_none');
    }
    case 'skip_special_action': return t('elgrande.command.skip');
    case 'answer_veto': return t(command.veto ? 'elgrande.command.veto' : 'elgrande.command.no_veto');
    case 'return_caballeros': return t('elgrande.command.return', {n: caballeros(command.from_court, command.from_regions)});
    case 'set_disk': return t('elgrande.command.disk', {area: areaName(command.region)});
    default: return describeAction(command, ctx);
  }
}

// One event of the log (docs/protocol-codecs.md, Events) as a sentence, or null to leave it out.
export function describeEvent(e, ctx) {
  const {names, options} = ctx;
  const who = (seat) => names[seat] ?? t('elgrande.seat_n', {n: String(seat + 1)});
  const col = (c) => colourName(c, names, options);
  const ev = (key, params) => t(`elgrande.event.${key}`, params);
  switch (e.type) {
    case 'game_started':
      return ev('game_started', {
        king: areaName(e.king), first: who(e.first_player),
        homes: list(e.homes.map((area, seat) => t('elgrande.who_area', {who: who(seat), area: areaName(area)}))),
      });
    case 'round_started':
      return ev('round_started', {round: e.round, cards: list(e.offered.map((id) => card(id).title))});
    case 'automa_placed_caballeros':
      return ev('automa_placed', {n: e.count, area: areaName(e.region)});
    case 'automa_power_card_flipped':
      return ev('automa_flipped', {value: String(e.value)});
    case 'power_card_played':
      return ev('power_card_played', {who: who(e.seat), value: String(e.value)});
    case 'caballeros_taken': {
      const n = e.from_province + Object.values(e.from_regions || {}).reduce((a, b) => a + b, 0);
      if (n === 0) return ev('taken_none', {who: who(e.seat)});
      return ev('taken', {who: who(e.seat), n, sources: list(sources(0, e.from_province, e.from_regions))});
    }
    case 'action_card_taken':
      return ev('action_card_taken', {who: col(e.colour), card: card(e.card).title});
    case 'caballeros_placed': {
      const placed = counts(e.to);
      return placed.length ? ev('placed', {who: who(e.seat), placed: list(placed)}) : ev('placed_none', {who: who(e.seat)});
    }
    case 'special_action_announced':
      return ev('announced', {who: who(e.seat), card: card(e.card).title, action: describeAction(e.action, {...ctx, seat: e.seat})});
    case 'special_action_vetoed':
      return ev('vetoed', {by: who(e.by), who: who(e.seat)});
    case 'special_action_skipped':
      return ev('skipped', {who: who(e.seat)});
    case 'caballeros_moved':
      return e.moves.length ? ev('moved', {who: who(e.by), moves: moveList(e.moves, col)}) : ev('moved_none', {who: who(e.by)});
    case 'caballeros_returned':
      return ev('returned', {who: col(e.colour), sources: list(sources(e.from_court, 0, e.from_regions))});
    case 'caballeros_evicted':
      return e.to
        ? ev('evicted', {n: e.count, who: who(e.seat), from: areaName(e.from), to: areaName(e.to)})
        : ev('evicted_to_court', {n: e.count, who: who(e.seat), from: areaName(e.from)});
    case 'scoreboard_placed':
      return e.from
        ? ev('scoreboard_moved', {board: e.board, from: areaName(e.from), to: areaName(e.to)})
        : ev('scoreboard_placed', {board: e.board, to: areaName(e.to)});
    case 'king_moved':
      return ev('king_moved', {from: areaName(e.from), to: areaName(e.to)});
    case 'grande_moved':
      return ev('grande_moved', {who: who(e.seat), from: areaName(e.from), to: areaName(e.to)});
    case 'power_card_taken_back':
      return e.value ? ev('taken_back', {who: who(e.seat), value: String(e.value)}) : ev('taken_back_any', {who: who(e.seat)});
    case 'command_undone':
      return ev('undone', {who: who(e.seat)});
    case 'veto_laid':
      return ev('veto_laid', {who: who(e.seat)});
    case 'veto_expired':
      return ev('veto_expired', {who: who(e.seat)});
    case 'disk_set':
      return e.region ? ev('disk_set_to', {who: who(e.seat), area: areaName(e.region)}) : ev('disk_set', {who: who(e.seat)});
    case 'disks_revealed': {
      const shown = (e.disks || []).map((area, seat) => (area ? t('elgrande.who_area', {who: who(seat), area: areaName(area)}) : null)).filter(Boolean);
      return ev('disks_revealed', {purpose: purposeText(e.purpose), disks: list(shown)});
    }
    case 'general_scoring_started':
      return ev('general_scoring', {number: e.number});
    case 'area_scored': {
      if (!(e.caballeros || []).some((n) => n > 0)) return ev('scored_nobody', {area: AreaName(e.area)});
      const got = (e.points || []).map((p, seat) => (p ? t('elgrande.who_points', {who: who(seat), points: p}) : null)).filter(Boolean);
      const bonus = [];
      if (e.king_bonus !== undefined) bonus.push(t('elgrande.king_bonus', {who: who(e.king_bonus)}));
      if (e.grande_bonus !== undefined) bonus.push(t('elgrande.grande_bonus', {who: who(e.grande_bonus)}));
      const params = {area: AreaName(e.area), points: list(got), bonus: list(bonus)};
      const key = got.length ? 'scored' : 'scored_no_points';
      return ev(bonus.length ? `${key}_bonus` : key, params);
    }
    case 'castillo_emptied':
      return e.to
        ? ev('castillo_emptied', {n: e.count, who: col(e.colour), to: areaName(e.to)})
        : ev('castillo_emptied_to_court', {n: e.count, who: col(e.colour)});
    case 'round_ended':
      return ev('round_ended', {round: e.round, first: who(e.first_player)});
    case 'game_ended': {
      const ranking = e.scores.map((score, seat) => ({score, seat})).sort((a, b) => b.score - a.score);
      return ev('game_ended', {
        winners: list(e.winners.map(who)), count: e.winners.length,
        scores: list(ranking.map((r) => t('elgrande.who_points', {who: who(r.seat), points: r.score}))),
      });
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

// A phase of the game in words (the status bar).
export function phaseName(phase) {
  return hasKey(`elgrande.phase.${phase}`) ? t(`elgrande.phase.${phase}`) : phase;
}

// What a decision of this kind asks ("play a power card"), or null for a kind not known here.
export function decisionWords(kind) {
  return hasKey(`elgrande.decision.${kind}`) ? t(`elgrande.decision.${kind}`) : null;
}

// --- Ladders (docs/ratings.md) --------------------------------------------------------------

// Every kind of game has its own ladder: full games first, then the short game's.
export const LADDERS = ['2p', '3p', '4p', '5p', '2p-automa', '2p-short', '3p-short', '4p-short', '5p-short', '2p-automa-short'];

// "4p-short" → "4 players, short game"; "2p-automa" → "2 players with the automa".
// `length`: false leaves out the short game (the picker's groups say it).
export function ladderName(ladder, length = true) {
  const m = /^([2-5])p(-automa)?(-short)?$/.exec(ladder || '');
  if (!m) return ladder;
  return t('elgrande.ladder', {players: Number(m[1]), automa: m[2] ? 'yes' : 'no', short: m[3] && length ? 'yes' : 'no'});
}

// The ladder a game of these options counts on (four stacks share the 3-player ladder).
export function ladderOf(options) {
  return `${options.players}p${options.automa ? '-automa' : ''}${options.short_game ? '-short' : ''}`;
}
