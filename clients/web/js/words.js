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

// A table's name as the reader's language says it: the names the server makes for a table
// nobody named ("Table 7"), a play-now table ("Play now · 4p-short/live") and a tournament's
// board ("Autumn Cup · R2 B3") are said anew; a name someone chose is shown as typed.
export function tableName(table) {
  const name = String((table && table.name) || '');
  if (table && name === `Table ${table.id}`) return t('words.table.unnamed', {table: String(table.id)});
  const playNow = /^Play now · (.+)$/.exec(name);
  if (playNow) return t('words.table.play_now', {queue: queueName(playNow[1])});
  const board = /^(.*) · R(\d+) B(\d+)$/.exec(name);
  if (board) return t('words.table.board', {tournament: board[1], round: board[2], board: board[3]});
  return name;
}
