// The screens of the links in mails (docs/notifications.md): #/verify-email/TOKEN confirms an
// address, #/reset-password/TOKEN sets a new password. Both work before any hello, in a
// browser that has never been here: the requests need no identity, and the token never
// leaves the browser but in them (it is after the #).

import {h, replaceKeepingFocus} from './dom.js';
import {isTemporary} from './connection.js';
import {accountForm, newPasswordFields, signInForm} from './account.js';
import {badTokenText, noticeRefusal, verifiedText} from './noticewords.js';
import {t} from './i18n.js';

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

function onwardsButton(app) {
  return h('button', {type: 'button', class: 'secondary', 'data-testid': 'link-onwards', onClick: () => onwards(app)}, t('mailedlinks.onwards'));
}

class VerifyEmailScreen {
  constructor(app, token) {
    this.app = app;
    this.kind = 'verify-email';
    this.token = token;
    this.title = t('mailedlinks.verify.title');
    this.sent = false;
    this.status = h('div', {class: 'link-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'verify-status'},
      h('p', {class: 'muted'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), t('mailedlinks.verify.busy')));
    this.root = h('section', {class: 'panel mailed-link', 'aria-labelledby': 'verify-title', 'data-testid': 'verify-screen'},
      h('h1', {id: 'verify-title'}, t('mailedlinks.verify.heading')),
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
        this.app.store.account ? h('a', {href: '#/notices', class: 'button primary', 'data-testid': 'link-notices'}, t('mailedlinks.verify.notices')) : null);
    } catch (err) {
      if (err.code === 'disconnected') {
        this.sent = false;  // asked again on the next connection
        this.show('muted', t('mailedlinks.verify.reconnecting'), 'verify-waiting');
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
    this.title = t('mailedlinks.reset.title');
    this.status = h('div', {class: 'link-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'reset-status'});
    this.body = h('div', {}, h('p', {}, t('mailedlinks.reset.intro')), this.form());
    this.root = h('section', {class: 'panel mailed-link', 'aria-labelledby': 'reset-title', 'data-testid': 'reset-screen'},
      h('h1', {id: 'reset-title'}, t('mailedlinks.reset.title')),
      this.body, this.status);
  }

  destroy() {}

  form() {
    const secret = newPasswordFields('reset', 'reset', t('mailedlinks.reset.new_password'));
    return accountForm({
      testid: 'reset', submitText: t('mailedlinks.reset.submit'), busyText: t('mailedlinks.reset.busy'),
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
    replaceKeepingFocus(this.body, h('p', {class: 'error', 'data-testid': 'reset-bad-token'}, badTokenText()),
      h('p', {}, t('mailedlinks.reset.ask_again')),
      h('div', {class: 'actions'}, onwardsButton(this.app)));
  }

  // Signs in with the new password, as the sign-in form does; should that fail (this very
  // connection was one of the account's, and is closing), the person signs in by hand.
  async signIn(username, password) {
    replaceKeepingFocus(this.body);
    this.status.textContent = t('mailedlinks.reset.signing_in', {username});
    history.replaceState(null, '', '#/');
    try {
      await this.app.signIn(username, password);
    } catch {
      replaceKeepingFocus(this.body,
        h('p', {class: 'ok', 'data-testid': 'reset-done'}, t('mailedlinks.reset.sign_in', {username})),
        signInForm(this.app, {prefix: 'reset-sign-in', username}));
      this.status.textContent = '';
    }
  }
}
