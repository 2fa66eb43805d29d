// The shell's words that are no game's: ordinals, play now's clocks and queues. A queue's
// ladder is the game's to name (games/index.js).

import {gameModule} from './games/index.js';

// Play now's clocks: what a player agrees to when asking for one.
export const CLOCK_WORDS = {live: 'live: 2 minutes per decision', daily: 'daily: a day per decision'};

// A play-now queue, named like its ladder: "4p-short/live" → "4 players, short game, live clock".
export function queueName(queue, game = gameModule()) {
  const [ladder, clock] = String(queue || '').split('/');
  return clock ? `${game.ladderName(ladder)}, ${clock} clock` : game.ladderName(ladder);
}

// 1 → "1st", 12 → "12th", 22 → "22nd".
export function ordinal(n) {
  const tens = n % 100;
  return `${n}${(tens >= 11 && tens <= 13) ? 'th' : ({1: 'st', 2: 'nd', 3: 'rd'}[n % 10] || 'th')}`;
}
