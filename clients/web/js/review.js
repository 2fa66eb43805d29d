// The strong bot's second opinion in the replay viewer (docs/replays.md#second-opinion): at a
// version where the next move was the signed-in player's own, they may ask what the bot would
// have played there, with the estimated win share of their move and of the bot's.

import {h} from './dom.js';
import {t} from './i18n.js';
import {errorText} from './connection.js';

// The panel under the replay's controls: `root`, and show(v) for the version shown. Nothing
// for a replay from a file, or for someone who held none of its seats.
export function reviewPanel(app, doc, id, game, names) {
  const root = h('div', {class: 'replay-review', 'data-testid': 'replay-review', 'aria-live': 'polite'});
  const me = app.store && app.store.me;
  const mySeats = new Set((doc.table.seats || []).filter((s) => me && s.player && s.player.id === me.id).map((s) => s.seat));
  const answers = new Map();  // version -> the answer, once asked
  let shown = null;
  const ctx = {names, options: doc.table.options};

  const words = (move) => t('replay.review.move', {move: game.describeCommand(move.command, ctx), share: move.win_share});
  // The move reviewed was the seat's, but perhaps made for its player by their bot or clock.
  const playedKey = (v) => (doc.moves[v].source === 'player' ? 'replay.review.played' : 'replay.review.played_for');
  const answer = (a) => (a.same
    ? [h('p', {'data-testid': 'review-same'}, t('replay.review.same', {move: words(a.bot)}))]
    : [h('p', {'data-testid': 'review-played'}, t(playedKey(a.version), {move: words(a.played)})),
      h('p', {'data-testid': 'review-bot'}, t('replay.review.bot', {move: words(a.bot)}))])
    .concat(h('p', {class: 'muted'}, t('replay.review.how', {n: a.iterations})));

  async function ask(v) {
    root.replaceChildren(h('p', {class: 'muted'}, t('replay.review.asking')));
    try {
      answers.set(v, await app.conn.request('game.review', {table: id, version: v}));
    } catch (err) {
      if (shown === v) root.replaceChildren(h('p', {class: 'form-error', 'data-testid': 'review-error'}, errorText(err)));
      return;
    }
    if (shown === v) show(v);
  }

  function show(v) {
    shown = v;
    const next = doc.moves && doc.moves[v];
    if (id === null || !next || !mySeats.has(next.seat) || doc.frames.length <= v + 1) return root.replaceChildren();
    const known = answers.get(v);
    root.replaceChildren(...(known ? answer(known) : [h('button', {type: 'button', class: 'secondary',
      'data-testid': 'review-ask', onClick: () => ask(v)}, t('replay.review.ask'))]));
  }

  return {root, show};
}
