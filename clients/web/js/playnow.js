// Play now (docs/ratings.md, Play now): the lobby's panel that asks to be seated with players
// close in rating (play.join), shows the wait while the server looks, and stops it
// (play.leave). What the player asked for and whether they wait live in `app.store.playNow`, since
// play.matched may come while another screen shows; the App sends the requests.

import {h, replaceKeepingFocus} from './dom.js';
import {gameModule} from './games/index.js';
import {CLOCKS, clockText, queueName} from './words.js';
import {durationText, waited} from './time.js';
import {t, tParts} from './i18n.js';

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
      h('h2', {id: 'play-now-title'}, t('playnow.title')),
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
    const clock = CLOCKS.map((value) => h('div', {class: 'radio-line'},
      h('input', {type: 'radio', name: 'play-clock', id: `play-clock-${value}`, value, checked: f.clock === value, 'data-testid': `play-clock-${value}`,
        onChange: () => { f.clock = value; }}),
      h('label', {for: `play-clock-${value}`}, clockText(value))));
    const bots = h('select', {id: 'play-bots', 'data-testid': 'play-bots', 'aria-describedby': 'play-bots-note', onChange: () => { f.bots_after = bots.value; }},
      BOTS_AFTER.map((v) => h('option', {value: v, selected: v === f.bots_after}, v ? t('playnow.bots_after', {duration: durationText(Number(v))}) : t('playnow.bots_never'))));
    const guest = !this.app.store.account;
    return h('form', {class: 'create-form play-form', onSubmit: (event) => {
      event.preventDefault();
      this.app.store.playNowJoin();
    }},
    h('p', {class: 'note muted intro'}, t('playnow.intro')),
    ...gameModule().optionsForm(f, 'play'),
    h('fieldset', {class: 'timeout-policy'}, h('legend', {}, t('playnow.clock')), clock,
      h('span', {class: 'note muted'}, t('playnow.clock_note'))),
    h('label', {for: 'play-bots'}, t('playnow.bots')), bots,
    h('span', {class: 'note muted', id: 'play-bots-note'}, t('playnow.bots_note')),
    guest ? h('p', {class: 'note muted', 'data-testid': 'play-guest-note'},
      ...tParts('playnow.guest_note', {link: h('a', {href: '#/account'}, t('playnow.guest_note.link'))})) : null,
    h('button', {type: 'submit', class: 'primary big', 'data-testid': 'play-join'}, t('playnow.join')));
  }

  waitingView(waiting) {
    const bots = waiting.wish.bots_after_seconds;
    // Kept up to date by play.waiting, without redrawing the rest.
    this.count = h('span', {'data-testid': 'play-count'}, othersWaiting(waiting.count));
    return h('div', {class: 'queue-state', 'data-testid': 'play-waiting', 'data-queue': waiting.queue},
      h('p', {class: 'queue-line'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}),
        ...tParts('playnow.looking', {queue: h('strong', {'data-testid': 'play-queue'}, queueName(waiting.queue))})),
      h('p', {}, ...tParts('playnow.waited', {time: waited(waiting.since, {'data-testid': 'play-waited'})}), ' ', this.count),
      h('p', {class: 'muted'}, t('playnow.range'), ' ',
        bots ? t('playnow.bots_may', {duration: durationText(bots)}) : t('playnow.people_only')),
      h('button', {type: 'button', class: 'secondary', 'data-testid': 'play-leave', onClick: () => this.app.store.playNowLeave()}, t('playnow.leave')));
  }
}

// `count` waits in the queue, the player included.
function othersWaiting(count) {
  return t('playnow.others_waiting', {n: Math.max(0, count - 1)});
}
