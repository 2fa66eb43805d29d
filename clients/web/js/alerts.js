// Being told that it is my turn (docs/web-client.md, Your turn): the tab's title and icon say
// so whatever the page shows; when a game comes to me while the page is out of sight, a
// notification (once the player allowed them, from a button: never asked on load) and a short
// chime (on unless switched off). Only one tab of the browser chimes and notifies: the first
// one opened, which holds a lock until it closes; the next one then takes over.

import {h, replaceKeepingFocus, segmented} from './dom.js';
import {changeSettings, loadSettings} from './settings.js';

const ICON = 'img/favicon.svg';
const TURN_ICON = 'img/favicon-turn.svg';

export class TurnSignal {
  constructor() {
    this.icon = document.querySelector('link[rel="icon"]');
    this.audio = null;
    // Without Web Locks (plain http on another host) every tab signals; notifications of one
    // table share a tag, so they replace one another rather than pile up.
    this.leader = !(navigator.locks && navigator.locks.request);
    if (!this.leader) {
      navigator.locks.request('elgrande.turn-signal', () => {
        this.leader = true;
        return new Promise(() => {});  // held while this tab lives
      }).catch(() => {});
    }
    // A page may only make sounds after the person interacted with it: the audio context is
    // made on the first press, and sleeps between chimes.
    const unlock = () => {
      if (this.audio || !window.AudioContext) return;
      this.audio = new AudioContext();
      this.audio.suspend().catch(() => {});
    };
    for (const type of ['pointerdown', 'keydown']) window.addEventListener(type, unlock, {capture: true, passive: true});
  }

  // The title and the icon: `title` is the page's own; `waiting` the tables where it is my
  // turn; `here` whether the table shown is one of them.
  show(title, waiting, here) {
    const n = waiting.size;
    let prefix = '';
    if (here) prefix = '● Your turn — ';
    else if (n) prefix = `● ${n} game${n > 1 ? 's' : ''} waiting for you — `;
    document.title = `${prefix}${title === 'El Grande' ? '' : `${title} — `}El Grande`;
    const href = n ? TURN_ICON : ICON;
    if (this.icon && this.icon.getAttribute('href') !== href) this.icon.setAttribute('href', href);
  }

  // The person is elsewhere: another tab or window has the focus, or the screen is off.
  away() {
    return document.visibilityState === 'hidden' || !document.hasFocus();
  }

  // A game came to me: {table, name, what} (what: "play a power card").
  yourTurn({table, name, what}) {
    if (!this.leader || !this.away()) return;
    const settings = loadSettings();
    if (settings.sound) this.chime();
    if (settings.notify) this.notify(table, name, what);
  }

  async notify(table, name, what) {
    if (!('Notification' in window) || Notification.permission !== 'granted') return;
    const title = `Your turn: ${name}`;
    const url = `#/table/${table}`;
    const options = {
      body: `${what.charAt(0).toUpperCase()}${what.slice(1)}.`, tag: `elgrande-table-${table}`, renotify: true,
      icon: TURN_ICON, data: {url},
    };
    try {
      // Phones show notifications only through the service worker (sw.js opens the table).
      const registration = navigator.serviceWorker && await navigator.serviceWorker.getRegistration();
      if (registration && registration.active) {
        await registration.showNotification(title, options);
        return;
      }
      const notification = new Notification(title, options);
      notification.addEventListener('click', () => {
        window.focus();
        location.hash = url;
        notification.close();
      });
    } catch {
      // A notification refused by the system: the title and the icon still say it.
    }
  }

  // Two soft notes, a quarter of a second in all, generated: nothing to download.
  chime() {
    const audio = this.audio;
    if (!audio) return;
    audio.resume().then(() => {
      const start = audio.currentTime + 0.02;
      [[659.25, 0], [880, 0.13]].forEach(([frequency, at]) => {
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.type = 'sine';
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, start + at);
        gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.12);
        tone.connect(gain).connect(audio.destination);
        tone.start(start + at);
        tone.stop(start + at + 0.13);
      });
      setTimeout(() => audio.suspend().catch(() => {}), 600);
    }, () => {});
  }
}

// The controls of the turn signal: notifications (asking the browser's permission only when
// pressed) and the sound. `onChange` redraws the caller.
export function alertControls(onChange, {testid = 'alerts'} = {}) {
  const settings = loadSettings();
  const supported = 'Notification' in window;
  const permission = supported ? Notification.permission : 'unsupported';
  let notify;
  if (!supported) {
    notify = h('p', {class: 'muted note', 'data-testid': `${testid}-notify-state`}, 'This browser cannot show notifications.');
  } else if (permission === 'denied') {
    notify = h('p', {class: 'muted note', 'data-testid': `${testid}-notify-state`},
      'Notifications are blocked for this site: allow them in the browser’s site settings to be told here.');
  } else if (permission === 'granted' && settings.notify) {
    notify = h('p', {class: 'alert-line', 'data-testid': `${testid}-notify-state`}, 'A notification tells you when a game waits for you. ',
      h('button', {type: 'button', class: 'link-button', 'data-testid': `${testid}-notify-off`, onClick: () => {
        changeSettings({notify: false});
        onChange();
      }}, 'Turn notifications off'));
  } else {
    notify = h('p', {class: 'alert-line'},
      h('button', {type: 'button', class: 'secondary small', 'data-testid': `${testid}-notify-on`, onClick: async () => {
        const answer = permission === 'granted' ? 'granted' : await Notification.requestPermission();
        changeSettings({notify: answer === 'granted'});
        onChange();
      }}, 'Notify me when it is my turn'),
      h('span', {class: 'muted note'}, ' while this page is in the background'));
  }
  const sound = h('input', {type: 'checkbox', id: `${testid}-sound`, checked: settings.sound, 'data-testid': `${testid}-sound`});
  sound.addEventListener('change', () => {
    changeSettings({sound: sound.checked});
    onChange();
  });
  return h('div', {class: 'alert-controls', 'data-testid': testid},
    notify,
    h('p', {class: 'alert-line'}, sound, h('label', {for: `${testid}-sound`}, ' A short sound when a game comes to me while I look elsewhere')));
}

// Light, dark, or as the system says, for this device.
export function themeControl(onChange) {
  return segmented({
    label: 'Colours', testid: 'theme', value: loadSettings().theme,
    options: [['system', 'As the system'], ['light', 'Light'], ['dark', 'Dark']],
    onChange: (theme) => {
      changeSettings({theme});
      onChange(theme);
    },
  });
}

// The account page's section "On this device": colours and the turn signal.
export class DeviceSettings {
  constructor() {
    this.box = h('div', {class: 'device-settings'});
    this.root = h('section', {class: 'panel', 'aria-labelledby': 'device-title', 'data-testid': 'device-settings'},
      h('h2', {id: 'device-title'}, 'On this device'),
      this.box);
    this.render();
  }

  render() {
    replaceKeepingFocus(this.box,
      h('p', {class: 'label', id: 'theme-label'}, 'Colours'),
      themeControl((theme) => {
        this.render();
        this.box.querySelector(`[data-testid="theme-${theme}"]`).focus();
      }),
      h('p', {class: 'label'}, 'When it is your turn'),
      alertControls(() => this.render(), {testid: 'device-alerts'}));
  }
}
