// The welcome screen's parts: the name that makes a guest, and what the screen says while
// the server is out of reach, when neither that form nor signing in can work.

import {h} from './dom.js';
import {refusalText} from './connection.js';
import {nameBytes, saveIdentity} from './identity.js';
import {signInForm} from './account.js';
import {t} from './i18n.js';

export function nameForm(app) {
  const input = h('input', {
    type: 'text', id: 'welcome-name', required: true, maxlength: 32, autocomplete: 'nickname',
    value: app.identity.name || '', 'data-testid': 'name-input',
  });
  const error = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': 'name-error'});
  return h('form', {class: 'welcome-form', onSubmit: async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    if (nameBytes(name) > 32) {
      error.textContent = t('welcome.name.too_long', {max: 32});
      error.hidden = false;
      return;
    }
    app.identity = {...app.identity, name};
    saveIdentity(app.identity);
    try {
      await app.hello(app.identity.token ? {token: app.identity.token, name} : {name});
      await app.afterHello();
    } catch (err) {
      error.textContent = refusalText(err);
      error.hidden = false;
    }
  }},
  h('label', {for: 'welcome-name'}, t('welcome.name.label')),
  input,
  error,
  h('button', {type: 'submit', class: 'primary big', 'data-testid': 'name-submit'}, t('welcome.name.submit')));
}

// Offline (the browser says so) or the server out of reach (a connection failed after this
// screen showed, and none opened since), the welcome screen says so and its buttons that
// send wait; they come back by themselves. A connection the server closed on purpose (a
// sign-out, a ban) is followed by a new one at once, so it is no failure to show.
export function connectionNotice(conn, panel) {
  const notice = h('p', {class: 'notice alert', role: 'status', 'data-testid': 'welcome-offline', hidden: true});
  let failed = false;
  const follow = (state) => {
    if (!notice.isConnected && state !== undefined) {
      conn.off('state', follow);
      window.removeEventListener('online', follow);
      window.removeEventListener('offline', follow);
      return;
    }
    if (conn.state === 'closed') failed = true;
    if (conn.state === 'open') failed = false;
    const down = !navigator.onLine || failed;
    notice.hidden = !down;
    notice.textContent = !down ? '' : t(navigator.onLine ? 'welcome.unreachable' : 'welcome.offline');
    for (const button of panel.querySelectorAll('button[type=submit]')) button.disabled = down;
  };
  conn.on('state', follow);
  window.addEventListener('online', follow);
  window.addEventListener('offline', follow);
  queueMicrotask(follow);
  return notice;
}

// The whole welcome screen: a name makes a guest; "I have an account" signs in instead, so
// that no throwaway guest is made. `message` says why it shows (an alert or a status).
export function welcomePanel(app, {message = null, alert = false, signIn = false, username = ''} = {}) {
  const notice = message ? h('p', {class: ['notice', alert && 'alert'], role: alert ? 'alert' : 'status', 'data-testid': 'welcome-message'}, message) : null;
  const again = (mode) => app.showWelcome({message, alert, signIn: mode, username});
  let body;
  if (signIn) {
    body = [
      h('h2', {class: 'welcome-heading'}, t('welcome.sign_in.title')),
      signInForm(app, {prefix: 'welcome-sign-in', username}),
      h('p', {class: 'welcome-switch'}, t('welcome.sign_in.new_here'), ' ',
        h('button', {type: 'button', class: 'link-button', 'data-testid': 'new-player', onClick: () => again(false)}, t('welcome.sign_in.as_guest'))),
    ];
  } else {
    body = [nameForm(app), h('p', {class: 'welcome-switch'}, t('welcome.name.played_before'), ' ',
      h('button', {type: 'button', class: 'link-button', 'data-testid': 'have-account', onClick: () => again(true)}, t('welcome.name.have_account')))];
  }
  const panel = h('div', {class: 'welcome panel', 'data-testid': 'welcome', 'data-mode': signIn ? 'sign-in' : 'name'},
    h('h1', {class: 'welcome-title'}, 'El Grande'),
    h('p', {class: 'welcome-sub'}, t('welcome.tagline')),
    notice,
    body);
  panel.insertBefore(connectionNotice(app.conn, panel), panel.querySelector('.welcome-sub').nextSibling);
  return panel;
}
