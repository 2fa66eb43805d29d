// The account's notices (#/notices, docs/notifications.md): its e-mail address (set by a
// mailed link, or removed), what it is told by mail and by push, the daily digest, and the
// devices that get push notices, this one included.

import {h, replaceKeepingFocus} from './dom.js';
import {isTemporary} from './connection.js';
import {t, tParts} from './i18n.js';
import {tableName} from './words.js';
import {dateText} from './time.js';
import {accountForm, deviceName, field} from './account.js';
import {
  GAME_CHOICES, NOTICE_KINDS, addressProblem, base64UrlToBytes, choiceOfChannels, noticeRefusal, preferencesShown,
  preferencesToSave, setEmailDoneText, subscribePayload,
} from './noticewords.js';

// Web Push needs a service worker, the Push API and notifications, over https (or on this
// machine).
export function pushSupported() {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

const sameBytes = (buffer, bytes) => {
  const a = new Uint8Array(buffer || new ArrayBuffer(0));
  return a.length === bytes.length && a.every((byte, i) => byte === bytes[i]);
};

export class NoticesScreen {
  constructor(app) {
    this.app = app;
    this.data = null;  // notices.preferences' answer
    this.devices = null;  // push.devices' answer
    this.status = h('p', {class: 'ok', role: 'status', 'aria-live': 'polite', 'data-testid': 'notices-status'});
    this.error = h('p', {class: 'error', role: 'alert', 'data-testid': 'notices-error', hidden: true});
    this.box = h('div', {class: 'notices-box', 'data-testid': 'notices-box', tabindex: -1});
    this.root = h('div', {class: 'notices-page account-page', 'data-testid': 'notices-page'},
      h('section', {class: 'panel', 'aria-labelledby': 'notices-title'},
        h('h1', {id: 'notices-title'}, t('noticeprefs.title')),
        h('p', {}, t('noticeprefs.intro'), ' ', h('a', {href: '#/account'}, t('noticeprefs.back_to_account'))),
        this.status, this.error),
      this.box);
    if (app.store.account) this.load();
    else {
      replaceKeepingFocus(this.box, h('section', {class: 'panel'}, h('p', {'data-testid': 'notices-guest'},
        t('noticeprefs.guest'), ' ',
        ...tParts('noticeprefs.guest.make_account', {link: h('a', {href: '#/account'}, t('noticeprefs.guest.make_account_link'))}))));
    }
  }

  destroy() {}

  say(text) {
    this.error.hidden = true;
    this.status.textContent = text;
  }

  fail(err) {
    this.status.textContent = '';
    this.error.textContent = err.code ? noticeRefusal(err) : err.message;
    this.error.classList.toggle('temporary', isTemporary(err));
    this.error.hidden = false;
  }

  async load() {
    try {
      const [data, {devices}, {games}] = await Promise.all([
        this.app.conn.request('notices.preferences'), this.app.conn.request('push.devices'),
        this.app.conn.request('player.games')]);
      this.data = data;
      this.devices = devices;
      this.games = games.filter((g) => g.table.status !== 'finished');
      this.render();
    } catch (err) {
      if (err.code !== 'disconnected') this.fail(err);
      if (!this.data) replaceKeepingFocus(this.box);
    }
  }

  render() {
    if (!this.data) {
      replaceKeepingFocus(this.box, h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), t('noticeprefs.loading')));
      return;
    }
    replaceKeepingFocus(this.box, this.addressPanel(), this.kindsPanel(), this.devicePanel());
  }

  // --- the address ------------------------------------------------------------------------

  addressPanel() {
    const {email, pending_email: pending, mail} = this.data;
    const address = field({
      id: 'notices-address', label: t(email ? 'noticeprefs.address.new' : 'noticeprefs.address.yours'), type: 'email', maxlength: 254,
      autocomplete: 'email', autocapitalize: 'none', spellcheck: 'false', required: true, disabled: !mail,
      'data-testid': 'notices-address', hint: t('noticeprefs.address.hint'),
    });
    const form = accountForm({
      testid: 'set-email', submitText: t('noticeprefs.address.submit'), busyText: t('noticeprefs.address.busy'), children: address.nodes,
      action: async () => {
        const typed = address.input.value.trim();
        const wrong = addressProblem(typed);
        if (wrong) return {text: wrong, input: address.input};
        try {
          const {pending: sentTo} = await this.app.conn.request('account.set_email', {address: typed});
          this.data = {...this.data, pending_email: sentTo};
          this.render();
          this.say(setEmailDoneText(sentTo));
          return null;
        } catch (err) {
          return {text: noticeRefusal(err), temporary: isTemporary(err), input: err.code === 'bad_payload' ? address.input : null};
        }
      },
    });
    if (!mail) form.querySelector('button[type="submit"]').disabled = true;
    return h('section', {class: 'panel', 'aria-labelledby': 'address-title', 'data-testid': 'address-panel'},
      h('h2', {id: 'address-title'}, t('noticeprefs.address.yours')),
      mail ? null : h('p', {class: 'notice', 'data-testid': 'no-mail'}, t('noticeprefs.address.no_mail')),
      h('dl', {class: 'account-facts'},
        h('dt', {}, t('noticeprefs.address.confirmed')),
        h('dd', {'data-testid': 'notices-email'}, email || h('span', {class: 'muted'}, t('noticeprefs.address.none'))),
        pending ? [h('dt', {}, t('noticeprefs.address.waiting')), h('dd', {'data-testid': 'notices-pending'}, pending,
          h('span', {class: 'muted'}, ' ', t('noticeprefs.address.follow_link')))] : null),
      form,
      email || pending ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'remove-email', onClick: () => this.removeEmail()},
        t('noticeprefs.address.remove')) : null);
  }

  async removeEmail() {
    try {
      await this.app.conn.request('account.remove_email');
      this.data = {...this.data, email: null, pending_email: null};
      this.render();
      this.say(t('noticeprefs.address.removed'));
    } catch (err) {
      this.fail(err);
    }
  }

  // --- what is told, and how ----------------------------------------------------------------

  kindsPanel() {
    const shown = preferencesShown(this.data.preferences);
    const boxes = {};
    const check = (id, label, checked, testid) => {
      const input = h('input', {type: 'checkbox', id, checked, 'data-testid': testid});
      return {input, node: h('span', {class: 'check'}, input, h('label', {for: id}, label))};
    };
    const fieldsets = NOTICE_KINDS.map(([kind, label]) => {
      const mail = check(`pref-${kind}-mail`, t('noticeprefs.kinds.mail'), shown[kind].mail, `pref-${kind}-mail`);
      const push = check(`pref-${kind}-push`, t('noticeprefs.kinds.push'), shown[kind].push, `pref-${kind}-push`);
      boxes[kind] = {mail: mail.input, push: push.input};
      return h('fieldset', {class: 'notice-kind'}, h('legend', {}, t(label)), mail.node, push.node);
    });
    const digest = check('pref-digest', t('noticeprefs.kinds.digest'), shown.digest, 'pref-digest');
    // Each unfinished game may have channels of its own, for its turns and its end.
    const own = (this.data.preferences && this.data.preferences.games) || {};
    const menus = {};
    const games = (this.games || []).map(({table}) => {
      const id = `pref-game-${table.id}`;
      menus[table.id] = h('select', {id, 'data-testid': id},
        GAME_CHOICES.map(([value, label]) => h('option', {value, selected: value === choiceOfChannels(own[table.id])}, t(label))));
      return h('p', {class: 'notice-game'}, h('label', {for: id}, tableName(table)), ' ', menus[table.id]);
    });
    const gamesSet = games.length ? h('fieldset', {class: 'notice-kind', 'data-testid': 'pref-games'},
      h('legend', {}, t('noticeprefs.kinds.games')), ...games) : null;
    const form = accountForm({
      testid: 'preferences', submitText: t('noticeprefs.kinds.save'), busyText: t('noticeprefs.kinds.saving'),
      children: [...fieldsets, h('p', {class: 'alert-line'}, digest.node), gamesSet],
      action: async () => {
        const chosen = {digest: digest.input.checked, games: {}};
        for (const [table, menu] of Object.entries(menus)) chosen.games[table] = menu.value;
        for (const [kind] of NOTICE_KINDS) chosen[kind] = {mail: boxes[kind].mail.checked, push: boxes[kind].push.checked};
        const preferences = preferencesToSave(this.data.preferences, chosen);
        try {
          await this.app.conn.request('notices.set_preferences', {preferences});
        } catch (err) {
          return {text: noticeRefusal(err), temporary: isTemporary(err)};
        }
        this.data = {...this.data, preferences};
        this.say(t('noticeprefs.kinds.saved'));
        return null;
      },
    });
    form.classList.add('notice-preferences');
    return h('section', {class: 'panel', 'aria-labelledby': 'kinds-title', 'data-testid': 'kinds-panel'},
      h('h2', {id: 'kinds-title'}, t('noticeprefs.kinds.title')),
      h('p', {class: 'muted'}, t('noticeprefs.kinds.account_mail')),
      form);
  }

  // --- devices ------------------------------------------------------------------------------

  devicePanel() {
    let here;
    if (!this.data.push) {
      here = h('p', {class: 'muted', 'data-testid': 'no-push'}, t('noticeprefs.push.server_none'));
    } else if (!pushSupported()) {
      here = h('p', {class: 'muted', 'data-testid': 'no-push'}, t('noticeprefs.push.unsupported'));
    } else if (Notification.permission === 'denied') {
      here = h('p', {class: 'muted', 'data-testid': 'push-blocked'}, t('noticeprefs.push.blocked'));
    } else {
      here = h('button', {type: 'button', class: 'primary', 'data-testid': 'push-on', onClick: (event) => this.turnOnPush(event.currentTarget)},
        t('noticeprefs.push.turn_on'));
    }
    const rows = (this.devices || []).map((d) => h('li', {class: 'session-row', 'data-testid': `push-device-${d.id}`},
      h('div', {class: 'table-main'},
        h('strong', {}, d.device),
        h('div', {class: 'muted'},
          ...tParts('noticeprefs.device.added', {date: h('time', {datetime: new Date(d.created_at).toISOString()}, dateText(d.created_at))}))),
      h('div', {class: 'table-actions'},
        h('button', {
          type: 'button', class: 'secondary small', 'data-testid': `push-remove-${d.id}`,
          'aria-label': t('noticeprefs.device.remove_label', {device: d.device, date: dateText(d.created_at)}),
          onClick: () => this.removeDevice(d),
        }, t('noticeprefs.device.remove')))));
    return h('section', {class: 'panel', 'aria-labelledby': 'push-title', 'data-testid': 'push-panel'},
      h('h2', {id: 'push-title'}, t('noticeprefs.push.title')),
      here,
      h('h3', {}, t('noticeprefs.push.devices')),
      rows.length ? h('ul', {class: 'game-list', 'data-testid': 'push-devices'}, rows)
        : h('p', {class: 'muted', 'data-testid': 'push-devices-none'}, t('noticeprefs.push.devices_none')));
  }

  // The browser's permission, the server's key, the service worker's subscription, and the
  // server told of it. A subscription made with another key is replaced.
  async turnOnPush(button) {
    button.disabled = true;
    this.say(t('noticeprefs.push.asking'));
    try {
      if (await Notification.requestPermission() !== 'granted') {
        this.fail(new Error(t('noticeprefs.push.refused_permission')));
        button.disabled = false;
        return;
      }
      const {key} = await this.app.conn.request('push.key');
      const applicationServerKey = base64UrlToBytes(key);
      const registration = await navigator.serviceWorker.ready;
      let subscription = await registration.pushManager.getSubscription();
      if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      if (!subscription) subscription = await registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey});
      await this.app.conn.request('push.subscribe', subscribePayload(subscription.toJSON(), deviceName()));
      const {devices} = await this.app.conn.request('push.devices');
      this.devices = devices;
      this.render();
      this.say(t('noticeprefs.push.on'));
    } catch (err) {
      button.disabled = false;
      // The browser's own errors are in its words, or a programmer's: the console keeps them.
      if (!err.code) console.warn('push subscription failed', err);
      this.fail(err.code ? err : new Error(t('noticeprefs.push.subscribe_failed')));
    }
  }

  async removeDevice(device) {
    try {
      await this.app.conn.request('push.remove', {id: device.id});
      this.devices = this.devices.filter((d) => d.id !== device.id);
      this.render();
      this.say(t('noticeprefs.device.removed', {device: device.device}));
    } catch (err) {
      this.fail(err);
    }
  }
}
