// The top bar's identity: who this browser plays as (a guest, or an account with its role),
// and the form that renames the player.

import {h, replaceKeepingFocus} from './dom.js';
import {refusalText} from './connection.js';
import {roleText} from './account.js';
import {t, tParts} from './i18n.js';

export function renderIdentity(app) {
  const {me, account} = app.store;
  if (!me) {
    replaceKeepingFocus(app.header);
    return;
  }
  const show = h('span', {class: 'who'},
    ...tParts('topbar.playing_as', {name: h('strong', {'data-testid': 'my-name'}, me.name)}), ' ',
    h('button', {type: 'button', class: 'link-button', 'data-testid': 'rename', onClick: () => renderRename(app)}, t('topbar.rename')),
    account ? [' · ', h('a', {
      href: '#/account', class: 'account-link', 'data-testid': 'my-username', 'aria-label': t('topbar.account_label', {username: account.username}),
    }, account.username), account.role !== 'player' ? h('span', {class: 'role-tag', 'data-testid': 'my-role'}, roleText(account.role)) : null]
      : [' · ', h('span', {class: 'guest-tag', 'data-testid': 'my-guest'}, t('topbar.guest'))]);
  replaceKeepingFocus(app.header, show);
}

function renderRename(app) {
  const input = h('input', {type: 'text', maxlength: 32, value: app.store.me.name, 'aria-label': t('topbar.new_name'), 'data-testid': 'rename-input'});
  const form = h('form', {class: 'rename', onSubmit: async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      await app.hello({token: app.identity.token, name});
      app.refreshScreen(app.currentTable);
    } catch (err) {
      app.toast(refusalText(err, t('topbar.name_refused')));
      renderIdentity(app);
    }
  }},
  input,
  h('button', {type: 'submit', class: 'primary small', 'data-testid': 'rename-save'}, t('topbar.save')),
  h('button', {type: 'button', class: 'secondary small', onClick: () => renderIdentity(app)}, t('topbar.cancel')));
  replaceKeepingFocus(app.header, form);
  input.focus();
  input.select();
}
