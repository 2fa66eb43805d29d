// Tournaments in words (docs/tournaments.md): statuses, formats, tie-breaks, the stages of
// an event, an entrant's state, a round's notice. No DOM here.

import {dateText} from './time.js';

export const STATUS_WORDS = {
  registering: 'Registration open', running: 'Running', paused: 'Paused', finished: 'Finished', cancelled: 'Cancelled',
};
export const FORMAT_WORDS = {swiss: 'Swiss', round_robin: 'Round robin', elimination: 'Elimination'};
export const TIE_BREAK_WORDS = {
  tournament_points: 'Tournament points', sonneborn_berger: 'Sonneborn–Berger',
  percent_of_winner: '% of the winner’s score', game_points: 'Game points', wins: 'Wins',
};
export const DEFAULT_TIE_BREAKS = Object.keys(TIE_BREAK_WORDS);
// A round's time limit: none, or from an evening's hour to the weeks of a correspondence event.
export const ROUND_TIME_CHOICES = [
  ['0', 'No limit'], ['3600', '1 hour'], ['7200', '2 hours'], ['10800', '3 hours'],
  ['86400', '1 day'], ['259200', '3 days'], ['604800', '1 week'], ['1209600', '2 weeks'], ['2419200', '4 weeks'],
];
// The server's default placement points (docs/tournaments.md, Placings and points).
export const DEFAULT_POINTS = {2: '6, 0', 3: '6, 3, 0', 4: '6, 4, 2, 0', 5: '6, 4.5, 3, 1.5, 0'};

export const formatsText = (stages) => stages.map((f) => FORMAT_WORDS[f] || f).join(' → ');

// 4.5 → "4.5", 1.3333 → "1.33", 6 → "6".
export function numberText(n) {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

export function startText(t) {
  if (t.started_at) return `Started ${dateText(t.started_at)}`;
  if (t.starts_at) return `Starts ${dateText(t.starts_at)}`;
  return 'The director starts it';
}

export function playersText(t) {
  return t.max_players ? `${t.players} of ${t.max_players} players` : `${t.players} player${t.players === 1 ? '' : 's'}`;
}

// "Swiss of 3 rounds at tables of 4–5, then an elimination (top 1 of each table) of the top 10".
export function stagesText(stages) {
  return stages.map((s, i) => {
    const sizes = s.table_sizes.minimum === s.table_sizes.preferred ? `tables of ${s.table_sizes.preferred}` : `tables of ${s.table_sizes.minimum}–${s.table_sizes.preferred}`;
    let text = {
      swiss: () => `Swiss, ${s.rounds} round${s.rounds === 1 ? '' : 's'}`,
      round_robin: () => `round robin in ${s.pools} pool${s.pools === 1 ? '' : 's'}${s.meetings > 1 ? `, every pair meeting ${s.meetings} times` : ''}`,
      elimination: () => `elimination, the top ${s.advance_per_table} of each table advancing`,
    }[s.format]();
    text += ` at ${sizes}`;
    if (i > 0 && s.qualifiers) text += `, for the top ${s.qualifiers}`;
    return i === 0 ? text.charAt(0).toUpperCase() + text.slice(1) : `then ${text}`;
  }).join('; ');
}

// An entrant's state in words.
export function entryText(e, mine = false) {
  const you = (yes, other) => (mine ? yes : other);
  switch (e.status) {
    case 'registered': return e.checked_in_at ? 'checked in' : 'registered';
    case 'playing': return you('You are playing in this event.', 'playing');
    // The server's reasons say who ended the entry: "withdrew", "removed by the director: …",
    // "replaced by a bot after timeouts in round 2", "did not check in", "unregistered".
    case 'withdrawn': return e.reason === 'withdrew' || !e.reason
      ? you('You withdrew: your results stay.', 'withdrew')
      : you(`You play no more games here (${e.reason}): your results stay.`, `withdrawn: ${e.reason}`);
    case 'disqualified': return you(`You were disqualified: ${e.reason}.`, `disqualified: ${e.reason}`);
    case 'removed': return e.reason || 'removed';
    default: return e.status;
  }
}

// A board's players with their seats, best placed first once it has a result.
export function seatOrder(board) {
  const seats = board.seats.map((player, seat) => ({player, seat}));
  if (board.result) seats.sort((a, b) => board.result.places[a.seat] - board.result.places[b.seat] || a.seat - b.seat);
  return seats;
}

// A push of a table of mine in a new round, or a bye, in words with a link.
export function roundNoticeText(push, name) {
  const round = name ? `${name}, round ${push.round}` : `Tournament round ${push.round}`;
  if (push.bye) return {text: `${round}: you have a bye this round.`};
  return {text: `${round}: your table is ready.`, href: `#/table/${push.table}`};
}
