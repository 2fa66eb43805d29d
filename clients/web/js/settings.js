// What this device remembers of the player's choices: colours, the turn sound, notifications,
// the language (null: the browser's, language.js).
// Kept per browser, not per account, since each device has its own screen, speakers and
// notification permission. theme.js applies the colours before the first paint.

const KEY = 'elgrande.settings';
const DEFAULTS = {theme: 'system', sound: true, notify: false, language: null};
const THEMES = ['system', 'light', 'dark'];
// Guarded so that Node's tests may import the modules that import this one.
const darkSystem = globalThis.matchMedia ? matchMedia('(prefers-color-scheme: dark)') : {matches: false, addEventListener() {}};
const listeners = new Set();

export function loadSettings() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || '{}');
    const settings = {...DEFAULTS, ...stored};
    if (!THEMES.includes(settings.theme)) settings.theme = DEFAULTS.theme;
    if (typeof settings.language !== 'string') settings.language = null;
    return settings;
  } catch {
    return {...DEFAULTS};
  }
}

export function changeSettings(changes) {
  const settings = {...loadSettings(), ...changes};
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Storage full or refused: the choice holds for this page only.
  }
  applyTheme(settings);
  for (const listener of listeners) listener(settings);
  return settings;
}

// Called with the new settings on a change here or in another tab.
export function onSettings(listener) {
  listeners.add(listener);
}

export function applyTheme(settings = loadSettings()) {
  const theme = settings.theme === 'system' ? (darkSystem.matches ? 'dark' : 'light') : settings.theme;
  document.documentElement.dataset.theme = theme;
}

darkSystem.addEventListener('change', () => applyTheme());
globalThis.window?.addEventListener('storage', (event) => {
  if (event.key !== KEY) return;
  const settings = loadSettings();
  applyTheme(settings);
  for (const listener of listeners) listener(settings);
});
