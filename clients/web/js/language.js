// Which language the page speaks, and the picker in the top bar that changes it from every
// screen. The choice is this device's (settings) and, for a signed-in player, the account's,
// so every device and every mail follows it (docs/translating.md).

import {h} from './dom.js';
import {LANGUAGES, chooseLanguage, language, onLanguage, t, useLanguage} from './i18n.js';
import {changeSettings, loadSettings, onSettings} from './settings.js';

// Before the first screen: this device's choice, else the browser's preferred languages.
export function startLanguage() {
  return useLanguage(chooseLanguage({chosen: loadSettings().language, preferred: navigator.languages || []}));
}

// The words of index.html: each element with data-i18n gets its text, data-i18n-label its
// aria-label.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}

// A signed-in player's account names a language: speak it here too, and remember it.
export async function followAccount(account) {
  const code = account && account.language;
  if (!code || !(code in LANGUAGES) || code === language()) return false;
  await useLanguage(code);
  changeSettings({language: code});
  return true;
}

// The page's words, the picker in the top bar, and every word again on a change (here, in
// another tab, or by the account). A signed-in player's account keeps a choice made here.
export function installLanguage(app) {
  translatePage();
  document.getElementById('language').append(languagePicker((code) => {
    if (app.store.account) app.conn.request('account.set_language', {language: code}).catch(() => {});
  }));
  onLanguage((code) => {
    translatePage();
    app.connectionLabel.textContent = t(`shell.connection.${app.conn.state}`);
    const picker = document.querySelector('.language-picker');
    picker.value = code;
    picker.setAttribute('aria-label', t('language.choose'));
    app.renderHeader();
    app.refreshTurns();
    // Screens keep what they show while it stays the same: this time every one is made anew.
    if (document.querySelector('[data-testid=welcome]')) {
      app.showWelcome(app.welcomeOptions);
      return;
    }
    if (app.screen && app.screen.destroy) app.screen.destroy();
    app.screen = null;
    if (app.store.me) app.route();
  });
  // The account's language chosen on another device: this one follows.
  app.conn.on('account.updated', ({account}) => {
    if (!app.store.account) return;
    app.store.account = {...app.store.account, ...account};
    followAccount(app.store.account);
  });
  onSettings((settings) => {
    if (settings.language && settings.language !== language()) useLanguage(settings.language);
  });
}

// The picker: a select of the languages by their own names; `onChosen` gets the new one.
export function languagePicker(onChosen) {
  const select = h('select', {class: 'language-picker', 'aria-label': t('language.choose'), 'data-testid': 'language',
    onChange: async () => {
      const code = select.value;
      await useLanguage(code);
      changeSettings({language: code});
      onChosen(code);
    }},
  Object.entries(LANGUAGES).map(([code, name]) => h('option', {value: code, lang: code, selected: code === language()}, name)));
  return select;
}
