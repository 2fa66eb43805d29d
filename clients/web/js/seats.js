// Who sits at a table, in words: seat names for sentences, what became of a seat, my seat,
// and how a server bot plays. The same for every game: seats are the protocol's (protocol.md, Seat).

// Who sits at each seat, for sentences: the player's name, "Bot 2", or "Seat 3" while empty.
export function seatNames(table, viewer) {
  const names = [];
  for (const seat of table ? table.seats : []) {
    let n;
    if (seat.player) n = seat.player.name;
    else if (seat.kind === 'bot') n = `Bot ${seat.seat + 1}`;
    else n = `Seat ${seat.seat + 1}`;
    names[seat.seat] = seat.seat === viewer ? `${n} (you)` : n;
  }
  return names;
}

// What became of a seat beyond who sits there: resigned, replaced after timeouts, or
// decisions missed in a row (protocol.md, Seat). Null when there is nothing to say.
export function seatNote(seat, table) {
  if (!seat) return null;
  if (seat.resigned) return {kind: 'resigned', icon: 'flag', text: 'resigned'};
  if (seat.replaced) {
    const n = seat.timeouts || (table && table.replace_after);
    return {kind: 'replaced', icon: 'clock', text: n ? `replaced by a bot after ${n} timeout${n === 1 ? '' : 's'}` : 'replaced by a bot'};
  }
  if (seat.timeouts > 0) return {kind: 'missed', icon: 'clock', text: `missed ${seat.timeouts} turn${seat.timeouts === 1 ? '' : 's'}`};
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

// How a server bot plays (docs/ai.md), as the host chooses it.
export const BOT_LEVELS = [['easy', 'Easy'], ['medium', 'Medium'], ['strong', 'Strong'], ['random', 'Random moves']];
export function botLevelName(level) {
  const found = BOT_LEVELS.find(([value]) => value === level);
  return found ? found[1].toLowerCase() : 'random moves';
}
