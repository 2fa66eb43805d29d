// Accounts (docs/accounts.md): the sign-in and sign-up forms (with "forgot your password?"),
// the account page (#/account) with the devices signed in and the password, and refusals in
// words. The server stays the
// judge of usernames and passwords; the checks here only spare a round trip.

import {h, replaceKeepingFocus} from './dom.js';
import {isTemporary, refusalText} from './connection.js';
import {dateText, waitText} from './time.js';
import {AuditLog, bannedText} from './moderation.js';
import {BlockedPlayers} from './blocks.js';
import {DeviceSettings} from './alerts.js';
import {addressProblem, forgotSentText, noticeRefusal} from './noticewords.js';
import {hasKey, language, t, tParts} from './i18n.js';

const USERNAME = /^[A-Za-z0-9_-]*$/;

const bytes = (text) => new TextEncoder().encode(text).length;

// A role's name ("Moderator"), from its code; an unknown code as it is.
export function roleText(role) {
  const key = `account.role.${role}`;
  return hasKey(key) ? t(key) : String(role);
}

function usernameProblem(username) {
  if (!username) return t('account.username.empty');
  if (!USERNAME.test(username)) return t('account.username.letters');
  if (username.length < 3 || username.length > 20) return t('account.username.length', {min: 3, max: 20});
  return null;
}

function passwordProblem(password) {
  if (bytes(password) < 8) return t('account.password.too_short', {min: 8});
  if (bytes(password) > 256) return t('account.password.too_long', {max: 256});
  return null;
}

