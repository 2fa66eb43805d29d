// The shell's words that are no game's: ordinals, play now's clocks and queues. A queue's
// ladder is the game's to name (games/index.js).

import {gameModule} from './games/index.js';
import {t} from './i18n.js';

// Play now's clocks: what a player agrees to when asking for one.
export const CLOCKS = ['live', 'daily'];
export function clockText(clock) {
  return t('words.clock', {clock});
}

// A play-now queue, named like its ladder: "4p-short/live" → "4 players, short game, live clock".
export function queueName(queue, game = gameModule()) {
  const [ladder, clock] = String(queue || '').split('/');
  return clock ? t('words.queue', {ladder: game.ladderName(ladder), clock}) : game.ladderName(ladder);
}

// 1 → "1st", 12 → "12th", 22 → "22nd".
export function ordinal(n) {
  return t('words.ordinal', {n});
}
