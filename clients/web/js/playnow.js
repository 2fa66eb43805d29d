// Play now (docs/ratings.md, Play now): the lobby's panel that asks to be seated with players
// close in rating (play.join), shows the wait while the server looks, and stops it
// (play.leave). What the player asked for and whether they wait live in `app.store.playNow`, since
// play.matched may come while another screen shows; the App sends the requests.

import {h, replaceKeepingFocus} from './dom.js';
import {gameModule} from './games/index.js';
import {CLOCK_WORDS, queueName} from './words.js';
import {durationText, waited} from './time.js';

// How long to wait for people before bots may fill the table (the server takes 5 to 3600 s).
const BOTS_AFTER = ['', '10', '30', '60', '120', '300', '900', '3600'];

export class PlayNowPanel {
  constructor(app) {
    this.app = app;
    this.state = app.store.playNow;
    this.shown = null;  // what the body shows now: 'form' or the queue waited in
    this.body = h('div', {class: 'play-now-body'});
    // Kept in the page while the body changes, so that screen readers hear each change.
    this.status = h('p', {class: 'sr-only', role: 'status', 'aria-live': 'polite', 'data-testid': 'play-status'});
    this.error = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': 'play-error'});
    this.root = h('section', {class: 'panel play-now', 'aria-labelledby': 'play-now-title', 'data-testid': 'play-now'},
      h('h2', {id: 'play-now-title'}, 'Play now'),
      this.status, this.body, this.error);
    this.update();
  }

  // Redraws the body only when it changes between the form and the wait, so that a lobby
  // push does not close a select someone is choosing from.
  update() {
    const {waiting, error, errorTemporary, announce} = this.state;
    const shown = waiting ? `${waiting.queue}@${waiting.since}` : 'form';
    if (shown !== this.shown) {
      this.shown = shown;
      const hadFocus = this.body.contains(document.activeElement);
      replaceKeepingFocus(this.body, waiting ? this.waitingView(waiting) : this.form());
      this.root.dataset.state = waiting ? 'waiting' : 'idle';
      // The button pressed is gone: focus goes to the one that undoes it.
      if (hadFocus && !this.body.contains(document.activeElement)) {
        this.body.querySelector(waiting ? '[data-testid=play-leave]' : '[data-testid=play-join]').focus();
      }
    }
    if (waiting) this.count.textContent = othersWaiting(waiting.count);
    this.error.textContent = error || '';
    this.error.hidden = !error;
    this.error.classList.toggle('temporary', Boolean(errorTemporary));
    if (announce !== this.status.textContent) this.status.textContent = announce || '';
  }

  form() {
    const f = this.state.form;
    const clock = Object.entries(CLOCK_WORDS).map(([value, words]) => h('div', {class: 'radio-line'},
      h('input', {type: 'radio', name: 'play-clock', id: `play-clock-${value}`, value, checked: f.clock === value, 'data-testid': `play-clock-${value}`,
        onChange: () => { f.clock = value; }}),
      h('label', {for: `play-clock-${value}`}, words.charAt(0).toUpperCase() + words.slice(1))));
    const bots = h('select', {id: 'play-bots', 'data-testid': 'play-bots', 'aria-describedby': 'play-bots-note', onChange: () => { f.bots_after = bots.value; }},
      BOTS_AFTER.map((v) => h('option', {value: v, selected: v === f.bots_after}, v ? `After ${durationText(Number(v))} of waiting` : 'No: wait for people only')));
    const guest = !this.app.store.account;
    return h('form', {class: 'create-form play-form', onSubmit: (event) => {
      event.preventDefault();
      this.app.store.playNowJoin();
    }},
    h('p', {class: 'note muted intro'}, 'Be seated with players close to your rating as soon as there are enough; the game starts at once.'),
    ...gameModule().optionsForm(f, 'play'),
    h('fieldset', {class: 'timeout-policy'}, h('legend', {}, 'Clock'), clock,
      h('span', {class: 'note muted'}, 'A bot takes the seat of a player who runs out of time 3 times in a row.')),
    h('label', {for: 'play-bots'}, 'Let bots fill the table'), bots,
    h('span', {class: 'note muted', id: 'play-bots-note'}, 'Only if not enough people come meanwhile; bots are never rated.'),
    guest ? h('p', {class: 'note muted', 'data-testid': 'play-guest-note'}, 'As a guest you are matched as 1000 and your games are not rated: ',
      h('a', {href: '#/account'}, 'make an account'), ' to be rated.') : null,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'play-join'}, 'Play now'));
  }

  waitingView(waiting) {
    const bots = waiting.wish.bots_after_seconds;
    // Kept up to date by play.waiting, without redrawing the rest.
    this.count = h('span', {'data-testid': 'play-count'}, othersWaiting(waiting.count));
    return h('div', {class: 'queue-state', 'data-testid': 'play-waiting', 'data-queue': waiting.queue},
      h('p', {class: 'queue-line'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}),
        'Looking for players: ', h('strong', {'data-testid': 'play-queue'}, queueName(waiting.queue)), '.'),
      h('p', {}, 'You have waited ', waited(waiting.since, {'data-testid': 'play-waited'}), '. ', this.count),
      h('p', {class: 'muted'}, 'Players closest to your rating are seated together first; the range widens the longer you wait.',
        bots ? ` After ${durationText(bots)}, bots may fill the seats nobody takes.` : ' Only people: you wait until enough of them ask.'),
      h('button', {type: 'button', class: 'secondary', 'data-testid': 'play-leave', onClick: () => this.app.store.playNowLeave()}, 'Stop waiting'));
  }
}

// `count` waits in the queue, the player included.
function othersWaiting(count) {
  const others = count - 1;
  if (others <= 0) return 'Nobody else is waiting here yet.';
  return `${others} other player${others === 1 ? ' is' : 's are'} waiting here.`;
}