// How a session is listed ("Firefox on Linux"), in the language of the day it was made.
// Built from fixed words only, and the browser alone past 64 bytes, so it always fits the
// server's rule for devices: at most 64 bytes, no control characters.
const BROWSERS = [
  [/Edg(e|A|iOS)?\//, 'Edge'], [/OPR\/|Opera/, 'Opera'], [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'], [/HeadlessChrome\//, 'Headless Chrome'], [/Chromium\//, 'Chromium'],
  [/Chrome\/|CriOS\//, 'Chrome'], [/Version\/[\d.]+.*Safari\//, 'Safari'],
];
const SYSTEMS = [
  [/Android/, 'Android'], [/iPhone|iPad|iPod/, 'iOS'], [/CrOS/, 'ChromeOS'], [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'macOS'], [/Linux/, 'Linux'],
];

export function deviceName(userAgent = navigator.userAgent) {
  const ua = String(userAgent || '');
  const browser = (BROWSERS.find(([pattern]) => pattern.test(ua)) || [null, t('account.device.any_browser')])[1];
  const system = (SYSTEMS.find(([pattern]) => pattern.test(ua)) || [null, null])[1];
  const both = system ? t('account.device.browser_on_system', {browser, system}) : browser;
  return bytes(both) <= 64 ? both : browser.slice(0, 32);
}

// A refusal of a sign-in, sign-up or password change, for people.
function accountRefusal(err, wrongPassword = t('account.refusal.bad_credentials')) {
  switch (err && err.code) {
    case 'bad_credentials':
      return wrongPassword;
    case 'rate_limited':
      if (!Number.isFinite(err.retryAfterMs)) return refusalText(err);
      return t('account.refusal.rate_limited', {wait: waitText(err.retryAfterMs)});
    case 'banned':
      return bannedText({until: err.until, why: err.moderatorReason});
    case 'name_taken':
      return t('account.refusal.name_taken');
    default:
      return refusalText(err);
  }
}

// A labelled input with an optional hint under it.
export function field({id, label, hint, ...attrs}) {
  const hintId = hint ? `${id}-hint` : null;
  const input = h('input', {id, 'aria-describedby': hintId, ...attrs});
  return {input, nodes: [h('label', {for: id}, label), input, hint ? h('span', {class: 'note muted', id: hintId}, hint) : null]};
}

// A form whose submit runs `action`, which returns null when done or what went wrong:
// {text, temporary?, input?} (the input to mark and focus). One submit at a time.
export function accountForm({testid, submitText, busyText, children, action}) {
  const error = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': `${testid}-error`});
  const submit = h('button', {type: 'submit', class: 'primary', 'data-testid': `${testid}-submit`}, submitText);
  let busy = false;
  const form = h('form', {class: 'account-form', novalidate: true, 'data-testid': testid, onSubmit: async (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    error.hidden = true;
    for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
    form.setAttribute('aria-busy', 'true');
    submit.textContent = busyText;
    let problem;
    try {
      problem = await action();
    } finally {
      busy = false;
      form.removeAttribute('aria-busy');
      submit.textContent = submitText;
    }
    if (!problem) return;
    error.textContent = problem.text;
    error.classList.toggle('temporary', Boolean(problem.temporary));
    error.hidden = false;
    if (problem.input) {
      problem.input.setAttribute('aria-invalid', 'true');
      problem.input.focus();
      if (problem.input.type === 'password') problem.input.select();
    }
  }},
  children, error, submit);
  return form;
}

export const refused = (err, wrongPassword) => ({text: accountRefusal(err, wrongPassword), temporary: isTemporary(err)});

// Sign in with a username and a password: on the welcome screen (no guest is made) and on a
// guest's account page (the connection then speaks for the account).
export function signInForm(app, {prefix, username = ''}) {
  const user = field({
    id: `${prefix}-username`, label: t('account.username'), type: 'text', value: username, maxlength: 20,
    autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', required: true, 'data-testid': 'sign-in-username',
  });
  const password = field({
    id: `${prefix}-password`, label: t('account.password'), type: 'password', autocomplete: 'current-password', required: true,
    'data-testid': 'sign-in-password',
  });
  return [accountForm({
    testid: 'sign-in', submitText: t('account.sign_in.submit'), busyText: t('account.sign_in.busy'),
    children: [...user.nodes, ...password.nodes],
    action: async () => {
      const name = user.input.value.trim();
      if (!name) return {text: t('account.sign_in.no_username'), input: user.input};
      if (!password.input.value) return {text: t('account.sign_in.no_password'), input: password.input};
      try {
        await app.signIn(name, password.input.value);
        return null;
      } catch (err) {
        return {...refused(err), input: err.code === 'bad_credentials' ? password.input : null};
      }
    },
  }), forgotPassword(app, prefix)];
}

// "Forgot your password?": a link to the account's verified address. The answer is the same
// whatever the address (docs/notifications.md, Password reset), and so is what it says.
function forgotPassword(app, prefix) {
  const address = field({
    id: `${prefix}-forgot-address`, label: t('account.forgot.address'), type: 'email', maxlength: 254,
    autocomplete: 'email', autocapitalize: 'none', spellcheck: 'false', required: true, 'data-testid': 'forgot-address',
  });
  const done = h('p', {class: 'ok', role: 'status', 'data-testid': 'forgot-done'});
  const form = accountForm({
    testid: 'forgot', submitText: t('account.forgot.submit'), busyText: t('account.forgot.busy'),
    children: [h('p', {class: 'muted note'}, t('account.forgot.explain')), ...address.nodes],
    action: async () => {
      done.textContent = '';
      const typed = address.input.value.trim();
      const wrong = addressProblem(typed);
      if (wrong) return {text: wrong, input: address.input};
      try {
        await app.conn.request('account.forgot_password', {address: typed});
      } catch (err) {
        return {text: noticeRefusal(err), temporary: isTemporary(err)};
      }
      done.textContent = forgotSentText();
      return null;
    },
  });
  return h('details', {class: 'forgot-password', 'data-testid': 'forgot-password'},
    h('summary', {'data-testid': 'forgot-open'}, t('account.forgot.open')), form, done);
}

// A new password twice, so that a typing slip does not lock its owner out.
export function newPasswordFields(prefix, testid, label) {
  const password = field({
    id: `${prefix}-password`, label, type: 'password', autocomplete: 'new-password', required: true,
    hint: t('account.new_password.hint', {min: 8}), 'data-testid': `${testid}-password`,
  });
  const repeat = field({
    id: `${prefix}-repeat`, label: t('account.new_password.repeat'), type: 'password', autocomplete: 'new-password', required: true,
    'data-testid': `${testid}-repeat`,
  });
  const problem = () => {
    const wrong = passwordProblem(password.input.value);
    if (wrong) return {text: wrong, input: password.input};
    if (repeat.input.value !== password.input.value) return {text: t('account.new_password.differ'), input: repeat.input};
    return null;
  };
  return {password, repeat, problem, nodes: [...password.nodes, ...repeat.nodes]};
}

function signUpForm(app) {
  const user = field({
    id: 'sign-up-username', label: t('account.username'), type: 'text', maxlength: 20, autocomplete: 'username',
    autocapitalize: 'none', spellcheck: 'false', required: true, 'data-testid': 'sign-up-username',
    hint: t('account.sign_up.username_hint', {min: 3, max: 20}),
  });
  const secret = newPasswordFields('sign-up', 'sign-up', t('account.password'));
  return accountForm({
    testid: 'sign-up', submitText: t('account.sign_up.submit'), busyText: t('account.sign_up.busy'),
    children: [...user.nodes, ...secret.nodes],
    action: async () => {
      const username = user.input.value.trim();
      const wrongName = usernameProblem(username);
      if (wrongName) return {text: wrongName, input: user.input};
      const wrongPassword = secret.problem();
      if (wrongPassword) return wrongPassword;
      try {
        await app.signUp(username, secret.password.input.value);
        return null;
      } catch (err) {
        return {...refused(err), input: err.code === 'name_taken' ? user.input : null};
      }
    },
  });
}

// The account page: a guest may make an account or sign in to one; an account sees its
// devices and may sign them out, and change its password. Both see whom they block.
export class AccountScreen {
  constructor(app) {
    this.app = app;
    this.kind = app.store.account ? 'account' : 'guest';
    this.root = h('div', {class: 'account-page', 'data-testid': 'account-page', 'data-kind': this.kind});
    this.sessions = null;
    this.sessionsError = null;
    this.build();
    if (this.kind === 'account') this.loadSessions();
  }

  // The page's parts, in the language of the day: built again when it changes (update).
  build() {
    const {app} = this;
    this.language = language();
    this.shown = null;
    this.audit = null;  // the old one went with the old parts
    this.summary = h('section', {class: 'panel account-summary', 'aria-labelledby': 'account-title'});
    if (this.kind === 'guest') {
      this.root.replaceChildren(this.summary,
        h('section', {class: 'panel', 'aria-labelledby': 'sign-up-title'},
          h('h2', {id: 'sign-up-title'}, t('account.sign_up.title')),
          h('p', {}, t('account.sign_up.explain')),
          signUpForm(app)),
        h('section', {class: 'panel', 'aria-labelledby': 'sign-in-title'},
          h('h2', {id: 'sign-in-title'}, t('account.sign_in.title')),
          h('p', {class: 'muted'}, t('account.sign_in.guest_left_behind')),
          signInForm(app, {prefix: 'account-sign-in'})));
    } else {
      this.sessionsBox = h('div', {class: 'sessions-box', 'data-testid': 'sessions-box', tabindex: -1});
      this.sessionsStatus = h('p', {class: 'ok', role: 'status', 'data-testid': 'sessions-status'});
      this.root.replaceChildren(this.summary,
        h('section', {class: 'panel sessions', 'aria-labelledby': 'sessions-title'},
          h('h2', {id: 'sessions-title'}, t('account.sessions.title')),
          this.sessionsStatus,
          this.sessionsBox),
        h('section', {class: 'panel', 'aria-labelledby': 'password-title'},
          h('h2', {id: 'password-title'}, t('account.change_password.title')),
          this.passwordForm()),
        h('section', {class: 'panel', 'aria-labelledby': 'delete-title'},
          h('h2', {id: 'delete-title'}, t('account.delete.title')),
          this.deleteForm()));
      this.renderSessions();
    }
    this.device = new DeviceSettings();
    this.blocked = new BlockedPlayers(app);
    this.root.append(this.device.root, this.blocked.root);
    this.update();
  }

  destroy() {}

  // The part that follows the identity (a rename from the top bar).
  update() {
    const {me, account} = this.app.store;
    if (!me) return;
    if (this.language !== language()) {
      this.build();
      return;
    }
    this.blocked.render();
    // Table pushes call this often: redraw only what changed, so no click lands on a button
    // being replaced.
    const shown = JSON.stringify([me.name, account, this.signOutError]);
    if (shown === this.shown) return;
    this.shown = shown;
    if (account && (account.role === 'admin') !== Boolean(this.audit)) {
      // Admins read the audit log; a role taken away takes it along.
      if (this.audit) this.audit.root.remove();
      this.audit = account.role === 'admin' ? new AuditLog(this.app) : null;
      if (this.audit) this.root.append(this.audit.root);
    }
    if (this.kind === 'guest') {
      replaceKeepingFocus(this.summary,
        h('h1', {id: 'account-title'}, t('account.title')),
        h('p', {'data-testid': 'account-guest'}, ...tParts('account.guest', {name: h('strong', {}, me.name)})));
      return;
    }
    replaceKeepingFocus(this.summary,
      h('h1', {id: 'account-title'}, t('account.title')),
      h('dl', {class: 'account-facts'},
        h('dt', {}, t('account.username')), h('dd', {}, h('strong', {'data-testid': 'account-username'}, account.username)),
        h('dt', {}, t('account.role')), h('dd', {'data-testid': 'account-role', 'data-role': account.role}, roleText(account.role)),
        h('dt', {}, t('account.table_name')), h('dd', {}, me.name, h('span', {class: 'muted'}, ' ', t('account.table_name.rename')))),
      h('p', {class: 'muted'}, ...tParts('account.notices', {
        link: h('a', {href: '#/notices', 'data-testid': 'notices-link'}, t('account.notices.link')),
      })),
      h('p', {class: 'muted', id: 'sign-out-note'}, t('account.sign_out.note')),
      h('button', {type: 'button', class: 'secondary', 'aria-describedby': 'sign-out-note', 'data-testid': 'sign-out', onClick: () => this.signOut()}, t('account.sign_out')),
      this.signOutError ? h('p', {class: ['error', this.signOutError.temporary && 'temporary'], role: 'alert', 'data-testid': 'sign-out-error'}, this.signOutError.text) : null);
  }

  async signOut() {
    this.signOutError = null;
    const current = (this.sessions || []).find((s) => s.current);
    try {
      await this.app.signOut(this.app.store.account.session ?? (current && current.id));
    } catch (err) {
      this.signOutError = refused(err);
      this.update();
    }
  }

  async loadSessions() {
    try {
      const {sessions} = await this.app.conn.request('account.sessions');
      this.sessions = sessions;
      this.sessionsError = null;
    } catch (err) {
      this.sessionsError = refused(err);
    }
    this.renderSessions();
  }

  // Ends sessions ({session: id} or {which: "others"}); their devices are closed at once.
  async endSessions(payload, done) {
    this.sessionsStatus.textContent = '';
    this.sessionsError = null;
    try {
      await this.app.conn.request('account.end_sessions', payload);
      this.sessionsStatus.textContent = done;
      this.forgetSessions((s) => (payload.session ? s.id === payload.session : !s.current));
    } catch (err) {
      this.sessionsError = refused(err);
      this.renderSessions();
    }
  }

  // The answer says which sessions are over; the server may still list them for a moment,
  // so the list is not asked again.
  forgetSessions(ended) {
    if (this.sessions) this.sessions = this.sessions.filter((s) => !ended(s));
    this.renderSessions();
  }

  renderSessions() {
    const rows = (this.sessions || []).map((s) => h('li', {
      class: ['session-row', s.current && 'current'], 'data-testid': `session-${s.id}`, 'data-current': String(s.current),
    },
    h('div', {class: 'table-main'},
      h('div', {class: 'table-title'},
        h('strong', {'data-testid': `session-device-${s.id}`}, s.device),
        s.current ? h('span', {class: 'status-badge turn', 'data-testid': 'session-current'}, t('account.sessions.this_device')) : null),
      h('div', {class: 'muted'}, ...tParts('account.sessions.times', {
        created: h('time', {datetime: new Date(s.created_at).toISOString()}, dateText(s.created_at)),
        seen: h('time', {datetime: new Date(s.last_seen).toISOString()}, dateText(s.last_seen)),
      }))),
    s.current ? null : h('div', {class: 'table-actions'},
      h('button', {
        type: 'button', class: 'secondary small', 'data-testid': `end-session-${s.id}`,
        'aria-label': t('account.sessions.end_label', {device: s.device, created: dateText(s.created_at)}),
        onClick: () => this.endSessions({session: s.id}, t('account.sessions.ended', {device: s.device})),
      }, t('account.sign_out')))));
    const others = (this.sessions || []).filter((s) => !s.current).length;
    let body;
    if (this.sessions === null && !this.sessionsError) body = h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), t('account.loading'));
    else body = h('ul', {class: 'game-list', 'data-testid': 'sessions'}, rows);
    replaceKeepingFocus(this.sessionsBox,
      this.sessionsError ? h('p', {class: ['error', this.sessionsError.temporary && 'temporary'], role: 'alert', 'data-testid': 'sessions-error'}, this.sessionsError.text) : null,
      body,
      h('div', {class: 'actions'},
        h('button', {
          type: 'button', class: 'secondary', 'data-testid': 'end-other-sessions', disabled: others === 0,
          onClick: () => this.endSessions({which: 'others'}, t('account.sessions.others_ended', {n: others})),
        }, t('account.sessions.end_others')),
        others === 0 && this.sessions ? h('span', {class: 'muted'}, t('account.sessions.no_others')) : null));
  }

  passwordForm() {
    const current = field({
      id: 'password-current', label: t('account.change_password.current'), type: 'password', autocomplete: 'current-password', required: true,
      'data-testid': 'password-current',
    });
    const secret = newPasswordFields('password-new', 'password-new', t('account.change_password.new'));
    const done = h('p', {class: 'ok', role: 'status', 'data-testid': 'password-done'});
    // For password managers: which account the password belongs to.
    const username = h('input', {type: 'text', autocomplete: 'username', value: this.app.store.account.username, hidden: true, readonly: true, tabindex: -1, 'aria-hidden': 'true'});
    const form = accountForm({
      testid: 'password', submitText: t('account.change_password.title'), busyText: t('account.change_password.busy'),
      children: [username, ...current.nodes, ...secret.nodes],
      action: async () => {
        done.textContent = '';
        if (!current.input.value) return {text: t('account.change_password.empty'), input: current.input};
        const wrong = secret.problem();
        if (wrong) return wrong;
        try {
          await this.app.conn.request('account.change_password', {password: current.input.value, new_password: secret.password.input.value});
        } catch (err) {
          return {...refused(err, t('account.change_password.wrong')), input: err.code === 'bad_credentials' ? current.input : null};
        }
        for (const input of [current.input, secret.password.input, secret.repeat.input]) input.value = '';
        done.textContent = t('account.change_password.done');
        this.forgetSessions((s) => !s.current);
        return null;
      },
    });
    return [form, done];
  }

  // The account goes with its address and devices; its games stay under "deleted player".
  // The server then closes every connection of the account, this one too.
  deleteForm() {
    const current = field({
      id: 'delete-password', label: t('account.delete.password'), type: 'password', autocomplete: 'current-password', required: true,
      'data-testid': 'delete-password',
    });
    const form = accountForm({
      testid: 'delete-account', submitText: t('account.delete.submit'), busyText: t('account.delete.busy'),
      children: [
        h('p', {class: 'muted'}, t('account.delete.explain')),
        ...current.nodes],
      action: async () => {
        if (!current.input.value) return {text: t('account.delete.empty'), input: current.input};
        try {
          await this.app.conn.request('account.delete', {password: current.input.value});
        } catch (err) {
          return {...refused(err, t('account.delete.wrong')), input: err.code === 'bad_credentials' ? current.input : null};
        }
        // The server closes this connection next (4001): it is expected, and said here.
        this.app.deleting = true;
        this.app.signedOut({message: t('account.delete.done'), offerSignIn: false});
        return null;
      },
    });
    return [form];
  }
}
