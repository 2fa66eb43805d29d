// Tournaments in words (docs/tournaments.md): statuses, formats, tie-breaks, the stages of
// an event, an entrant's state, a round's notice. No DOM here.

import {formatNumber, t} from './i18n.js';
import {dateText, spanText} from './time.js';

export const STATUSES = ['registering', 'running', 'paused', 'finished', 'cancelled'];
export const statusText = (status) => (STATUSES.includes(status) ? t('tournaments.status', {status}) : status);
export const FORMATS = ['swiss', 'round_robin', 'elimination'];
export const formatText = (format) => (FORMATS.includes(format) ? t('tournaments.format', {format}) : format);
export const DEFAULT_TIE_BREAKS = ['tournament_points', 'sonneborn_berger', 'percent_of_winner', 'game_points', 'wins'];
export const tieBreakText = (key) => t('tournaments.tie_break', {key});
// A round's time limit: none, or from an evening's hour to the weeks of a correspondence event.
export function roundTimeChoices() {
  return [['0', t('tournaments.round_time.none')],
    ...['3600', '7200', '10800', '86400', '259200', '604800', '1209600', '2419200'].map((s) => [s, spanText(Number(s))])];
}
// The server's default placement points (docs/tournaments.md, Placings and points), as the
// form's field holds them (the numbers the server reads, not words).
export const DEFAULT_POINTS = {2: '6, 0', 3: '6, 3, 0', 4: '6, 4, 2, 0', 5: '6, 4.5, 3, 1.5, 0'};

export const formatsText = (stages) => stages.map(formatText).join(' → ');

// 4.5 → "4.5", 1.3333 → "1.33", 6 → "6".
export function numberText(n) {
  return formatNumber(n, {maximumFractionDigits: 2});
}

export function startText(tour) {
  if (tour.started_at) return t('tournaments.started', {at: dateText(tour.started_at)});
  if (tour.starts_at) return t('tournaments.starts', {at: dateText(tour.starts_at)});
  return t('tournaments.director_starts');
}

export function playersText(tour) {
  return tour.max_players ? t('tournaments.players.of', {n: tour.players, max: tour.max_players}) : t('tournaments.players', {n: tour.players});
}

// "Swiss of 3 rounds at tables of 4–5, then an elimination (top 1 of each table) of the top 10".
export function stagesText(stages) {
  return stages.map((s, i) => {
    const sizes = s.table_sizes.minimum === s.table_sizes.preferred
      ? t('tournaments.stage.tables_of', {n: s.table_sizes.preferred})
      : t('tournaments.stage.tables_of_range', {min: s.table_sizes.minimum, max: s.table_sizes.preferred});
    const first = i === 0 ? 'yes' : 'no';
    const stage = {
      swiss: () => t('tournaments.stage.swiss', {first, rounds: s.rounds, sizes}),
      round_robin: () => (s.meetings > 1
        ? t('tournaments.stage.round_robin.meetings', {first, pools: s.pools, meetings: s.meetings, sizes})
        : t('tournaments.stage.round_robin', {first, pools: s.pools, sizes})),
      elimination: () => t('tournaments.stage.elimination', {first, advance: s.advance_per_table, sizes}),
    }[s.format]();
    if (i === 0) return stage;
    return s.qualifiers ? t('tournaments.stage.then_top', {stage, n: s.qualifiers}) : t('tournaments.stage.then', {stage});
  }).join('; ');
}

// An entrant's state in words, to them (`mine`) or to others, from the code of why the entry
// ended (`why`) and the director's own words; a server without codes sends only its English
// `reason`, shown as it comes.
export function entryText(e, mine = false) {
  const key = (name) => `tournaments.entry.${name}${mine ? '.mine' : ''}`;
  const reason = e.director_reason || e.reason || '';
  switch (e.status) {
    case 'registered': return t(e.checked_in_at ? 'tournaments.entry.checked_in' : 'tournaments.entry.registered');
    case 'playing': return t(key('playing'));
    case 'withdrawn':
      if (e.why === 'timeouts') return t(key('timeouts'), {round: String(e.round ?? '?')});
      if (e.why === 'no_check_in') return t(key('no_check_in'));
      return e.why === 'withdrew' || e.reason === 'withdrew' || !e.reason ? t(key('withdrew')) : t(key('withdrawn'), {reason});
    case 'disqualified': return t(key('disqualified'), {reason});
    case 'removed':
      if (e.why === 'unregistered') return t('tournaments.entry.unregistered');
      if (e.why === 'removed') return t('tournaments.entry.removed_by_director', {reason});
      return e.reason || t('tournaments.entry.removed');
    default: return e.status;
  }
}

// A board's players with their seats, best placed first once it has a result.
export function seatOrder(board) {
  const seats = board.seats.map((player, seat) => ({player, seat}));
  if (board.result) seats.sort((a, b) => board.result.places[a.seat] - board.result.places[b.seat] || a.seat - b.seat);
  return seats;
}

// A push of a table of mine in a new round, or a bye, in words with a link: whole sentences,
// with the tournament's name when it is known.
export function roundNoticeText(push, name) {
  const round = String(push.round);
  if (push.bye) return {text: name ? t('tournaments.notice.bye.named', {name, round}) : t('tournaments.notice.bye', {round})};
  return {
    text: name ? t('tournaments.notice.table.named', {name, round}) : t('tournaments.notice.table', {round}),
    href: `#/table/${push.table}`,
  };
}
