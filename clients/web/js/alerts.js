// Being told that it is my turn (docs/web-client.md, Your turn): the tab's title and icon say
// so whatever the page shows; when a game comes to me while the page is out of sight, a
// notification (once the player allowed them, from a button: never asked on load) and a short
// chime (on unless switched off). Only one tab of the browser chimes and notifies: the first
// one opened, which holds a lock until it closes; the next one then takes over.

import {h, replaceKeepingFocus, segmented} from './dom.js';
import {changeSettings, loadSettings} from './settings.js';
import {language, t, tParts} from './i18n.js';

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
    const page = title === 'El Grande' ? title : t('alerts.title.page', {title});
    if (here) document.title = t('alerts.title.your_turn', {page});
    else if (n) document.title = t('alerts.title.waiting', {n, page});
    else document.title = page;
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
    const title = t('alerts.notify.title', {name});
    const url = `#/table/${table}`;
    const options = {
      body: t('alerts.notify.body', {what: `${what.charAt(0).toLocaleUpperCase(language())}${what.slice(1)}`}),
      tag: `elgrande-table-${table}`, renotify: true,
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
    notify = h('p', {class: 'muted note', 'data-testid': `${testid}-notify-state`}, t('alerts.notify.unsupported'));
  } else if (permission === 'denied') {
    notify = h('p', {class: 'muted note', 'data-testid': `${testid}-notify-state`}, t('alerts.notify.blocked'));
  } else if (permission === 'granted' && settings.notify) {
    notify = h('p', {class: 'alert-line', 'data-testid': `${testid}-notify-state`}, t('alerts.notify.on'), ' ',
      h('button', {type: 'button', class: 'link-button', 'data-testid': `${testid}-notify-off`, onClick: () => {
        changeSettings({notify: false});
        onChange();
      }}, t('alerts.notify.turn_off')));
  } else {
    const on = h('button', {type: 'button', class: 'secondary small', 'data-testid': `${testid}-notify-on`, onClick: async () => {
      const answer = permission === 'granted' ? 'granted' : await Notification.requestPermission();
      changeSettings({notify: answer === 'granted'});
      onChange();
    }}, t('alerts.notify.turn_on'));
    // The sentence around the button is muted, the button itself is not.
    notify = h('p', {class: 'alert-line'},
      tParts('alerts.notify.turn_on_line', {button: on}).map((part) => (typeof part === 'string' ? h('span', {class: 'muted note'}, part) : part)));
  }
  const sound = h('input', {type: 'checkbox', id: `${testid}-sound`, checked: settings.sound, 'data-testid': `${testid}-sound`});
  sound.addEventListener('change', () => {
    changeSettings({sound: sound.checked});
    onChange();
  });
  return h('div', {class: 'alert-controls', 'data-testid': testid},
    notify,
    h('p', {class: 'alert-line'}, sound, h('label', {for: `${testid}-sound`}, ' ', t('alerts.sound'))));
}

// Light, dark, or as the system says, for this device.
export function themeControl(onChange) {
  return segmented({
    label: t('alerts.theme'), testid: 'theme', value: loadSettings().theme,
    options: [['system', t('alerts.theme.system')], ['light', t('alerts.theme.light')], ['dark', t('alerts.theme.dark')]],
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
      h('h2', {id: 'device-title'}, t('alerts.device.title')),
      this.box);
    this.render();
  }

  render() {
    replaceKeepingFocus(this.box,
      h('p', {class: 'label', id: 'theme-label'}, t('alerts.theme')),
      themeControl((theme) => {
        this.render();
        this.box.querySelector(`[data-testid="theme-${theme}"]`).focus();
      }),
      h('p', {class: 'label'}, t('alerts.device.your_turn')),
      alertControls(() => this.render(), {testid: 'device-alerts'}));
  }
}
