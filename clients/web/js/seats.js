// Who sits at a table, in words: seat names for sentences, what became of a seat, my seat,
// and how a server bot plays. The same for every game: seats are the protocol's (protocol.md, Seat).

import {t} from './i18n.js';

// Who sits at each seat, for sentences: the player's name, "Bot 2", or "Seat 3" while empty.
// A player's name as the reader's language says it: the names the server makes for a guest
// who gave none ("Guest 12") and for a deleted account ("deleted player") are said anew; a
// chosen name is shown as typed.
export function playerName(player) {
  const name = String((player && player.name) || '');
  if (name === 'deleted player') return t('seats.deleted_player');
  if (player && name === `Guest ${player.id}`) return t('seats.guest', {n: String(player.id)});
  return name;
}

export function seatNames(table, viewer) {
  const names = [];
  for (const seat of table ? table.seats : []) {
    let n;
    if (seat.player) n = playerName(seat.player);
    else if (seat.kind === 'bot') n = t('seats.bot_n', {n: String(seat.seat + 1)});
    else n = t('seats.seat_n', {n: String(seat.seat + 1)});
    names[seat.seat] = seat.seat === viewer ? t('seats.you', {name: n}) : n;
  }
  return names;
}

// What became of a seat beyond who sits there: resigned, replaced after timeouts, or
// decisions missed in a row (protocol.md, Seat). Null when there is nothing to say.
export function seatNote(seat, table) {
  if (!seat) return null;
  if (seat.resigned) return {kind: 'resigned', icon: 'flag', text: t('seats.note.resigned')};
  if (seat.replaced) {
    const n = seat.timeouts || (table && table.replace_after);
    return {kind: 'replaced', icon: 'clock', text: n ? t('seats.note.replaced_after', {n}) : t('seats.note.replaced')};
  }
  if (seat.timeouts > 0) return {kind: 'missed', icon: 'clock', text: t('seats.note.missed', {n: seat.timeouts})};
  return null;
}

// My seat at a table, also one a bot plays for me since I resigned or was replaced.
export function mySeatAt(table, me) {
  if (!table || !me) return null;
  const seat = table.seats.find((s) => s.player && s.player.id === me.id);
  return seat ? seat.seat : null;
}

// The seat I held before a bot took it over (I resigned or was replaced), or null.
export function formerSeat(table, me) {
  if (!table || !me) return null;
  return table.seats.find((s) => s.kind === 'bot' && s.player && s.player.id === me.id) || null;
}

// How a server bot plays (docs/ai.md), as the host chooses it: [level, its name in a list].
export const BOT_LEVEL_CODES = ['easy', 'medium', 'strong', 'random'];
export function botLevels() {
  return BOT_LEVEL_CODES.map((level) => [level, t('seats.bot_level', {level})]);
}
// The level within a sentence ("Bot, medium (played by the server)").
export function botLevelName(level) {
  return t('seats.bot_level.inline', {level: BOT_LEVEL_CODES.includes(level) ? level : 'random'});
}
