// The screens of the links in mails (docs/notifications.md): #/verify-email/TOKEN confirms an
// address, #/reset-password/TOKEN sets a new password. Both work before any hello, in a
// browser that has never been here: the requests need no identity, and the token never
// leaves the browser but in them (it is after the #).

import {h, replaceKeepingFocus} from './dom.js';
import {isTemporary} from './connection.js';
import {accountForm, newPasswordFields, signInForm} from './account.js';
import {BAD_TOKEN_TEXT, noticeRefusal, verifiedText} from './noticewords.js';

// Shows a mailed link's screen, keeping the one that shows already for the same link (a
// reconnection routes again).
export function showMailedLink(app, route) {
  const now = app.screen;
  if (now && now.token === route.token && now.kind === route.screen && app.main.contains(now.root)) return;
  const screen = route.screen === 'verify-email' ? new VerifyEmailScreen(app, route.token) : new ResetPasswordScreen(app, route.token);
  app.showScreen(screen, screen.title);
}

// On to the client: the lobby, or the welcome screen for a browser that is nobody yet.
function onwards(app) {
  history.replaceState(null, '', '#/');
  if (app.store.me) app.route();
  else app.showWelcome();
}

function onwardsButton(app, text = 'Go to the lobby') {
  return h('button', {type: 'button', class: 'secondary', 'data-testid': 'link-onwards', onClick: () => onwards(app)}, text);
}

class VerifyEmailScreen {
  constructor(app, token) {
    this.app = app;
    this.kind = 'verify-email';
    this.token = token;
    this.title = 'Confirm your address';
    this.sent = false;
    this.status = h('div', {class: 'link-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'verify-status'},
      h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), 'Confirming your address…'));
    this.root = h('section', {class: 'panel mailed-link', 'aria-labelledby': 'verify-title', 'data-testid': 'verify-screen'},
      h('h1', {id: 'verify-title'}, 'Your e-mail address'),
      this.status);
    this.onOpen();
  }

  destroy() {}

  // account.verify_email needs no hello: it goes as soon as there is a connection, once.
  async onOpen() {
    if (this.sent || this.app.conn.state !== 'open') return;
    this.sent = true;
    try {
      const {address} = await this.app.conn.request('account.verify_email', {token: this.token});
      this.show('ok', verifiedText(address), 'verify-done',
        this.app.store.account ? h('a', {href: '#/notices', class: 'button primary', 'data-testid': 'link-notices'}, 'Your notices') : null);
    } catch (err) {
      if (err.code === 'disconnected') {
        this.sent = false;  // asked again on the next connection
        this.show('muted', 'The connection to the server was lost; trying again…', 'verify-waiting');
      } else {
        this.show(['error', isTemporary(err) && 'temporary'], noticeRefusal(err), 'verify-error');
      }
    }
  }

  show(kind, text, testid, ...more) {
    replaceKeepingFocus(this.status, h('p', {class: kind, 'data-testid': testid}, text), h('div', {class: 'actions'}, ...more, onwardsButton(this.app)));
  }
}

class ResetPasswordScreen {
  constructor(app, token) {
    this.app = app;
    this.kind = 'reset-password';
    this.token = token;
    this.title = 'A new password';
    this.status = h('div', {class: 'link-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'reset-status'});
    this.body = h('div', {}, h('p', {}, 'Choose a new password for your account. Every device signed in to it is then signed out.'), this.form());
    this.root = h('section', {class: 'panel mailed-link', 'aria-labelledby': 'reset-title', 'data-testid': 'reset-screen'},
      h('h1', {id: 'reset-title'}, 'A new password'),
      this.body, this.status);
  }

  destroy() {}

  form() {
    const secret = newPasswordFields('reset', 'reset', 'New password');
    return accountForm({
      testid: 'reset', submitText: 'Set the password', busyText: 'Setting…',
      children: secret.nodes,
      action: async () => {
        const wrong = secret.problem();
        if (wrong) return wrong;
        const password = secret.password.input.value;
        let username;
        try {
          ({username} = await this.app.conn.request('account.reset_password', {token: this.token, new_password: password}));
        } catch (err) {
          if (err.code === 'bad_token') this.badToken();
          return {text: noticeRefusal(err), temporary: isTemporary(err)};
        }
        await this.signIn(username, password);
        return null;
      },
    });
  }

  // The link is spent: the form has nothing left to do.
  badToken() {
    replaceKeepingFocus(this.body, h('p', {class: 'error', 'data-testid': 'reset-bad-token'}, BAD_TOKEN_TEXT),
      h('p', {}, 'Ask for a new link under “Forgot your password?” on the sign-in form.'),
      h('div', {class: 'actions'}, onwardsButton(this.app)));
  }

  // Signs in with the new password, as the sign-in form does; should that fail (this very
  // connection was one of the account's, and is closing), the person signs in by hand.
  async signIn(username, password) {
    replaceKeepingFocus(this.body);
    this.status.textContent = `Your new password is set. Signing you in as ${username}…`;
    history.replaceState(null, '', '#/');
    try {
      await this.app.signIn(username, password);
    } catch {
      replaceKeepingFocus(this.body,
        h('p', {class: 'ok', 'data-testid': 'reset-done'}, `Your new password is set: sign in as ${username} with it.`),
        signInForm(this.app, {prefix: 'reset-sign-in', username}));
      this.status.textContent = '';
    }
  }
}
