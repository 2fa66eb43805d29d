// The welcome screen's parts: the name that makes a guest, and what the screen says while
// the server is out of reach, when neither that form nor signing in can work.

import {h} from './dom.js';
import {refusalText} from './connection.js';
import {nameBytes, saveIdentity} from './identity.js';
import {signInForm} from './account.js';

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
      error.textContent = 'That name is too long (at most 32 bytes).';
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
  h('label', {for: 'welcome-name'}, 'Your name'),
  input,
  error,
  h('button', {type: 'submit', class: 'primary big', 'data-testid': 'name-submit'}, 'Enter'));
}

const OFFLINE = 'You are offline. El Grande is played on its server, so you can enter once this device is back online: the page reconnects by itself.';
const UNREACHABLE = 'The server cannot be reached right now. The page keeps trying by itself, and you can enter as soon as it answers.';

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
    notice.textContent = !down ? '' : navigator.onLine ? UNREACHABLE : OFFLINE;
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
      h('h2', {class: 'welcome-heading'}, 'Sign in to your account'),
      signInForm(app, {prefix: 'welcome-sign-in', username}),
      h('p', {class: 'welcome-switch'}, 'New here? ',
        h('button', {type: 'button', class: 'link-button', 'data-testid': 'new-player', onClick: () => again(false)}, 'Pick a name and play as a guest')),
    ];
  } else {
    body = [nameForm(app), h('p', {class: 'welcome-switch'}, 'Played here before? ',
      h('button', {type: 'button', class: 'link-button', 'data-testid': 'have-account', onClick: () => again(true)}, 'I have an account'))];
  }
  const panel = h('div', {class: 'welcome panel', 'data-testid': 'welcome', 'data-mode': signIn ? 'sign-in' : 'name'},
    h('h1', {class: 'welcome-title'}, 'El Grande'),
    h('p', {class: 'welcome-sub'}, 'Power, intrigue and caballeros in 15th-century Spain. Play with friends or bots, right here in the browser.'),
    notice,
    body);
  panel.insertBefore(connectionNotice(app.conn, panel), panel.querySelector('.welcome-sub').nextSibling);
  return panel;
}
