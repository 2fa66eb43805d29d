// The games the web client knows: the shell reaches a game's code only through here
// (docs/modules.md#the-web-client). Each module is the object its games/<game>/index.js exports.

import {elGrande} from './elgrande/index.js';

const GAMES = new Map([[elGrande.id, elGrande]]);

// The server names no game yet: a table or ladder without one is El Grande's.
export const DEFAULT_GAME = elGrande.id;

// The module of game `id` (the default when none is given); throws for a game not known here.
export function gameModule(id = DEFAULT_GAME) {
  const game = GAMES.get(id ?? DEFAULT_GAME);
  if (!game) throw new Error(`no client module for the game “${id}”`);
  return game;
}

// The module of the game played at a table (table.game once the server sends it).
export function gameOf(table) {
  return gameModule(table && table.game);
}

// Every game module, in the order the client lists them.
export function gameModules() {
  return [...GAMES.values()];
}
