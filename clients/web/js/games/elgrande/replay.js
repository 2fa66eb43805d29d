// What a replay (docs/replays.md) draws of El Grande: the board at a version, and what each
// seat alone knew then (its hand, discards, castillo count and disk).

import {h} from '../../dom.js';
import {Board} from './board.js';
import {areaName} from './texts.js';
import {t} from '../../i18n.js';
import {colourBadge} from './colours.js';

// The board of a replay: `root` (the map), update(view, names) draws a version.
export function replayBoard() {
  const board = new Board();
  return {
    root: h('div', {class: 'board-frame', 'data-testid': 'board-frame'}, board.svg),
    update(view, names) { board.update(view, {view, names, mySeat: null}); },
  };
}

// One row per seat: its colour, name and score, and its secrets when the replay shows them.
export function replaySeats(view, names, secrets) {
  return view.players.map((p, seat) => {
    const secret = secrets && secrets.seats ? secrets.seats[seat] : null;
    const facts = [];
    if (secret) {
      if (secret.hand) facts.push(t('replay.seat.hand', {cards: secret.hand.join(' ') || '–'}));
      if (secret.castillo !== undefined) facts.push(t('replay.seat.castillo', {n: secret.castillo}));
      if (secret.disk) facts.push(t('replay.seat.disk', {area: areaName(secret.disk)}));
    }
    return h('li', {class: 'replay-seat', 'data-testid': `replay-seat-${seat}`},
      h('div', {class: 'player-head'},
        colourBadge(seat, view),
        h('span', {class: 'player-name'}, names[seat]),
        h('span', {class: 'player-score', title: t('elgrande.player.score')}, String(p.score))),
      facts.length ? h('div', {class: 'replay-secrets muted', 'data-testid': `replay-secrets-${seat}`}, facts.join(' · ')) : null);
  });
}
